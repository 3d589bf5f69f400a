package notesmcp.mcp.http;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The DNS-rebinding check: a request's {@code Host} must be one of the names the server is reached
 * by, and its {@code Origin}, when it has one, one of those names behind {@code http://} or {@code
 * https://}. The names are derived from the bound address and port (a loopback bind: {@code
 * 127.0.0.1:PORT}, {@code localhost:PORT} and {@code [::1]:PORT}; any other address: that address
 * and port) plus the {@code -allowed-host} entries, each {@code HOST} (a name reached on its
 * scheme's default port, as behind a reverse proxy) or {@code HOST:PORT}. Anything else fails
 * closed: another port, another spelling of an address ({@code [0:0:0:0:0:0:0:1]}), an empty {@code
 * Host}, an {@code Origin} of {@code null}. Host names compare without regard to case. Immutable;
 * any thread.
 */
final class HostCheck {
  private final Set<String> hosts = new LinkedHashSet<>();
  private final Set<String> origins = new LinkedHashSet<>();

  /**
   * @param bindHost the address the server is bound to, as given ({@code 127.0.0.1}, {@code ::1},
   *     {@code localhost}, or another)
   * @param port the port it is bound to (the real one, after port 0 was resolved)
   * @param allowed the {@code -allowed-host} entries, {@code HOST} or {@code HOST:PORT}
   */
  HostCheck(String bindHost, int port, List<String> allowed) {
    if (isLoopback(bindHost)) {
      add("127.0.0.1:" + port);
      add("localhost:" + port);
      add("[::1]:" + port);
    } else {
      add(hostPart(bindHost) + ":" + port);
    }
    for (String entry : allowed) {
      add(entry);
    }
  }

  private void add(String authority) {
    String lower = authority.toLowerCase(Locale.ROOT);
    hosts.add(lower);
    origins.add("http://" + lower);
    origins.add("https://" + lower);
  }

  /** An address as it stands in a Host header: an IPv6 literal in brackets. */
  static String hostPart(String host) {
    return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
  }

  static boolean isLoopback(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    return h.equals("localhost")
        || h.equals("::1")
        || h.equals("[::1]")
        || h.equals("0:0:0:0:0:0:0:1")
        || h.matches("127\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}");
  }

  /**
   * Why the request may not be served, or null: {@code host} is the Host header (null when absent),
   * {@code origin} the Origin header (null when absent: a request not made by a browser, judged by
   * its Host alone).
   */
  String problem(String host, String origin) {
    if (host == null || host.isEmpty()) {
      return "the request has no Host";
    }
    if (!hosts.contains(host.toLowerCase(Locale.ROOT))) {
      return "Host " + Printable.of(host) + " is not one this server is reached by";
    }
    if (origin != null && !origins.contains(origin.toLowerCase(Locale.ROOT))) {
      return "Origin " + Printable.of(origin) + " is not one this server is reached from";
    }
    return null;
  }

  /** The Host values allowed, for the start-up line. */
  Set<String> hosts() {
    return hosts;
  }
}

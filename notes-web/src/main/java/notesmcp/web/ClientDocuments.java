package notesmcp.web;

import java.io.PrintStream;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.SocketAddressResolver;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import tools.jackson.databind.JsonNode;

/**
 * Client ID metadata documents (docs/oauth.md, "Client ID metadata documents"): a {@code client_id}
 * that is an https URL names the JSON document at that URL, which says the client's name and
 * redirect URIs. The server fetches it only for an authorization request the signed-in owner makes,
 * and fetches it as carefully as a request an attacker chose deserves (server-side request
 * forgery):
 *
 * <ul>
 *   <li>the URL is https with a path, no user info, no fragment, at most {@value #MAX_URL}
 *       characters (http too, and loopback addresses, only when the server's own issuer is a
 *       loopback http one: for use on one machine and for tests);
 *   <li>its host is resolved here, and every address it resolves to must be a public one: an
 *       address that is loopback (unless as above), private (10/8, 172.16/12, 192.168/16,
 *       fc00::/7), link-local (169.254/16, where cloud metadata services answer; fe80::/10),
 *       carrier-grade NAT, multicast, unspecified, reserved, or that embeds one (6to4, NAT64)
 *       refuses the whole fetch, before any connection; the connection then goes to exactly the
 *       addresses checked (Jetty's client is given them, it resolves nothing itself);
 *   <li>no redirect is followed; the whole fetch takes at most {@value #TIMEOUT_SECONDS} s; a body
 *       over {@value #MAX_BYTES} bytes is refused, whatever its Content-Length said;
 *   <li>the document must be a JSON object whose {@code client_id} equals the URL exactly, with
 *       {@code client_name} and {@code redirect_uris}, and be a public client.
 * </ul>
 *
 * Documents are cached by URL, at most {@value #CACHE} of them, for the time their {@code
 * Cache-Control: max-age} says, between 1 minute and a day (5 minutes when it says nothing; never
 * when it says {@code no-store}). Thread-safe.
 */
final class ClientDocuments {
  static final int MAX_URL = 512;
  static final int MAX_BYTES = 64 * 1024;
  static final long TIMEOUT_SECONDS = 5;
  static final int CACHE = 32;

  private static final Duration DEFAULT_AGE = Duration.ofMinutes(5);
  private static final Pattern MAX_AGE = Pattern.compile("max-age=([0-9]{1,9})");

  private final boolean loopback;
  private final boolean http;
  private final PrintStream log;
  private HttpClient client; // started on the first fetch: most servers never fetch one
  private final Map<String, Cached> cache = new LinkedHashMap<>();

  private record Cached(Clients.Client client, Instant until) {}

  /**
   * @param loopback whether the server's issuer is a loopback http one: documents may then be http
   *     and on loopback addresses
   */
  ClientDocuments(boolean loopback, PrintStream log) {
    this(loopback, loopback, log);
  }

  /** For tests: http allowed or not apart from loopback addresses. */
  ClientDocuments(boolean http, boolean loopback, PrintStream log) {
    this.loopback = loopback;
    this.http = http;
    this.log = log;
  }

  /** Jetty's client, started the first time a document is fetched. */
  private synchronized HttpClient client() throws Exception {
    if (client == null) {
      HttpClient made = new HttpClient();
      QueuedThreadPool threads = new QueuedThreadPool(4, 1, 60_000);
      threads.setName("notes-mcp client documents");
      threads.setDaemon(true);
      made.setExecutor(threads);
      made.setSocketAddressResolver(new PublicOnly(loopback));
      made.setFollowRedirects(false);
      made.setConnectTimeout(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
      made.setIdleTimeout(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
      made.setMaxConnectionsPerDestination(2);
      made.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, "notes-mcp"));
      made.start();
      client = made;
    }
    return client;
  }

  synchronized void stop() throws Exception {
    if (client != null) {
      client.stop();
    }
  }

  /** The client the document at {@code url} describes. */
  Clients.Client fetch(String url, Instant now) throws Clients.Refused {
    synchronized (cache) {
      Cached cached = cache.get(url);
      if (cached != null && now.isBefore(cached.until())) {
        return cached.client();
      }
      cache.remove(url);
    }
    URI uri = checkUrl(url);
    HttpClient started;
    try {
      started = client();
    } catch (Exception e) {
      throw refused(url, "the server's HTTP client could not start (" + e + ")");
    }
    Request request =
        started
            .newRequest(uri)
            .method(HttpMethod.GET)
            .headers(h -> h.put(HttpHeader.ACCEPT, "application/json"))
            .timeout(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    ContentResponse response;
    try {
      response =
          new CompletableResponseListener(request, MAX_BYTES)
              .send()
              .get(TIMEOUT_SECONDS + 1, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw refused(url, problem(cause));
    } catch (TimeoutException e) {
      request.abort(e);
      throw refused(url, "it did not answer within " + TIMEOUT_SECONDS + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw refused(url, "the fetch was interrupted");
    }
    int status = response.getStatus();
    if (status >= 300 && status < 400) {
      throw refused(url, "it answered with a redirect (" + status + "), which is not followed");
    }
    if (status != 200) {
      throw refused(url, "it answered " + status);
    }
    Clients.Client found = parse(url, response.getContent(), now);
    Duration age = age(response.getHeaders().get(HttpHeader.CACHE_CONTROL));
    if (!age.isZero()) {
      synchronized (cache) {
        if (cache.size() >= CACHE) {
          Iterator<String> oldest = cache.keySet().iterator();
          oldest.next();
          oldest.remove();
        }
        cache.put(url, new Cached(found, now.plus(age)));
      }
    }
    return found;
  }

  private static String problem(Throwable cause) {
    String message = String.valueOf(cause.getMessage());
    if (cause instanceof UnknownHostException) {
      return message.startsWith("refused:") ? message.substring(9) : "its host is not known";
    }
    if (message.contains("capacity exceeded") || message.contains("Buffering")) {
      return "it is larger than " + MAX_BYTES + " bytes";
    }
    if (cause instanceof TimeoutException || message.contains("timeout")) {
      return "it did not answer within " + TIMEOUT_SECONDS + " s";
    }
    return "it could not be fetched ("
        + notesmcp.text.TerminalText.escaped(
            cause.getClass().getSimpleName() + ": " + message, 160, false)
        + ")";
  }

  private Clients.Refused refused(String url, String problem) {
    log.println(
        "notes-mcp: client ID metadata document "
            + notesmcp.text.TerminalText.quoted(url, 200)
            + " refused: "
            + problem);
    return new Clients.Refused(
        "invalid_client", "the client's metadata document cannot be used: " + problem);
  }

  /** The URL, checked before anything is resolved or fetched. */
  private URI checkUrl(String url) throws Clients.Refused {
    if (url.length() > MAX_URL) {
      throw refused(url, "its URL is longer than " + MAX_URL + " characters");
    }
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw refused(url, "it is not a URL");
    }
    boolean https = "https".equals(uri.getScheme());
    if (!https && !(http && "http".equals(uri.getScheme()))) {
      throw refused(url, "it is not an https URL");
    }
    if (uri.getHost() == null
        || uri.getRawUserInfo() != null
        || uri.getRawFragment() != null
        || uri.getRawPath() == null
        || uri.getRawPath().isEmpty()
        || uri.getRawPath().equals("/")) {
      throw refused(url, "its URL must name a host and a path, with no user info or fragment");
    }
    return uri;
  }

  private static Duration age(String cacheControl) {
    if (cacheControl == null) {
      return DEFAULT_AGE;
    }
    String lower = cacheControl.toLowerCase(Locale.ROOT);
    if (lower.contains("no-store") || lower.contains("no-cache")) {
      return Duration.ZERO;
    }
    Matcher m = MAX_AGE.matcher(lower);
    if (!m.find()) {
      return DEFAULT_AGE;
    }
    long seconds = Long.parseLong(m.group(1));
    return Duration.ofSeconds(Math.max(60, Math.min(seconds, 86_400)));
  }

  private Clients.Client parse(String url, byte[] body, Instant now) throws Clients.Refused {
    JsonNode doc;
    try {
      doc = Json.object(body, null, "the document");
    } catch (java.io.IOException e) {
      throw refused(url, e.getMessage());
    }
    JsonNode id = doc.get("client_id");
    if (id == null || !id.isString() || !id.stringValue().equals(url)) {
      throw refused(url, "its client_id is not exactly its URL");
    }
    JsonNode name = doc.get("client_name");
    if (name == null || !name.isString()) {
      throw refused(url, "it has no client_name");
    }
    JsonNode auth = doc.get("token_endpoint_auth_method");
    if (auth != null && !(auth.isString() && auth.stringValue().equals("none"))) {
      throw refused(url, "only public clients are served (token_endpoint_auth_method none)");
    }
    if (!lists(doc.get("grant_types"), "authorization_code")
        || !lists(doc.get("response_types"), "code")) {
      throw refused(url, "its grant_types or response_types leave out the authorization code");
    }
    JsonNode uris = doc.get("redirect_uris");
    List<String> redirects = new ArrayList<>();
    if (uris == null || !uris.isArray()) {
      throw refused(url, "it has no redirect_uris");
    }
    for (JsonNode uri : uris) {
      if (!uri.isString()) {
        throw refused(url, "its redirect_uris are not all strings");
      }
      redirects.add(uri.stringValue());
    }
    try {
      Clients.check(name.stringValue(), redirects);
    } catch (Clients.Refused e) {
      throw refused(url, e.getMessage());
    }
    return new Clients.Client(url, name.stringValue(), redirects, now);
  }

  /** Whether {@code array} is absent or holds {@code value}. */
  private static boolean lists(JsonNode array, String value) {
    if (array == null) {
      return true;
    }
    if (!array.isArray()) {
      return false;
    }
    for (JsonNode element : array) {
      if (element.isString() && element.stringValue().equals(value)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Resolves a host to public addresses only, or fails the fetch: the one place the client learns
   * where to connect.
   */
  static final class PublicOnly implements SocketAddressResolver {
    private final boolean loopback;

    PublicOnly(boolean loopback) {
      this.loopback = loopback;
    }

    @Override
    public void resolve(
        String host,
        int port,
        Map<String, Object> context,
        Promise<List<InetSocketAddress>> promise) {
      try {
        InetAddress[] addresses = InetAddress.getAllByName(host);
        List<InetSocketAddress> checked = new ArrayList<>();
        for (InetAddress address : addresses) {
          String problem = problem(address, loopback);
          if (problem != null) {
            promise.failed(
                new UnknownHostException(
                    "refused: its host resolves to " + address.getHostAddress() + ", " + problem));
            return;
          }
          checked.add(new InetSocketAddress(address, port));
        }
        promise.succeeded(checked);
      } catch (UnknownHostException e) {
        promise.failed(e);
      } catch (RuntimeException e) {
        promise.failed(e);
      }
    }
  }

  /** Why the server may not connect to {@code address}, or null. */
  static String problem(InetAddress address, boolean loopbackAllowed) {
    if (address.isLoopbackAddress()) {
      return loopbackAllowed ? null : "a loopback address";
    }
    if (address.isAnyLocalAddress()) {
      return "an unspecified address";
    }
    if (address.isLinkLocalAddress()) {
      return "a link-local address";
    }
    if (address.isSiteLocalAddress()) {
      return "a private address";
    }
    if (address.isMulticastAddress()) {
      return "a multicast address";
    }
    byte[] b = address.getAddress();
    if (address instanceof Inet4Address) {
      int first = b[0] & 0xff;
      int second = b[1] & 0xff;
      if (first == 0
          || first >= 240
          || (first == 100 && second >= 64 && second < 128)
          || (first == 192 && second == 0 && (b[2] & 0xff) == 0)
          || (first == 198 && (second == 18 || second == 19))) {
        return "a reserved or shared address";
      }
      return null;
    }
    if (address instanceof Inet6Address) {
      int first = b[0] & 0xff;
      if ((first & 0xfe) == 0xfc) {
        return "a private (unique local) address";
      }
      if ((first == 0x20 && (b[1] & 0xff) == 0x02)
          || (first == 0x00
              && (b[1] & 0xff) == 0x64
              && (b[2] & 0xff) == 0xff
              && (b[3] & 0xff) == 0x9b)) {
        return "an address that embeds an IPv4 one (6to4, NAT64)";
      }
      boolean zeros = true;
      for (int i = 0; i < 12; i++) {
        zeros &= b[i] == 0;
      }
      if (zeros) {
        return "an IPv4-compatible address";
      }
      if (first == 0x20
          && (b[1] & 0xff) == 0x01
          && (b[2] & 0xff) == 0x0d
          && (b[3] & 0xff) == 0xb8) {
        return "a documentation address";
      }
    }
    return null;
  }

  /** The body as text, for messages. */
  static String text(byte[] body) {
    return new String(body, StandardCharsets.UTF_8);
  }
}

package notesmcp.web;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Where the server is reached from outside, as OAuth names it (docs/oauth.md, "The issuer"): the
 * authorization server's issuer identifier, {@code https://HOST[:PORT]} with no path, and the
 * resource's canonical URI, the issuer followed by {@code /mcp}. An {@code http://} issuer is only
 * for a server bound to a loopback address, and only on a loopback host ({@code 127.0.0.1}, {@code
 * localhost}, {@code [::1]}) with the port given: for use on this machine and for tests.
 *
 * <p>With an external authorization server the issuer is that server's, and the resource's URI is
 * given on its own ({@code -resource}).
 */
final class Issuer {
  private final String value;
  private final String resource;
  private final boolean loopback;

  private Issuer(String value, String resource, boolean loopback) {
    this.value = value;
    this.resource = resource;
    this.loopback = loopback;
  }

  /**
   * The built-in authorization server's issuer, {@code text}, checked.
   *
   * @param loopbackBind whether the server is bound to a loopback address (an http issuer needs it)
   * @throws IllegalArgumentException with the reason, for a usage error
   */
  static Issuer builtIn(String text, boolean loopbackBind) {
    URI uri = origin("-issuer", text, loopbackBind);
    String value = uri.toString();
    return new Issuer(value, value + "/mcp", uri.getScheme().equals("http"));
  }

  /**
   * An external authorization server's issuer (any https URL, as that server names itself) and this
   * server's own resource URI, {@code resource}, which must end in {@code /mcp}.
   */
  static Issuer external(String issuer, String resource, boolean loopbackBind) {
    URI as;
    try {
      as = new URI(issuer);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("-issuer " + issuer + " is not a URL");
    }
    if (!"https".equals(as.getScheme()) && !(loopbackBind && isLoopbackHttp(as))) {
      throw new IllegalArgumentException(
          "-issuer " + issuer + ": an authorization server is reached over https");
    }
    if (!resource.endsWith("/mcp")) {
      throw new IllegalArgumentException(
          "-resource " + resource + ": this server's URL, ending in /mcp");
    }
    URI own = origin("-resource", resource.substring(0, resource.length() - 4), loopbackBind);
    return new Issuer(issuer, own + "/mcp", own.getScheme().equals("http"));
  }

  private static boolean isLoopbackHttp(URI uri) {
    String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
    return "http".equals(uri.getScheme())
        && (host.equals("127.0.0.1") || host.equals("localhost") || host.equals("[::1]"))
        && uri.getPort() > 0;
  }

  private static URI origin(String flag, String text, boolean loopbackBind) {
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(flag + " " + text + " is not a URL");
    }
    if (uri.getScheme() == null
        || uri.getHost() == null
        || uri.getRawUserInfo() != null
        || uri.getRawQuery() != null
        || uri.getRawFragment() != null
        || !uri.getRawPath().isEmpty()) {
      throw new IllegalArgumentException(
          flag
              + " takes https://HOST or https://HOST:PORT, with no path, query or '/' at the end"
              + " (the public address the server is reached by), not "
              + text);
    }
    if (!text.equals(text.toLowerCase(Locale.ROOT))) {
      throw new IllegalArgumentException(flag + " " + text + ": write it in lower case");
    }
    if (uri.getScheme().equals("http")) {
      if (!isLoopbackHttp(uri)) {
        throw new IllegalArgumentException(
            flag
                + " "
                + text
                + ": http is only for http://127.0.0.1:PORT, http://localhost:PORT or"
                + " http://[::1]:PORT (this machine); a server reached from elsewhere is https");
      }
      if (!loopbackBind) {
        throw new IllegalArgumentException(
            flag + " " + text + ": an http address needs -http on a loopback address");
      }
    } else if (!uri.getScheme().equals("https")) {
      throw new IllegalArgumentException(flag + " " + text + ": not an https URL");
    }
    return uri;
  }

  /** The issuer identifier, exactly as the metadata and the tokens say it. */
  String value() {
    return value;
  }

  /** The resource's canonical URI: the audience of every access token this server takes. */
  String resource() {
    return resource;
  }

  /** Where this server's own pages are: the resource without its {@code /mcp}. */
  String base() {
    return resource.substring(0, resource.length() - 4);
  }

  /** This server's pages' origin, as a browser's {@code Origin} header says it. */
  String origin() {
    return base();
  }

  /** An http issuer on this machine: client documents may be http and on loopback addresses. */
  boolean loopback() {
    return loopback;
  }

  /** The Host a request for this server's pages carries: {@code HOST[:PORT]}. */
  String authority() {
    return URI.create(base()).getRawAuthority();
  }

  /** The port the public address names, or -1 for the scheme's default. */
  int port() {
    return URI.create(base()).getPort();
  }

  /** The protected resource metadata's URL (RFC 9728, the path form for {@code /mcp}). */
  String resourceMetadata() {
    return base() + "/.well-known/oauth-protected-resource/mcp";
  }

  /** A page of this server: {@code path} after the base. */
  String page(String path) {
    return base() + path;
  }
}

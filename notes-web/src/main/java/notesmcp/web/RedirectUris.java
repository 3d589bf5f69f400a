package notesmcp.web;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Which redirect URIs a client may register (docs/oauth.md, "Clients"): an absolute {@code https}
 * URI, or an {@code http} one whose host is a loopback address ({@code 127.0.0.1}, {@code [::1]},
 * {@code localhost}), as a native app on the person's own machine uses; no fragment, no user info,
 * at most {@value #MAX_LENGTH} characters. Nothing else: no other scheme ({@code javascript:},
 * {@code data:}, private-use schemes). A request's {@code redirect_uri} must then equal a
 * registered one exactly, character for character.
 */
final class RedirectUris {
  static final int MAX_LENGTH = 512;

  private RedirectUris() {}

  /** Why {@code text} may not be a redirect URI, or null. */
  static String problem(String text) {
    if (text.length() > MAX_LENGTH) {
      return "is longer than " + MAX_LENGTH + " characters";
    }
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      return "is not a URI";
    }
    if (!uri.isAbsolute() || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
      return "must be absolute, with no fragment and no user info";
    }
    String scheme = uri.getScheme();
    String host = uri.getHost() == null ? null : uri.getHost().toLowerCase(Locale.ROOT);
    if (host == null || host.isEmpty()) {
      return "has no host";
    }
    if (scheme.equals("https")) {
      return null;
    }
    if (scheme.equals("http") && isLoopback(host)) {
      return null;
    }
    return "must be https, or http on a loopback host (127.0.0.1, [::1], localhost)";
  }

  static boolean isLoopback(String host) {
    return host.equals("localhost")
        || host.equals("[::1]")
        || host.matches("127\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}");
  }

  /** The host a consent page names: who the owner is sending the code to. */
  static String host(String uri) {
    URI parsed = URI.create(uri);
    return parsed.getScheme() + "://" + parsed.getRawAuthority();
  }
}

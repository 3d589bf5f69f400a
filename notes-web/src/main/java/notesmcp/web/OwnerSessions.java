package notesmcp.web;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

/**
 * The owner's browser sessions (docs/oauth.md, "Owner sessions"), in memory only: a server that
 * restarts signs the owner out. A session is made only by a sign-in (a right passphrase or a
 * sign-in link), with a new random id: never one the browser brought, so an id fixed in a browser
 * before the owner signs in is worth nothing. Its cookie is {@value #COOKIE}: {@code Secure},
 * {@code HttpOnly}, {@code SameSite=Strict}, {@code Path=/}, no {@code Domain} (the {@code __Host-}
 * prefix makes browsers hold the server to all of that). A session ends when signed out, unused for
 * {@link #IDLE}, or {@link #LIFETIME} after it began; at most {@value #MAX} live at once (a new one
 * beyond ends the oldest). The server keeps only the SHA-256 of each id.
 *
 * <p>A page asks one question: {@link #signedIn} for a page that only shows, {@link #form} for a
 * form's POST, which is the owner's only when its session is live, its {@code csrf} field is the
 * session's own CSRF token (compared in constant time), and the browser says it came from this
 * server's own pages ({@code Origin}, {@code Sec-Fetch-Site}, when it sends them). Nothing here
 * reads {@code Authorization}: no MCP token opens an owner page, and the endpoint {@code /mcp}
 * reads no cookie, so no session opens MCP. Thread-safe.
 */
final class OwnerSessions {
  static final String COOKIE = "__Host-notes-mcp-owner";
  static final Duration IDLE = Duration.ofHours(2);
  static final Duration LIFETIME = Duration.ofHours(24);
  static final int MAX = 16;
  static final String NEXT = "__Host-notes-mcp-next";
  static final long NEXT_LIFETIME_SECONDS = 600;

  /**
   * The signed-in owner, as a page sees them: the CSRF token its forms carry, and the session's
   * label for the log and the audit trail.
   */
  static final class Owner {
    private final String csrf;
    private final String label;

    private Owner(String csrf, String label) {
      this.csrf = csrf;
      this.label = label;
    }

    /**
     * The session's name in the server's log and the audit trail: the first {@value #LABEL_DIGITS}
     * hex digits of the SHA-256 of its id (the id itself is never written anywhere).
     */
    String label() {
      return label;
    }

    /** The hidden field every form of the owner's pages carries. */
    String csrfField() {
      return "<input type=\"hidden\" name=\"csrf\" value=\"" + Html.escape(csrf) + "\">";
    }
  }

  /** How many hex digits of a session id's SHA-256 name it ({@link Owner#label}). */
  static final int LABEL_DIGITS = 12;

  private static final class Session {
    final Instant began;
    Instant seen;
    final String csrf;
    final String label;

    Session(Instant now, String label) {
      this.began = now;
      this.seen = now;
      this.csrf = Secrets.make("");
      this.label = label;
    }
  }

  private final String origin;
  private final Map<String, Session> sessions = new LinkedHashMap<>();

  /**
   * @param origin this server's pages' origin, as a browser's {@code Origin} header says it
   */
  OwnerSessions(String origin) {
    this.origin = origin;
  }

  /** The owner, when {@code request} carries the cookie of a live session; else null. */
  Owner signedIn(Request request) {
    Session session = session(request, Instant.now());
    return session == null ? null : new Owner(session.csrf, session.label);
  }

  /**
   * The owner, when {@code request} is a form's POST from the owner's own page: a live session, the
   * right CSRF token in {@code form}, and no sign of another site; else null.
   */
  Owner form(Request request, Form form) {
    if (!sameOrigin(request)) {
      return null;
    }
    Session session = session(request, Instant.now());
    String csrf = form.get("csrf");
    if (session == null || csrf == null || !Secrets.same(session.csrf, csrf)) {
      return null;
    }
    return new Owner(session.csrf, session.label);
  }

  /**
   * Whether the browser says the request came from this server's own pages: its {@code Origin},
   * when it sends one, is this server's, and its {@code Sec-Fetch-Site}, when sent, is {@code
   * same-origin}.
   *
   * <p>An {@code Origin} of {@code null} is what a browser sends for a form posted from a page
   * whose referrer policy is {@code no-referrer}, as every owner's page is (the Fetch standard: the
   * request's origin is serialized as {@code null} then); a sandboxed frame sends it too. So {@code
   * null} counts as this server's only with {@code Sec-Fetch-Site: same-origin}, which the browser
   * sends whatever the referrer policy and never for another site's page; without that header it is
   * refused.
   */
  boolean sameOrigin(Request request) {
    String from = request.getHeaders().get(HttpHeader.ORIGIN);
    String site = request.getHeaders().get("Sec-Fetch-Site");
    if ("null".equals(from)) {
      return "same-origin".equals(site);
    }
    if (from != null && !from.equals(origin)) {
      return false;
    }
    return site == null || site.equals("same-origin");
  }

  /**
   * Signs the owner in: ends any session the browser brought, makes a new one and sets its cookie
   * on {@code response}.
   */
  Owner signIn(Request request, Response response) {
    Instant now = Instant.now();
    String id = Secrets.make("");
    String key = Secrets.sha256Hex(id);
    Session session = new Session(now, key.substring(0, LABEL_DIGITS));
    synchronized (sessions) {
      String brought = cookie(request);
      if (brought != null) {
        sessions.remove(Secrets.sha256Hex(brought));
      }
      sweep(now);
      while (sessions.size() >= MAX) {
        Iterator<String> oldest = sessions.keySet().iterator();
        oldest.next();
        oldest.remove();
      }
      sessions.put(key, session);
    }
    response
        .getHeaders()
        .add(
            HttpHeader.SET_COOKIE,
            COOKIE
                + "="
                + id
                + "; Path=/; Max-Age="
                + LIFETIME.toSeconds()
                + "; Secure; HttpOnly; SameSite=Strict");
    return new Owner(session.csrf, session.label);
  }

  /** Ends the request's session, if any, and clears its cookie. */
  void signOut(Request request, Response response) {
    String brought = cookie(request);
    if (brought != null) {
      synchronized (sessions) {
        sessions.remove(Secrets.sha256Hex(brought));
      }
    }
    response
        .getHeaders()
        .add(
            HttpHeader.SET_COOKIE,
            COOKIE + "=; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=Strict");
  }

  /** Ends every session (the grants page's "sign out everywhere"). */
  void signOutAll() {
    synchronized (sessions) {
      sessions.clear();
    }
  }

  private Session session(Request request, Instant now) {
    String id = cookie(request);
    if (id == null) {
      return null;
    }
    synchronized (sessions) {
      sweep(now);
      Session session = sessions.get(Secrets.sha256Hex(id));
      if (session != null) {
        session.seen = now;
      }
      return session;
    }
  }

  private void sweep(Instant now) {
    sessions
        .values()
        .removeIf(s -> now.isAfter(s.seen.plus(IDLE)) || now.isAfter(s.began.plus(LIFETIME)));
  }

  /**
   * Remembers, for {@value #NEXT_LIFETIME_SECONDS} s, the page a sign-in page was shown for, in the
   * cookie {@value #NEXT}: a sign-in link opened in the same browser then goes back to it (to the
   * consent page the app sent the owner to) rather than to the owner's home page.
   */
  static void rememberNext(Response response, String next) {
    response
        .getHeaders()
        .add(
            HttpHeader.SET_COOKIE,
            NEXT
                + "="
                + URLEncoder.encode(next, StandardCharsets.UTF_8)
                + "; Path=/; Max-Age="
                + NEXT_LIFETIME_SECONDS
                + "; Secure; HttpOnly; SameSite=Strict");
  }

  static void forgetNext(Response response) {
    response
        .getHeaders()
        .add(
            HttpHeader.SET_COOKIE,
            NEXT + "=; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=Strict");
  }

  /** The page remembered by {@link #rememberNext}, or null. */
  static String next(Request request) {
    String value = cookie(request, NEXT);
    if (value == null) {
      return null;
    }
    try {
      return URLDecoder.decode(value, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** The session cookie's value, or null; a request that sends it twice has none. */
  static String cookie(Request request) {
    return cookie(request, COOKIE);
  }

  private static String cookie(Request request, String name) {
    String found = null;
    int seen = 0;
    for (String header : request.getHeaders().getValuesList(HttpHeader.COOKIE)) {
      for (String pair : header.split(";")) {
        String trimmed = pair.trim();
        int equals = trimmed.indexOf('=');
        if (equals > 0 && trimmed.substring(0, equals).equals(name)) {
          found = trimmed.substring(equals + 1);
          seen++;
        }
      }
    }
    return seen == 1 && !found.isEmpty() ? found : null;
  }
}

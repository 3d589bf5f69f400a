package notesmcp.web;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The grants the owner approved (docs/oauth.md, "Grants and refresh tokens"), kept in {@value
 * #FILE}: for each, the client, its redirect URI, the scopes, when it was made and last used, and
 * the SHA-256 of its current refresh token and of the ones it replaced (never a token).
 *
 * <p>A refresh token is used once: each use replaces it with a new one. A token that was replaced,
 * presented again, is a sign that it leaked (the client and a thief both hold it), so the whole
 * grant is revoked: every access token of it fails at once at the resource server, which asks
 * {@link #isLive} on every request, and its refresh tokens fail too. A grant unused for {@link
 * #IDLE} expires. The file is re-read whenever it changes on disk, so an {@code owner revoke} run
 * beside the server takes effect on the next request; a file that cannot be read makes every grant
 * count as revoked until it can (fail closed). Thread-safe.
 */
final class Grants {
  static final String FILE = "grants.json";
  static final String FORMAT = "notes-mcp/oauth-grants/1";

  /** A grant whose refresh token is not used for this long expires. */
  static final Duration IDLE = Duration.ofDays(30);

  /** At most this many grants; a new one beyond replaces the one unused for longest. */
  static final int MAX = 64;

  /** Replaced refresh tokens remembered per grant, for reuse detection. */
  static final int MAX_RETIRED = 32;

  private static final int MAX_BYTES = 1024 * 1024;

  /** One grant as the file keeps it. */
  record Grant(
      String id,
      String clientId,
      String clientName,
      String redirectUri,
      String scope,
      Instant created,
      Instant lastUsed,
      String refresh,
      List<String> retired) {
    Grant {
      retired = List.copyOf(retired);
    }

    boolean expired(Instant now) {
      return now.isAfter(lastUsed.plus(IDLE));
    }
  }

  /** A grant and its new refresh token (shown once to the client, never kept). */
  record Issued(Grant grant, String refreshToken) {}

  /** What a refresh token found: its grant and the next token; or why not. */
  static final class Refreshed {
    final Issued issued; // null: refused
    final String problem;

    private Refreshed(Issued issued, String problem) {
      this.issued = issued;
      this.problem = problem;
    }
  }

  private final Store store;
  private final PrintStream log;

  private static final class Snapshot {
    final String identity;
    final List<Grant> grants; // null: the file could not be read

    Snapshot(String identity, List<Grant> grants) {
      this.identity = identity;
      this.grants = grants;
    }
  }

  private volatile Snapshot snapshot = new Snapshot("unread", null);

  Grants(Store store, PrintStream log) {
    this.store = store;
    this.log = log;
  }

  /** Whether grant {@code id} is live now: approved, not revoked, not expired. */
  boolean isLive(String id, Instant now) {
    List<Grant> grants = current();
    if (grants == null) {
      return false;
    }
    for (Grant grant : grants) {
      if (grant.id().equals(id)) {
        return !grant.expired(now);
      }
    }
    return false;
  }

  /** The grants as the file says now (null when it cannot be read), read again if it changed. */
  List<Grant> current() {
    String now = store.identity(FILE);
    Snapshot seen = snapshot;
    if (String.valueOf(now).equals(seen.identity)) {
      return seen.grants;
    }
    synchronized (this) {
      seen = snapshot;
      now = store.identity(FILE);
      if (String.valueOf(now).equals(seen.identity)) {
        return seen.grants;
      }
      List<Grant> grants;
      try {
        grants = Collections.unmodifiableList(read(store));
      } catch (IOException e) {
        grants = null;
        log.println(
            "notes-mcp: the grants file cannot be used ("
                + e.getMessage()
                + "); every OAuth access token is refused until it can");
      }
      snapshot = new Snapshot(String.valueOf(now), grants);
      return grants;
    }
  }

  /** The grants in the file (an empty list when there is none). */
  static List<Grant> read(Store store) throws IOException {
    byte[] bytes = store.read(FILE, MAX_BYTES);
    List<Grant> grants = new ArrayList<>();
    if (bytes == null) {
      return grants;
    }
    String what = store.dir().resolve(FILE).toString();
    JsonNode root = Json.object(bytes, FORMAT, what);
    JsonNode list = root.get("grants");
    if (list == null || !list.isArray()) {
      throw new IOException(what + " has no array \"grants\"");
    }
    for (JsonNode g : list) {
      try {
        grants.add(
            new Grant(
                Json.text(g, "id", what),
                Json.text(g, "client_id", what),
                Json.text(g, "client_name", what),
                Json.text(g, "redirect_uri", what),
                Json.text(g, "scope", what),
                Instant.parse(Json.text(g, "created", what)),
                Instant.parse(Json.text(g, "last_used", what)),
                Json.text(g, "refresh_sha256", what),
                Json.texts(g, "retired_sha256", what)));
      } catch (java.time.format.DateTimeParseException e) {
        throw new IOException(what + " has a time that is not ISO-8601");
      }
    }
    return grants;
  }

  private static void write(Store store, List<Grant> grants) throws IOException {
    ObjectNode root = Json.newObject(FORMAT);
    ArrayNode list = root.putArray("grants");
    for (Grant grant : grants) {
      ObjectNode g = list.addObject();
      g.put("id", grant.id());
      g.put("client_id", grant.clientId());
      g.put("client_name", grant.clientName());
      g.put("redirect_uri", grant.redirectUri());
      g.put("scope", grant.scope());
      g.put("created", grant.created().toString());
      g.put("last_used", grant.lastUsed().toString());
      g.put("refresh_sha256", grant.refresh());
      ArrayNode retired = g.putArray("retired_sha256");
      for (String hash : grant.retired()) {
        retired.add(hash);
      }
    }
    store.write(FILE, Json.bytes(root));
  }

  /** What a change does to the grants; returns its result. */
  private interface Change<T> {
    T apply(List<Grant> grants);
  }

  private <T> T change(Change<T> change) throws IOException {
    return store.locked(
        () -> {
          List<Grant> grants = read(store);
          int before = grants.size();
          List<Grant> copy = new ArrayList<>(grants);
          T result = change.apply(copy);
          if (!copy.equals(grants) || copy.size() != before) {
            write(store, copy);
          }
          return result;
        });
  }

  /** A new grant, approved now, with its first refresh token. */
  Issued create(String clientId, String clientName, String redirectUri, String scope, Instant now)
      throws IOException {
    Instant at = now.truncatedTo(ChronoUnit.SECONDS);
    String token = Secrets.make("nmcr_");
    Grant grant =
        new Grant(
            Secrets.id("g_"),
            clientId,
            clientName,
            redirectUri,
            scope,
            at,
            at,
            Secrets.sha256Hex(token),
            List.of());
    change(
        grants -> {
          grants.removeIf(g -> g.expired(now));
          while (grants.size() >= MAX) {
            Grant oldest = grants.get(0);
            for (Grant g : grants) {
              if (g.lastUsed().isBefore(oldest.lastUsed())) {
                oldest = g;
              }
            }
            grants.remove(oldest);
            log.println(
                "notes-mcp: "
                    + MAX
                    + " grants at most: the one unused for longest ("
                    + oldest.id()
                    + ") is revoked");
          }
          grants.add(grant);
          return null;
        });
    return new Issued(grant, token);
  }

  /**
   * Uses refresh token {@code token} of client {@code clientId}: the grant and the next token, or
   * why not. A token that was already replaced revokes its whole grant.
   */
  Refreshed refresh(String token, String clientId, Instant now) throws IOException {
    String hash = Secrets.sha256Hex(token);
    String next = Secrets.make("nmcr_");
    return change(
        grants -> {
          for (int i = 0; i < grants.size(); i++) {
            Grant grant = grants.get(i);
            boolean current = Secrets.same(grant.refresh(), hash);
            boolean replaced = false;
            for (String old : grant.retired()) {
              replaced |= Secrets.same(old, hash);
            }
            if (!current && !replaced) {
              continue;
            }
            if (replaced) {
              grants.remove(i);
              log.println(
                  "notes-mcp: a replaced refresh token of grant "
                      + grant.id()
                      + " was presented again: the grant is revoked (the token may have leaked)");
              return new Refreshed(null, "the refresh token was used before; its grant is revoked");
            }
            if (!grant.clientId().equals(clientId)) {
              return new Refreshed(null, "the refresh token is not this client's");
            }
            if (grant.expired(now)) {
              grants.remove(i);
              return new Refreshed(null, "the refresh token has expired");
            }
            List<String> retired = new ArrayList<>(grant.retired());
            retired.add(grant.refresh());
            while (retired.size() > MAX_RETIRED) {
              retired.remove(0);
            }
            Grant rotated =
                new Grant(
                    grant.id(),
                    grant.clientId(),
                    grant.clientName(),
                    grant.redirectUri(),
                    grant.scope(),
                    grant.created(),
                    now.truncatedTo(ChronoUnit.SECONDS),
                    Secrets.sha256Hex(next),
                    retired);
            grants.set(i, rotated);
            return new Refreshed(new Issued(rotated, next), null);
          }
          return new Refreshed(null, "the refresh token is not valid");
        });
  }

  /** Revokes grant {@code id}; whether there was one. */
  boolean revoke(String id) throws IOException {
    return change(grants -> grants.removeIf(g -> g.id().equals(id)));
  }

  /** Revokes every grant of client {@code clientId}, or the grant of that id; how many. */
  int revokeClient(String clientOrGrant) throws IOException {
    return change(
        grants -> {
          int before = grants.size();
          grants.removeIf(g -> g.clientId().equals(clientOrGrant) || g.id().equals(clientOrGrant));
          return before - grants.size();
        });
  }
}

package notesmcp.web;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Single-use sign-in links (docs/oauth.md, "Signing in"): {@code notes-mcp owner link} makes a
 * 256-bit random secret, keeps its SHA-256 and expiry in {@value #FILE}, and prints {@code
 * ISSUER/owner/link?t=SECRET}. The server, asked for that page, takes the secret out of the file
 * under the state folder's lock, so it signs in once, however many requests race for it, and never
 * after {@link #LIFETIME}. The file is read at each use, so a link made after the server started
 * works. At most {@value #MAX} links wait at once (the oldest goes first).
 */
final class SignInLinks {
  static final String FILE = "sign-in-links.json";
  static final String FORMAT = "notes-mcp/sign-in-links/1";
  static final Duration LIFETIME = Duration.ofMinutes(10);
  static final int MAX = 8;
  static final String PATH = "/owner/link";

  private record Link(String sha256, Instant expires) {}

  private SignInLinks() {}

  /** A new link to {@code base} (the server's public address); it is shown, never kept. */
  static String create(Store store, String base, Instant now) throws IOException {
    String secret = Secrets.make("");
    Link link =
        new Link(Secrets.sha256Hex(secret), now.plus(LIFETIME).truncatedTo(ChronoUnit.SECONDS));
    store.locked(
        () -> {
          List<Link> links = read(store, now);
          links.add(link);
          while (links.size() > MAX) {
            links.remove(0);
          }
          write(store, links);
          return null;
        });
    return base + PATH + "?t=" + secret;
  }

  /** Whether {@code secret} named a waiting link; it waits no more. */
  static boolean consume(Store store, String secret, Instant now) throws IOException {
    String hash = Secrets.sha256Hex(secret);
    return store.locked(
        () -> {
          List<Link> links = read(store, now);
          Link found = null;
          for (Link link : links) {
            if (Secrets.same(link.sha256(), hash)) {
              found = link;
            }
          }
          if (found == null) {
            return false;
          }
          links.remove(found);
          write(store, links);
          return true;
        });
  }

  /** The links that have not expired. */
  private static List<Link> read(Store store, Instant now) throws IOException {
    byte[] bytes = store.read(FILE, 64 * 1024);
    List<Link> links = new ArrayList<>();
    if (bytes == null) {
      return links;
    }
    String what = store.dir().resolve(FILE).toString();
    JsonNode list = Json.object(bytes, FORMAT, what).get("links");
    if (list == null || !list.isArray()) {
      throw new IOException(what + " has no array \"links\"");
    }
    for (JsonNode l : list) {
      Instant expires;
      try {
        expires = Instant.parse(Json.text(l, "expires", what));
      } catch (java.time.format.DateTimeParseException e) {
        throw new IOException(what + " has a time that is not ISO-8601");
      }
      if (now.isBefore(expires)) {
        links.add(new Link(Json.text(l, "sha256", what), expires));
      }
    }
    return links;
  }

  private static void write(Store store, List<Link> links) throws IOException {
    ObjectNode root = Json.newObject(FORMAT);
    ArrayNode list = root.putArray("links");
    for (Link link : links) {
      ObjectNode l = list.addObject();
      l.put("sha256", link.sha256());
      l.put("expires", link.expires().toString());
    }
    store.write(FILE, Json.bytes(root));
  }
}

package notesmcp.web;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OAuth clients the server knows (docs/oauth.md, "Clients"): those registered by dynamic client
 * registration (RFC 7591), kept in {@value #FILE}, and those whose {@code client_id} is the https
 * URL of a client ID metadata document, fetched when the owner is asked to approve one ({@link
 * ClientDocuments}). Every client is public ({@code token_endpoint_auth_method} {@code none}): it
 * proves nothing at the token endpoint but the PKCE verifier of its own authorization request.
 *
 * <p>Registration is open (anyone who reaches the server may register; a registration alone grants
 * nothing: the owner approves each grant), so it is bounded: {@value #PER_HOUR} a rolling hour, and
 * {@value #MAX} kept; a registration beyond the total first removes clients registered over an hour
 * ago that hold no grant, and is refused when none can go. Thread-safe.
 */
final class Clients {
  static final String FILE = "clients.json";
  static final String FORMAT = "notes-mcp/oauth-clients/1";

  static final int MAX = 64;
  static final int PER_HOUR = 20;
  static final int MAX_NAME = 200;
  static final int MAX_REDIRECTS = 8;

  private static final int MAX_BYTES = 1024 * 1024;

  /** A client as the server knows it. */
  record Client(String id, String name, List<String> redirectUris, Instant created) {
    Client {
      redirectUris = List.copyOf(redirectUris);
    }
  }

  /** A request refused: its OAuth error code and a sentence for the person or the client. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    final String error;

    Refused(String error, String description) {
      super(description, null, false, false);
      this.error = error;
    }
  }

  private final Store store;
  private final Grants grants;
  private final ClientDocuments documents;
  private final PrintStream log;
  private final Deque<Instant> recent = new ArrayDeque<>();

  Clients(Store store, Grants grants, ClientDocuments documents, PrintStream log) {
    this.store = store;
    this.grants = grants;
    this.documents = documents;
    this.log = log;
  }

  /** Whether {@code clientId} names a client ID metadata document rather than a registration. */
  static boolean isDocument(String clientId) {
    return clientId.startsWith("https://") || clientId.startsWith("http://");
  }

  /**
   * The client {@code clientId} names: a registered one, or the document at that URL.
   *
   * @throws Refused when there is no such client, or its document cannot be used
   */
  Client find(String clientId, Instant now) throws Refused {
    if (isDocument(clientId)) {
      return documents.fetch(clientId, now);
    }
    try {
      for (Client client : read(store)) {
        if (client.id().equals(clientId)) {
          return client;
        }
      }
    } catch (IOException e) {
      log.println("notes-mcp: the clients file cannot be used (" + e.getMessage() + ")");
      throw new Refused("server_error", "the server's clients file cannot be read");
    }
    throw new Refused("invalid_client", "no client of that client_id is registered here");
  }

  static List<Client> read(Store store) throws IOException {
    byte[] bytes = store.read(FILE, MAX_BYTES);
    List<Client> clients = new ArrayList<>();
    if (bytes == null) {
      return clients;
    }
    String what = store.dir().resolve(FILE).toString();
    JsonNode list = Json.object(bytes, FORMAT, what).get("clients");
    if (list == null || !list.isArray()) {
      throw new IOException(what + " has no array \"clients\"");
    }
    for (JsonNode c : list) {
      try {
        clients.add(
            new Client(
                Json.text(c, "client_id", what),
                Json.text(c, "client_name", what),
                Json.texts(c, "redirect_uris", what),
                Instant.parse(Json.text(c, "created", what))));
      } catch (java.time.format.DateTimeParseException e) {
        throw new IOException(what + " has a time that is not ISO-8601");
      }
    }
    return clients;
  }

  private static void write(Store store, List<Client> clients) throws IOException {
    ObjectNode root = Json.newObject(FORMAT);
    ArrayNode list = root.putArray("clients");
    for (Client client : clients) {
      ObjectNode c = list.addObject();
      c.put("client_id", client.id());
      c.put("client_name", client.name());
      ArrayNode uris = c.putArray("redirect_uris");
      for (String uri : client.redirectUris()) {
        uris.add(uri);
      }
      c.put("created", client.created().toString());
    }
    store.write(FILE, Json.bytes(root));
  }

  /**
   * Checks a client's name and redirect URIs as a registration or a document gives them.
   *
   * @throws Refused {@code invalid_redirect_uri} or {@code invalid_client_metadata}
   */
  static void check(String name, List<String> redirectUris) throws Refused {
    if (name != null && name.length() > MAX_NAME) {
      throw new Refused(
          "invalid_client_metadata", "client_name is longer than " + MAX_NAME + " characters");
    }
    if (redirectUris == null || redirectUris.isEmpty()) {
      throw new Refused("invalid_redirect_uri", "redirect_uris is required");
    }
    if (redirectUris.size() > MAX_REDIRECTS) {
      throw new Refused(
          "invalid_redirect_uri", "at most " + MAX_REDIRECTS + " redirect_uris are taken");
    }
    for (String uri : redirectUris) {
      String problem = RedirectUris.problem(uri);
      if (problem != null) {
        throw new Refused("invalid_redirect_uri", "a redirect URI " + problem);
      }
    }
  }

  /**
   * Registers a public client.
   *
   * @throws Refused when its metadata is refused, or registrations are over their bounds ({@code
   *     error} {@code temporarily_unavailable})
   */
  Client register(String name, List<String> redirectUris, Instant now) throws Refused {
    check(name, redirectUris);
    synchronized (recent) {
      while (!recent.isEmpty() && recent.peekFirst().isBefore(now.minus(Duration.ofHours(1)))) {
        recent.removeFirst();
      }
      if (recent.size() >= PER_HOUR) {
        throw new Refused(
            "temporarily_unavailable",
            PER_HOUR + " registrations an hour at most; try again later");
      }
      recent.addLast(now);
    }
    Client client =
        new Client(
            Secrets.id("c_"),
            name == null || name.isBlank() ? "(unnamed client)" : name,
            redirectUris,
            now.truncatedTo(ChronoUnit.SECONDS));
    try {
      boolean added =
          store.locked(
              () -> {
                List<Client> clients = read(store);
                if (clients.size() >= MAX) {
                  Set<String> granted = new HashSet<>();
                  List<Grants.Grant> live = grants.current();
                  if (live == null) {
                    return false;
                  }
                  for (Grants.Grant grant : live) {
                    granted.add(grant.clientId());
                  }
                  clients.removeIf(
                      c ->
                          !granted.contains(c.id())
                              && c.created().isBefore(now.minus(Duration.ofHours(1))));
                }
                if (clients.size() >= MAX) {
                  return false;
                }
                clients.add(client);
                write(store, clients);
                return true;
              });
      if (!added) {
        throw new Refused(
            "temporarily_unavailable",
            MAX + " clients are registered, each holding a grant or new; revoke some first");
      }
    } catch (IOException e) {
      log.println("notes-mcp: a client could not be registered (" + e.getMessage() + ")");
      throw new Refused("server_error", "the client could not be recorded");
    }
    return client;
  }
}

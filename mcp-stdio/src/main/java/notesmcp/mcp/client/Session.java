package notesmcp.mcp.client;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import notesmcp.jsonrpc.RpcException;
import notesmcp.mcp.Protocol;
import notesmcp.mcp.Protocol.Implementation;
import notesmcp.text.TerminalText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.util.RawValue;

/**
 * A client's conversation with one stdio server of either era.
 *
 * <p>{@link #connect} follows the stdio binding's backward-compatibility rule (spec 2026-07-28,
 * transports/stdio): probe with {@code server/discover} asking for 2026-07-28; a {@code
 * DiscoverResult} or a recognized modern error means a modern server; any other error, or silence
 * within the probe timeout, means a legacy server, and the client falls back to {@code initialize}.
 * "The fallback MUST NOT be keyed to one specific error code." A server that exits on the probe is
 * started again for the handshake.
 *
 * <p>Every result is checked against the schema for what this client reads ({@link Replies}) before
 * it is read; a reply of the wrong shape is {@link Incompatible}, like an unsupported version
 * (docs/behaviour.md, "Limits"). Failures come in three kinds: {@link IOException} (the server is
 * gone, or missed the deadline: {@link Connection.Timeout}), {@link RpcException} (it answered with
 * a JSON-RPC error), {@link Incompatible} (it broke the protocol or speaks no version this client
 * does). Not thread-safe.
 */
public final class Session {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Codes that only a modern server sends (spec 2026-07-28, basic, "Error Codes"). */
  private static final List<Integer> MODERN_ERRORS =
      List.of(-32020, -32021, Protocol.UNSUPPORTED_VERSION_ERROR);

  /** The most each step of closing a server waits (stdin closed, then SIGTERM, then SIGKILL). */
  public static final Duration CLOSE_GRACE = Duration.ofSeconds(2);

  /**
   * The least each step of closing a server waits, even once the deadline has passed: enough for a
   * server that honours the closing of its input to exit on its own.
   */
  static final Duration LEAST_CLOSE_GRACE = Duration.ofMillis(200);

  /** The most pages of {@code tools/list} followed; a server that never ends its list is broken. */
  static final int MAX_PAGES = 64;

  /** Starts the server process; called again if the server exits on the probe. */
  public interface Launcher {
    Connection start() throws IOException;
  }

  /**
   * The server speaks no version this client does, or broke the protocol: a reply of the wrong
   * shape, a reply to a request never sent. Always a protocol error (client exit 3).
   */
  public static final class Incompatible extends Exception {
    private static final long serialVersionUID = 1L;

    Incompatible(String message) {
      super(message, null, false, false);
    }
  }

  private final Connection connection;
  private final boolean modern;
  private final String version;
  private final Implementation client;
  private final Duration deadline;

  private Session(
      Connection connection,
      boolean modern,
      String version,
      Implementation client,
      Duration deadline) {
    this.connection = connection;
    this.modern = modern;
    this.version = version;
    this.client = client;
    this.deadline = deadline;
  }

  /**
   * Detects the server's era and opens a session in it. The whole handshake (the probe, a restart,
   * {@code initialize}) happens within {@code deadline}, which then also bounds each later request
   * of the session; the probe waits at most {@code probeTimeout} and at most half the deadline.
   * Whatever goes wrong, every server started here is closed before this throws.
   */
  public static Session connect(
      Launcher launcher,
      Implementation client,
      Duration deadline,
      Duration probeTimeout,
      PrintStream log)
      throws IOException, RpcException, Incompatible {
    long end = System.nanoTime() + Connection.nanos(deadline);
    Connection connection = launcher.start();
    Session session = null;
    try {
      // At most half the deadline, so that a legacy server that ignores the probe ("or not at
      // all") still has time for its handshake.
      Duration half = deadline.dividedBy(2);
      Duration probe = probeTimeout.compareTo(half) < 0 ? probeTimeout : half;
      try {
        JsonNode discovered =
            request(connection, Protocol.DISCOVER, modernParams(client, NODES.objectNode()), probe);
        session = modern(connection, discovered, client, deadline, log);
        return session;
      } catch (RpcException e) {
        if (MODERN_ERRORS.contains(e.error().code())) {
          throw new Incompatible(describeModernError(e));
        }
        log.println(
            "notes-mcp: server/discover answered "
                + e.error().code()
                + " "
                + TerminalText.escaped(e.error().message())
                + "; falling back to the initialize handshake");
      } catch (Connection.Timeout e) {
        log.println(
            "notes-mcp: no answer to server/discover within "
                + probe.toMillis()
                + " ms; falling back to the initialize handshake");
      } catch (IOException e) {
        if (connection.isAlive()) {
          throw e;
        }
        log.println(
            "notes-mcp: the server exited on server/discover; starting it again for the"
                + " initialize handshake");
        closeQuietly(connection, closeGrace(left(end)));
        connection = launcher.start();
      }
      session = legacy(connection, client, deadline, left(end), log);
      return session;
    } finally {
      if (session == null) {
        closeQuietly(connection, closeGrace(left(end)));
      }
    }
  }

  private static Session modern(
      Connection connection,
      JsonNode discovered,
      Implementation client,
      Duration deadline,
      PrintStream log)
      throws Incompatible {
    List<String> offered = Replies.supportedVersions(discovered);
    String server = Replies.resultServerInfo(Protocol.DISCOVER, discovered);
    if (!offered.contains(Protocol.MODERN)) {
      throw new Incompatible(
          "the server supports "
              + TerminalText.escaped(offered.toString())
              + ", not "
              + Protocol.MODERN);
    }
    connection.stopAnsweringRequests();
    log.println("notes-mcp: modern era, protocol " + Protocol.MODERN + ", server " + server);
    return new Session(connection, true, Protocol.MODERN, client, deadline);
  }

  private static Session legacy(
      Connection connection,
      Implementation client,
      Duration deadline,
      Duration left,
      PrintStream log)
      throws IOException, RpcException, Incompatible {
    ObjectNode params = NODES.objectNode();
    params.put("protocolVersion", Protocol.LEGACY.get(0));
    params.putObject("capabilities");
    params.set("clientInfo", client.toJson());
    long end = System.nanoTime() + Connection.nanos(left);
    JsonNode result = request(connection, Protocol.INITIALIZE, params, left);
    String version = Replies.protocolVersion(result);
    if (!Protocol.LEGACY.contains(version)) {
      throw new Incompatible(
          "the server answered initialize with protocol version \""
              + TerminalText.escaped(version)
              + "\"; this client speaks "
              + Protocol.MODERN
              + " and "
              + Protocol.LEGACY);
    }
    String server = Replies.initializeServerInfo(result);
    connection.notify(Protocol.INITIALIZED, null, left(end));
    log.println("notes-mcp: legacy era, protocol " + version + ", server " + server);
    return new Session(connection, false, version, client, deadline);
  }

  private static String describeModernError(RpcException e) {
    JsonNode data = e.error().data();
    JsonNode supported = data == null || !data.isObject() ? null : data.get("supported");
    return "the server is modern but refused "
        + Protocol.MODERN
        + ": "
        + TerminalText.escaped(e.error().message())
        + (supported == null
            ? ""
            : " (it supports " + TerminalText.escaped(supported.toString()) + ")");
  }

  public boolean isModern() {
    return modern;
  }

  public String version() {
    return version;
  }

  /** {@code tools/list}: the server's tools, every page, in its order, within the deadline. */
  public JsonNode listTools() throws IOException, RpcException, Incompatible {
    return listTools(deadline);
  }

  /** {@code tools/list}, every page of it within {@code within}. */
  public JsonNode listTools(Duration within) throws IOException, RpcException, Incompatible {
    long end = System.nanoTime() + Connection.nanos(within);
    ArrayNode tools = NODES.arrayNode();
    Set<String> cursors = new HashSet<>();
    String cursor = null;
    for (int page = 0; page < MAX_PAGES; page++) {
      ObjectNode params = NODES.objectNode();
      if (cursor != null) {
        params.put("cursor", cursor);
      }
      JsonNode result = request(Protocol.TOOLS_LIST, params, left(end));
      cursor = Replies.toolsPage(result);
      tools.addAll((ArrayNode) result.get("tools"));
      if (cursor == null) {
        return tools;
      }
      if (!cursors.add(cursor)) {
        throw new Incompatible(
            "the server's tools/list repeats the page \"" + TerminalText.escaped(cursor) + "\"");
      }
    }
    throw new Incompatible("the server's tools/list goes on for more than " + MAX_PAGES + " pages");
  }

  /**
   * {@code tools/call} with the arguments as the caller wrote them (a compact JSON object text,
   * kept raw so that what the server receives is exactly that), or none. The result is checked: its
   * {@code content} is an array of content blocks and its {@code isError}, if any, a boolean.
   */
  public JsonNode callTool(String name, String rawArguments)
      throws IOException, RpcException, Incompatible {
    return callTool(name, rawArguments, deadline);
  }

  /** {@code tools/call} within {@code within}. */
  public JsonNode callTool(String name, String rawArguments, Duration within)
      throws IOException, RpcException, Incompatible {
    ObjectNode params = NODES.objectNode();
    params.put("name", name);
    if (rawArguments != null) {
      params.putRawValue("arguments", new RawValue(rawArguments));
    }
    JsonNode result = request(Protocol.TOOLS_CALL, params, within);
    Replies.callResult(result);
    return result;
  }

  /** Whether a result that {@link #callTool} returned is a tool error ({@code isError: true}). */
  public static boolean isError(JsonNode callResult) {
    JsonNode isError = callResult.get("isError");
    return isError != null && isError.isBoolean() && isError.booleanValue();
  }

  private JsonNode request(String method, ObjectNode params, Duration within)
      throws IOException, RpcException, Incompatible {
    JsonNode result =
        request(connection, method, modern ? modernParams(client, params) : params, within);
    if (modern) {
      Replies.requireComplete(method, result);
    }
    return result;
  }

  /** One request; a broken protocol becomes {@link Incompatible}, a result must be an object. */
  private static JsonNode request(
      Connection connection, String method, ObjectNode params, Duration within)
      throws IOException, RpcException, Incompatible {
    JsonNode result;
    try {
      result = connection.request(method, params, within);
    } catch (Connection.Violation e) {
      throw new Incompatible(e.getMessage());
    }
    Replies.requireObject(method, result);
    if (Protocol.DISCOVER.equals(method)) {
      Replies.requireComplete(method, result);
    }
    return result;
  }

  private static ObjectNode modernParams(Implementation client, ObjectNode params) {
    ObjectNode meta = params.putObject("_meta");
    meta.put(Protocol.META_PROTOCOL_VERSION, Protocol.MODERN);
    meta.putObject(Protocol.META_CLIENT_CAPABILITIES);
    meta.set(Protocol.META_CLIENT_INFO, client.toJson());
    return params;
  }

  private static Duration left(long endNanos) {
    return Duration.ofNanos(Math.max(0, endNanos - System.nanoTime()));
  }

  /**
   * How long each step of closing a server may wait when {@code left} of the deadline remains: the
   * time left, but at least {@link #LEAST_CLOSE_GRACE} and at most {@link #CLOSE_GRACE}. So closing
   * a server that ignores its input and SIGTERM adds well under a second to a deadline already
   * spent (docs/behaviour.md, "Limits": "closing a server that ignores stdin, is bounded by the
   * deadline").
   */
  public static Duration closeGrace(Duration left) {
    if (left.compareTo(LEAST_CLOSE_GRACE) < 0) {
      return LEAST_CLOSE_GRACE;
    }
    return left.compareTo(CLOSE_GRACE) > 0 ? CLOSE_GRACE : left;
  }

  private static void closeQuietly(Connection connection, Duration grace) {
    try {
      connection.close(grace);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Closes the server: input closed, then terminate, then kill (stdio binding, "Shutdown"), each
   * step bounded by {@code grace}.
   */
  public int close(Duration grace) throws InterruptedException {
    return connection.close(grace);
  }
}

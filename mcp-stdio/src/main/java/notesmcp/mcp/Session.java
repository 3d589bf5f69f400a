package notesmcp.mcp;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import notesmcp.jsonrpc.RpcException;
import tools.jackson.databind.JsonNode;
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
 * started again for the handshake. Not thread-safe.
 */
public final class Session {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Codes that only a modern server sends (spec 2026-07-28, basic, "Error Codes"). */
  private static final List<Integer> MODERN_ERRORS =
      List.of(-32020, -32021, ProtocolErrors.UNSUPPORTED_PROTOCOL_VERSION);

  /** Starts the server process; called again if the server exits on the probe. */
  public interface Launcher {
    Connection start() throws IOException;
  }

  /** The server is modern but serves no version this client speaks, or answered nonsense. */
  public static final class Incompatible extends Exception {
    private static final long serialVersionUID = 1L;

    Incompatible(String message) {
      super(message);
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

  /** Detects the server's era and opens a session in it. */
  public static Session connect(
      Launcher launcher,
      Implementation client,
      Duration deadline,
      Duration probeTimeout,
      PrintStream log)
      throws IOException, RpcException, Incompatible {
    Connection connection = launcher.start();
    Duration probe = probeTimeout.compareTo(deadline) < 0 ? probeTimeout : deadline;
    try {
      JsonNode discovered =
          connection.request(Methods.DISCOVER, modernParams(client, NODES.objectNode()), probe);
      return modern(connection, discovered, client, deadline, log);
    } catch (RpcException e) {
      if (MODERN_ERRORS.contains(e.error().code())) {
        throw new Incompatible(describeModernError(e));
      }
      log.println(
          "notes-mcp: server/discover answered "
              + e.error().code()
              + " "
              + e.error().message()
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
      connection = launcher.start();
    }
    return legacy(connection, client, deadline, log);
  }

  private static Session modern(
      Connection connection,
      JsonNode discovered,
      Implementation client,
      Duration deadline,
      PrintStream log)
      throws Incompatible {
    requireComplete(discovered);
    JsonNode versions = discovered.get("supportedVersions");
    if (versions == null || !versions.isArray()) {
      throw new Incompatible("server/discover returned no supportedVersions");
    }
    List<String> offered = new ArrayList<>();
    for (JsonNode version : versions) {
      offered.add(version.asString());
    }
    if (!offered.contains(Versions.MODERN)) {
      throw new Incompatible("the server supports " + offered + ", not " + Versions.MODERN);
    }
    log.println(
        "notes-mcp: modern era, protocol "
            + Versions.MODERN
            + ", server "
            + serverInfo(discovered.path("_meta").get(Methods.META_SERVER_INFO)));
    return new Session(connection, true, Versions.MODERN, client, deadline);
  }

  private static Session legacy(
      Connection connection, Implementation client, Duration deadline, PrintStream log)
      throws IOException, RpcException, Incompatible {
    ObjectNode params = NODES.objectNode();
    params.put("protocolVersion", Versions.LEGACY.get(0));
    params.putObject("capabilities");
    params.set("clientInfo", client.toJson());
    JsonNode result = connection.request(Methods.INITIALIZE, params, deadline);
    String version = result.path("protocolVersion").asString("");
    if (!Versions.LEGACY.contains(version)) {
      throw new Incompatible(
          "the server answered initialize with protocol version \""
              + version
              + "\"; this client speaks "
              + Versions.MODERN
              + " and "
              + Versions.LEGACY);
    }
    connection.notify(Methods.INITIALIZED, null);
    log.println(
        "notes-mcp: legacy era, protocol "
            + version
            + ", server "
            + serverInfo(result.get("serverInfo")));
    return new Session(connection, false, version, client, deadline);
  }

  private static String describeModernError(RpcException e) {
    JsonNode supported = e.error().data() == null ? null : e.error().data().get("supported");
    return "the server is modern but refused "
        + Versions.MODERN
        + ": "
        + e.error().message()
        + (supported == null ? "" : " (it supports " + supported + ")");
  }

  private static String serverInfo(JsonNode info) {
    if (info == null || !info.isObject()) {
      return "(unnamed)";
    }
    return info.path("name").asString("?") + " " + info.path("version").asString("?");
  }

  /** "A resultType of any value unrecognized by the client MUST be considered invalid." */
  private static void requireComplete(JsonNode result) throws Incompatible {
    JsonNode type = result.get("resultType");
    if (type != null && !"complete".equals(type.asString())) {
      throw new Incompatible(
          "the server answered with resultType " + type + ", which this client does not handle");
    }
  }

  public boolean isModern() {
    return modern;
  }

  public String version() {
    return version;
  }

  /** {@code tools/list}: the server's tools, in its order. */
  public JsonNode listTools() throws IOException, RpcException, Incompatible {
    JsonNode result = request(Methods.TOOLS_LIST, NODES.objectNode());
    JsonNode tools = result.get("tools");
    if (tools == null || !tools.isArray()) {
      throw new Incompatible("tools/list returned no tools array");
    }
    return tools;
  }

  /**
   * {@code tools/call} with the arguments as the caller wrote them (a compact JSON object text,
   * kept raw so that what the server receives is exactly that), or none.
   */
  public JsonNode callTool(String name, String rawArguments)
      throws IOException, RpcException, Incompatible {
    ObjectNode params = NODES.objectNode();
    params.put("name", name);
    if (rawArguments != null) {
      params.putRawValue("arguments", new RawValue(rawArguments));
    }
    JsonNode result = request(Methods.TOOLS_CALL, params);
    if (!result.has("content")) {
      throw new Incompatible("tools/call returned a result without content");
    }
    return result;
  }

  private JsonNode request(String method, ObjectNode params)
      throws IOException, RpcException, Incompatible {
    JsonNode result =
        connection.request(method, modern ? modernParams(client, params) : params, deadline);
    if (modern) {
      requireComplete(result);
    }
    return result;
  }

  private static ObjectNode modernParams(Implementation client, ObjectNode params) {
    ObjectNode meta = params.putObject("_meta");
    meta.put(Methods.META_PROTOCOL_VERSION, Versions.MODERN);
    meta.putObject(Methods.META_CLIENT_CAPABILITIES);
    meta.set(Methods.META_CLIENT_INFO, client.toJson());
    return params;
  }

  /** Closes the server: input closed, then terminate, then kill (stdio binding, "Shutdown"). */
  public int close(Duration grace) throws InterruptedException {
    return connection.close(grace);
  }
}

package notesmcp.mcp.server;

import java.io.PrintStream;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import notesmcp.jsonrpc.Message;
import notesmcp.jsonrpc.Message.RawMember;
import notesmcp.jsonrpc.Message.Request;
import notesmcp.jsonrpc.Message.Success;
import notesmcp.jsonrpc.RpcException;
import notesmcp.mcp.Protocol;
import notesmcp.mcp.Protocol.Implementation;
import notesmcp.text.TerminalText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Answers one request of either era. The era is decided once per request, before the method runs
 * (spec 2026-07-28, versioning, "Backward Compatibility": "A request carrying modern per-request
 * _meta is served statelessly according to this revision. An initialize request selects legacy
 * semantics, scoped to the stdio process").
 *
 * <p>Checks run in docs/protocol.md's order: the method ({@code -32601}), the {@code _meta} fields
 * ({@code -32602}), the version ({@code -32022}), then the method's own params.
 *
 * <p>{@link #reply} is where a request's outcome becomes its reply: a result, or an error reply
 * built by {@link ProtocolErrors#reply}, the one builder of every error reply the server sends. A
 * bug (any other exception) is logged with its stack trace on stderr and answered {@code -32603}
 * with a fixed text: no class name, cause or trace ever reaches the wire (docs/design.md, "Errors:
 * three outcomes, plus bugs").
 *
 * <p>Called by whichever server thread answers a request, several at once when calls are slow (see
 * CONCURRENCY.md); its only state is the negotiated legacy version and the legacy client's
 * self-reported {@code clientInfo}, both volatile.
 */
final class Dispatcher {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Set<String> MODERN_METHODS =
      Set.of(Protocol.DISCOVER, Protocol.TOOLS_LIST, Protocol.TOOLS_CALL);
  private static final Set<String> LEGACY_METHODS =
      Set.of(Protocol.INITIALIZE, Protocol.PING, Protocol.TOOLS_LIST, Protocol.TOOLS_CALL);

  /** How long a client may cache discovery and the tool list: the policy is fixed per process. */
  private static final long TTL_MS = 300_000;

  private final Tools tools;
  private final Set<String> toolNames = new HashSet<>();
  private final Implementation info;
  private final String instructions;
  private final PrintStream log;
  private volatile String legacyVersion;
  private volatile Implementation legacyClient;

  /**
   * @param info the server's name and version, as every reply that carries them says
   * @param instructions what discovery and {@code initialize} tell the client, or null
   */
  Dispatcher(Tools tools, Implementation info, String instructions, PrintStream log) {
    this.tools = tools;
    for (Tools.Tool tool : tools.list()) {
      toolNames.add(tool.name());
    }
    this.info = info;
    this.instructions = instructions;
    this.log = log;
  }

  /**
   * The era and version a request is served under, decided before its method runs, and the client's
   * self-reported identity (null when it gave none).
   */
  private record Context(boolean modern, String version, Implementation client) {}

  /**
   * The reply to {@code request}: a {@link Success} or an error reply; null when the call was
   * cancelled before it ran (no reply is sent for a cancelled request).
   */
  Message reply(Request request, BooleanSupplier cancelled) {
    try {
      return new Success(request.id(), handle(request, cancelled));
    } catch (RpcException e) {
      return ProtocolErrors.reply(request.id(), e.error());
    } catch (CancellationException e) {
      log.println("notes-mcp: request " + request.id() + " cancelled before it ran; no reply");
      return null;
    } catch (RuntimeException e) {
      log.println("notes-mcp: internal error answering request " + request.id() + ":");
      e.printStackTrace(log);
      return ProtocolErrors.reply(request.id(), ProtocolErrors.internalError());
    }
  }

  /** Whether a batch is served now: a 2025-03-26 session has been initialized. */
  boolean servesBatches() {
    return Protocol.hasBatches(legacyVersion);
  }

  private JsonNode handle(Request request, BooleanSupplier cancelled) throws RpcException {
    Context context = context(request);
    JsonNode params = request.params();
    switch (request.method()) {
      case Protocol.DISCOVER:
        return complete(discover());
      case Protocol.TOOLS_LIST:
        return finish(context, listTools(params, context));
      case Protocol.TOOLS_CALL:
        return finish(context, callTool(request, context, cancelled));
      case Protocol.INITIALIZE:
        return initialize(params);
      case Protocol.PING:
        return NODES.objectNode();
      default:
        throw new AssertionError(request.method());
    }
  }

  private Context context(Request request) throws RpcException {
    String method = request.method();
    JsonNode params = request.params();
    if (RequestMeta.isModern(params) || method.equals(Protocol.DISCOVER)) {
      if (!MODERN_METHODS.contains(method)) {
        throw ProtocolErrors.methodNotFound(
            method,
            LEGACY_METHODS.contains(method)
                ? " (not part of revision " + Protocol.MODERN + ")"
                : "");
      }
      RequestMeta meta = RequestMeta.read(params);
      if (!Protocol.SUPPORTED.contains(meta.protocolVersion())) {
        throw ProtocolErrors.unsupportedVersion(meta.protocolVersion());
      }
      return new Context(true, meta.protocolVersion(), meta.clientInfo());
    }
    if (!LEGACY_METHODS.contains(method)) {
      throw ProtocolErrors.methodNotFound(method, "");
    }
    if (params != null && !params.isObject()) {
      throw ProtocolErrors.invalidParams("Invalid params: params must be an object");
    }
    String version = legacyVersion;
    if (version == null && !method.equals(Protocol.INITIALIZE) && !method.equals(Protocol.PING)) {
      // Neither era applies: a 2026-07-28 request without its _meta, or a 2025 one before
      // initialize ("The initialization phase MUST be the first interaction").
      throw ProtocolErrors.invalidParams(
          "Invalid params: _meta[\""
              + Protocol.META_PROTOCOL_VERSION
              + "\"] is required (2026-07-28 requests carry it on every request; 2025 clients send"
              + " initialize first)");
    }
    return new Context(false, version, legacyClient);
  }

  private ObjectNode discover() {
    ObjectNode result = NODES.objectNode();
    ArrayNode versions = result.putArray("supportedVersions");
    for (String version : Protocol.SUPPORTED) {
      versions.add(version);
    }
    result.putObject("capabilities").putObject("tools");
    if (instructions != null) {
      result.put("instructions", instructions);
    }
    result.put("ttlMs", TTL_MS);
    result.put("cacheScope", "public");
    return result;
  }

  private ObjectNode listTools(JsonNode params, Context context) throws RpcException {
    JsonNode cursor = params == null ? null : params.get("cursor");
    if (cursor != null) {
      throw ProtocolErrors.invalidParams(
          "Invalid params: unknown cursor; this server lists every" + " tool on one page");
    }
    ObjectNode result = NODES.objectNode();
    ArrayNode list = result.putArray("tools");
    for (Tools.Tool tool : tools.list()) {
      list.add(tool.toJson(Protocol.hasToolAnnotations(context.version())));
    }
    if (context.modern()) {
      result.put("ttlMs", TTL_MS);
      // The schemas carry this user's configured note names: not for shared caches.
      result.put("cacheScope", "private");
    }
    return result;
  }

  private ObjectNode callTool(Request request, Context context, BooleanSupplier cancelled)
      throws RpcException {
    JsonNode params = request.params();
    JsonNode name = params == null ? null : params.get("name");
    if (name == null || !name.isString()) {
      throw ProtocolErrors.invalidParams("Invalid params: tools/call needs a string \"name\"");
    }
    // "arguments" reaches the tool as the exact text received; present but not an object fails
    // the CallToolRequest schema itself (docs/behaviour.md, "Tools").
    RawMember arguments = request.raw();
    if (arguments instanceof RawMember.NotAnObject) {
      throw ProtocolErrors.invalidParams(
          "Invalid params: \"arguments\" must be a JSON object, not "
              + ((RawMember.NotAnObject) arguments).type());
    }
    String tool = name.stringValue();
    if (!toolNames.contains(tool)) {
      throw ProtocolErrors.invalidParams("Unknown tool: " + tool);
    }
    String text =
        arguments instanceof RawMember.ObjectText
            ? ((RawMember.ObjectText) arguments).text()
            : null;
    return tools.call(tool, text, context.client(), cancelled).toJson();
  }

  private JsonNode initialize(JsonNode params) throws RpcException {
    JsonNode requested = params == null ? null : params.get("protocolVersion");
    if (requested == null || !requested.isString()) {
      throw ProtocolErrors.invalidParams(
          "Invalid params: initialize needs a string" + " \"protocolVersion\"");
    }
    // 2025-11-25 lifecycle: answer the same version if supported, else the latest we support.
    String version =
        Protocol.LEGACY.contains(requested.stringValue())
            ? requested.stringValue()
            : Protocol.LEGACY.get(0);
    JsonNode client = params.get("clientInfo");
    // Kept only as self-reported identity for the records: read leniently, never refused.
    legacyClient = Implementation.from(client);
    legacyVersion = version;
    log.println(
        "notes-mcp: legacy client "
            + (legacyClient == null
                ? "(no clientInfo with a string name and version)"
                : TerminalText.quoted(legacyClient.name(), 200)
                    + " "
                    + TerminalText.quoted(legacyClient.version(), 200))
            + " initialized; serving revision "
            + version);
    ObjectNode result = NODES.objectNode();
    result.put("protocolVersion", version);
    result.putObject("capabilities").putObject("tools").put("listChanged", false);
    result.set("serverInfo", info.toJson());
    if (instructions != null) {
      result.put("instructions", instructions);
    }
    return result;
  }

  private JsonNode finish(Context context, ObjectNode result) {
    return context.modern() ? complete(result) : result;
  }

  /** Adds what every 2026-07-28 result carries: resultType, and the server's identity. */
  private ObjectNode complete(ObjectNode result) {
    result.put("resultType", "complete");
    result.putObject("_meta").set(Protocol.META_SERVER_INFO, info.toJson());
    return result;
  }

  /**
   * The per-request protocol fields of a 2026-07-28 request, read from {@code params._meta} once,
   * before the method runs (spec 2026-07-28, basic, "Per-request protocol fields": "A request
   * missing any required field is malformed; the server MUST reject it with JSON-RPC error code
   * -32602"). {@code clientInfo} is self-reported and used for logs only.
   */
  static record RequestMeta(
      String protocolVersion, JsonNode clientCapabilities, Implementation clientInfo) {
    private static final Set<String> LOG_LEVELS =
        Set.of("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency");

    /** Whether {@code params} carries modern per-request metadata, which selects the modern era. */
    static boolean isModern(JsonNode params) {
      JsonNode meta = params == null ? null : params.get("_meta");
      return meta != null
          && meta.isObject()
          && (meta.has(Protocol.META_PROTOCOL_VERSION)
              || meta.has(Protocol.META_CLIENT_CAPABILITIES)
              || meta.has(Protocol.META_CLIENT_INFO));
    }

    /** Reads and checks the fields, in the contract's order; the version is checked separately. */
    static RequestMeta read(JsonNode params) throws RpcException {
      if (params == null || !params.isObject()) {
        throw ProtocolErrors.invalidParams(
            "Invalid params: params must be an object carrying _meta"
                + " (2026-07-28 requests carry it on every request; 2025 clients send initialize"
                + " first)");
      }
      JsonNode meta = params.get("_meta");
      if (meta == null || !meta.isObject()) {
        throw ProtocolErrors.invalidParams(
            "Invalid params: params._meta is required and must be an"
                + " object (2026-07-28 requests carry it on every request; 2025 clients send"
                + " initialize first)");
      }
      JsonNode version = meta.get(Protocol.META_PROTOCOL_VERSION);
      if (version == null || !version.isString()) {
        throw ProtocolErrors.invalidParams(
            "Invalid params: _meta[\""
                + Protocol.META_PROTOCOL_VERSION
                + "\"] is required and must be a string");
      }
      JsonNode capabilities = meta.get(Protocol.META_CLIENT_CAPABILITIES);
      if (capabilities == null || !capabilities.isObject()) {
        throw ProtocolErrors.invalidParams(
            "Invalid params: _meta[\""
                + Protocol.META_CLIENT_CAPABILITIES
                + "\"] is required and must be an object");
      }
      JsonNode info = meta.get(Protocol.META_CLIENT_INFO);
      Implementation client = Implementation.from(info);
      if (info != null && client == null) {
        throw ProtocolErrors.invalidParams(
            "Invalid params: _meta[\""
                + Protocol.META_CLIENT_INFO
                + "\"] must be an object with string \"name\" and \"version\"");
      }
      JsonNode level = meta.get(Protocol.META_LOG_LEVEL);
      if (level != null && !(level.isString() && LOG_LEVELS.contains(level.stringValue()))) {
        throw ProtocolErrors.invalidParams(
            "Invalid params: _meta[\""
                + Protocol.META_LOG_LEVEL
                + "\"] must be one of "
                + String.join(", ", LOG_LEVELS.stream().sorted().toList()));
      }
      return new RequestMeta(version.stringValue(), capabilities, client);
    }
  }
}

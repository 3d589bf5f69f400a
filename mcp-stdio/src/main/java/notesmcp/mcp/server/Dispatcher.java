package notesmcp.mcp.server;

import java.io.PrintStream;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CancellationException;
import notesmcp.jsonrpc.Message;
import notesmcp.jsonrpc.Message.Request;
import notesmcp.jsonrpc.Message.Success;
import notesmcp.jsonrpc.RawMember;
import notesmcp.jsonrpc.RpcException;
import notesmcp.mcp.Implementation;
import notesmcp.mcp.Methods;
import notesmcp.mcp.Versions;
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
 * <p>Checks run in CONTRACT §4's order: the method ({@code -32601}), the {@code _meta} fields
 * ({@code -32602}), the version ({@code -32022}), then the method's own params.
 *
 * <p>{@link #reply} is where a request's outcome becomes its reply: a result, or an error reply
 * built by {@link ProtocolErrors#reply}, the one builder of every error reply the server sends. A
 * bug (any other exception) is logged with its stack trace on stderr and answered {@code -32603}
 * with a fixed text: no class name, cause or trace ever reaches the wire (STYLE §4).
 *
 * <p>Called by whichever server thread answers a request, several at once when calls are slow (see
 * CONCURRENCY.md); its only state is the negotiated legacy version and the legacy client's
 * self-reported {@code clientInfo}, both volatile.
 */
final class Dispatcher {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Set<String> MODERN_METHODS =
      Set.of(Methods.DISCOVER, Methods.TOOLS_LIST, Methods.TOOLS_CALL);
  private static final Set<String> LEGACY_METHODS =
      Set.of(Methods.INITIALIZE, Methods.PING, Methods.TOOLS_LIST, Methods.TOOLS_CALL);

  /** How long a client may cache discovery and the tool list: the policy is fixed per process. */
  private static final long TTL_MS = 300_000;

  private final Tools tools;
  private final Set<String> toolNames = new HashSet<>();
  private final Server.Options options;
  private final PrintStream log;
  private volatile String legacyVersion;
  private volatile Implementation legacyClient;

  Dispatcher(Tools tools, Server.Options options, PrintStream log) {
    this.tools = tools;
    for (Tool tool : tools.list()) {
      toolNames.add(tool.name());
    }
    this.options = options;
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
  Message reply(Request request, CancelToken token) {
    try {
      return new Success(request.id(), handle(request, token));
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

  private JsonNode handle(Request request, CancelToken token) throws RpcException {
    Context context = context(request);
    JsonNode params = request.params();
    switch (request.method()) {
      case Methods.DISCOVER:
        return complete(discover());
      case Methods.TOOLS_LIST:
        return finish(context, listTools(params, context));
      case Methods.TOOLS_CALL:
        return finish(context, callTool(request, context, token));
      case Methods.INITIALIZE:
        return initialize(params);
      case Methods.PING:
        return NODES.objectNode();
      default:
        throw new AssertionError(request.method());
    }
  }

  private Context context(Request request) throws RpcException {
    String method = request.method();
    JsonNode params = request.params();
    if (RequestMeta.isModern(params) || method.equals(Methods.DISCOVER)) {
      if (!MODERN_METHODS.contains(method)) {
        throw ProtocolErrors.methodNotFound(
            method,
            LEGACY_METHODS.contains(method)
                ? " (not part of revision " + Versions.MODERN + ")"
                : "");
      }
      RequestMeta meta = RequestMeta.read(params);
      if (!Versions.SUPPORTED.contains(meta.protocolVersion())) {
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
    if (version == null && !method.equals(Methods.INITIALIZE) && !method.equals(Methods.PING)) {
      // Neither era applies: a 2026-07-28 request without its _meta, or a 2025 one before
      // initialize ("The initialization phase MUST be the first interaction").
      throw ProtocolErrors.invalidParams(
          "Invalid params: _meta[\""
              + Methods.META_PROTOCOL_VERSION
              + "\"] is required (2026-07-28 requests carry it on every request; 2025 clients send"
              + " initialize first)");
    }
    return new Context(false, version, legacyClient);
  }

  private ObjectNode discover() {
    ObjectNode result = NODES.objectNode();
    ArrayNode versions = result.putArray("supportedVersions");
    for (String version : Versions.SUPPORTED) {
      versions.add(version);
    }
    result.putObject("capabilities").putObject("tools");
    if (options.instructions() != null) {
      result.put("instructions", options.instructions());
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
    for (Tool tool : tools.list()) {
      list.add(tool.toJson(Versions.hasToolAnnotations(context.version())));
    }
    if (context.modern()) {
      result.put("ttlMs", TTL_MS);
      // The schemas carry this user's configured note names: not for shared caches.
      result.put("cacheScope", "private");
    }
    return result;
  }

  private ObjectNode callTool(Request request, Context context, CancelToken token)
      throws RpcException {
    JsonNode params = request.params();
    JsonNode name = params == null ? null : params.get("name");
    if (name == null || !name.isString()) {
      throw ProtocolErrors.invalidParams("Invalid params: tools/call needs a string \"name\"");
    }
    // "arguments" reaches the tool as the exact text received; present but not an object fails
    // the CallToolRequest schema itself (CONTRACT §3).
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
    return tools.call(tool, text, context.client(), token).toJson();
  }

  private JsonNode initialize(JsonNode params) throws RpcException {
    JsonNode requested = params == null ? null : params.get("protocolVersion");
    if (requested == null || !requested.isString()) {
      throw ProtocolErrors.invalidParams(
          "Invalid params: initialize needs a string" + " \"protocolVersion\"");
    }
    // 2025-11-25 lifecycle: answer the same version if supported, else the latest we support.
    String version =
        Versions.LEGACY.contains(requested.stringValue())
            ? requested.stringValue()
            : Versions.LEGACY.get(0);
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
    result.set("serverInfo", options.info().toJson());
    if (options.instructions() != null) {
      result.put("instructions", options.instructions());
    }
    return result;
  }

  private JsonNode finish(Context context, ObjectNode result) {
    return context.modern() ? complete(result) : result;
  }

  /** Adds what every 2026-07-28 result carries: resultType, and the server's identity. */
  private ObjectNode complete(ObjectNode result) {
    result.put("resultType", "complete");
    result.putObject("_meta").set(Methods.META_SERVER_INFO, options.info().toJson());
    return result;
  }
}

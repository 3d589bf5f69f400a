package notesmcp.mcp.server;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import notesmcp.jsonrpc.Message;
import notesmcp.jsonrpc.Message.ErrorObject;
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
 * semantics, scoped to the stdio process (stdio) or the session (HTTP)").
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
 * <p>Called by whichever thread answers a request, several at once when calls are slow (see
 * CONCURRENCY.md). It holds no state of its own: a legacy session's negotiated version and
 * self-reported {@code clientInfo} are in its {@link Session}, which each request's {@link
 * Exchange} names; the resource methods are {@link ResourceMethods}'.
 */
final class Dispatcher {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Set<String> MODERN_TOOLS =
      Set.of(Protocol.DISCOVER, Protocol.TOOLS_LIST, Protocol.TOOLS_CALL);
  private static final Set<String> LEGACY_TOOLS =
      Set.of(Protocol.INITIALIZE, Protocol.PING, Protocol.TOOLS_LIST, Protocol.TOOLS_CALL);
  private static final Set<String> MODERN_RESOURCES =
      Set.of(
          Protocol.RESOURCES_LIST,
          Protocol.RESOURCES_TEMPLATES_LIST,
          Protocol.RESOURCES_READ,
          Protocol.COMPLETE,
          Protocol.SUBSCRIPTIONS_LISTEN);
  private static final Set<String> LEGACY_RESOURCES =
      Set.of(
          Protocol.RESOURCES_LIST,
          Protocol.RESOURCES_TEMPLATES_LIST,
          Protocol.RESOURCES_READ,
          Protocol.RESOURCES_SUBSCRIBE,
          Protocol.RESOURCES_UNSUBSCRIBE,
          Protocol.COMPLETE);

  /** How long a request read right behind an {@code initialize} waits for its answer, at most. */
  private static final long INITIALIZE_WAIT_MS = 5_000;

  /** How long a client may cache discovery and the tool list: the policy is fixed per process. */
  private static final long TTL_MS = 300_000;

  private final Tools tools;
  private final ResourceMethods resources; // null: no resources
  private final Set<String> modernMethods = new HashSet<>(MODERN_TOOLS);
  private final Set<String> legacyMethods = new HashSet<>(LEGACY_TOOLS);
  private final Map<String, Tools.Tool> toolsByName = new HashMap<>();
  private final Implementation info;
  private final String instructions;
  private final PrintStream log;

  /**
   * @param resources the resource methods, or null for none (then their methods are not found)
   * @param info the server's name and version, as every reply that carries them says
   * @param instructions what discovery and {@code initialize} tell the client, or null
   */
  Dispatcher(
      Tools tools,
      ResourceMethods resources,
      Implementation info,
      String instructions,
      PrintStream log) {
    this.tools = tools;
    this.resources = resources;
    if (resources != null) {
      modernMethods.addAll(MODERN_RESOURCES);
      legacyMethods.addAll(LEGACY_RESOURCES);
    }
    for (Tools.Tool tool : tools.list()) {
      toolsByName.put(tool.name(), tool);
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
   * cancelled before it ran (no reply is sent for a cancelled request), or when it opened a stream.
   */
  Message reply(Request request, Exchange exchange) {
    try {
      JsonNode result = handle(request, exchange);
      // A subscriptions/listen stream that opened has no reply until it ends.
      return result == null ? null : new Success(request.id(), result);
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

  /** {@link Core#precheck}: the era's checks alone, as {@link #handle} runs them first. */
  ErrorObject precheck(Request request, Session session) {
    try {
      context(request, session);
      return null;
    } catch (RpcException e) {
      return e.error();
    }
  }

  /** The tool of that name, or null when there is none. */
  Tools.Tool tool(String name) {
    return toolsByName.get(name);
  }

  /** Whether a method is served in the era a request with these params selects. */
  boolean serves(String method, boolean modern) {
    return modern ? modernMethods.contains(method) : legacyMethods.contains(method);
  }

  private JsonNode handle(Request request, Exchange exchange) throws RpcException {
    Context context = context(request, exchange.session());
    JsonNode params = request.params();
    Session session = exchange.session();
    switch (request.method()) {
      case Protocol.DISCOVER:
        return modernResult(discover());
      case Protocol.TOOLS_LIST:
        return finish(context, listTools(params, context, exchange.caller()));
      case Protocol.TOOLS_CALL:
        return finish(context, callTool(request, context, exchange));
      case Protocol.INITIALIZE:
        try {
          return initialize(params, session);
        } finally {
          session.initializeAnswered();
        }
      case Protocol.PING:
        return NODES.objectNode();
      case Protocol.RESOURCES_LIST:
        return finish(
            context,
            cacheable(
                context,
                resources.list(params, context.modern(), context.version(), session),
                0,
                "private"));
      case Protocol.RESOURCES_TEMPLATES_LIST:
        return finish(
            context,
            cacheable(
                context,
                resources.templates(params, context.modern(), context.version(), session),
                TTL_MS,
                "public"));
      case Protocol.RESOURCES_READ:
        return finish(
            context,
            cacheable(
                context,
                resources.read(params, context.modern(), exchange, context.client()),
                0,
                "private"));
      case Protocol.COMPLETE:
        return finish(context, resources.completion(params));
      case Protocol.SUBSCRIPTIONS_LISTEN:
        resources.listen(request, exchange);
        return null;
      case Protocol.RESOURCES_SUBSCRIBE:
        return resources.subscribe(params, session);
      case Protocol.RESOURCES_UNSUBSCRIBE:
        return resources.unsubscribe(params, session);
      default:
        throw new AssertionError(request.method());
    }
  }

  private Context context(Request request, Session session) throws RpcException {
    String method = request.method();
    JsonNode params = request.params();
    if (RequestMeta.isModern(params) || method.equals(Protocol.DISCOVER)) {
      if (!modernMethods.contains(method)) {
        throw ProtocolErrors.methodNotFound(
            method,
            legacyMethods.contains(method)
                ? " (not part of revision " + Protocol.MODERN + ")"
                : "");
      }
      RequestMeta meta = RequestMeta.read(params);
      if (!Protocol.SUPPORTED.contains(meta.protocolVersion())) {
        throw ProtocolErrors.unsupportedVersion(meta.protocolVersion());
      }
      return new Context(true, meta.protocolVersion(), meta.clientInfo());
    }
    if (!legacyMethods.contains(method)) {
      throw ProtocolErrors.methodNotFound(method, "");
    }
    if (params != null && !params.isObject()) {
      throw ProtocolErrors.invalidParams("Invalid params: params must be an object");
    }
    String version = session.version();
    if (version == null && !method.equals(Protocol.INITIALIZE) && !method.equals(Protocol.PING)) {
      version = session.versionOnceInitialized(INITIALIZE_WAIT_MS);
    }
    if (version == null && !method.equals(Protocol.INITIALIZE) && !method.equals(Protocol.PING)) {
      // Neither era applies: a 2026-07-28 request without its _meta, or a 2025 one before
      // initialize ("The initialization phase MUST be the first interaction").
      throw ProtocolErrors.invalidParams(
          "Invalid params: _meta[\""
              + Protocol.META_PROTOCOL_VERSION
              + "\"] is required (2026-07-28 requests carry it on every request; 2025 clients send"
              + " initialize first)");
    }
    return new Context(false, version, session.client());
  }

  private ObjectNode discover() {
    ObjectNode result = NODES.objectNode();
    ArrayNode versions = result.putArray("supportedVersions");
    for (String version : Protocol.SUPPORTED) {
      versions.add(version);
    }
    ObjectNode capabilities = result.putObject("capabilities");
    capabilities.putObject("tools");
    addResourceCapabilities(capabilities, Protocol.MODERN);
    if (instructions != null) {
      result.put("instructions", instructions);
    }
    result.put("ttlMs", TTL_MS);
    result.put("cacheScope", "public");
    return result;
  }

  /**
   * The tools, in their order: every one, or for a caller whose scopes allow read-only tools only,
   * those whose {@code readOnlyHint} is true (a caller is shown only what it may call).
   */
  private ObjectNode listTools(JsonNode params, Context context, Caller caller)
      throws RpcException {
    JsonNode cursor = params == null ? null : params.get("cursor");
    if (cursor != null) {
      throw ProtocolErrors.invalidParams(
          "Invalid params: unknown cursor; this server lists every" + " tool on one page");
    }
    ObjectNode result = NODES.objectNode();
    ArrayNode list = result.putArray("tools");
    for (Tools.Tool tool : tools.list()) {
      if (caller == null || !caller.readOnly() || tool.isReadOnly()) {
        list.add(tool.toJson(context.version()));
      }
    }
    if (context.modern()) {
      result.put("ttlMs", TTL_MS);
      // The schemas carry this user's configured note names: not for shared caches.
      result.put("cacheScope", "private");
    }
    return result;
  }

  private ObjectNode callTool(Request request, Context context, Exchange exchange)
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
    String toolName = name.stringValue();
    Tools.Tool tool = toolsByName.get(toolName);
    if (tool == null) {
      throw ProtocolErrors.invalidParams("Unknown tool: " + toolName);
    }
    Caller caller = exchange.caller();
    if (caller != null && caller.readOnly() && !tool.isReadOnly()) {
      throw new RpcException(ProtocolErrors.outsideScope(toolName));
    }
    String text =
        arguments instanceof RawMember.ObjectText
            ? ((RawMember.ObjectText) arguments).text()
            : null;
    return tools.call(toolName, text, context.client(), caller, exchange).toJson();
  }

  private JsonNode initialize(JsonNode params, Session session) throws RpcException {
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
    Implementation legacyClient = Implementation.from(client);
    session.initialized(version, legacyClient);
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
    ObjectNode capabilities = result.putObject("capabilities");
    capabilities.putObject("tools").put("listChanged", false);
    addResourceCapabilities(capabilities, version);
    result.set("serverInfo", info.toJson());
    if (instructions != null) {
      result.put("instructions", instructions);
    }
    return result;
  }

  /**
   * Resources, with subscriptions and list changes, and completions where the revision has that
   * capability (2024-11-05 has {@code completion/complete} but no capability to declare it).
   */
  private void addResourceCapabilities(ObjectNode capabilities, String version) {
    if (resources == null) {
      return;
    }
    capabilities.putObject("resources").put("subscribe", true).put("listChanged", true);
    if (Protocol.hasCompletionsCapability(version)) {
      capabilities.putObject("completions");
    }
  }

  /** 2026-07-28's cacheable results carry {@code ttlMs} and {@code cacheScope}; no legacy one. */
  private static ObjectNode cacheable(Context context, ObjectNode result, long ttl, String scope) {
    if (context.modern()) {
      result.put("ttlMs", ttl);
      result.put("cacheScope", scope);
    }
    return result;
  }

  private JsonNode finish(Context context, ObjectNode result) {
    return context.modern() ? modernResult(result) : result;
  }

  /** Adds what every 2026-07-28 result carries: resultType, and the server's identity. */
  private ObjectNode modernResult(ObjectNode result) {
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

    /**
     * Reads and checks the fields, in docs/protocol.md's order; the version is checked separately.
     */
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

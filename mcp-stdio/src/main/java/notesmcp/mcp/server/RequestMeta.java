package notesmcp.mcp.server;

import java.util.Set;
import notesmcp.jsonrpc.RpcException;
import notesmcp.mcp.Implementation;
import notesmcp.mcp.Methods;
import tools.jackson.databind.JsonNode;

/**
 * The per-request protocol fields of a 2026-07-28 request, read from {@code params._meta} once,
 * before the method runs (spec 2026-07-28, basic, "Per-request protocol fields": "A request missing
 * any required field is malformed; the server MUST reject it with JSON-RPC error code -32602").
 * {@code clientInfo} is self-reported and used for logs only.
 */
record RequestMeta(String protocolVersion, JsonNode clientCapabilities, Implementation clientInfo) {
  private static final Set<String> LOG_LEVELS =
      Set.of("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency");

  /** Whether {@code params} carries modern per-request metadata, which selects the modern era. */
  static boolean isModern(JsonNode params) {
    JsonNode meta = params == null ? null : params.get("_meta");
    return meta != null
        && meta.isObject()
        && (meta.has(Methods.META_PROTOCOL_VERSION)
            || meta.has(Methods.META_CLIENT_CAPABILITIES)
            || meta.has(Methods.META_CLIENT_INFO));
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
    JsonNode version = meta.get(Methods.META_PROTOCOL_VERSION);
    if (version == null || !version.isString()) {
      throw ProtocolErrors.invalidParams(
          "Invalid params: _meta[\""
              + Methods.META_PROTOCOL_VERSION
              + "\"] is required and must be a string");
    }
    JsonNode capabilities = meta.get(Methods.META_CLIENT_CAPABILITIES);
    if (capabilities == null || !capabilities.isObject()) {
      throw ProtocolErrors.invalidParams(
          "Invalid params: _meta[\""
              + Methods.META_CLIENT_CAPABILITIES
              + "\"] is required and must be an object");
    }
    JsonNode info = meta.get(Methods.META_CLIENT_INFO);
    Implementation client = Implementation.from(info);
    if (info != null && client == null) {
      throw ProtocolErrors.invalidParams(
          "Invalid params: _meta[\""
              + Methods.META_CLIENT_INFO
              + "\"] must be an object with string \"name\" and \"version\"");
    }
    JsonNode level = meta.get(Methods.META_LOG_LEVEL);
    if (level != null && !(level.isString() && LOG_LEVELS.contains(level.stringValue()))) {
      throw ProtocolErrors.invalidParams(
          "Invalid params: _meta[\""
              + Methods.META_LOG_LEVEL
              + "\"] must be one of "
              + String.join(", ", LOG_LEVELS.stream().sorted().toList()));
    }
    return new RequestMeta(version.stringValue(), capabilities, client);
  }
}

package notesmcp.mcp;

import notesmcp.jsonrpc.ErrorCodes;
import notesmcp.jsonrpc.ErrorObject;
import notesmcp.jsonrpc.RpcException;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The MCP error codes and the protocol errors this layer answers with. */
public final class ProtocolErrors {
  /** Spec 2026-07-28: {@code UnsupportedProtocolVersionError}. */
  public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

  private ProtocolErrors() {}

  static RpcException invalidParams(String message) {
    return new RpcException(ErrorCodes.INVALID_PARAMS, message);
  }

  static RpcException methodNotFound(String method, String why) {
    return new RpcException(ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + method + why);
  }

  static RpcException unsupportedVersion(String requested) {
    ObjectNode data = JsonNodeFactory.instance.objectNode();
    ArrayNode supported = data.putArray("supported");
    for (String version : Versions.SUPPORTED) {
      supported.add(version);
    }
    data.put("requested", requested);
    return new RpcException(
        new ErrorObject(
            UNSUPPORTED_PROTOCOL_VERSION,
            "Unsupported protocol version: "
                + requested
                + " (supported per request: "
                + String.join(", ", Versions.SUPPORTED)
                + "; 2025 revisions through initialize)",
            data));
  }
}

package notesmcp.mcp.server;

import notesmcp.jsonrpc.ErrorCodes;
import notesmcp.jsonrpc.Message.ErrorObject;
import notesmcp.jsonrpc.Message.Failure;
import notesmcp.jsonrpc.Message.Id;
import notesmcp.jsonrpc.RpcException;
import notesmcp.mcp.Protocol;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every protocol error the server answers with, and {@link #reply}, the one place an error reply is
 * built. Each text names what was wrong and the value, from our own words and the client's input
 * only: never an exception's class name, cause chain or stack trace (docs/design.md, "Errors: three
 * outcomes, plus bugs"; the details of a bug go to stderr).
 */
final class ProtocolErrors {
  private ProtocolErrors() {}

  /** The error reply to the request {@code id} (null when its id could not be read). */
  static Failure reply(Id id, ErrorObject error) {
    return new Failure(id, error);
  }

  static RpcException invalidParams(String message) {
    return new RpcException(ErrorCodes.INVALID_PARAMS, message);
  }

  static RpcException methodNotFound(String method, String why) {
    return new RpcException(ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + method + why);
  }

  static RpcException unsupportedVersion(String requested) {
    ObjectNode data = JsonNodeFactory.instance.objectNode();
    ArrayNode supported = data.putArray("supported");
    for (String version : Protocol.SUPPORTED) {
      supported.add(version);
    }
    data.put("requested", requested);
    return new RpcException(
        new ErrorObject(
            Protocol.UNSUPPORTED_VERSION_ERROR,
            "Unsupported protocol version: "
                + requested
                + " (supported per request: "
                + String.join(", ", Protocol.SUPPORTED)
                + "; 2025 revisions through initialize)",
            data));
  }

  /** docs/behaviour.md, "Limits": one line on stdin, at most 1 MiB; over it, -32600. */
  static ErrorObject lineTooLong(int maxLineBytes) {
    return new ErrorObject(
        ErrorCodes.INVALID_REQUEST, "Invalid Request: line longer than " + maxLineBytes + " bytes");
  }

  static ErrorObject idInFlight(Id id) {
    return new ErrorObject(
        ErrorCodes.INVALID_REQUEST, "Invalid Request: id " + id + " is already in flight");
  }

  /** docs/behaviour.md, "Limits": only when the bound is full of calls still being worked on. */
  static ErrorObject overloaded(int maxInFlight) {
    return new ErrorObject(
        ErrorCodes.OVERLOADED,
        "Server overloaded: " + maxInFlight + " requests already in flight; retry later");
  }

  /**
   * A call of a tool that is not read-only by a caller whose scopes allow read-only tools only (an
   * HTTP transport answers it 403 with {@code insufficient_scope} before it gets here; this is the
   * rule itself, for every way a call arrives).
   */
  static ErrorObject outsideScope(String tool) {
    return new ErrorObject(
        ErrorCodes.INVALID_REQUEST,
        "Forbidden: "
            + tool
            + " is not a read-only tool, and this caller's credential allows read-only tools only");
  }

  /** A bug of ours: a fixed text; the details are on stderr only. */
  static ErrorObject internalError() {
    return new ErrorObject(ErrorCodes.INTERNAL_ERROR, "Internal error; see the server's stderr");
  }
}

package notesmcp.jsonrpc;

import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.util.RawValue;

/**
 * One JSON-RPC 2.0 message. Two response types make "result XOR error" a fact of the type.
 *
 * <p>{@code params} and {@code result} stay JSON trees: this layer knows no methods. A params
 * member the codec was told to keep raw (see {@link Codec}) holds the text exactly as received.
 */
public sealed interface Message
    permits Message.Request, Message.Notification, Message.Success, Message.Failure {

  /** A request: it expects exactly one response with the same id. */
  record Request(Id id, String method, JsonNode params) implements Message {
    /** The params member {@code name} as the raw JSON text received, if it was kept raw. */
    public Optional<String> rawParam(String name) {
      return Message.rawParam(params, name);
    }
  }

  /** A notification: no response, ever. */
  record Notification(String method, JsonNode params) implements Message {}

  /** A successful response. */
  record Success(Id id, JsonNode result) implements Message {}

  /** An error response; {@code id} is null when the request's id could not be read. */
  record Failure(Id id, ErrorObject error) implements Message {}

  private static Optional<String> rawParam(JsonNode params, String name) {
    if (params instanceof ObjectNode) {
      JsonNode member = params.get(name);
      if (member != null && member.isPojo()) {
        Object pojo = ((tools.jackson.databind.node.POJONode) member).getPojo();
        if (pojo instanceof RawValue) {
          return Optional.of(String.valueOf(((RawValue) pojo).rawValue()));
        }
      }
    }
    return Optional.empty();
  }
}

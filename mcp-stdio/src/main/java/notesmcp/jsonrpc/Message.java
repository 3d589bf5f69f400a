package notesmcp.jsonrpc;

import tools.jackson.databind.JsonNode;

/**
 * One JSON-RPC 2.0 message. Two response types make "result XOR error" a fact of the type.
 *
 * <p>{@code params} and {@code result} stay JSON trees: this layer knows no methods. A request also
 * carries the one params member its codec keeps raw ({@link RawMember}), beside the tree and never
 * inside it.
 */
public sealed interface Message
    permits Message.Request, Message.Notification, Message.Success, Message.Failure {

  /**
   * A request: it expects exactly one response with the same id. {@code raw} is the params member
   * the codec kept as received ({@link RawMember#ABSENT} when none).
   */
  record Request(Id id, String method, JsonNode params, RawMember raw) implements Message {
    public Request {
      if (raw == null) {
        throw new IllegalArgumentException("raw is RawMember.ABSENT, never null");
      }
    }

    /** A request with nothing kept raw. */
    public Request(Id id, String method, JsonNode params) {
      this(id, method, params, RawMember.ABSENT);
    }
  }

  /** A notification: no response, ever. */
  record Notification(String method, JsonNode params) implements Message {}

  /** A successful response. */
  record Success(Id id, JsonNode result) implements Message {}

  /** An error response; {@code id} is null when the request's id could not be read. */
  record Failure(Id id, ErrorObject error) implements Message {}
}

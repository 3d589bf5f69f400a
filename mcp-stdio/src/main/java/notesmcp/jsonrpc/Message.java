package notesmcp.jsonrpc;

import notesmcp.text.TerminalText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

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

  /**
   * A request id exactly as received: a JSON string or integer, echoed back unchanged. MCP forbids
   * {@code null} ids (spec 2026-07-28, basic: "Unlike base JSON-RPC, the ID MUST NOT be null").
   */
  record Id(JsonNode value) {
    public Id {
      if (value == null || !(value.isString() || value.isIntegralNumber())) {
        throw new IllegalArgumentException("a request id is a string or an integer, not " + value);
      }
    }

    public static Id of(long value) {
      return new Id(JsonNodeFactory.instance.numberNode(value));
    }

    public static Id of(String value) {
      return new Id(JsonNodeFactory.instance.stringNode(value));
    }

    /** Whether {@code node} may serve as an id. */
    public static boolean isValid(JsonNode node) {
      return node != null && (node.isString() || node.isIntegralNumber());
    }

    // Written out rather than generated: a record's own equals and hashCode link an invokedynamic
    // call site on first use, milliseconds on a cold start, and ids are hashed on every request.
    @Override
    public boolean equals(Object other) {
      return other instanceof Id && ((Id) other).value.equals(value);
    }

    @Override
    public int hashCode() {
      return value.hashCode();
    }

    /** The id for a log line: a string id is quoted and escaped (TerminalText). */
    @Override
    public String toString() {
      if (!value.isString()) {
        return value.asString();
      }
      return TerminalText.quoted(value.stringValue(), 256);
    }
  }

  /** The {@code error} member of a JSON-RPC error response; {@code data} may be null. */
  record ErrorObject(int code, String message, JsonNode data) {
    public ErrorObject {
      if (message == null) {
        throw new IllegalArgumentException("an error needs a message");
      }
    }

    public ErrorObject(int code, String message) {
      this(code, message, null);
    }
  }

  /**
   * The one params member a {@link Codec} keeps exactly as received, carried beside the params tree
   * (never inside it): absent, an object's exact text, or present with another JSON type. The
   * server keeps MCP's {@code tools/call} {@code arguments} this way, so they reach the tool as
   * sent, duplicate keys included (docs/design.md, "Messages and results"); which member is kept is
   * the caller's choice, so this layer knows no methods.
   */
  sealed interface RawMember permits RawMember.Absent, RawMember.ObjectText, RawMember.NotAnObject {
    /** The member is not there (or params is not an object). */
    RawMember ABSENT = new Absent();

    /** Not there. */
    final class Absent implements RawMember {
      private Absent() {}

      @Override
      public String toString() {
        return "absent";
      }
    }

    /** A JSON object, as the exact text received (UTF-8 decoded, nothing else changed). */
    record ObjectText(String text) implements RawMember {}

    /**
     * Present, but not an object: {@code type} is its JSON type, one of {@code array}, {@code
     * string}, {@code number}, {@code boolean}, {@code null}.
     */
    record NotAnObject(String type) implements RawMember {}
  }
}

package notesmcp.jsonrpc;

import notesmcp.text.TerminalText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A request id exactly as received: a JSON string or integer, echoed back unchanged. MCP forbids
 * {@code null} ids (spec 2026-07-28, basic: "Unlike base JSON-RPC, the ID MUST NOT be null").
 */
public record Id(JsonNode value) {
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

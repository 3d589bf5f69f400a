package notesmcp.jsonrpc;

import tools.jackson.databind.JsonNode;

/** The {@code error} member of a JSON-RPC error response; {@code data} may be null. */
public record ErrorObject(int code, String message, JsonNode data) {
  public ErrorObject {
    if (message == null) {
      throw new IllegalArgumentException("an error needs a message");
    }
  }

  public ErrorObject(int code, String message) {
    this(code, message, null);
  }
}

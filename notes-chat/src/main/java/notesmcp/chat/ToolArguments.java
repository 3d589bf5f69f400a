package notesmcp.chat;

import java.nio.charset.StandardCharsets;
import notesmcp.text.JsonInput;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A model's arguments for one tool call, as the host will send them: one JSON object, read once,
 * strictly (a duplicate key is refused, not merged), and then both shown to the person and sent
 * from that one reading, so what is confirmed is exactly what goes out. Bounded before anything is
 * sent: the model's text is read only up to {@value #MAX_TEXT_CHARS} characters, and the object the
 * server would receive is at most {@value #MAX_BYTES} bytes, the server's own limit on one call's
 * arguments (docs/behaviour.md, "Limits"); what the server would refuse is refused to the model
 * here, where it costs nothing.
 */
final class ToolArguments {
  /** The most bytes of arguments, as sent, the server takes for one call. */
  static final int MAX_BYTES = 16 * 1024;

  /** The longest text of arguments the host reads: room for whitespace and escapes. */
  static final int MAX_TEXT_CHARS = 4 * MAX_BYTES;

  private static final ObjectMapper STRICT =
      JsonMapper.builder(JsonInput.factory(MAX_TEXT_CHARS, true)).build();

  /** The model's text is not one JSON object the host sends; the message says why. */
  static final class Invalid extends Exception {
    private static final long serialVersionUID = 1L;

    Invalid(String message) {
      super(message);
    }
  }

  private final ObjectNode object;
  private final String text;

  private ToolArguments(ObjectNode object) {
    this.object = object;
    this.text = object.toString();
  }

  /**
   * Reads the model's arguments. None at all (the model's call has no arguments member) is {@code
   * {}}, as the protocol reads omitted arguments; an empty or blank text is no JSON object.
   */
  static ToolArguments parse(String modelText) throws Invalid {
    if (modelText == null) {
      return new ToolArguments(STRICT.createObjectNode());
    }
    if (modelText.isBlank()) {
      throw new Invalid("its arguments are an empty text, not a JSON object");
    }
    if (modelText.length() > MAX_TEXT_CHARS) {
      throw new Invalid(
          "its arguments are "
              + modelText.length()
              + " characters, more than the "
              + MAX_TEXT_CHARS
              + " the host reads");
    }
    JsonNode tree;
    try {
      tree = STRICT.readTree(modelText);
    } catch (JacksonException e) {
      throw new Invalid("its arguments are not valid JSON (" + JsonInput.describe(e) + ")");
    }
    if (tree == null || !tree.isObject()) {
      throw new Invalid("its arguments are not a JSON object");
    }
    ToolArguments arguments = new ToolArguments((ObjectNode) tree);
    int bytes = arguments.text.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_BYTES) {
      throw new Invalid(
          "its arguments are "
              + bytes
              + " bytes as JSON, over the "
              + MAX_BYTES
              + " bytes the server takes for one call");
    }
    return arguments;
  }

  /** The arguments to show; not to be changed. */
  ObjectNode object() {
    return object;
  }

  /** The compact JSON text the server receives. */
  String text() {
    return text;
  }
}

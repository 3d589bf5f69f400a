package notesmcp.chat;

import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A model's arguments for one tool call, as the host will send them: one JSON object, read once,
 * strictly (a duplicate key is refused, not merged), and then both shown to the person and sent
 * from that one reading, so what is confirmed is exactly what goes out.
 */
final class ToolArguments {
  private static final ObjectMapper STRICT =
      JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  /** The model's text is not one JSON object; the message says why. */
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

  /** Reads the model's arguments; none (null or blank) is {@code {}}. */
  static ToolArguments parse(String modelText) throws Invalid {
    if (modelText == null || modelText.isBlank()) {
      return new ToolArguments(STRICT.createObjectNode());
    }
    JsonNode tree;
    try {
      tree = STRICT.readTree(modelText);
    } catch (JacksonException e) {
      throw new Invalid("its arguments are not valid JSON (" + e.getOriginalMessage() + ")");
    }
    if (tree == null || !tree.isObject()) {
      throw new Invalid("its arguments are not a JSON object");
    }
    return new ToolArguments((ObjectNode) tree);
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

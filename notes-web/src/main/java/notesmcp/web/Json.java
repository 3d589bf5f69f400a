package notesmcp.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import notesmcp.text.JsonInput;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The state files' JSON: read strictly (one object, no duplicate keys, UTF-8), written whole. */
final class Json {
  static final JsonMapper MAPPER =
      JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private Json() {}

  /** One JSON object of format {@code format}, or an IOException naming {@code what}. */
  static JsonNode object(byte[] bytes, String format, String what) throws IOException {
    if (JsonInput.isNotUtf8(bytes)) {
      throw new IOException(what + " is " + JsonInput.NOT_UTF8);
    }
    JsonNode node;
    try {
      node = MAPPER.readTree(bytes);
    } catch (JacksonException e) {
      throw new IOException(what + " is not valid JSON (" + JsonInput.describe(e) + ")");
    }
    if (node == null || !node.isObject()) {
      throw new IOException(what + " is not a JSON object");
    }
    if (format != null && !format.equals(node.path("format").asString(""))) {
      throw new IOException(what + " is not in format " + format);
    }
    return node;
  }

  static ObjectNode newObject(String format) {
    ObjectNode node = MAPPER.createObjectNode();
    if (format != null) {
      node.put("format", format);
    }
    return node;
  }

  static byte[] bytes(JsonNode node) {
    return (MAPPER.writeValueAsString(node) + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /** A string member, or an IOException naming {@code what}. */
  static String text(JsonNode node, String field, String what) throws IOException {
    JsonNode value = node.get(field);
    if (value == null || !value.isString()) {
      throw new IOException(what + " has no string \"" + field + "\"");
    }
    return value.stringValue();
  }

  /** An array of strings, or an IOException naming {@code what}. */
  static List<String> texts(JsonNode node, String field, String what) throws IOException {
    JsonNode value = node.get(field);
    if (value == null || !value.isArray()) {
      throw new IOException(what + " has no array \"" + field + "\"");
    }
    List<String> texts = new ArrayList<>();
    for (JsonNode element : value) {
      if (!element.isString()) {
        throw new IOException(what + " has a \"" + field + "\" that is not all strings");
      }
      texts.add(element.stringValue());
    }
    return texts;
  }
}

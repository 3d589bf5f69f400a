package notesmcp.chat;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import notesmcp.text.TerminalText;
import tools.jackson.databind.JsonNode;

/**
 * The tools the model is offered: exactly those the server listed (docs/chat.md), each with its
 * {@code inputSchema} passed on as the server wrote it, so the {@code enum} of note names reaches
 * the model.
 *
 * <p>LangChain4j 1.11 takes a tool's parameters as a {@code JsonObjectSchema}; each property's
 * schema goes in as a {@link JsonRawSchema}, which the providers write out unchanged (type, enum,
 * maxLength, description), and {@code required} is the server's list. What that API cannot carry is
 * the root's other keywords: the providers write the root as {@code type: object} with its {@code
 * properties} and {@code required} (and its {@code description}), and drop {@code
 * additionalProperties} (Ollama's API has no place for it; LangChain4j's OpenAI mapping writes it
 * only in strict mode, which would also rewrite {@code required}). The server refuses unknown keys
 * whatever the model sends; a root keyword beyond these is named on stderr at start-up.
 *
 * <p>A tool needs a person's yes before it is sent unless the server marks it read-only: {@code
 * annotations.readOnlyHint} is {@code true} (spec, ToolAnnotations: "If true, the tool does not
 * modify its environment"). These hints come from the server the person chose to run.
 */
final class OfferedTools {
  /** What the providers' function names allow (OpenAI: letters, digits, _ and -, at most 64). */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  private static final Set<String> CARRIED =
      Set.of("type", "properties", "required", "description");

  /** One tool on offer. */
  record Offered(String name, boolean readOnly) {}

  private final Map<String, Offered> byName;
  private final List<ToolSpecification> specifications;

  private OfferedTools(Map<String, Offered> byName, List<ToolSpecification> specifications) {
    this.byName = byName;
    this.specifications = specifications;
  }

  /**
   * From {@code tools/list}'s {@code tools} array; what cannot be offered is said on {@code log}.
   */
  static OfferedTools from(JsonNode tools, PrintStream log) {
    Map<String, Offered> byName = new LinkedHashMap<>();
    List<ToolSpecification> specifications = new ArrayList<>();
    for (JsonNode tool : tools) {
      String name = tool.path("name").isString() ? tool.get("name").asString() : null;
      JsonNode schema = tool.get("inputSchema");
      if (name == null || !NAME.matcher(name).matches() || byName.containsKey(name)) {
        log.println(
            "notes-mcp chat: not offering the server's tool "
                + TerminalText.visibleLine(String.valueOf(tool.get("name")))
                + " to the model: its name is missing, repeated, or not a function name");
        continue;
      }
      if (schema == null || !schema.isObject() || !objectOrAbsent(schema.get("properties"))) {
        log.println(
            "notes-mcp chat: not offering "
                + name
                + " to the model: its inputSchema is not an object schema");
        continue;
      }
      List<String> dropped = new ArrayList<>();
      for (String keyword : schema.propertyNames()) {
        if (!CARRIED.contains(keyword)
            && !(keyword.equals("additionalProperties") && schema.get(keyword).isBoolean())) {
          dropped.add(keyword);
        }
      }
      if (!dropped.isEmpty()) {
        log.println(
            "notes-mcp chat: "
                + name
                + ": the schema keywords "
                + TerminalText.visibleLine(dropped.toString())
                + " at its root cannot be passed to the model through LangChain4j; the server"
                + " still checks them");
      }
      JsonNode readOnly = tool.path("annotations").path("readOnlyHint");
      byName.put(name, new Offered(name, readOnly.isBoolean() && readOnly.booleanValue()));
      specifications.add(specification(name, tool.get("description"), schema));
    }
    return new OfferedTools(byName, List.copyOf(specifications));
  }

  private static boolean objectOrAbsent(JsonNode node) {
    return node == null || node.isObject();
  }

  private static ToolSpecification specification(
      String name, JsonNode description, JsonNode schema) {
    JsonObjectSchema.Builder parameters = JsonObjectSchema.builder();
    JsonNode properties = schema.get("properties");
    if (properties != null) {
      for (Map.Entry<String, JsonNode> property : properties.properties()) {
        parameters.addProperty(
            property.getKey(), JsonRawSchema.from(property.getValue().toString()));
      }
    }
    List<String> required = new ArrayList<>();
    for (JsonNode key : schema.path("required")) {
      required.add(key.asString());
    }
    parameters.required(required);
    if (schema.path("description").isString()) {
      parameters.description(schema.get("description").asString());
    }
    if (schema.path("additionalProperties").isBoolean()) {
      parameters.additionalProperties(schema.get("additionalProperties").asBoolean());
    }
    ToolSpecification.Builder tool =
        ToolSpecification.builder().name(name).parameters(parameters.build());
    if (description != null && description.isString()) {
      tool.description(description.asString());
    }
    return tool.build();
  }

  List<ToolSpecification> specifications() {
    return specifications;
  }

  Optional<Offered> get(String name) {
    return Optional.ofNullable(name == null ? null : byName.get(name));
  }

  List<String> names() {
    return List.copyOf(byName.keySet());
  }

  /** For the start-up line: each name, and which ones ask first. */
  String describe() {
    List<String> parts = new ArrayList<>();
    for (Offered tool : byName.values()) {
      parts.add(tool.name() + (tool.readOnly() ? "" : " (asks you first)"));
    }
    return parts.isEmpty() ? "none" : String.join(", ", parts);
  }
}

package notesmcp.app;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Validates messages against the official MCP {@code schema.json} of a revision (vendored in
 * src/test/resources/mcp-schema with its licence), with a JSON Schema 2020-12 validator.
 */
public final class SchemaCheck {
  public static final String MODERN = "2026-07-28";
  public static final String LEGACY = "2025-11-25";

  private static final ObjectMapper JSON = JsonMapper.builder().build();
  private static final SchemaRegistry REGISTRY =
      SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
  private static final Map<String, Schema> SCHEMAS = new ConcurrentHashMap<>();
  private static final Map<String, JsonNode> DOCUMENTS = new ConcurrentHashMap<>();

  private SchemaCheck() {}

  /**
   * The violations of {@code message} against {@code definition} of {@code revision}.
   *
   * <p>Some official response definitions (such as {@code CallToolResultResponse}) accept {@code
   * anyOf} {@code InputRequiredResult} or the method's own result. {@code InputRequiredResult}
   * requires only a string {@code resultType} and allows any other member, so on its own the schema
   * would accept a complete result with a malformed body (an unknown content type, say). A result
   * that is not {@code input_required} is therefore also checked against the method's own result
   * definition.
   */
  public static List<String> violations(String revision, String definition, JsonNode message) {
    List<String> violations = new ArrayList<>(validate(revision, definition, message));
    String own = ownResultDefinition(revision, definition, message);
    if (own != null) {
      violations.addAll(validate(revision, own, message.get("result")));
    }
    return violations;
  }

  /** The non-InputRequiredResult branch of a response's result, if it has to be checked. */
  private static String ownResultDefinition(String revision, String definition, JsonNode message) {
    JsonNode result = message.get("result");
    if (result == null
        || !result.isObject()
        || "input_required".equals(result.path("resultType").asString(""))) {
      return null;
    }
    JsonNode document = DOCUMENTS.computeIfAbsent(revision, SchemaCheck::load);
    JsonNode branches = document.path("$defs").path(definition).path("properties").path("result");
    String own = null;
    for (JsonNode branch : branches.path("anyOf")) {
      String ref = branch.path("$ref").asString("");
      if (ref.startsWith("#/$defs/") && !ref.equals("#/$defs/InputRequiredResult")) {
        own = ref.substring("#/$defs/".length());
      }
    }
    return own;
  }

  private static List<String> validate(String revision, String definition, JsonNode message) {
    Schema schema =
        SCHEMAS.computeIfAbsent(
            revision + "#" + definition,
            key -> REGISTRY.getSchema(pointingAt(revision, definition).toString()));
    List<Error> errors = schema.validate(message);
    return errors.stream().map(e -> revision + " " + definition + ": " + e).toList();
  }

  /** A schema whose root refers to one definition of the revision's schema. */
  private static JsonNode pointingAt(String revision, String definition) {
    JsonNode document = DOCUMENTS.computeIfAbsent(revision, SchemaCheck::load);
    if (!document.path("$defs").has(definition)) {
      throw new IllegalArgumentException(revision + " schema has no definition " + definition);
    }
    ObjectNode root = JSON.createObjectNode();
    root.put("$schema", document.path("$schema").asString());
    root.put("$ref", "#/$defs/" + definition);
    root.set("$defs", document.get("$defs"));
    return root;
  }

  private static JsonNode load(String revision) {
    String resource = "/mcp-schema/" + revision + "/schema.json";
    try (InputStream in = SchemaCheck.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + resource);
      }
      return JSON.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

package notesmcp.mcp;

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
 * src/test/resources/mcp-schema with its licence), in the JSON Schema dialect the document names
 * (2020-12 for 2025-11-25 and 2026-07-28, draft-07 for 2024-11-05).
 *
 * <p>A result is also checked for members its revision does not declare ({@link DeclaredMembers}):
 * the official schemas let unknown members through, so on their own they would accept, say, a tool
 * {@code title} sent to a 2024-11-05 client, which that revision lacks.
 */
public final class SchemaCheck {
  public static final String MODERN = "2026-07-28";
  public static final String LEGACY = "2025-11-25";

  /** The oldest legacy revision, asked for by the Vercel AI SDK 4.x and Spring AI 1.x clients. */
  public static final String LEGACY_2024 = "2024-11-05";

  private static final ObjectMapper JSON = JsonMapper.builder().build();
  private static final Map<String, Schema> SCHEMAS = new ConcurrentHashMap<>();
  private static final Map<String, JsonNode> DOCUMENTS = new ConcurrentHashMap<>();

  private SchemaCheck() {}

  /**
   * The vendored revision whose schema checks messages of a legacy session that negotiated {@code
   * version}: the version's own schema when it is vendored, else 2025-11-25 (2025-06-18 and
   * 2025-03-26 differ from it only by optional members we do not send).
   */
  public static String legacyRevision(String version) {
    return LEGACY_2024.equals(version) ? LEGACY_2024 : LEGACY;
  }

  /** The JSON Schema dialect the revision's schema.json declares in {@code $schema}. */
  public static SpecificationVersion dialect(String revision) {
    String declared = document(revision).path("$schema").asString("");
    switch (declared) {
      case "http://json-schema.org/draft-07/schema#":
        return SpecificationVersion.DRAFT_7;
      case "https://json-schema.org/draft/2020-12/schema":
        return SpecificationVersion.DRAFT_2020_12;
      default:
        throw new IllegalStateException(revision + " schema has an unknown $schema " + declared);
    }
  }

  /**
   * The violations of a response in a legacy session of {@code revision}: the envelope (a result or
   * an error response, named as that revision names them), and a result against {@code
   * resultDefinition}.
   */
  public static List<String> legacyResponse(
      String revision, String resultDefinition, JsonNode message) {
    boolean oldNames = document(revision).path("definitions").has("JSONRPCError");
    if (message.has("error")) {
      return violations(revision, oldNames ? "JSONRPCError" : "JSONRPCErrorResponse", message);
    }
    List<String> violations =
        new ArrayList<>(
            violations(revision, oldNames ? "JSONRPCResponse" : "JSONRPCResultResponse", message));
    violations.addAll(violations(revision, resultDefinition, message.get("result")));
    return violations;
  }

  /** The result definition of each method a server answers, by the method's name. */
  public static final Map<String, String> RESULTS =
      Map.ofEntries(
          Map.entry("server/discover", "DiscoverResult"),
          Map.entry("initialize", "InitializeResult"),
          Map.entry("tools/list", "ListToolsResult"),
          Map.entry("tools/call", "CallToolResult"),
          Map.entry("ping", "EmptyResult"),
          Map.entry("resources/list", "ListResourcesResult"),
          Map.entry("resources/templates/list", "ListResourceTemplatesResult"),
          Map.entry("resources/read", "ReadResourceResult"),
          Map.entry("resources/subscribe", "EmptyResult"),
          Map.entry("resources/unsubscribe", "EmptyResult"),
          Map.entry("completion/complete", "CompleteResult"),
          Map.entry("subscriptions/listen", "SubscriptionsListenResult"));

  /**
   * The violations of a server's response to {@code method}: in a modern session ({@link #MODERN})
   * the method's own response definition, or {@code JSONRPCErrorResponse}; in a legacy session of
   * {@code revision}, as {@link #legacyResponse} checks it.
   *
   * @throws IllegalArgumentException for a method {@link #RESULTS} does not know
   */
  public static List<String> response(String revision, String method, JsonNode message) {
    String result = RESULTS.get(method);
    if (result == null) {
      throw new IllegalArgumentException("no result definition known for " + method);
    }
    if (!revision.equals(MODERN)) {
      return legacyResponse(revision, result, message);
    }
    if (message.has("error")) {
      return violations(MODERN, "JSONRPCErrorResponse", message);
    }
    return violations(MODERN, result + "Response", message);
  }

  /** Where the revision keeps its definitions: {@code $defs} (2020-12) or {@code definitions}. */
  static String definitionsKey(String revision) {
    return document(revision).has("$defs") ? "$defs" : "definitions";
  }

  static JsonNode document(String revision) {
    return DOCUMENTS.computeIfAbsent(revision, SchemaCheck::load);
  }

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
      violations.addAll(DeclaredMembers.undeclared(revision, own, message.get("result")));
    } else if (!definition.startsWith("JSONRPC") && !definition.endsWith("Response")) {
      violations.addAll(DeclaredMembers.undeclared(revision, definition, message));
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
    JsonNode branches =
        document(revision).path("$defs").path(definition).path("properties").path("result");
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
            key ->
                SchemaRegistry.withDefaultDialect(dialect(revision))
                    .getSchema(pointingAt(revision, definition).toString()));
    List<Error> errors = schema.validate(message);
    return errors.stream().map(e -> revision + " " + definition + ": " + e).toList();
  }

  /** A schema whose root refers to one definition of the revision's schema. */
  private static JsonNode pointingAt(String revision, String definition) {
    JsonNode document = document(revision);
    String defs = definitionsKey(revision);
    if (!document.path(defs).has(definition)) {
      throw new IllegalArgumentException(revision + " schema has no definition " + definition);
    }
    ObjectNode root = JSON.createObjectNode();
    root.put("$schema", document.path("$schema").asString());
    root.put("$ref", "#/" + defs + "/" + definition);
    root.set(defs, document.get(defs));
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

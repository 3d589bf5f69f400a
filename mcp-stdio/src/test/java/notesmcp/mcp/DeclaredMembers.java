package notesmcp.mcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Finds members a message carries that its revision's schema does not declare.
 *
 * <p>The official schemas leave {@code additionalProperties} open, so a validator accepts members a
 * revision never defined (a tool {@code title} or {@code annotations} in 2024-11-05, a {@code
 * serverInfo.title} before 2025-06-18). Fields that revision lacks are left out in that era ({@code
 * docs/protocol.md}). This walks the message beside its definition and reports each member of an
 * object whose definition lists its {@code properties} and does not itself open {@code
 * additionalProperties}. Objects defined without properties ({@code _meta}, {@code experimental})
 * are free-form, and a tool's {@code inputSchema} / {@code outputSchema} holds a JSON Schema, whose
 * keywords are not MCP members.
 */
final class DeclaredMembers {
  private static final List<String> JSON_SCHEMA_VALUES = List.of("inputSchema", "outputSchema");

  private DeclaredMembers() {}

  static List<String> undeclared(String revision, String definition, JsonNode json) {
    JsonNode document = SchemaCheck.document(revision);
    String defs = SchemaCheck.definitionsKey(revision);
    List<String> found = new ArrayList<>();
    new DeclaredMembers.Walk(document, defs, revision + " " + definition, found)
        .check(document.path(defs).path(definition), json, "");
    return found;
  }

  private record Walk(JsonNode document, String defs, String where, List<String> found) {
    void check(JsonNode definition, JsonNode json, String path) {
      JsonNode def = resolve(definition);
      if (json == null || def == null) {
        return;
      }
      if (json.isArray()) {
        for (int i = 0; i < json.size(); i++) {
          check(def.get("items"), json.get(i), path + "/" + i);
        }
        return;
      }
      if (!json.isObject()) {
        return;
      }
      def = pickBranch(def, json);
      ObjectNode properties = properties(def);
      if (properties.isEmpty()) {
        return; // free-form
      }
      JsonNode additional = def.get("additionalProperties");
      boolean open = additional != null && !(additional.isBoolean() && !additional.asBoolean());
      for (Map.Entry<String, JsonNode> member : json.properties()) {
        String name = member.getKey();
        JsonNode declared = properties.get(name);
        if (declared == null) {
          if (!open) {
            found.add(where + ": " + path + "/" + name + " is not a member this revision declares");
          }
        } else if (!JSON_SCHEMA_VALUES.contains(name)) {
          check(declared, member.getValue(), path + "/" + name);
        }
      }
    }

    /** Follows {@code $ref}s within the document. */
    private JsonNode resolve(JsonNode def) {
      JsonNode current = def;
      for (int hops = 0; current != null && current.has("$ref") && hops < 32; hops++) {
        String ref = current.get("$ref").asString("");
        String prefix = "#/" + defs + "/";
        if (!ref.startsWith(prefix)) {
          return null;
        }
        current = document.path(defs).get(ref.substring(prefix.length()));
      }
      return current;
    }

    /** Of an {@code anyOf}, the branch whose {@code type} constant matches the object's type. */
    private JsonNode pickBranch(JsonNode def, JsonNode json) {
      JsonNode branches = def.get("anyOf");
      if (branches == null) {
        return def;
      }
      for (JsonNode branch : branches) {
        JsonNode resolved = resolve(branch);
        JsonNode constant =
            resolved == null ? null : resolved.path("properties").path("type").get("const");
        if (constant != null && constant.equals(json.get("type"))) {
          return resolved;
        }
      }
      return JsonNodeFactory.instance.objectNode(); // no single branch: not judged here
    }

    /** The declared properties, with those of every {@code allOf} part. */
    private ObjectNode properties(JsonNode def) {
      ObjectNode all = JsonNodeFactory.instance.objectNode();
      if (def.path("properties").isObject()) {
        all.setAll((ObjectNode) def.get("properties"));
      }
      for (JsonNode part : def.path("allOf")) {
        JsonNode resolved = resolve(part);
        if (resolved != null) {
          all.setAll(properties(resolved));
        }
      }
      return all;
    }
  }
}

package notesmcp.mcp;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** A client's or server's self-reported name and version (unverified, for display and logs). */
public record Implementation(String name, String version) {
  /** Reads {@code {"name": ..., "version": ...}}; null unless both are strings. */
  public static Implementation from(JsonNode json) {
    if (json == null || !json.path("name").isString() || !json.path("version").isString()) {
      return null;
    }
    return new Implementation(json.get("name").stringValue(), json.get("version").stringValue());
  }

  public ObjectNode toJson() {
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put("name", name);
    json.put("version", version);
    return json;
  }
}

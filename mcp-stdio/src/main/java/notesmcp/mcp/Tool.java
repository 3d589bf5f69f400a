package notesmcp.mcp;

import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** A tool definition as {@code tools/list} advertises it. The schema must not be modified. */
public record Tool(String name, String description, ObjectNode inputSchema) {
  ObjectNode toJson() {
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put("name", name);
    json.put("description", description);
    json.set("inputSchema", inputSchema);
    return json;
  }
}

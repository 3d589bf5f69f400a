package notesmcp.mcp.server;

import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool definition as {@code tools/list} advertises it. The schema must not be modified. {@code
 * annotations} is the spec's {@code ToolAnnotations} object ({@code readOnlyHint} and the other
 * hints), or null for none; revision 2024-11-05 has no {@code ToolAnnotations}, so that era's list
 * leaves them out.
 */
public record Tool(
    String name, String description, ObjectNode inputSchema, ObjectNode annotations) {
  /** A tool without annotations. */
  public Tool(String name, String description, ObjectNode inputSchema) {
    this(name, description, inputSchema, null);
  }

  ObjectNode toJson(boolean withAnnotations) {
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put("name", name);
    json.put("description", description);
    json.set("inputSchema", inputSchema);
    if (annotations != null && withAnnotations) {
      json.set("annotations", annotations);
    }
    return json;
  }
}

package notesmcp.mcp.server;

import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@code tools/call} result holding exactly one text block: the tool's answer, or with {@code
 * isError} its refusal (spec: tools, "Error Handling": tool errors are results, not protocol
 * errors).
 */
public record ToolResult(String text, boolean isError) {
  ObjectNode toJson() {
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    ObjectNode block = json.putArray("content").addObject();
    block.put("type", "text");
    block.put("text", text);
    json.put("isError", isError);
    return json;
  }
}

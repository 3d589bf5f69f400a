package notesmcp.mcp;

import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** A client's or server's self-reported name and version (unverified, for display and logs). */
public record Implementation(String name, String version) {
  public ObjectNode toJson() {
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put("name", name);
    json.put("version", version);
    return json;
  }
}

package notesmcp.policy;

import tools.jackson.databind.node.ObjectNode;

/**
 * A tool as the policy defines it: its name, what it does, and the JSON Schema of its arguments,
 * generated from the same allow-lists the policy enforces (CONTRACT §3, "Advertised schemas").
 */
public record ToolDefinition(String name, String description, ObjectNode inputSchema) {}

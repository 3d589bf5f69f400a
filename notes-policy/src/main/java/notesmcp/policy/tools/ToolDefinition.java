package notesmcp.policy.tools;

import tools.jackson.databind.node.ObjectNode;

/**
 * A tool as the policy defines it: its name, what it does, the JSON Schema of its arguments,
 * generated from the same allow-lists the policy enforces ({@code docs/behaviour.md}, "Tools"), and
 * whether it only reads ({@code list_notes}, {@code read_note}) or records something ({@code
 * propose_note} records a proposal). A host decides from that which calls need a person's yes
 * before they are sent ({@code docs/chat.md}).
 */
public record ToolDefinition(
    String name, String description, ObjectNode inputSchema, boolean readOnly) {}

package notesmcp.app;

import java.util.ArrayList;
import java.util.List;
import notesmcp.mcp.CancelToken;
import notesmcp.mcp.Tool;
import notesmcp.mcp.ToolResult;
import notesmcp.mcp.Tools;
import notesmcp.policy.Notes;
import notesmcp.policy.Outcome;
import notesmcp.policy.ToolDefinition;

/**
 * The adapter from the notes policy to MCP tools: definitions pass through unchanged, and a policy
 * outcome becomes a tool result with the same text, a refusal with {@code isError: true}. It holds
 * a {@link Notes}, which can list, read and propose, and nothing that can approve.
 */
final class NoteTools implements Tools {
  private final Notes notes;
  private final List<Tool> tools;

  NoteTools(Notes notes) {
    this.notes = notes;
    List<Tool> list = new ArrayList<>();
    for (ToolDefinition definition : notes.tools()) {
      list.add(new Tool(definition.name(), definition.description(), definition.inputSchema()));
    }
    this.tools = List.copyOf(list);
  }

  @Override
  public List<Tool> list() {
    return tools;
  }

  @Override
  public ToolResult call(String name, String rawArguments, CancelToken token) {
    Outcome outcome = notes.execute(name, rawArguments, token::isCancelled);
    return new ToolResult(outcome.text(), outcome instanceof Outcome.Refusal);
  }
}

package notesmcp.bench.micro;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import notesmcp.mcp.Protocol.Implementation;
import notesmcp.mcp.server.Caller;
import notesmcp.mcp.server.Tools;
import notesmcp.mcp.server.Tools.Tool;
import notesmcp.policy.Notes;
import notesmcp.policy.Notes.Outcome;
import notesmcp.policy.Notes.Requester;
import notesmcp.policy.ToolDefinition;

/**
 * The policy as MCP tools, for the in-process server benchmark, built from the two library modules'
 * public APIs ({@link Tools} and {@link Notes}). The program's own adapter ({@code
 * notesmcp.app.NoteTools}) stays private to the program; this one does the same few steps (one
 * {@link Requester} and one {@link Tools.Result} per call), so the numbers describe the same work.
 * The process-level harness measures the real executable.
 */
final class PolicyTools implements Tools {
  private final Notes notes;
  private final List<Tool> tools;

  PolicyTools(Notes notes) {
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
  public Tools.Result call(
      String name,
      String rawArguments,
      Implementation client,
      Caller caller,
      BooleanSupplier cancelled) {
    Requester requester = client == null ? null : new Requester(client.name(), client.version());
    Outcome outcome = notes.execute(name, rawArguments, requester, cancelled);
    return new Tools.Result(outcome.text(), outcome instanceof Outcome.Refusal);
  }
}

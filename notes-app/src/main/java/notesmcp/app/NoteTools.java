package notesmcp.app;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import notesmcp.mcp.Protocol.Implementation;
import notesmcp.mcp.server.Caller;
import notesmcp.mcp.server.Tools;
import notesmcp.mcp.server.Tools.Tool;
import notesmcp.policy.proposals.Authenticated;
import notesmcp.policy.proposals.Requester;
import notesmcp.policy.tools.NoteAccess;
import notesmcp.policy.tools.Outcome;
import notesmcp.policy.tools.ToolDefinition;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The adapter from the notes policy to MCP tools: definitions pass through unchanged (with the
 * policy's read-only fact as {@code annotations}), and a policy outcome becomes a tool result with
 * the same text, a refusal with {@code isError: true}. It holds a {@link NoteAccess}, which can
 * list, read and propose, and nothing that can approve. The client's self-reported {@code
 * clientInfo} passes on as a {@link Requester}, unverified, and the caller an HTTP transport
 * authenticated as an {@link Authenticated}, so the policy stays free of MCP types. Public for the
 * benchmark harness, whose in-process server benchmark measures this very adapter.
 */
public final class NoteTools implements Tools {
  private final NoteAccess notes;
  private final List<Tool> tools;

  public NoteTools(NoteAccess notes) {
    this.notes = notes;
    List<Tool> list = new ArrayList<>();
    for (ToolDefinition definition : notes.tools()) {
      list.add(
          new Tool(
              definition.name(),
              title(definition.name()),
              definition.description(),
              definition.inputSchema(),
              annotations(definition.name(), definition.readOnly())));
    }
    this.tools = List.copyOf(list);
  }

  /** The name a person sees for each tool (docs/behaviour.md, "Tools"). */
  private static String title(String name) {
    switch (name) {
      case NoteAccess.LIST_NOTES:
        return "List notes";
      case NoteAccess.READ_NOTE:
        return "Read a note";
      case NoteAccess.PROPOSE_NOTE:
        return "Propose a note";
      case NoteAccess.SEARCH_NOTES:
        return "Search notes";
      case NoteAccess.PROPOSE_EDIT:
        return "Propose an edit";
      case NoteAccess.PROPOSAL_STATUS:
        return "Proposal status";
      case NoteAccess.NOTE_LINKS:
        return "A note's links";
      case NoteAccess.BACKLINKS:
        return "Backlinks";
      case NoteAccess.LIST_TAGS:
        return "List tags";
      case NoteAccess.FIND_NOTES:
        return "Find notes";
      default:
        return null;
    }
  }

  /**
   * The hints a host reads to decide what needs a person's yes (docs/chat.md): "readOnlyHint: If
   * true, the tool does not modify its environment" (spec, ToolAnnotations). {@code propose_note}
   * records a proposal: not read-only, but additive (never destructive) and closed-world.
   */
  private static ObjectNode annotations(String name, boolean readOnly) {
    ObjectNode hints = JsonNodeFactory.instance.objectNode();
    if (name.equals(NoteAccess.SEARCH_NOTES)) {
      hints.put("title", "Search notes");
    }
    hints.put("readOnlyHint", readOnly);
    if (!readOnly) {
      hints.put("destructiveHint", false);
      hints.put("idempotentHint", false);
    }
    hints.put("openWorldHint", false);
    return hints;
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
    Authenticated who = caller == null ? null : new Authenticated(caller.name(), caller.peer());
    Outcome outcome = notes.execute(name, rawArguments, requester, who, cancelled);
    if (outcome instanceof Outcome.Answer) {
      // Escaped from its bytes straight into the reply (docs/design.md, "A read's bytes").
      return new Tools.Result(((Outcome.Answer) outcome).escaped(), false);
    }
    return new Tools.Result(outcome.text(), true);
  }
}

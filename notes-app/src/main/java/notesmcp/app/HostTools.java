package notesmcp.app;

import java.util.List;

/**
 * Which of the server's tools a host entry lets run without asking, and which it leaves to the
 * host's confirmation: the one list every host entry is made from ({@code notes-mcp config}). The
 * read-only ones are those the server marks {@code readOnlyHint: true}; everything else, anything
 * that records a proposal, is asked. {@code HostToolsTest} holds the list to the annotations the
 * server really advertises, so a tool cannot change sides without this list following.
 */
final class HostTools {
  /** Read-only tools: a host may run them without a prompt. */
  static final List<String> READ_ONLY =
      List.of(
          "list_notes",
          "read_note",
          "search_notes",
          "proposal_status",
          "note_links",
          "backlinks",
          "list_tags",
          "find_notes");

  /** Tools that are not read-only: the host must ask the person before each call. */
  static final List<String> ASKED = List.of("propose_note", "propose_edit");

  private HostTools() {}
}

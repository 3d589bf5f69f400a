package notesmcp.policy.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import notesmcp.policy.proposals.AuditLog;

/**
 * What the audit trail's line for one call names beside its tool (docs/approvals.md, "The audit
 * trail"): the arguments of {@link #NAMED} the client sent as strings, each cut after {@link
 * #NAMED_CHARACTERS} code points. Nothing else a client sends is written: never a note's content,
 * never another argument. Stateless; called on the audit log's writer thread.
 */
final class CallNames implements AuditLog.Named {
  static final CallNames INSTANCE = new CallNames();

  /** The arguments a call line names, per tool. */
  static final Map<String, List<String>> NAMED =
      Map.ofEntries(
          Map.entry(NoteAccess.READ_NOTE, List.of("path", "section")),
          Map.entry(NoteAccess.PROPOSE_NOTE, List.of("path")),
          Map.entry(NoteAccess.PROPOSE_EDIT, List.of("path")),
          Map.entry(NoteAccess.LIST_NOTES, List.of("folder")),
          Map.entry(NoteAccess.SEARCH_NOTES, List.of("query", "folder", "tag")),
          Map.entry(NoteAccess.PROPOSAL_STATUS, List.of("proposal_id")),
          Map.entry(NoteAccess.NOTE_LINKS, List.of("path")),
          Map.entry(NoteAccess.BACKLINKS, List.of("path")),
          Map.entry(NoteAccess.FIND_NOTES, List.of("tag", "folder")));

  /** A named argument longer than this many code points is cut, saying how many more it had. */
  static final int NAMED_CHARACTERS = 256;

  private CallNames() {}

  /**
   * The {@link #NAMED} arguments of one call, names and values in turn: each one the client sent as
   * a string, cut after {@link #NAMED_CHARACTERS} code points; none when the arguments are not a
   * JSON object the tools would decode (then the call was refused for it).
   */
  @Override
  public List<String> of(String tool, String rawArguments) {
    List<String> members = new ArrayList<>();
    List<String> names = NAMED.get(tool);
    if (names == null || rawArguments.isEmpty()) {
      return members;
    }
    Arguments arguments;
    try {
      arguments = Arguments.decode(rawArguments);
    } catch (Arguments.Rejected e) {
      return members;
    }
    for (String name : names) {
      String value;
      try {
        value = arguments.optionalString(name);
      } catch (Arguments.Rejected e) {
        continue; // not a string: nothing it names
      }
      if (value != null) {
        members.add(name);
        members.add(bounded(value));
      }
    }
    return members;
  }

  /** {@code value}, or its first {@link #NAMED_CHARACTERS} code points and how many more it had. */
  static String bounded(String value) {
    int characters = value.codePointCount(0, value.length());
    if (characters <= NAMED_CHARACTERS) {
      return value;
    }
    return value.substring(0, value.offsetByCodePoints(0, NAMED_CHARACTERS))
        + "... ("
        + (characters - NAMED_CHARACTERS)
        + " more characters)";
  }
}

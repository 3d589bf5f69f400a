package notesmcp.policy.tools;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import notesmcp.policy.proposals.Proposal;
import notesmcp.policy.rules.NoteName;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.vault.Catalog;
import notesmcp.policy.vault.Workspace;
import notesmcp.text.Quote;
import notesmcp.text.Utf8;

/**
 * {@code list_notes}, {@code read_note} and a resource's read: a client's path looked up in the
 * policy's or the catalog's names (never a file path), the careful read, and the page a long note
 * is served in. Holds no state of its own; any thread.
 */
final class NoteReader {
  private final Policy policy;
  private final Workspace workspace;
  private final Catalog catalog;

  NoteReader(Policy policy, Workspace workspace, Catalog catalog) {
    this.policy = policy;
    this.workspace = workspace;
    this.catalog = catalog;
  }

  Outcome list(Arguments arguments) throws Arguments.Rejected {
    String folder = null;
    String cursor = null;
    if (ToolSchemas.listsInPages(policy)) {
      arguments.allowOnly(NoteAccess.LIST_NOTES, Set.of("folder", "cursor"));
      folder = arguments.optionalString("folder");
      cursor = arguments.optionalString("cursor");
    } else {
      arguments.allowOnly(NoteAccess.LIST_NOTES, Set.of());
    }
    Catalog.Page page;
    try {
      page = catalog.page(folder, cursor);
    } catch (Catalog.Refused refused) {
      return new Outcome.Refusal(refused.getMessage());
    }
    return JsonText.notes(page.paths(), page.nextCursor());
  }

  Outcome read(Arguments arguments) throws Arguments.Rejected {
    boolean pages = ToolSchemas.readsInPages(policy);
    arguments.allowOnly(NoteAccess.READ_NOTE, pages ? Set.of("path", "offset") : Set.of("path"));
    String path = arguments.string("path");
    Arguments.Count offset = pages ? arguments.optionalCount("offset") : null;
    NoteName name = readable(path);
    Workspace.Raw raw = workspace.readBytes(name.value(), policy.maxNoteBytes());
    if (raw instanceof Workspace.Unreadable) {
      return new Outcome.Refusal(((Workspace.Unreadable) raw).reason());
    }
    byte[] bytes = ((Workspace.Bytes) raw).bytes();
    int malformed = Utf8.firstMalformed(bytes);
    if (malformed >= 0) {
      return new Outcome.Refusal(name + " is not valid UTF-8 (byte " + malformed + ")");
    }
    String sha256 = policy.edits(name.value()) ? Proposal.sha256(bytes) : null;
    return page(name, bytes, offset, sha256);
  }

  /**
   * The note a client's {@code path} names, if the policy lets it be read and, for a policy with
   * patterns, the catalog holds it: the name returned is the policy's or the catalog's own string,
   * equal to the client's character for character, never the client's.
   */
  NoteName readable(String path) throws Arguments.Rejected {
    if (policy.namesNotes()) {
      NoteName name = policy.readableNamed(path);
      if (name != null) {
        return name;
      }
      if (policy.listsReadable()) {
        throw notAllowed(path, policy.named());
      }
      throw new Arguments.Rejected(
          "path "
              + Quote.of(path)
              + " is not allowed by the policy: it is not one of the "
              + policy.named().size()
              + " notes it names (list_notes lists those that exist)");
    }
    rejectNonName(path);
    String refusal = policy.readRefusal(path);
    if (refusal != null) {
      throw new Arguments.Rejected(refusal);
    }
    NoteName found = catalog.find(path);
    if (found == null) {
      throw new Arguments.Rejected(
          Quote.of(path)
              + " is not a note in the workspace: no regular file of that name was found there"
              + " (list_notes lists the notes that exist)");
    }
    return found;
  }

  static void rejectNonName(String path) throws Arguments.Rejected {
    String problem = NoteName.problemWith(path);
    if (problem != null) {
      throw new Arguments.Rejected(
          "path " + Quote.of(path) + " is not a note's path: it " + problem);
    }
  }

  /**
   * A note of at most {@link NoteAccess#PAGE_BYTES} read from its start comes whole, in the first
   * shape; anything else is the page from {@code offset} (null: 0), ending on a character boundary
   * at most {@link NoteAccess#PAGE_BYTES} later. A refusal names the offset by the digits the
   * client sent.
   */
  private static Outcome page(NoteName name, byte[] bytes, Arguments.Count offset, String sha256) {
    int total = bytes.length;
    long from = offset == null ? 0 : offset.value();
    if (from == 0 && total <= NoteAccess.PAGE_BYTES) {
      return JsonText.note(name.value(), bytes, 0, total, -1, -1, sha256);
    }
    int start = (int) Math.min(from, Integer.MAX_VALUE);
    if (from > 0 && from >= total) {
      return new Outcome.Refusal(
          "offset "
              + offset.digits()
              + " is at or past the end of "
              + name
              + ", which is "
              + total
              + " bytes; pages start at 0 and at each nextOffset");
    }
    if (isContinuation(bytes[start])) {
      return new Outcome.Refusal(
          "offset "
              + offset.digits()
              + " is not at a character boundary of "
              + name
              + " (byte "
              + start
              + " continues a character); pages start at 0 and at each nextOffset");
    }
    int end = Math.min(total, start + NoteAccess.PAGE_BYTES);
    while (end < total && isContinuation(bytes[end])) {
      end--;
    }
    return JsonText.note(name.value(), bytes, start, end, total, end < total ? end : -1, sha256);
  }

  /** A byte that continues a UTF-8 character: 10xxxxxx. */
  private static boolean isContinuation(byte b) {
    return (b & 0xc0) == 0x80;
  }

  static Arguments.Rejected notAllowed(String path, List<NoteName> allowed) {
    List<String> names = new ArrayList<>();
    for (NoteName name : allowed) {
      names.add(name.value());
    }
    return new Arguments.Rejected(
        "path "
            + Quote.of(path)
            + " is not allowed: it must be exactly"
            + " one of "
            + String.join(", ", names));
  }

  /**
   * The note at {@code path} whole, by the same lookup, careful read and limit as {@code
   * read_note}; the budget is the caller's.
   */
  NoteAccess.Whole whole(String path) {
    NoteName name;
    try {
      name = readable(path);
    } catch (Arguments.Rejected rejected) {
      return new NoteAccess.Whole(null, rejected.getMessage(), true);
    }
    Workspace.Raw raw = workspace.readBytes(name.value(), policy.maxNoteBytes());
    if (raw instanceof Workspace.Unreadable) {
      // A named note that is not there names no resource; one that is there cannot be read now.
      boolean gone = policy.namesNotes() && workspace.identityOf(name) == null;
      return new NoteAccess.Whole(null, ((Workspace.Unreadable) raw).reason(), gone);
    }
    byte[] bytes = ((Workspace.Bytes) raw).bytes();
    int malformed = Utf8.firstMalformed(bytes);
    if (malformed >= 0) {
      return new NoteAccess.Whole(
          null, name + " is not valid UTF-8 (byte " + malformed + ")", false);
    }
    return new NoteAccess.Whole(new String(bytes, StandardCharsets.UTF_8), null, false);
  }
}

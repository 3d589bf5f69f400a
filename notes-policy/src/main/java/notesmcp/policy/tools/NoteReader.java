package notesmcp.policy.tools;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import notesmcp.markdown.Heading;
import notesmcp.markdown.Structure;
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
 * is served in; with the structure's tools, a note's outline or one section (docs/knowledge.md).
 * Holds no state of its own; any thread.
 */
final class NoteReader {
  private final Policy policy;
  private final Workspace workspace;
  private final Catalog catalog;

  /** Whether {@code read_note} takes {@code outline} and {@code section} (docs/knowledge.md). */
  private final boolean structure;

  NoteReader(Policy policy, Workspace workspace, Catalog catalog) {
    this(policy, workspace, catalog, false);
  }

  NoteReader(Policy policy, Workspace workspace, Catalog catalog, boolean structure) {
    this.policy = policy;
    this.workspace = workspace;
    this.catalog = catalog;
    this.structure = structure;
  }

  /** Headings an outline gives a page at most. */
  static final int OUTLINE_PAGE = 256;

  /** A heading longer than this many code points is cut in an outline. */
  static final int OUTLINE_HEADING_CHARACTERS = 200;

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
    if (structure) {
      arguments.allowOnly(
          NoteAccess.READ_NOTE,
          pages
              ? Set.of("path", "offset", "outline", "section")
              : Set.of("path", "outline", "section"));
    } else {
      arguments.allowOnly(NoteAccess.READ_NOTE, pages ? Set.of("path", "offset") : Set.of("path"));
    }
    String path = arguments.string("path");
    Arguments.Count offset = pages ? arguments.optionalCount("offset") : null;
    Boolean outline = structure ? arguments.optionalBoolean("outline") : null;
    String section = structure ? arguments.optionalString("section") : null;
    if (Boolean.TRUE.equals(outline) && section != null) {
      return new Outcome.Refusal(
          "give outline or section, not both: the outline lists the headings, section reads one");
    }
    if (section != null) {
      int characters = section.codePointCount(0, section.length());
      if (section.isBlank() || characters > ToolSchemas.MAX_SECTION_CHARACTERS) {
        return new Outcome.Refusal(
            "section must name a heading: 1 to "
                + ToolSchemas.MAX_SECTION_CHARACTERS
                + " characters, not "
                + (section.isBlank() ? "blank" : characters));
      }
    }
    NoteName name = readable(path);
    byte[] bytes;
    try {
      bytes = text(name);
    } catch (NotText notText) {
      return new Outcome.Refusal(notText.getMessage());
    }
    String sha256 = policy.edits(name.value()) ? Proposal.sha256(bytes) : null;
    if (Boolean.TRUE.equals(outline)) {
      return outline(name, bytes, offset);
    }
    if (section != null) {
      return section(name, bytes, section, offset, sha256);
    }
    return page(name, bytes, offset, sha256);
  }

  /**
   * The note's outline: its headings from byte {@code offset} (null: 0) on, at most {@link
   * #OUTLINE_PAGE}, each with its level, line, offset and section size; {@code nextOffset} (the
   * next heading's offset) when more remain.
   */
  private static Outcome outline(NoteName name, byte[] bytes, Arguments.Count offset) {
    long from = offset == null ? 0 : offset.value();
    if (from > 0 && from >= bytes.length) {
      return pastTheEnd(offset, name, bytes.length);
    }
    Structure parsed = Structure.parse(bytes, name.value());
    StringBuilder out = new StringBuilder(256).append("{\"path\":");
    JsonText.string(out, name.value()).append(",\"outline\":[");
    int shown = 0;
    long next = -1;
    for (Heading heading : parsed.headings()) {
      if (heading.offset() < from) {
        continue;
      }
      if (shown == OUTLINE_PAGE) {
        next = heading.offset();
        break;
      }
      out.append(shown++ == 0 ? "{\"heading\":" : ",{\"heading\":");
      JsonText.string(out, cut(heading.text(), OUTLINE_HEADING_CHARACTERS));
      out.append(",\"level\":")
          .append(heading.level())
          .append(",\"line\":")
          .append(heading.line())
          .append(",\"offset\":")
          .append(heading.offset())
          .append(",\"bytes\":")
          .append(heading.bytes())
          .append('}');
    }
    out.append("],\"totalBytes\":").append(bytes.length);
    if (next >= 0) {
      out.append(",\"nextOffset\":").append(next);
    }
    if (parsed.truncated(Structure.HEADINGS)) {
      out.append(",\"truncated\":true");
    }
    return new Outcome.Answer(out.append('}').toString());
  }

  /** {@code text}, or its first {@code max - 1} code points and "…". */
  static String cut(String text, int max) {
    if (text.codePointCount(0, text.length()) <= max) {
      return text;
    }
    return text.substring(0, text.offsetByCodePoints(0, max - 1)) + "\u2026";
  }

  /**
   * One section of the note: the heading {@code wanted} names ({@link Heading#find}), from its line
   * to the next heading of the same or a higher level; in pages as a note is, within the section.
   */
  private static Outcome section(
      NoteName name, byte[] bytes, String wanted, Arguments.Count offset, String sha256) {
    Heading heading = Structure.parse(bytes, name.value()).section(wanted);
    if (heading == null) {
      return new Outcome.Refusal(
          name
              + " has no heading "
              + Quote.of(wanted)
              + " (headings are matched exactly, case included; read_note with \"outline\":"
              + " true lists them)");
    }
    byte[] section =
        java.util.Arrays.copyOfRange(bytes, heading.offset(), heading.offset() + heading.bytes());
    long from = offset == null ? 0 : offset.value();
    int total = section.length;
    if (from == 0 && total <= NoteAccess.PAGE_BYTES) {
      return JsonText.section(name.value(), heading.text(), section, 0, total, -1, -1, sha256);
    }
    if (from > 0 && from >= total) {
      return new Outcome.Refusal(
          "offset "
              + offset.digits()
              + " is at or past the end of the section "
              + Quote.of(heading.text())
              + " of "
              + name
              + ", which is "
              + total
              + " bytes; pages start at 0 and at each nextOffset");
    }
    int start = (int) from;
    if (isContinuation(section[start])) {
      return new Outcome.Refusal(
          "offset "
              + offset.digits()
              + " is not at a character boundary of the section "
              + Quote.of(heading.text())
              + " of "
              + name
              + "; pages start at 0 and at each nextOffset");
    }
    int end = Math.min(total, start + NoteAccess.PAGE_BYTES);
    while (end < total && isContinuation(section[end])) {
      end--;
    }
    return JsonText.section(
        name.value(), heading.text(), section, start, end, total, end < total ? end : -1, sha256);
  }

  private static Outcome pastTheEnd(Arguments.Count offset, NoteName name, int total) {
    return new Outcome.Refusal(
        "offset "
            + offset.digits()
            + " is at or past the end of "
            + name
            + ", which is "
            + total
            + " bytes; pages start at 0 and at each nextOffset");
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
    byte[] bytes;
    try {
      bytes = text(name);
    } catch (NotText notText) {
      // A named note that is not there names no resource; one that is there cannot be read now.
      boolean gone =
          notText.unreadable && policy.namesNotes() && workspace.identityOf(name) == null;
      return new NoteAccess.Whole(null, notText.getMessage(), gone);
    }
    return new NoteAccess.Whole(new String(bytes, StandardCharsets.UTF_8), null, false);
  }

  /**
   * The note's bytes as {@code read_note} reads them: the careful read within {@code maxNoteBytes},
   * then valid UTF-8; or why not, in {@code read_note}'s words. Every tool that reads a note's text
   * for a client reads it here.
   */
  byte[] text(NoteName name) throws NotText {
    Workspace.Raw raw = workspace.readBytes(name.value(), policy.maxNoteBytes());
    if (raw instanceof Workspace.Unreadable) {
      throw new NotText(((Workspace.Unreadable) raw).reason(), true);
    }
    byte[] bytes = ((Workspace.Bytes) raw).bytes();
    int malformed = Utf8.firstMalformed(bytes);
    if (malformed >= 0) {
      throw new NotText(name + " is not valid UTF-8 (byte " + malformed + ")", false);
    }
    return bytes;
  }

  /** Why a note's text cannot be had now; {@code unreadable} when the read itself refused. */
  static final class NotText extends Exception {
    private static final long serialVersionUID = 1L;
    final boolean unreadable;

    NotText(String reason, boolean unreadable) {
      super(reason, null, false, false);
      this.unreadable = unreadable;
    }
  }
}

package notesmcp.policy.tools;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import notesmcp.markdown.Link;
import notesmcp.markdown.Structure;
import notesmcp.policy.knowledge.Filter;
import notesmcp.policy.knowledge.NoteStructures;
import notesmcp.policy.rules.NoteName;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.vault.Catalog;
import notesmcp.policy.vault.Workspace;
import notesmcp.text.Quote;

/**
 * The tools that know the notes' structure (docs/knowledge.md, "The tools"): {@code note_links},
 * {@code backlinks}, {@code list_tags}, {@code find_notes}; their arguments checked strictly, their
 * answers written. The path a client names is looked up as {@code read_note} looks it up, and every
 * answer holds only notes the catalog holds now ({@link NoteStructures}). Holds no state of its
 * own; any thread.
 */
final class StructureTools {
  static final int LINKS_PAGE = 500;
  static final int BACKLINKS_PAGE = 50;
  static final int TAGS_PAGE = 1000;
  static final int FIND_PAGE = 500;
  static final int MAX_TAG_CHARACTERS = 256;
  static final int MAX_VALUE_CHARACTERS = 1024;

  private final Policy policy;
  private final Workspace workspace;
  private final Catalog catalog;
  private final NoteStructures structures;
  private final NoteReader reader;

  StructureTools(
      Policy policy,
      Workspace workspace,
      Catalog catalog,
      NoteStructures structures,
      NoteReader reader) {
    this.policy = policy;
    this.workspace = workspace;
    this.catalog = catalog;
    this.structures = structures;
    this.reader = reader;
  }

  /**
   * {@code note_links}: the note read now, its links in order, each resolved among the notes the
   * catalog holds now.
   */
  Outcome links(Arguments arguments) throws Arguments.Rejected {
    arguments.allowOnly(NoteAccess.NOTE_LINKS, Set.of("path", "cursor"));
    String path = arguments.string("path");
    String cursor = arguments.optionalString("cursor");
    NoteName name = reader.readable(path);
    int from = 0;
    if (cursor != null) {
      try {
        from = Integer.parseInt(catalog.position(cursor, 'l', name.value(), ANOTHER_NOTE));
      } catch (Catalog.Refused refused) {
        return new Outcome.Refusal(refused.getMessage());
      }
    }
    byte[] bytes;
    try {
      bytes = reader.text(name);
    } catch (NoteReader.NotText notText) {
      return new Outcome.Refusal(notText.getMessage());
    }
    Structure structure = Structure.parse(bytes, name.value());
    List<Link> all = structure.links();
    List<Link> links =
        all.subList(Math.min(from, all.size()), Math.min(from + LINKS_PAGE, all.size()));
    List<String> resolved = structures.resolve(links, name.value());
    StringBuilder out = new StringBuilder(64 + links.size() * 96).append("{\"path\":");
    JsonText.string(out, name.value()).append(",\"links\":[");
    for (int i = 0; i < links.size(); i++) {
      Link link = links.get(i);
      out.append(i == 0 ? "{\"target\":" : ",{\"target\":");
      JsonText.string(out, link.target()).append(",\"resolved\":");
      if (resolved.get(i) == null) {
        out.append("null");
      } else {
        JsonText.string(out, resolved.get(i));
      }
      out.append(",\"line\":").append(link.line()).append('}');
    }
    out.append(']');
    if (from + LINKS_PAGE < all.size()) {
      out.append(",\"nextCursor\":\"")
          .append(catalog.cursor('l', name.value(), Integer.toString(from + LINKS_PAGE)))
          .append('"');
    }
    if (structure.truncated(Structure.LINKS)) {
      out.append(",\"truncated\":true");
    }
    return new Outcome.Answer(out.append('}').toString());
  }

  private static final String ANOTHER_NOTE =
      "another note: pass the path it came with, or start again without a cursor";

  /** {@code backlinks}: the lines of readable notes that link to the note, read now. */
  Outcome backlinks(Arguments arguments) throws Arguments.Rejected {
    arguments.allowOnly(NoteAccess.BACKLINKS, Set.of("path", "cursor"));
    String path = arguments.string("path");
    String cursor = arguments.optionalString("cursor");
    NoteName name = reader.readable(path);
    String afterPath = null;
    int afterLine = 0;
    if (cursor != null) {
      try {
        String position = catalog.position(cursor, 'b', name.value(), ANOTHER_NOTE);
        int tab = position.indexOf('\t');
        afterLine = Integer.parseInt(position.substring(0, tab));
        afterPath = position.substring(tab + 1);
      } catch (Catalog.Refused refused) {
        return new Outcome.Refusal(refused.getMessage());
      }
    }
    NoteStructures.Backlinks page;
    try {
      page = structures.backlinks(name.value(), afterPath, afterLine, BACKLINKS_PAGE);
    } catch (NoteStructures.NotReady notReady) {
      return new Outcome.Refusal(notReady.getMessage());
    }
    StringBuilder out = new StringBuilder(64 + page.backlinks().size() * 256).append("{\"path\":");
    JsonText.string(out, name.value()).append(",\"backlinks\":[");
    boolean first = true;
    for (NoteStructures.Backlink backlink : page.backlinks()) {
      out.append(first ? "{\"path\":" : ",{\"path\":");
      first = false;
      JsonText.string(out, backlink.path())
          .append(",\"line\":")
          .append(backlink.line())
          .append(",\"context\":");
      JsonText.string(out, backlink.context()).append('}');
    }
    out.append(']');
    if (page.nextPath() != null) {
      out.append(",\"nextCursor\":\"")
          .append(catalog.cursor('b', name.value(), page.nextLine() + "\t" + page.nextPath()))
          .append('"');
    }
    return new Outcome.Answer(out.append('}').toString());
  }

  /** {@code list_tags}: every tag of the readable notes, with how many hold it. */
  Outcome tags(Arguments arguments) throws Arguments.Rejected {
    arguments.allowOnly(NoteAccess.LIST_TAGS, Set.of("cursor"));
    String cursor = arguments.optionalString("cursor");
    String after = null;
    if (cursor != null) {
      try {
        after = catalog.position(cursor, 't', "", "another listing: start again without a cursor");
      } catch (Catalog.Refused refused) {
        return new Outcome.Refusal(refused.getMessage());
      }
    }
    List<NoteStructures.TagCount> tags;
    try {
      tags = structures.tags();
    } catch (NoteStructures.NotReady notReady) {
      return new Outcome.Refusal(notReady.getMessage());
    }
    StringBuilder out = new StringBuilder(64 + Math.min(tags.size(), TAGS_PAGE) * 32);
    out.append("{\"tags\":[");
    int shown = 0;
    String last = null;
    boolean more = false;
    for (NoteStructures.TagCount tag : tags) {
      if (after != null && notesmcp.text.CodePoints.compare(tag.tag(), after) <= 0) {
        continue;
      }
      if (shown == TAGS_PAGE) {
        more = true;
        break;
      }
      out.append(shown++ == 0 ? "{\"tag\":" : ",{\"tag\":");
      JsonText.string(out, "#" + tag.tag()).append(",\"count\":").append(tag.count()).append('}');
      last = tag.tag();
    }
    out.append(']');
    if (more) {
      out.append(",\"nextCursor\":\"").append(catalog.cursor('t', "", last)).append('"');
    }
    return new Outcome.Answer(out.append('}').toString());
  }

  /** {@code find_notes}: the readable notes that pass every condition given. */
  Outcome find(Arguments arguments) throws Arguments.Rejected {
    arguments.allowOnly(
        NoteAccess.FIND_NOTES, Set.of("tag", "property", "folder", "modified", "cursor"));
    Filter filter = filter(arguments, NoteAccess.FIND_NOTES);
    if (filter == null) {
      return new Outcome.Refusal(
          "find_notes needs at least one of \"tag\", \"property\", \"folder\" and \"modified\""
              + " (list_notes lists every note)");
    }
    String cursor = arguments.optionalString("cursor");
    String scope = digest(filter.canonical());
    String after = null;
    if (cursor != null) {
      try {
        after =
            catalog.position(
                cursor,
                'f',
                scope,
                "other conditions: pass the ones it came with, or start again without a cursor");
      } catch (Catalog.Refused refused) {
        return new Outcome.Refusal(refused.getMessage());
      }
    }
    List<String> found;
    try {
      // One more than a page: whether there is a next page.
      found = structures.find(filter, after, FIND_PAGE + 1);
    } catch (NoteStructures.NotReady notReady) {
      return new Outcome.Refusal(notReady.getMessage());
    }
    int end = Math.min(found.size(), FIND_PAGE);
    List<String> page = found.subList(0, end);
    return JsonText.notes(
        page, end < found.size() ? catalog.cursor('f', scope, page.get(page.size() - 1)) : null);
  }

  /**
   * The filter {@code arguments} give ({@code tag}, {@code property}, {@code folder}, {@code
   * modified}, as {@code find_notes} takes them), or null when they give none.
   */
  static Filter filter(Arguments arguments, String tool) throws Arguments.Rejected {
    String tag = arguments.optionalString("tag");
    if (tag != null) {
      String bare = tag.startsWith("#") ? tag.substring(1) : tag;
      int characters = bare.codePointCount(0, bare.length());
      if (bare.isBlank() || characters > MAX_TAG_CHARACTERS) {
        throw new Arguments.Rejected(
            "tag must be a tag of 1 to "
                + MAX_TAG_CHARACTERS
                + " characters, not "
                + Quote.of(tag));
      }
      tag = bare;
    }
    String folder = arguments.optionalString("folder");
    if (folder != null) {
      String problem = NoteName.problemWith(folder);
      if (problem != null) {
        throw new Arguments.Rejected(
            "folder " + Quote.of(folder) + " is not a folder's path: it " + problem);
      }
    }
    Arguments property = arguments.optionalObject("property");
    String name = null;
    String equals = null;
    String contains = null;
    String after = null;
    String before = null;
    if (property != null) {
      property.allowOnly(tool, Set.of("name", "equals", "contains", "after", "before"));
      name = bounded(property.string("name"), "property's name");
      equals = bounded(property.optionalString("equals"), "equals");
      contains = bounded(property.optionalString("contains"), "contains");
      after = date(property.optionalString("after"), "after");
      before = date(property.optionalString("before"), "before");
      if (name.isBlank()) {
        throw new Arguments.Rejected("property's name is blank: give the property's name");
      }
      int tests =
          (equals != null ? 1 : 0)
              + (contains != null ? 1 : 0)
              + (after != null || before != null ? 1 : 0);
      if (tests > 1) {
        throw new Arguments.Rejected(
            "property takes one test: equals, contains, or after and/or before, not more");
      }
    }
    Arguments modified = arguments.optionalObject("modified");
    long modifiedAfter = Long.MIN_VALUE;
    long modifiedBefore = Long.MAX_VALUE;
    if (modified != null) {
      modified.allowOnly(tool, Set.of("after", "before"));
      String from = modified.optionalString("after");
      String to = modified.optionalString("before");
      if (from == null && to == null) {
        throw new Arguments.Rejected("modified needs \"after\", \"before\" or both");
      }
      modifiedAfter = from == null ? Long.MIN_VALUE : instant(from, "modified's after");
      modifiedBefore = to == null ? Long.MAX_VALUE : instant(to, "modified's before");
    }
    if (tag == null && property == null && folder == null && modified == null) {
      return null;
    }
    return new Filter(
        tag, name, equals, contains, after, before, folder, modifiedAfter, modifiedBefore);
  }

  private static String bounded(String value, String what) throws Arguments.Rejected {
    if (value != null && value.codePointCount(0, value.length()) > MAX_VALUE_CHARACTERS) {
      throw new Arguments.Rejected(
          what + " is longer than " + MAX_VALUE_CHARACTERS + " characters");
    }
    return value;
  }

  private static String date(String value, String what) throws Arguments.Rejected {
    if (value == null) {
      return null;
    }
    String problem = Filter.dateProblem(value);
    if (problem != null) {
      throw new Arguments.Rejected(what + " " + Quote.of(bounded(value, what)) + " " + problem);
    }
    return value;
  }

  /**
   * A date or date and time as an instant, in nanoseconds since the epoch: UTC unless it ends with
   * an offset ({@code Z}, {@code +02:00}).
   */
  static long instant(String value, String what) throws Arguments.Rejected {
    String problem = value.length() > 64 ? "is too long" : Filter.dateProblem(value);
    if (problem != null) {
      throw new Arguments.Rejected(what + " " + Quote.of(value) + " " + problem);
    }
    String text = value.replace(' ', 'T').replace('t', 'T').replace('z', 'Z');
    LocalDateTime local;
    ZoneOffset offset = ZoneOffset.UTC;
    if (text.length() == 10) {
      local = LocalDateTime.parse(text + "T00:00");
    } else {
      int zone =
          Math.max(text.indexOf('Z', 11), Math.max(text.indexOf('+', 11), text.indexOf('-', 11)));
      if (zone > 0) {
        String id = text.substring(zone);
        offset = ZoneOffset.of(id.length() == 3 ? id + ":00" : id);
        text = text.substring(0, zone);
      }
      local = LocalDateTime.parse(text);
    }
    OffsetDateTime at = local.atOffset(offset);
    return Math.multiplyExact(at.toEpochSecond(), 1_000_000_000L) + at.getNano();
  }

  /** The first 128 bits of the SHA-256 of {@code text}, in hex: a cursor's scope. */
  static String digest(String text) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}

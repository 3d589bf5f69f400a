package notesmcp.markdown;

import java.util.List;

/**
 * One heading of a note and its section (docs/knowledge.md, "Headings and sections").
 *
 * @param level 1 to 6
 * @param text the heading's text as written, without its {@code #} marks (or setext underline) and
 *     the spaces around it
 * @param line the 1-based line of the heading (a setext heading's text line)
 * @param offset the byte offset of that line's start: where the section starts
 * @param bytes the section's size in bytes: from {@code offset} to the next heading of the same or
 *     a higher level (a smaller number), or to the note's end; sub-sections included
 */
public record Heading(int level, String text, int line, int offset, int bytes) {
  /**
   * The heading {@code name} names among {@code headings}, or null: the first whose text equals
   * {@code name} (stripped of surrounding white space), character for character; failing that, a
   * path of headings written as Obsidian links to them, {@code Parent#Child#Grandchild}: the first
   * heading matching the first part, then the first matching the next part within its section, and
   * so on.
   */
  public static Heading find(List<Heading> headings, String name) {
    return find(headings, name.strip(), 0, Integer.MAX_VALUE);
  }

  /**
   * The heading {@code name} names among the headings from index {@code from} that start before
   * {@code end}: one whose text is {@code name}, else, for each {@code #} in {@code name} from the
   * left, the first heading whose text is what precedes it and, within that heading's section, the
   * heading the rest names. A heading's own {@code #} ({@code C# notes}) is tried as text first.
   */
  private static Heading find(List<Heading> headings, String name, int from, int end) {
    int at = first(headings, name, from, end);
    if (at >= 0) {
      return headings.get(at);
    }
    for (int hash = name.indexOf('#'); hash >= 0; hash = name.indexOf('#', hash + 1)) {
      int parent = first(headings, name.substring(0, hash).strip(), from, end);
      if (parent >= 0) {
        Heading heading = headings.get(parent);
        Heading child =
            find(
                headings,
                name.substring(hash + 1).strip(),
                parent + 1,
                heading.offset + heading.bytes);
        if (child != null) {
          return child;
        }
      }
    }
    return null;
  }

  private static int first(List<Heading> headings, String text, int from, int end) {
    for (int k = from; k < headings.size() && headings.get(k).offset < end; k++) {
      if (headings.get(k).text.equals(text)) {
        return k;
      }
    }
    return -1;
  }
}

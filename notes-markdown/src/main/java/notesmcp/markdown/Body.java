package notesmcp.markdown;

import java.util.BitSet;

/**
 * Reads a note's body line by line (docs/knowledge.md, "What is read in a note"): fenced code
 * blocks and comments that span lines, ATX and setext headings, and within each line code spans,
 * comments, wikilinks, Markdown links, tags and block ids, in the order they start. What it finds
 * goes to a {@link Collector}.
 *
 * <p>Linear in the note's size, except the searches for a code span's closing backticks and a
 * Markdown link's closing bracket and destination, which may look ahead to the end of the line;
 * their bytes are counted, and a note that makes them look at more than {@link #budget} bytes (only
 * text made for it does) stops being read for links, tags and block ids there, and is marked {@link
 * Collector#exhausted}.
 */
final class Body {
  private static final byte NONE = 0;
  private static final byte HTML = 1;
  private static final byte PERCENT = 2;

  /** More paragraph lines than a setext heading's text can have. */
  private static final int MANY = 2;

  private final byte[] b;
  private final int n;
  private final Collector out;
  private final int budget;
  private int work;

  private byte comment = NONE;
  private byte fence;
  private int fenceLength;
  private int paragraphLines;
  private int paragraphStart;
  private int paragraphEnd;
  private int paragraphLine;

  /**
   * Per line: which lengths of backtick runs found no closing run, and where {@code ](} last is.
   */
  private final BitSet openRunsFailed = new BitSet();

  private int lastLinkBreak;

  Body(byte[] b, int n, Collector out) {
    this.b = b;
    this.n = n;
    this.out = out;
    this.budget = 8 * n + 65536;
  }

  int work() {
    return work;
  }

  int budget() {
    return budget;
  }

  void read(int from, int line) {
    int start = from;
    while (start < n) {
      int end = start;
      while (end < n && b[end] != '\n' && b[end] != '\r') {
        end++;
      }
      line(start, end, line);
      if (end >= n) {
        break;
      }
      start = end + (b[end] == '\r' && end + 1 < n && b[end + 1] == '\n' ? 2 : 1);
      line++;
    }
    out.end(n);
  }

  private void line(int start, int end, int line) {
    openRunsFailed.clear();
    lastLinkBreak = -2;
    if (comment != NONE) {
      int after = commentEnd(start, end);
      paragraphLines = MANY;
      if (after >= 0) {
        inline(after, end, line, false);
      }
      return;
    }
    int content = quoted(start, end);
    if (fence != 0) {
      if (closesFence(content, end)) {
        fence = 0;
        paragraphLines = 0;
      }
      return;
    }
    if (opensFence(content, end)) {
      paragraphLines = 0;
      return;
    }
    int underline = setextLevel(start, end);
    if (underline > 0 && paragraphLines == 1) {
      out.heading(
          underline,
          paragraphStart,
          paragraphLine,
          trimmedStart(paragraphStart, paragraphEnd),
          trimmedEnd(paragraphStart, paragraphEnd));
      paragraphLines = 0;
      return;
    }
    int[] atx = atx(start, end);
    if (atx != null) {
      out.heading(atx[0], start, line, atx[1], atx[2]);
      paragraphLines = 0;
      inline(atx[3], end, line, true);
      return;
    }
    if (blank(start, end) || thematicBreak(start, end)) {
      paragraphLines = 0;
    } else if (isParagraph(start, end)) {
      if (paragraphLines++ == 0) {
        paragraphStart = start;
        paragraphEnd = end;
        paragraphLine = line;
      }
    } else {
      paragraphLines = MANY;
    }
    inline(content, end, line, true);
    if (comment != NONE) {
      paragraphLines = MANY;
    }
  }

  // ---- blocks

  /** Where a line's text starts after its indentation and block quote markers ({@code > > }). */
  private int quoted(int start, int end) {
    int p = start;
    while (true) {
      while (p < end && (b[p] == ' ' || b[p] == '\t')) {
        p++;
      }
      if (p < end && b[p] == '>') {
        p++;
      } else {
        return p;
      }
    }
  }

  private boolean opensFence(int at, int end) {
    byte c = at < end ? b[at] : 0;
    if (c != '`' && c != '~') {
      return false;
    }
    int run = run(at, end, c);
    if (run < 3) {
      return false;
    }
    if (c == '`') {
      for (int i = at + run; i < end; i++) {
        if (b[i] == '`') {
          return false;
        }
      }
    }
    fence = c;
    fenceLength = run;
    return true;
  }

  private boolean closesFence(int at, int end) {
    if (at >= end || b[at] != fence) {
      return false;
    }
    int run = run(at, end, fence);
    return run >= fenceLength && blank(at + run, end);
  }

  private int run(int at, int end, byte c) {
    int p = at;
    while (p < end && b[p] == c) {
      p++;
    }
    return p - at;
  }

  private boolean blank(int from, int end) {
    for (int i = from; i < end; i++) {
      if (b[i] != ' ' && b[i] != '\t') {
        return false;
      }
    }
    return true;
  }

  /** Up to three spaces of indentation, or -1 for more (or a tab). */
  private int indent(int start, int end) {
    int p = start;
    while (p < end && b[p] == ' ' && p - start < 4) {
      p++;
    }
    return p - start > 3 || (p < end && b[p] == '\t') ? -1 : p;
  }

  /** 1 for a {@code ===} line, 2 for a {@code ---} line (indented at most three spaces), else 0. */
  private int setextLevel(int start, int end) {
    int p = indent(start, end);
    if (p < 0 || p >= end || (b[p] != '=' && b[p] != '-')) {
      return 0;
    }
    byte c = b[p];
    return blank(p + run(p, end, c), end) ? (c == '=' ? 1 : 2) : 0;
  }

  /**
   * An ATX heading: {level, text start, text end, inline start}, or null. One to six {@code #},
   * indented at most three spaces, then a space, a tab or the line's end; the text without the
   * closing run of {@code #} (one that follows a space or tab) and the spaces around it.
   */
  private int[] atx(int start, int end) {
    int p = indent(start, end);
    if (p < 0) {
      return null;
    }
    int level = run(p, end, (byte) '#');
    int after = p + level;
    if (level < 1 || level > 6 || (after < end && b[after] != ' ' && b[after] != '\t')) {
      return null;
    }
    int textStart = after;
    while (textStart < end && (b[textStart] == ' ' || b[textStart] == '\t')) {
      textStart++;
    }
    int textEnd = end;
    while (textEnd > textStart && (b[textEnd - 1] == ' ' || b[textEnd - 1] == '\t')) {
      textEnd--;
    }
    int hashes = textEnd;
    while (hashes > textStart && b[hashes - 1] == '#') {
      hashes--;
    }
    if (hashes < textEnd
        && (hashes == textStart || b[hashes - 1] == ' ' || b[hashes - 1] == '\t')) {
      textEnd = hashes;
      while (textEnd > textStart && (b[textEnd - 1] == ' ' || b[textEnd - 1] == '\t')) {
        textEnd--;
      }
    }
    return new int[] {level, textStart, textEnd, textStart};
  }

  /**
   * Whether a line can be a setext heading's text: indented at most three spaces, and no list item,
   * thematic break or other block start ({@code >}, an ATX heading and a fence are ruled out before
   * this is asked).
   */
  private boolean isParagraph(int start, int end) {
    int p = indent(start, end);
    if (p < 0) {
      return false;
    }
    byte c = b[p];
    if (c == '>') {
      return false;
    }
    if ((c == '-' || c == '*' || c == '+')
        && (p + 1 == end || b[p + 1] == ' ' || b[p + 1] == '\t')) {
      return false;
    }
    int digits = p;
    while (digits < end && b[digits] >= '0' && b[digits] <= '9' && digits - p < 10) {
      digits++;
    }
    if (digits > p
        && digits - p <= 9
        && digits < end
        && (b[digits] == '.' || b[digits] == ')')
        && (digits + 1 == end || b[digits + 1] == ' ' || b[digits + 1] == '\t')) {
      return false;
    }
    return true;
  }

  /** A line of three or more {@code -}, {@code *} or {@code _} (spaces between allowed). */
  private boolean thematicBreak(int start, int end) {
    int p = indent(start, end);
    if (p < 0 || p >= end) {
      return false;
    }
    byte c = b[p];
    if (c != '-' && c != '*' && c != '_') {
      return false;
    }
    int count = 0;
    for (int i = p; i < end; i++) {
      if (b[i] == c) {
        count++;
      } else if (b[i] != ' ' && b[i] != '\t') {
        return false;
      }
    }
    return count >= 3;
  }

  private int trimmedStart(int start, int end) {
    while (start < end && (b[start] == ' ' || b[start] == '\t')) {
      start++;
    }
    return start;
  }

  private int trimmedEnd(int start, int end) {
    while (end > start && (b[end - 1] == ' ' || b[end - 1] == '\t')) {
      end--;
    }
    return end;
  }

  // ---- within a line

  private static final byte[] HTML_CLOSE = {'-', '-', '>'};
  private static final byte[] PERCENT_CLOSE = {'%', '%'};

  /** Where the open comment closes on this line (after its closing mark), or -1. */
  private int commentEnd(int from, int end) {
    byte[] mark = comment == HTML ? HTML_CLOSE : PERCENT_CLOSE;
    for (int i = from; i + mark.length <= end; i++) {
      if (b[i] == mark[0] && b[i + 1] == mark[1] && (mark.length == 2 || b[i + 2] == mark[2])) {
        comment = NONE;
        return i + mark.length;
      }
    }
    return -1;
  }

  /**
   * What an ASCII byte is to {@link #inline}: text, a space, emphasis, or what {@link #special}
   * reads.
   */
  private static final byte TEXT = 0;

  private static final byte SPACE = 1;
  private static final byte EMPHASIS = 2;
  private static final byte SPECIAL = 3;
  private static final byte[] ASCII = new byte[128];

  static {
    for (char c : new char[] {' ', '\t', 0x0b, '\f'}) {
      ASCII[c] = SPACE;
    }
    for (char c : new char[] {'*', '_', '~', '='}) {
      ASCII[c] = EMPHASIS;
    }
    for (char c : new char[] {'\\', '`', '<', '%', '!', '[', '#', '^'}) {
      ASCII[c] = SPECIAL;
    }
  }

  private void inline(int from, int end, int line, boolean atStart) {
    boolean eligible = atStart;
    int i = from;
    while (i < end) {
      if (work > budget) {
        out.exhausted();
        return;
      }
      byte c = b[i];
      if (c >= 0) {
        byte kind = ASCII[c];
        if (kind == TEXT) {
          // A run of plain text (most of a note): nothing in it starts a construct.
          do {
            i++;
          } while (i < end && b[i] >= 0 && ASCII[b[i]] == TEXT);
          eligible = false;
          continue;
        }
        if (kind == SPECIAL) {
          int next = special(c, i, end, line, eligible);
          if (next >= 0) {
            if (next == Integer.MAX_VALUE) {
              return;
            }
            i = next;
            eligible = false;
            continue;
          }
        }
        eligible = kind == SPACE || (eligible && kind == EMPHASIS);
        i++;
      } else {
        int cp = Utf8.codePoint(b, i, end);
        eligible = Tag.isSpace(cp);
        i += Utf8.length(b, i, end);
      }
    }
  }

  /**
   * Reads the construct that may start with ASCII byte {@code c} at {@code i}: the position after
   * it, {@link Integer#MAX_VALUE} when a comment takes the rest of the line, or -1 when {@code c}
   * starts nothing there (it is then plain text).
   */
  private int special(byte c, int i, int end, int line, boolean eligible) {
    switch (c) {
      case '\\':
        return i + 1 < end && Link.isPunctuation(b[i + 1]) ? i + 2 : -1;
      case '`':
        return codeSpan(i, end);
      case '<':
        return i + 3 < end && b[i + 1] == '!' && b[i + 2] == '-' && b[i + 3] == '-'
            ? openComment(HTML, i + 4, end)
            : -1;
      case '%':
        return i + 1 < end && b[i + 1] == '%' ? openComment(PERCENT, i + 2, end) : -1;
      case '!':
        if (i + 2 < end && b[i + 1] == '[' && b[i + 2] == '[') {
          return wikilink(i, i + 1, end, line);
        }
        return i + 1 < end && b[i + 1] == '[' ? markdownLink(i, i + 1, end, line) : -1;
      case '[':
        if (i + 1 < end && b[i + 1] == '[') {
          return wikilink(i, i, end, line);
        }
        return markdownLink(i, i, end, line);
      case '#':
        return eligible ? tag(i, end, line) : -1;
      case '^':
        return eligible ? blockId(i, end, line) : -1;
      default:
        return -1;
    }
  }

  private int openComment(byte kind, int from, int end) {
    comment = kind;
    int after = commentEnd(from, end);
    return after >= 0 ? after : Integer.MAX_VALUE;
  }

  /**
   * A code span from the backtick run at {@code i}: the position after its closing run, else -1.
   */
  private int codeSpan(int i, int end) {
    int length = run(i, end, (byte) '`');
    if (openRunsFailed.get(length)) {
      return i + length;
    }
    int p = i + length;
    while (p < end) {
      work++;
      if (b[p] == '`') {
        int other = run(p, end, (byte) '`');
        work += other;
        if (other == length) {
          return p + other;
        }
        p += other;
      } else {
        p++;
      }
    }
    openRunsFailed.set(length);
    return i + length;
  }

  /**
   * A wikilink from the {@code [[} at {@code open} ({@code start} is its {@code !} for an embed):
   * it ends at the first {@code ]]} on the line; a {@code [[} before that starts the link anew
   * there (Obsidian reads {@code [[a [[b]] c]]} as a link to b).
   */
  private int wikilink(int start, int open, int end, int line) {
    int limit = Math.min(end, start + Link.MAX_BYTES);
    for (int p = open + 2; p + 1 < limit; p++) {
      if (b[p] == '[' && b[p + 1] == '[') {
        return p - (b[p - 1] == '!' ? 1 : 0);
      }
      if (b[p] == ']' && b[p + 1] == ']') {
        Link link = Link.wikilink(b, start, p + 2, line, start);
        if (link == null) {
          return open + 2;
        }
        out.link(start, p + 2, line);
        return p + 2;
      }
    }
    return open + 1;
  }

  /** A Markdown link {@code [text](destination)} from {@code open}, or -1 for a plain {@code [}. */
  private int markdownLink(int start, int open, int end, int line) {
    if (lastLinkBreak == -2) {
      lastLinkBreak = -1;
      for (int p = end - 2; p >= open; p--) {
        if (b[p] == ']' && b[p + 1] == '(') {
          lastLinkBreak = p;
          break;
        }
      }
    }
    if (lastLinkBreak < open) {
      return -1;
    }
    int close = Link.closingBracket(b, open, end);
    work += (close < 0 ? end : close) - open;
    if (close < 0 || close + 1 >= end || b[close + 1] != '(') {
      return -1;
    }
    int limit = Math.min(end, start + Link.MAX_BYTES);
    int[] destination = Link.destination(b, close + 1, limit);
    work += limit - close;
    if (destination == null) {
      return -1;
    }
    if (Link.markdown(b, start, destination[2], line, start) != null) {
      out.link(start, destination[2], line);
    }
    return destination[2];
  }

  /**
   * A tag from the {@code #} at {@code i}: the position after it, or -1 when none starts here. A
   * tag that follows a run of {@code _} (emphasis: {@code _#tag_}) loses as many {@code _} at its
   * end, when it has them, as Obsidian reads the emphasis before the tag.
   */
  private int tag(int i, int end, int line) {
    int p = i + 1;
    int count = 0;
    while (p < end) {
      int cp = b[p] >= 0 ? b[p] : Utf8.codePoint(b, p, end);
      if (!Tag.isTagChar(cp)) {
        break;
      }
      count++;
      p += b[p] >= 0 ? 1 : Utf8.length(b, p, end);
    }
    if (count == 0) {
      return -1;
    }
    int nameEnd = p;
    int underscores = 0;
    while (i - underscores - 1 >= 0 && b[i - underscores - 1] == '_') {
      underscores++;
    }
    if (underscores > 0
        && nameEnd - underscores > i + 1
        && run(nameEnd - underscores, nameEnd, (byte) '_') == underscores) {
      nameEnd -= underscores;
      count -= underscores;
    }
    if (count <= Tag.MAX_CODE_POINTS) {
      String name = Link.utf8(b, i + 1, nameEnd);
      if (Tag.isTag(name)) {
        out.tag(name, line);
      }
    }
    return p;
  }

  /** A block id {@code ^id} that ends the line: Latin letters, digits and dashes. */
  private int blockId(int i, int end, int line) {
    int p = i + 1;
    while (p < end
        && ((b[p] >= 'a' && b[p] <= 'z')
            || (b[p] >= 'A' && b[p] <= 'Z')
            || (b[p] >= '0' && b[p] <= '9')
            || b[p] == '-')) {
      p++;
    }
    if (p == i + 1 || !blank(p, end)) {
      return -1;
    }
    out.block(Link.utf8(b, i + 1, p), i, line);
    return end;
  }
}

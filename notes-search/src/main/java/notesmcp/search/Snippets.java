package notesmcp.search;

/**
 * A hit's snippet (docs/behaviour.md, "search_notes"): at most {@link #MAX} code points of the note
 * around the first match, on one line. It starts up to {@link #BEFORE} code points before the match
 * (at the start of a word when one begins within them); every run of white space and control
 * characters becomes one space; a cut at either end is marked with "…" (U+2026), counted in the
 * {@link #MAX}. Cuts fall between code points, never inside a surrogate pair. With no match in the
 * text (the query matched the note's name), the snippet is the note's beginning. A note's front
 * matter ({@link #bodyStart}) is never in a snippet: it starts in the body, and a query found only
 * in the front matter gives the body's beginning.
 */
final class Snippets {
  static final int MAX = 200;
  static final int BEFORE = 60;
  private static final String CUT = "\u2026";

  private Snippets() {}

  static String around(String text, SearchQuery.Match match) {
    int base = bodyStart(text);
    int start = Math.max(base, match.start());
    // Back up to BEFORE code points, then forward to a word's start if one is near.
    int from = start;
    for (int n = 0; n < BEFORE && from > base; n++) {
      from = text.offsetByCodePoints(from, -1);
    }
    if (from > base) {
      for (int i = from; i < start; ) {
        int c = text.codePointAt(i);
        if (!Folding.isWordCharacter(c)) {
          from = i + Character.charCount(c);
          break;
        }
        i += Character.charCount(c);
      }
    }
    StringBuilder out = new StringBuilder(MAX * 2);
    int count = 0;
    if (from > base) {
      out.append(CUT);
      count++;
    }
    boolean space = false;
    int i = from;
    while (i < text.length()) {
      int c = text.codePointAt(i);
      boolean blank =
          Character.isWhitespace(c) || Character.isISOControl(c) || c == 0x2028 || c == 0x2029;
      if (blank) {
        if (!space && count > (from > base ? 1 : 0)) {
          if (count >= MAX - 1) {
            break;
          }
          out.append(' ');
          count++;
        }
        space = true;
      } else {
        if (count >= MAX - 1 && i + Character.charCount(c) < text.length()) {
          break; // room only for the cut mark
        }
        if (count >= MAX) {
          break;
        }
        out.appendCodePoint(c);
        count++;
        space = false;
      }
      i += Character.charCount(c);
    }
    if (i < text.length() && !onlyBlanks(text, i)) {
      // Trailing space before the mark is dropped: the mark says the text goes on.
      if (out.length() > 0 && out.charAt(out.length() - 1) == ' ') {
        out.setLength(out.length() - 1);
      }
      out.append(CUT);
    } else if (out.length() > 0 && out.charAt(out.length() - 1) == ' ') {
      out.setLength(out.length() - 1);
    }
    return out.toString();
  }

  /**
   * Where a note's body starts, in UTF-16 units: after its front matter, as Obsidian reads one
   * (docs/knowledge.md, "Properties": the first line, after an optional byte-order mark, is {@code
   * ---} with only spaces and tabs after it, and the block ends with the first later line that
   * starts with {@code ---}; the body starts on the line after that), else 0.
   */
  static int bodyStart(String text) {
    int at = text.startsWith("\ufeff") ? 1 : 0;
    if (!text.startsWith("---", at)) {
      return 0;
    }
    int line = endOfLine(text, at);
    for (int i = at + 3; i < line; i++) {
      if (text.charAt(i) != ' ' && text.charAt(i) != '\t') {
        return 0;
      }
    }
    while (line < text.length()) {
      int next = afterBreak(text, line);
      if (text.startsWith("---", next)) {
        return afterBreak(text, endOfLine(text, next));
      }
      if (next >= text.length()) {
        return 0;
      }
      line = endOfLine(text, next);
    }
    return 0;
  }

  private static int endOfLine(String text, int from) {
    int i = from;
    while (i < text.length() && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
      i++;
    }
    return i;
  }

  /** The start of the line after the line break at {@code at} (LF, CR LF or CR). */
  private static int afterBreak(String text, int at) {
    if (at >= text.length()) {
      return at;
    }
    return text.charAt(at) == '\r' && at + 1 < text.length() && text.charAt(at + 1) == '\n'
        ? at + 2
        : at + 1;
  }

  private static boolean onlyBlanks(String text, int from) {
    for (int i = from; i < text.length(); ) {
      int c = text.codePointAt(i);
      if (!Character.isWhitespace(c) && !Character.isISOControl(c)) {
        return false;
      }
      i += Character.charCount(c);
    }
    return true;
  }
}

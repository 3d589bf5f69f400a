package notesmcp.search;

/**
 * A hit's snippet (docs/behaviour.md, "search_notes"): at most {@link #MAX} code points of the note
 * around the first match, on one line. It starts up to {@link #BEFORE} code points before the match
 * (at the start of a word when one begins within them); every run of white space and control
 * characters becomes one space; a cut at either end is marked with "…" (U+2026), counted in the
 * {@link #MAX}. Cuts fall between code points, never inside a surrogate pair. With no match in the
 * text (the query matched the note's name), the snippet is the note's beginning.
 */
final class Snippets {
  static final int MAX = 200;
  static final int BEFORE = 60;
  private static final String CUT = "\u2026";

  private Snippets() {}

  static String around(String text, SearchQuery.Match match) {
    int start = match.start();
    // Back up to BEFORE code points, then forward to a word's start if one is near.
    int from = start;
    for (int n = 0; n < BEFORE && from > 0; n++) {
      from = text.offsetByCodePoints(from, -1);
    }
    if (from > 0) {
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
    if (from > 0) {
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
        if (!space && count > (from > 0 ? 1 : 0)) {
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

package notesmcp.policy.knowledge;

import java.nio.charset.StandardCharsets;

/**
 * A backlink's context (docs/knowledge.md, "backlinks"): the text of the line that holds a link, on
 * one line, at most {@link #MAX} code points. Every run of white space and control characters is
 * one space, and the ends are stripped; a line longer than that is cut around the link, starting up
 * to {@link #BEFORE} code points before it, each cut marked with "…" (U+2026, counted).
 */
final class Context {
  static final int MAX = 200;
  static final int BEFORE = 60;
  private static final String CUT = "\u2026";

  private Context() {}

  /**
   * The context of the link at {@code note[offset, offset + length)}: its line (ended by LF, CR LF
   * or a lone CR), whose bytes are valid UTF-8.
   */
  static String line(byte[] note, int offset, int length) {
    int start = offset;
    while (start > 0 && note[start - 1] != '\n' && note[start - 1] != '\r') {
      start--;
    }
    int end = Math.min(note.length, offset + length);
    while (end < note.length && note[end] != '\n' && note[end] != '\r') {
      end++;
    }
    String before = new String(note, start, offset - start, StandardCharsets.UTF_8);
    String rest = new String(note, offset, end - offset, StandardCharsets.UTF_8);
    return cut(before, rest);
  }

  /** The line {@code before + rest}, the link at the start of {@code rest}, made one short line. */
  static String cut(String before, String rest) {
    String head = collapse(before);
    String tail = collapse(rest);
    if (!head.isEmpty() && !tail.isEmpty() && isBlank(before.codePointBefore(before.length()))) {
      head = head + " ";
    }
    boolean cutHead = false;
    int headCount = head.codePointCount(0, head.length());
    if (headCount + tail.codePointCount(0, tail.length()) > MAX && headCount > BEFORE) {
      head = head.substring(head.offsetByCodePoints(0, headCount - BEFORE));
      cutHead = true;
    }
    StringBuilder line = new StringBuilder(MAX * 2);
    if (cutHead) {
      line.append(CUT);
    }
    line.append(head).append(tail);
    int count = line.codePointCount(0, line.length());
    if (count > MAX) {
      line.setLength(line.offsetByCodePoints(0, MAX - 1));
      if (line.length() > 0 && line.charAt(line.length() - 1) == ' ') {
        line.setLength(line.length() - 1);
      }
      line.append(CUT);
    }
    return line.toString().strip();
  }

  /** {@code text} with every run of blanks one space, and none at either end. */
  private static String collapse(String text) {
    StringBuilder out = new StringBuilder(text.length());
    boolean blank = false;
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      i += Character.charCount(c);
      if (isBlank(c)) {
        blank = true;
        continue;
      }
      if (blank && out.length() > 0) {
        out.append(' ');
      }
      blank = false;
      out.appendCodePoint(c);
    }
    return out.toString();
  }

  private static boolean isBlank(int c) {
    return Character.isWhitespace(c) || Character.isISOControl(c) || c == 0x2028 || c == 0x2029;
  }
}

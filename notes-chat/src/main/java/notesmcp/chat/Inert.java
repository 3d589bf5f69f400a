package notesmcp.chat;

import notesmcp.app.VisibleText;

/**
 * Untrusted text made safe to print: what a model answers, what a server says when it refuses.
 * Every control character, escape sequence and invisible or bidirectional character is shown as an
 * escape by the review command's rendering ({@link VisibleText}), so nothing printed can act on the
 * terminal (repaint it, or disguise a line as the host's own).
 */
final class Inert {
  /** The most characters of one log line's untrusted part. */
  static final int LONGEST = 300;

  private Inert() {}

  /** {@code text} on one line (a line feed shows as {@code \n}), cut at {@link #LONGEST}. */
  static String line(String text) {
    String rendered = VisibleText.render(text).replace("\n", "");
    int length = rendered.codePointCount(0, rendered.length());
    if (length <= LONGEST) {
      return rendered;
    }
    return rendered.substring(0, rendered.offsetByCodePoints(0, LONGEST))
        + "... ("
        + (length - LONGEST)
        + " more characters)";
  }

  /**
   * A model's answer for stdout: its lines stay lines, and everything else a terminal could act on
   * is escaped ({@code \\} is one backslash).
   */
  static String answer(String text) {
    String[] lines = text.replace("\r\n", "\n").split("\n", -1);
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < lines.length; i++) {
      if (i > 0) {
        out.append('\n');
      }
      out.append(VisibleText.render(lines[i]));
    }
    return out.toString();
  }
}

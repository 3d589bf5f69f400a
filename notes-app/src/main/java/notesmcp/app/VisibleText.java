package notesmcp.app;

import notesmcp.policy.NoteName;

/**
 * Renders untrusted text for a person's terminal so that it cannot act on the terminal and hides
 * nothing: a proposal must never be able to repaint the reviewer's screen ({@code
 * docs/approvals.md}), and every character "that is invisible or default-ignorable by its Unicode
 * properties" is shown ({@code VisibleTextTest}). Such a character is written as an escape instead
 * ({@link #isInvisible}): C0 and C1 controls and DEL ({@code \x1b}), and {@code \\u200b} or {@code
 * \\U000e0041} for the rest.
 *
 * <p>The rendering is unambiguous: {@code \\} is one backslash, so {@code \x1b} in the output is
 * always the escape character and never the four characters a note might hold. A line feed shows as
 * {@code \n} and then really ends the line, so line structure stays readable and a missing or extra
 * final newline is visible. Stateless; any thread. Public for the chat mode (module notes-chat),
 * which shows what a model asks to send, and what it answers, the same way ({@code docs/chat.md}).
 */
public final class VisibleText {
  private VisibleText() {}

  public static String render(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      append(out, c);
      i += Character.charCount(c);
    }
    return out.toString();
  }

  private static void append(StringBuilder out, int c) {
    switch (c) {
      case '\\':
        out.append("\\\\");
        return;
      case '\n':
        out.append("\\n\n");
        return;
      case '\r':
        out.append("\\r");
        return;
      case '\t':
        out.append("\\t");
        return;
      default:
        break;
    }
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
      out.append(String.format("\\x%02x", c));
    } else if (isInvisible(c)) {
      out.append(
          Character.isBmpCodePoint(c) ? String.format("\\u%04x", c) : String.format("\\U%08x", c));
    } else {
      out.appendCodePoint(c);
    }
  }

  /**
   * Whether {@code c} draws nothing, draws as blank space that is not a plain space, or changes how
   * the text around it is drawn: the rule that also keeps such characters out of note names, {@link
   * NoteName#isInvisible}, where it is spelled out.
   */
  static boolean isInvisible(int c) {
    return NoteName.isInvisible(c);
  }
}

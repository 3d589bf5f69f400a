package notesmcp.app;

/**
 * Renders untrusted text for a person's terminal so that it cannot act on the terminal: "a proposal
 * must never be able to repaint the reviewer's screen" (approvals issue). Every character that a
 * terminal could take as a command, or that could hide or reorder what is shown, is written as an
 * escape instead: "C0 and C1 control characters, DEL, CR, and the bidirectional and invisible
 * format characters (U+200B–U+200F, U+202A–U+202E, U+2066–U+2069)", and every other Unicode format
 * (Cf), separator (Zl, Zp) or unassigned code point.
 *
 * <p>The rendering is unambiguous: {@code \\} is one backslash, so {@code \x1b} in the output is
 * always the escape character and never the four characters a note might hold. A line feed shows as
 * {@code \n} and then really ends the line, so line structure stays readable and a missing or extra
 * final newline is visible. Public for the chat mode (module notes-chat), which shows what a model
 * asks to send, and what it answers, the same way (issue 11).
 */
public final class VisibleText {
  private VisibleText() {}

  public static String render(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    text.codePoints().forEach(c -> append(out, c));
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
    } else if (isHidden(c)) {
      out.append(
          Character.isBmpCodePoint(c) ? String.format("\\u%04x", c) : String.format("\\U%08x", c));
    } else {
      out.appendCodePoint(c);
    }
  }

  /** Characters that draw nothing, or change how the text around them is drawn. */
  private static boolean isHidden(int c) {
    if ((c >= 0x200b && c <= 0x200f)
        || (c >= 0x202a && c <= 0x202e)
        || (c >= 0x2066 && c <= 0x2069)) {
      return true; // the list, whatever this JDK's Unicode tables say
    }
    int type = Character.getType(c);
    return type == Character.FORMAT
        || type == Character.LINE_SEPARATOR
        || type == Character.PARAGRAPH_SEPARATOR
        || type == Character.SURROGATE
        || type == Character.UNASSIGNED;
  }
}

package notesmcp.mcp;

/**
 * Text a server sent (an error message, its name, a version, its stderr), made safe to show in a
 * diagnostic line on the user's terminal: a server is not trusted to write terminal commands there.
 * Control characters (C0, DEL, C1), line and paragraph separators and Unicode format characters
 * (bidirectional overrides, zero-width characters) are written as escapes of their code points, and
 * a long text is cut, saying how much was left out. Stateless.
 */
public final class ServerText {
  /** How much of one server-sent text a diagnostic line shows. */
  public static final int MAX_CHARS = 300;

  private ServerText() {}

  /** {@code text} as one safe line of at most about {@link #MAX_CHARS} characters. */
  public static String shown(String text) {
    return shown(text, MAX_CHARS, false);
  }

  /**
   * {@code text} made safe, keeping its line feeds when {@code keepLines} (for a block of a
   * server's stderr), cut after {@code max} characters.
   */
  public static String shown(String text, int max, boolean keepLines) {
    if (text == null) {
      return "(none)";
    }
    StringBuilder out = new StringBuilder(Math.min(text.length(), max) + 16);
    int i = 0;
    while (i < text.length() && out.length() < max) {
      int c = text.codePointAt(i);
      i += Character.charCount(c);
      if (c == '\n' && keepLines) {
        out.append('\n');
      } else if (isUnsafe(c)) {
        out.append(String.format(c > 0xFFFF ? "\\U%08x" : "\\u%04x", c));
      } else {
        out.appendCodePoint(c);
      }
    }
    if (i < text.length()) {
      out.append("... (").append(text.length() - i).append(" more characters)");
    }
    return out.toString();
  }

  private static boolean isUnsafe(int c) {
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
      return true;
    }
    int type = Character.getType(c);
    return type == Character.FORMAT
        || type == Character.LINE_SEPARATOR
        || type == Character.PARAGRAPH_SEPARATOR
        || type == Character.UNASSIGNED
        || type == Character.PRIVATE_USE
        || type == Character.SURROGATE;
  }
}

package notesmcp.jsonrpc;

/**
 * Text a peer chose (a client's id, name or cancellation reason in the server's log; a server's
 * message, name or stderr in the client's diagnostics), made fit for one line on a terminal: a peer
 * is not trusted to write terminal commands there, or to start a line that looks like ours. Control
 * characters (C0, DEL, C1), line and paragraph separators, Unicode format characters (bidirectional
 * overrides, zero-width characters), unassigned and private-use code points and lone surrogates are
 * written as escapes of their code points, and a long text is cut, saying how much was left out.
 * Stateless.
 */
public final class SafeText {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private SafeText() {}

  /**
   * {@code text} made safe, keeping its line feeds when {@code keepLines} (for a block of a peer's
   * stderr), cut after about {@code max} characters; "(none)" for null.
   */
  public static String escaped(String text, int max, boolean keepLines) {
    if (text == null) {
      return "(none)";
    }
    StringBuilder out = new StringBuilder(Math.min(text.length(), max) + 16);
    return cut(out, text, append(out, text, max, keepLines, false));
  }

  /** {@code text} in quotes for a log line, with a quote or backslash inside escaped too. */
  public static String quoted(String text, int max) {
    StringBuilder out = new StringBuilder(Math.min(text.length(), max) + 16).append('"');
    int end = append(out, text, max, false, true);
    return cut(out.append('"'), text, end);
  }

  /**
   * Appends {@code text} made safe until about {@code max} characters; returns where it stopped.
   */
  private static int append(
      StringBuilder out, String text, int max, boolean keepLines, boolean quoting) {
    int start = out.length();
    int i = 0;
    while (i < text.length() && out.length() - start < max) {
      int c = text.codePointAt(i);
      i += Character.charCount(c);
      if (c == '\n' && keepLines) {
        out.append('\n');
      } else if (isUnsafe(c) || (quoting && (c == '"' || c == '\\'))) {
        escape(out, c);
      } else {
        out.appendCodePoint(c);
      }
    }
    return i;
  }

  private static String cut(StringBuilder out, String text, int end) {
    if (end < text.length()) {
      out.append("... (").append(text.length() - end).append(" more characters)");
    }
    return out.toString();
  }

  private static void escape(StringBuilder out, int c) {
    int digits = c > 0xFFFF ? 8 : 4;
    out.append(c > 0xFFFF ? "\\U" : "\\u");
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
      out.append(HEX[(c >> shift) & 0xf]);
    }
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

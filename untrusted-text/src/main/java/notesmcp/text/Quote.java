package notesmcp.text;

/**
 * Renders a client-supplied string for a refusal message: quoted, shortened, and with every
 * character that could hide or mislead (controls, format characters, non-ASCII) shown as a {@code
 * \\uXXXX} escape, so {@code notes\u2024txt} never looks like {@code notes.txt}.
 */
public final class Quote {
  private static final int MAX_SHOWN = 80;

  private Quote() {}

  public static String of(String value) {
    StringBuilder out = new StringBuilder(Math.min(value.length(), MAX_SHOWN) + 8).append('"');
    int shown = Math.min(value.length(), MAX_SHOWN);
    for (int i = 0; i < shown; i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c >= 0x20 && c < 0x7f) {
        out.append(c);
      } else {
        out.append(String.format("\\u%04x", (int) c));
      }
    }
    if (value.length() > shown) {
      out.append("...");
    }
    return out.append('"').toString();
  }
}

package notesmcp.app;

/**
 * Renders untrusted text for a person's terminal so that it cannot act on the terminal and hides
 * nothing: "a proposal must never be able to repaint the reviewer's screen" (approvals issue), and
 * every character "that is invisible or default-ignorable by its Unicode properties" is shown
 * (issue 8, defect 9). Such a character is written as an escape instead ({@link #isInvisible}): C0
 * and C1 controls and DEL ({@code \x1b}), and {@code \\u200b} or {@code \\U000e0041} for the rest.
 *
 * <p>The rendering is unambiguous: {@code \\} is one backslash, so {@code \x1b} in the output is
 * always the escape character and never the four characters a note might hold. A line feed shows as
 * {@code \n} and then really ends the line, so line structure stays readable and a missing or extra
 * final newline is visible. Stateless; any thread. Public for the chat mode (module notes-chat),
 * which shows what a model asks to send, and what it answers, the same way (issue 11).
 */
public final class VisibleText {
  /**
   * Other_Default_Ignorable_Code_Point (Unicode 16's PropList.txt): the Hangul fillers U+115F,
   * U+1160, U+3164 and U+FFA0, U+034F COMBINING GRAPHEME JOINER, the Khmer inherent vowels U+17B4
   * and U+17B5, and ranges reserved for future invisible characters. Inclusive ranges.
   */
  private static final int[] OTHER_DEFAULT_IGNORABLE = {
    0x034f, 0x034f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x2065, 0x2065, 0x3164, 0x3164, 0xffa0, 0xffa0,
    0xfff0, 0xfff8, 0xe0000, 0xe0000, 0xe0002, 0xe001f, 0xe0080, 0xe00ff, 0xe01f0, 0xe0fff
  };

  /** Variation_Selector (PropList.txt, Unicode 16): U+FE0F and its kin. Inclusive ranges. */
  private static final int[] VARIATION_SELECTOR = {
    0x180b, 0x180d, 0x180f, 0x180f, 0xfe00, 0xfe0f, 0xe0100, 0xe01ef
  };

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
   * the text around it is drawn, by its Unicode properties: Default_Ignorable_Code_Point (which is
   * Other_Default_Ignorable_Code_Point, format characters and Variation_Selector, less a few format
   * characters that do draw), every format character (Cf, which includes the bidirectional controls
   * and the tag characters), controls (Cc), White_Space other than U+0020 (no-break, em,
   * ideographic and other spaces, line and paragraph separators), and code points this JDK does not
   * know (unassigned, surrogates). Java 17 has no Default_Ignorable_Code_Point; {@code
   * VisibleTextTest} checks this rule against ICU4J's property on every code point.
   */
  static boolean isInvisible(int c) {
    switch (Character.getType(c)) {
      case Character.CONTROL:
      case Character.FORMAT:
      case Character.LINE_SEPARATOR:
      case Character.PARAGRAPH_SEPARATOR:
      case Character.SURROGATE:
      case Character.UNASSIGNED:
        return true;
      case Character.SPACE_SEPARATOR:
        return c != ' ';
      default:
        return in(OTHER_DEFAULT_IGNORABLE, c) || in(VARIATION_SELECTOR, c);
    }
  }

  private static boolean in(int[] ranges, int c) {
    for (int i = 0; i < ranges.length; i += 2) {
      if (c >= ranges[i] && c <= ranges[i + 1]) {
        return true;
      }
    }
    return false;
  }
}

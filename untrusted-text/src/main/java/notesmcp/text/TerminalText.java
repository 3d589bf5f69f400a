package notesmcp.text;

/**
 * Text someone else chose, made fit for a person's terminal: a note or a proposal in {@code
 * review}, what a model answers in {@code chat}, what a server sends to the one-shot client, what a
 * client sends to the server's log. None of them is trusted to act on the terminal (repaint it, set
 * its title, move the cursor), to hide text, or to start a line that passes for ours.
 *
 * <p>One rule says which characters are shown as escapes ({@link #isUnsafe}): controls, format
 * characters (bidirectional overrides, zero-width characters, tags), every other default-ignorable
 * character, every space that is not U+0020, line and paragraph separators, private-use code points
 * (they draw whatever a font puts there) and what this JDK does not know (unassigned, lone
 * surrogates). {@code TerminalTextTest} checks the rule against ICU4J's Unicode properties on every
 * code point.
 *
 * <p>Two written forms, for two kinds of output:
 *
 * <ul>
 *   <li><b>visible</b> ({@link #visible}): for text a person reads to decide (review, chat). It is
 *       unambiguous: {@code \\} is one backslash, so {@code \x1b} in the output is always the
 *       escape character and never the four characters a note might hold; a line feed shows as
 *       {@code \n} and then really ends the line, so a missing or extra final newline is visible;
 *   <li><b>escaped</b> ({@link #escaped}, {@link #quoted}): for one diagnostic line that quotes a
 *       peer (a server's name or error message, a client's cancellation reason): each unsafe
 *       character as {@code \\uNNNN} or {@code \\UNNNNNNNN}, the rest as written, cut at a length.
 * </ul>
 *
 * Stateless; any thread. On the start path of {@code -serve} and the one-shot client: no lambda,
 * method reference or indified string concatenation here.
 */
public final class TerminalText {
  /** How much of one peer's text a diagnostic line shows. */
  public static final int LINE_CHARS = 300;

  /** How the escapes of the visible form read, for a block that shows content in that form. */
  public static final String KEY =
      "(escaped: \\\\ is one backslash; \\n \\r \\t \\xNN \\uNNNN \\UNNNNNNNN stand for one"
          + " character)";

  private static final char[] HEX = "0123456789abcdef".toCharArray();

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

  private TerminalText() {}

  /**
   * Whether {@code c} is shown as an escape: it acts on a terminal, draws nothing, draws as blank
   * space that is not a plain space, changes how the text around it is drawn, or draws whatever the
   * font makes of it. By its Unicode properties: Default_Ignorable_Code_Point (which is
   * Other_Default_Ignorable_Code_Point, format characters and Variation_Selector, less a few format
   * characters that do draw), every format character (Cf, which includes the bidirectional controls
   * and the tag characters), controls (Cc), White_Space other than U+0020 (no-break, em,
   * ideographic and other spaces, line and paragraph separators), private use (Co), and code points
   * this JDK does not know (unassigned, surrogates). Java 17 has no Default_Ignorable_Code_Point;
   * the two small tables above fill it in.
   */
  public static boolean isUnsafe(int c) {
    switch (Character.getType(c)) {
      case Character.CONTROL:
      case Character.FORMAT:
      case Character.LINE_SEPARATOR:
      case Character.PARAGRAPH_SEPARATOR:
      case Character.SURROGATE:
      case Character.UNASSIGNED:
      case Character.PRIVATE_USE:
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

  // The visible form: for what a person reads to decide.

  /** {@code text} in the visible form, line feeds kept as {@code \n} and a real line break. */
  public static String visible(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      appendVisible(out, c);
      i += Character.charCount(c);
    }
    return out.toString();
  }

  /**
   * {@code text} in the visible form on one line (a line feed shows as {@code \n} only), cut after
   * {@link #LINE_CHARS} code points, saying how many more there were.
   */
  public static String visibleLine(String text) {
    return visibleLine(text, LINE_CHARS);
  }

  /** As {@link #visibleLine(String)}, cut after {@code max} code points of the visible form. */
  public static String visibleLine(String text, int max) {
    // Memory stays bounded whatever the text (a model may send megabytes): only the shown part is
    // rendered; the rest is counted.
    StringBuilder out = new StringBuilder(Math.min(max, text.length()) + 32);
    long shown = 0;
    int i = 0;
    while (i < text.length() && shown < max) {
      int c = text.codePointAt(i);
      i += Character.charCount(c);
      int before = out.length();
      appendVisible(out, c);
      if (c == '\n') {
        out.setLength(out.length() - 1); // the line feed itself; its escape stays
      }
      shown += out.codePointCount(before, out.length());
    }
    long total = shown;
    while (i < text.length()) {
      int c = text.codePointAt(i);
      i += Character.charCount(c);
      total += visibleWidth(c);
    }
    if (total <= max) {
      return out.toString();
    }
    return out.substring(0, out.offsetByCodePoints(0, max))
        + "... ("
        + (total - max)
        + " more characters)";
  }

  /** How many characters {@code c} takes in the visible form, a line feed's own break left out. */
  private static int visibleWidth(int c) {
    if (c == '\\' || c == '\n' || c == '\r' || c == '\t') {
      return 2;
    }
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
      return 4;
    }
    if (isUnsafe(c)) {
      return c > 0xFFFF ? 10 : 6;
    }
    return 1;
  }

  /**
   * {@code text} in the visible form with its lines kept as lines (a line feed, or CR LF, is a line
   * break and nothing else): for a model's answer, which is read as prose.
   */
  public static String visibleLines(String text) {
    String[] lines = text.replace("\r\n", "\n").split("\n", -1);
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < lines.length; i++) {
      if (i > 0) {
        out.append('\n');
      }
      out.append(visible(lines[i]));
    }
    return out.toString();
  }

  /**
   * Content in the visible form, each line behind a gutter ({@code " | "}), so that no line of it
   * can pass for the program's own output; {@code " (empty)"} for none. Ends with a newline.
   */
  public static String gutter(String content) {
    if (content.isEmpty()) {
      return "    (empty)\n";
    }
    String rendered = visible(content);
    if (rendered.endsWith("\n")) {
      rendered = rendered.substring(0, rendered.length() - 1);
    }
    StringBuilder out = new StringBuilder(rendered.length() + 64);
    for (String line : rendered.split("\n", -1)) {
      out.append("    | ").append(line).append('\n');
    }
    return out.toString();
  }

  private static void appendVisible(StringBuilder out, int c) {
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
      out.append("\\x").append(HEX[c >> 4]).append(HEX[c & 0xf]);
    } else if (isUnsafe(c)) {
      appendCodePoint(out, c);
    } else {
      out.appendCodePoint(c);
    }
  }

  // The escaped form: for a diagnostic line that quotes a peer.

  /** {@code text} as one escaped line of at most about {@link #LINE_CHARS} characters. */
  public static String escaped(String text) {
    return escaped(text, LINE_CHARS, false);
  }

  /**
   * {@code text} escaped, keeping its line feeds when {@code keepLines} (for a block of a peer's
   * stderr), cut after about {@code max} characters; "(none)" for null.
   */
  public static String escaped(String text, int max, boolean keepLines) {
    if (text == null) {
      return "(none)";
    }
    StringBuilder out = new StringBuilder(Math.min(text.length(), max) + 16);
    return cut(out, text, appendEscaped(out, text, max, keepLines, false));
  }

  /** {@code text} in quotes for a log line, with a quote or backslash inside escaped too. */
  public static String quoted(String text, int max) {
    StringBuilder out = new StringBuilder(Math.min(text.length(), max) + 16).append('"');
    int end = appendEscaped(out, text, max, false, true);
    return cut(out.append('"'), text, end);
  }

  /** Appends {@code text} escaped until about {@code max} characters; returns where it stopped. */
  private static int appendEscaped(
      StringBuilder out, String text, int max, boolean keepLines, boolean quoting) {
    int start = out.length();
    int i = 0;
    while (i < text.length() && out.length() - start < max) {
      int c = text.codePointAt(i);
      i += Character.charCount(c);
      if (c == '\n' && keepLines) {
        out.append('\n');
      } else if (isUnsafe(c) || (quoting && (c == '"' || c == '\\'))) {
        appendCodePoint(out, c);
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

  /** {@code \\uNNNN}, or {@code \\UNNNNNNNN} outside the BMP. */
  private static void appendCodePoint(StringBuilder out, int c) {
    int digits = c > 0xFFFF ? 8 : 4;
    out.append(c > 0xFFFF ? "\\U" : "\\u");
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
      out.append(HEX[(c >> shift) & 0xf]);
    }
  }
}

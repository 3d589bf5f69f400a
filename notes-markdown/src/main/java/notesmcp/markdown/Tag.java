package notesmcp.markdown;

import java.text.Normalizer;
import java.util.Locale;
import notesmcp.text.TerminalText;

/**
 * One tag of a note, as Obsidian reads tags (docs/knowledge.md, "Tags"): {@code name} is the tag
 * without its {@code #}, spelled as the note first wrote it (front matter before body); {@code
 * line} is the 1-based line of its first inline occurrence, 0 when it is only in the front matter;
 * {@code inline} and {@code frontmatter} say where the note holds it. Two tags are the same tag
 * when their {@link #key}s are equal.
 */
public record Tag(String name, int line, boolean inline, boolean frontmatter) {
  /** The longest tag kept, in code points; a longer one is no tag at all. */
  public static final int MAX_CODE_POINTS = 256;

  /** The comparison key of this tag: {@link #fold} of its name. */
  public String key() {
    return fold(name);
  }

  /**
   * The comparison key of a tag name: NFC, then {@link String#toLowerCase(Locale)} with {@link
   * Locale#ROOT} (Unicode's default lower-case mapping, as JavaScript's {@code toLowerCase}, which
   * Obsidian uses): {@code #Project}, {@code #PROJECT} and {@code #project} are one tag, {@code
   * #Straße} and {@code #STRASSE} are two (no full case folding), and {@code #café} written with a
   * combining accent is {@code #café}.
   */
  public static String fold(String name) {
    return Normalizer.normalize(name, Normalizer.Form.NFC).toLowerCase(Locale.ROOT);
  }

  /**
   * Whether {@code c} may stand in a tag. Obsidian's rule: anything but white space, ASCII
   * punctuation other than {@code _ - /}, and the General Punctuation (U+2000-U+206F) and
   * Supplemental Punctuation (U+2E00-U+2E7F) blocks; so letters of any script, digits, marks,
   * emoji. Ours adds: nothing the terminal rule shows as an escape ({@link TerminalText#isUnsafe}:
   * controls, format characters, private use, unassigned code points), variation selectors
   * excepted, which emoji carry.
   */
  static boolean isTagChar(int c) {
    if (c < 0x80) {
      return (c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '_'
          || c == '-'
          || c == '/';
    }
    if (isSpace(c) || (c >= 0x2000 && c <= 0x206f) || (c >= 0x2e00 && c <= 0x2e7f)) {
      return false;
    }
    return !TerminalText.isUnsafe(c) || isVariationSelector(c);
  }

  /**
   * JavaScript's white space ({@code \s}): what ends a tag and what may stand before one, beside
   * the ASCII spaces and line breaks.
   */
  static boolean isSpace(int c) {
    switch (c) {
      case ' ':
      case '\t':
      case '\n':
      case 0x0b:
      case '\f':
      case '\r':
      case 0xa0:
      case 0x1680:
      case 0x2028:
      case 0x2029:
      case 0x202f:
      case 0x205f:
      case 0x3000:
      case 0xfeff:
        return true;
      default:
        return c >= 0x2000 && c <= 0x200a;
    }
  }

  private static boolean isVariationSelector(int c) {
    return (c >= 0xfe00 && c <= 0xfe0f) || (c >= 0xe0100 && c <= 0xe01ef);
  }

  /**
   * Whether {@code name} (without {@code #}) is a whole tag: 1 to {@value #MAX_CODE_POINTS} tag
   * characters, at least one of them not an ASCII digit ({@code #1984} is no tag, {@code #y1984}
   * and {@code #١٩٨٤} are).
   */
  static boolean isTag(String name) {
    if (name.isEmpty() || name.codePointCount(0, name.length()) > MAX_CODE_POINTS) {
      return false;
    }
    boolean digitsOnly = true;
    for (int i = 0; i < name.length(); ) {
      int c = name.codePointAt(i);
      if (!isTagChar(c)) {
        return false;
      }
      digitsOnly &= c >= '0' && c <= '9';
      i += Character.charCount(c);
    }
    return !digitsOnly;
  }
}

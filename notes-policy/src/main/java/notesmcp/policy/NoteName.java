package notesmcp.policy;

import java.text.Normalizer;
import java.util.Objects;

/**
 * The path of one note relative to the workspace, such as {@code notes.txt} or {@code
 * Projects/Paper Kite.md}, that follows the note-name rules ({@code docs/behaviour.md}, "Note
 * names"): components separated by {@code /}, none empty or starting with {@code .}, each at most
 * 255 bytes of UTF-8, the whole at most 1,024 bytes and at most 16 folders deep, NFC-normalized,
 * and free of controls, format characters (bidirectional controls among them), default-ignorable
 * and other invisible characters. Whatever a policy says, a path that breaks a rule is never a
 * note.
 *
 * <p>Instances come from the trusted side only: a policy's exact names, the names the server
 * enumerated in the workspace itself, and a proposal's destination once the policy allowed it. A
 * client's string is compared with those and never becomes a name by itself.
 */
public final class NoteName {
  static final int MAX_COMPONENT_BYTES = 255;
  static final int MAX_PATH_BYTES = 1024;
  static final int MAX_FOLDERS = 16;

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

  private final String value;

  private NoteName(String value) {
    this.value = value;
  }

  /**
   * Checks a configured name (a policy's exact name, a proposal record's destination).
   *
   * @throws IllegalArgumentException {@code note name "..." <why>}
   */
  public static NoteName configured(String value) {
    Objects.requireNonNull(value, "name");
    String problem = problemWith(value);
    if (problem != null) {
      throw new IllegalArgumentException("note name " + Quote.of(value) + " " + problem);
    }
    return new NoteName(value);
  }

  /** A path already known to follow the rules: {@link #problemWith} said nothing against it. */
  static NoteName checked(String value) {
    return new NoteName(value);
  }

  /**
   * Why {@code path} can never be a note, in the words of a refusal ("is empty", "has the component
   * \"..\" ..."), or null when it follows every rule. Cheap checks first: every call with a path
   * comes here.
   */
  static String problemWith(String path) {
    if (path.isEmpty()) {
      return "is empty";
    }
    int bytes = Arguments.utf8Length(path);
    if (bytes > MAX_PATH_BYTES) {
      return "is " + bytes + " bytes of UTF-8; the limit is " + MAX_PATH_BYTES;
    }
    String invisible = invisibleIn(path);
    if (invisible != null) {
      return invisible;
    }
    if (path.charAt(0) == '/') {
      return "starts with '/': a note's path is relative to the workspace";
    }
    if (path.charAt(path.length() - 1) == '/') {
      return "ends with '/'";
    }
    int folders = 0;
    int start = 0;
    while (true) {
      int slash = path.indexOf('/', start);
      int end = slash < 0 ? path.length() : slash;
      String problem = componentProblem(path, start, end);
      if (problem != null) {
        return problem;
      }
      if (slash < 0) {
        break;
      }
      folders++;
      start = slash + 1;
    }
    if (folders > MAX_FOLDERS) {
      return "is " + folders + " folders deep; the limit is " + MAX_FOLDERS;
    }
    if (!isNfc(path)) {
      return "is not in Unicode normalization form C (NFC)";
    }
    return null;
  }

  /**
   * Why one component (a folder's or a file's name, as a directory lists it) can never be part of a
   * note's path, or null. For names read from the workspace: the caller checks the path's length
   * and depth.
   */
  static String componentProblem(String name) {
    if (name.isEmpty()) {
      return "is empty";
    }
    String invisible = invisibleIn(name);
    if (invisible != null) {
      return invisible;
    }
    if (name.indexOf('/') >= 0) {
      return "holds '/'";
    }
    String problem = componentProblem(name, 0, name.length());
    if (problem != null) {
      return problem;
    }
    return isNfc(name) ? null : "is not in Unicode normalization form C (NFC)";
  }

  private static String componentProblem(String path, int start, int end) {
    if (start == end) {
      return "has an empty component ('//')";
    }
    if (path.charAt(start) == '.') {
      return "has the component "
          + Quote.of(path.substring(start, end))
          + " (a component starting with '.' is never a note)";
    }
    int bytes = Arguments.utf8Length(path.substring(start, end));
    if (bytes > MAX_COMPONENT_BYTES) {
      return "has a component of " + bytes + " bytes; the limit is " + MAX_COMPONENT_BYTES;
    }
    return null;
  }

  private static String invisibleIn(String text) {
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      if (c < 0x20 || c == 0x7f || (c >= 0x80 && isInvisible(c))) {
        return "holds U+"
            + String.format("%04X", c)
            + ", a control, format or invisible character (never part of a note's name)";
      }
      i += Character.charCount(c);
    }
    return null;
  }

  private static boolean isNfc(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) >= 0x300) {
        // Below U+0300 every character is NFC on its own and none composes with the one before.
        return Normalizer.isNormalized(text, Normalizer.Form.NFC);
      }
    }
    return true;
  }

  /**
   * Whether {@code c} draws nothing, draws as blank space that is not a plain space, or changes how
   * the text around it is drawn, by its Unicode properties: Default_Ignorable_Code_Point (which is
   * Other_Default_Ignorable_Code_Point, format characters and Variation_Selector, less a few format
   * characters that do draw), every format character (Cf, which includes the bidirectional controls
   * and the tag characters), controls (Cc), White_Space other than U+0020 (no-break, em,
   * ideographic and other spaces, line and paragraph separators), and code points this JDK does not
   * know (unassigned, surrogates). Java 17 has no Default_Ignorable_Code_Point; {@code
   * VisibleTextTest} checks this rule against ICU4J's property on every code point. Public for the
   * review's rendering (notes-app's {@code VisibleText}), which shows such characters as escapes.
   */
  public static boolean isInvisible(int c) {
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

  public String value() {
    return value;
  }

  /** The folder part ({@code Projects} of {@code Projects/Paper Kite.md}), or "" at the root. */
  String folder() {
    int slash = value.lastIndexOf('/');
    return slash < 0 ? "" : value.substring(0, slash);
  }

  /** The last component: the file's own name. */
  String fileName() {
    return value.substring(value.lastIndexOf('/') + 1);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof NoteName && ((NoteName) other).value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public String toString() {
    return value;
  }
}

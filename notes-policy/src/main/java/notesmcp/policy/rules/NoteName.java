package notesmcp.policy.rules;

import java.text.Normalizer;
import java.util.Objects;
import notesmcp.text.Quote;
import notesmcp.text.TerminalText;
import notesmcp.text.Utf8;

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
  public static final int MAX_COMPONENT_BYTES = 255;
  public static final int MAX_PATH_BYTES = 1024;
  public static final int MAX_FOLDERS = 16;

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
  public static NoteName checked(String value) {
    return new NoteName(value);
  }

  /**
   * Why {@code path} can never be a note, in the words of a refusal ("is empty", "has the component
   * \"..\" ..."), or null when it follows every rule. Cheap checks first: every call with a path
   * comes here.
   */
  public static String problemWith(String path) {
    if (path.isEmpty()) {
      return "is empty";
    }
    int bytes = Utf8.length(path);
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
  public static String componentProblem(String name) {
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
    int bytes = Utf8.length(path.substring(start, end));
    if (bytes > MAX_COMPONENT_BYTES) {
      return "has a component of " + bytes + " bytes; the limit is " + MAX_COMPONENT_BYTES;
    }
    return null;
  }

  private static String invisibleIn(String text) {
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      if (c < 0x20 || c == 0x7f || (c >= 0x80 && TerminalText.isUnsafe(c))) {
        return "holds U+"
            + String.format("%04X", c)
            + ", a control, format, invisible or private-use character (never part of a note's"
            + " name)";
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

  public String value() {
    return value;
  }

  /** The folder part ({@code Projects} of {@code Projects/Paper Kite.md}), or "" at the root. */
  public String folder() {
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

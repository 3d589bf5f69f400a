package notesmcp.policy;

import java.util.Objects;

/**
 * The name of one note the policy allows, such as {@code notes.txt}.
 *
 * <p>Instances come only from a {@link Policy}'s allow-lists, so a {@code NoteName} in hand is
 * proof that the name was configured by the trusted side. A client's string is compared with the
 * list and never becomes a name itself; the file path is built from the list's own value.
 */
public final class NoteName {
  private final String value;

  private NoteName(String value) {
    this.value = value;
  }

  /** Checks a configured name: one plain file name directly inside the workspace. */
  static NoteName configured(String value) {
    Objects.requireNonNull(value, "name");
    String problem = problemWith(value);
    if (problem != null) {
      throw new IllegalArgumentException("note name " + Quote.of(value) + " " + problem);
    }
    return new NoteName(value);
  }

  private static String problemWith(String value) {
    if (value.isEmpty()) {
      return "is empty";
    }
    if (value.equals(".") || value.equals("..")) {
      return "is not a file name";
    }
    if (value.length() > 255) {
      return "is longer than 255 characters";
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      boolean allowed =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '.'
              || c == '-'
              || c == '_';
      if (!allowed) {
        return "may hold only ASCII letters, digits, '.', '-' and '_'";
      }
    }
    if (value.startsWith(".")) {
      return "must not start with '.'";
    }
    return null;
  }

  public String value() {
    return value;
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

package notesmcp.text;

import java.util.Comparator;

/**
 * Code-point order: the order of the strings' UTF-8 bytes, and the order of every listing the
 * program gives (notes, search hits, the benchmark vault's). {@link String#compareTo} is not it: it
 * orders UTF-16 units, so U+FFFD would sort after U+1F600. Compared unit by unit, without decoding:
 * where the first units that differ are both U+D800 or above, a surrogate (part of a character
 * above U+FFFF) goes above U+E000..U+FFFF. For strings of whole characters (every path and name the
 * program holds: they are read as strict UTF-8) this is exactly the order of the code points.
 * Stateless; any thread.
 */
public final class CodePoints {
  /** The order, as a comparator (an instance, not a lambda: start paths link no invokedynamic). */
  public static final Comparator<String> ORDER =
      new Comparator<String>() {
        @Override
        public int compare(String a, String b) {
          return CodePoints.compare(a, b);
        }
      };

  private CodePoints() {}

  /** Negative, zero or positive as {@code a} comes before, with or after {@code b}. */
  public static int compare(String a, String b) {
    int length = Math.min(a.length(), b.length());
    for (int i = 0; i < length; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        if (x >= 0xd800 && y >= 0xd800) {
          // Surrogates (supplementary code points) go above U+E000..U+FFFF.
          x = (char) (x >= 0xe000 ? x - 0x800 : x + 0x2000);
          y = (char) (y >= 0xe000 ? y - 0x800 : y + 0x2000);
        }
        return x - y;
      }
    }
    return a.length() - b.length();
  }
}

package notesmcp.text;

/**
 * UTF-8 as the program judges it: where the first malformed sequence of some bytes is, and how many
 * bytes a string takes, counted without encoding it. Stateless; any thread.
 */
public final class Utf8 {
  private Utf8() {}

  /**
   * Where the first malformed sequence of {@code bytes} starts, or -1 when they are valid UTF-8:
   * the strict reading the JDK's decoder makes (no overlong forms, no surrogates, nothing above
   * U+10FFFF, no sequence cut short), and the same position it reports.
   */
  public static int firstMalformed(byte[] bytes) {
    int length = bytes.length;
    int i = 0;
    while (i < length) {
      i = JsonInput.ByteRuns.endOfAscii(bytes, i, length); // a note is mostly ASCII
      if (i == length) {
        break;
      }
      int c = bytes[i] & 0xff;
      int need;
      int low = 0x80;
      int high = 0xbf;
      if (c >= 0xc2 && c <= 0xdf) {
        need = 1;
      } else if (c == 0xe0) {
        need = 2;
        low = 0xa0;
      } else if (c == 0xed) {
        need = 2;
        high = 0x9f;
      } else if (c >= 0xe1 && c <= 0xef) {
        need = 2;
      } else if (c == 0xf0) {
        need = 3;
        low = 0x90;
      } else if (c == 0xf4) {
        need = 3;
        high = 0x8f;
      } else if (c >= 0xf1 && c <= 0xf3) {
        need = 3;
      } else {
        return i;
      }
      if (i + need >= length) {
        return i;
      }
      int second = bytes[i + 1] & 0xff;
      if (second < low || second > high) {
        return i;
      }
      for (int k = 2; k <= need; k++) {
        if ((bytes[i + k] & 0xc0) != 0x80) {
          return i;
        }
      }
      i += need + 1;
    }
    return -1;
  }

  /**
   * The length of {@code text} in UTF-8, counted rather than encoded: every call's arguments pass
   * here. A lone surrogate counts as the one byte {@code '?'} it is encoded as.
   */
  public static int length(String text) {
    int length = text.length();
    int bytes = length;
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      if (c >= 0x80) {
        if (c < 0x800) {
          bytes += 1;
        } else if (Character.isHighSurrogate(c)
            && i + 1 < length
            && Character.isLowSurrogate(text.charAt(i + 1))) {
          bytes += 2; // four bytes for the pair of chars
          i++;
        } else if (!Character.isSurrogate(c)) {
          bytes += 2;
        }
      }
    }
    return bytes;
  }
}

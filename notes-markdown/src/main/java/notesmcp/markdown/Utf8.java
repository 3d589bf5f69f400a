package notesmcp.markdown;

/**
 * Code points of UTF-8 bytes that may be malformed: a note's bytes were checked by the policy
 * before, but the parser takes any bytes. A byte that does not start a well-formed sequence (RFC
 * 3629: shortest form, no surrogates, at most U+10FFFF) reads as U+FFFD, one byte long.
 */
final class Utf8 {
  private Utf8() {}

  /** The code point at {@code i}, before {@code end}. */
  static int codePoint(byte[] b, int i, int end) {
    int length = length(b, i, end);
    int c = b[i] & 0xff;
    switch (length) {
      case 2:
        return (c & 0x1f) << 6 | (b[i + 1] & 0x3f);
      case 3:
        return (c & 0x0f) << 12 | (b[i + 1] & 0x3f) << 6 | (b[i + 2] & 0x3f);
      case 4:
        return (c & 0x07) << 18
            | (b[i + 1] & 0x3f) << 12
            | (b[i + 2] & 0x3f) << 6
            | (b[i + 3] & 0x3f);
      default:
        return c < 0x80 ? c : 0xfffd;
    }
  }

  /** How many bytes the code point at {@code i} takes: 1 to 4, 1 for a malformed byte. */
  static int length(byte[] b, int i, int end) {
    int c = b[i] & 0xff;
    if (c < 0xc2 || c > 0xf4) {
      return 1;
    }
    int length = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    if (i + length > end) {
      return 1;
    }
    int second = b[i + 1] & 0xff;
    int low = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
    int high = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
    if (second < low || second > high) {
      return 1;
    }
    for (int k = 2; k < length; k++) {
      if ((b[i + k] & 0xc0) != 0x80) {
        return 1;
      }
    }
    return length;
  }
}

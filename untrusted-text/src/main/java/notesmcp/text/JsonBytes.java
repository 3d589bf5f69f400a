package notesmcp.text;

import java.util.Arrays;

/**
 * JSON strings written straight from UTF-8 bytes, escaped as Jackson escapes (a quote, a backslash,
 * and every character below U+0020: a short escape for backspace, tab, line feed, form feed and
 * carriage return, else a six-character one with upper-case hex digits), byte by byte. A note's
 * page is every read's work, and under the launcher's JIT a loop over bytes costs a fraction of one
 * over characters; so a page goes from the file's bytes to the protocol line without ever becoming
 * a Java string (docs/design.md, "A read's bytes"). Stateless; any thread.
 */
public final class JsonBytes {
  private static final byte[] HEX = {
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B', 'C', 'D', 'E', 'F'
  };

  private JsonBytes() {}

  /** Which bytes a JSON string holds as they are: all but a quote, a backslash and controls. */
  private static final boolean[] PLAIN = new boolean[256];

  static {
    for (int b = 0; b < 256; b++) {
      PLAIN[b] = b >= 0x20 && b != '"' && b != '\\';
    }
  }

  /**
   * {@code bytes[from, to)}, which hold valid UTF-8, escaped into {@code out} from {@code at},
   * which has room for six bytes each; returns the new end. The bytes of a multi-byte character are
   * all at or above 0x80 and are copied as they are. Runs that need no escape are copied whole: one
   * look at each byte, and one copy of the run.
   */
  public static int escape(byte[] bytes, int from, int to, byte[] out, int at) {
    int i = from;
    while (i < to) {
      int run = i;
      while (i < to && PLAIN[bytes[i] & 0xff]) {
        i++;
      }
      System.arraycopy(bytes, run, out, at, i - run);
      at += i - run;
      if (i == to) {
        break;
      }
      byte b = bytes[i++];
      out[at++] = '\\';
      switch (b) {
        case '"':
        case '\\':
          out[at++] = b;
          break;
        case '\b':
          out[at++] = 'b';
          break;
        case '\t':
          out[at++] = 't';
          break;
        case '\n':
          out[at++] = 'n';
          break;
        case '\f':
          out[at++] = 'f';
          break;
        case '\r':
          out[at++] = 'r';
          break;
        default:
          out[at++] = 'u';
          out[at++] = '0';
          out[at++] = '0';
          out[at++] = HEX[b >> 4];
          out[at++] = HEX[b & 0xf];
      }
    }
    return at;
  }

  /** {@code out}, or a copy of it with room for {@code more} bytes after {@code at}. */
  public static byte[] room(byte[] out, int at, int more) {
    return at + more <= out.length ? out : Arrays.copyOf(out, Math.max(out.length * 2, at + more));
  }

  /**
   * The string {@code utf8[0, length)}, valid UTF-8, as the bytes between a JSON string's quotes.
   */
  public static Escaped escaped(byte[] utf8, int length) {
    byte[] out = new byte[length + length / 8 + 16];
    int at = 0;
    for (int i = 0; i < length; ) {
      // In pieces, so the buffer grows only as escapes need: each byte takes at most six.
      int stop = Math.min(length, i + 4096);
      out = room(out, at, (stop - i) * 6);
      at = escape(utf8, i, stop, out, at);
      i = stop;
    }
    return new Escaped(out, at);
  }

  /**
   * A JSON string's escaped UTF-8 form without its quotes: {@code bytes[0, length)}. Written as it
   * stands by the protocol's codec.
   */
  public record Escaped(byte[] bytes, int length) {}
}

package notesmcp.policy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import tools.jackson.core.io.JsonStringEncoder;

/**
 * The tools' answers: small JSON objects of string members, written straight into a string with
 * Jackson's own escaping (no generator to set up per answer: this is on every call's path).
 *
 * <p>A note's answer ({@link #note}) is written from the note's own UTF-8 bytes, escaped as Jackson
 * escapes (a quote, a backslash, and every character below U+0020, as a short escape for backspace,
 * tab, line feed, form feed and carriage return, else as a six-character one with upper-case hex
 * digits), byte by byte: a loop over bytes costs a fraction of one over characters under the JIT
 * the launcher uses, and a 16 KiB page is every read's work.
 */
final class JsonText {
  private static final JsonStringEncoder ESCAPE = JsonStringEncoder.getInstance();

  private JsonText() {}

  /** {@code {"n1":"v1","n2":"v2",...}} from names and values in turn. */
  static String object(String... namesAndValues) {
    StringBuilder out = new StringBuilder(capacity(namesAndValues)).append('{');
    for (int i = 0; i < namesAndValues.length; i += 2) {
      if (i > 0) {
        out.append(',');
      }
      string(out, namesAndValues[i]).append(':');
      string(out, namesAndValues[i + 1]);
    }
    return out.append('}').toString();
  }

  /**
   * {@code {"notes":["p1","p2",...]}}, and {@code "nextCursor":"..."} after them when {@code
   * cursor} is not null.
   */
  static String notes(List<String> paths, String cursor) {
    byte[] out = new byte[64 + paths.size() * 48];
    int at = ascii(out, 0, "{\"notes\":[");
    for (int i = 0; i < paths.size(); i++) {
      byte[] path = paths.get(i).getBytes(StandardCharsets.UTF_8);
      out = room(out, at, path.length * 6 + 8);
      if (i > 0) {
        out[at++] = ',';
      }
      out[at++] = '"';
      at = escape(path, 0, path.length, out, at);
      out[at++] = '"';
    }
    out = room(out, at, (cursor == null ? 0 : cursor.length()) + 32);
    at = ascii(out, at, "]");
    if (cursor != null) {
      at = ascii(out, at, ",\"nextCursor\":\"");
      at = ascii(out, at, cursor); // base64url: nothing to escape
      at = ascii(out, at, "\"");
    }
    at = ascii(out, at, "}");
    return new String(out, 0, at, StandardCharsets.UTF_8);
  }

  private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

  /**
   * A note's answer from its bytes {@code [from, to)}, which are valid UTF-8: {@code
   * {"path":...,"content":...}} when {@code total} is negative (the whole note), else one page,
   * {@code {"path":...,"content":...,"offset":N,"totalBytes":N,"nextOffset":N}}, {@code nextOffset}
   * null when {@code next} is negative (the last page).
   */
  static String note(String path, byte[] bytes, int from, int to, int total, int next) {
    byte[] name = path.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[(to - from) + (to - from) / 8 + name.length * 2 + 96];
    int at = ascii(out, 0, "{\"path\":\"");
    out = room(out, at, name.length * 6);
    at = escape(name, 0, name.length, out, at);
    at = ascii(out, at, "\",\"content\":\"");
    for (int i = from; i < to; ) {
      // In pieces, so the buffer grows only as escapes need: each byte takes at most six.
      int end = Math.min(to, i + 4096);
      out = room(out, at, (end - i) * 6 + 96);
      at = escape(bytes, i, end, out, at);
      i = end;
    }
    out = room(out, at, 96);
    at = ascii(out, at, "\"");
    if (total >= 0) {
      at = ascii(out, at, ",\"offset\":" + from + ",\"totalBytes\":" + total + ",\"nextOffset\":");
      at = ascii(out, at, next < 0 ? "null" : Integer.toString(next));
    }
    at = ascii(out, at, "}");
    return new String(out, 0, at, StandardCharsets.UTF_8);
  }

  /** {@code out}, or a copy of it with room for {@code more} bytes after {@code at}. */
  private static byte[] room(byte[] out, int at, int more) {
    return at + more <= out.length ? out : Arrays.copyOf(out, Math.max(out.length * 2, at + more));
  }

  private static int ascii(byte[] out, int at, String text) {
    for (int i = 0; i < text.length(); i++) {
      out[at++] = (byte) text.charAt(i);
    }
    return at;
  }

  /** {@code bytes[from, to)} escaped into {@code out} at {@code at}; returns the new end. */
  private static int escape(byte[] bytes, int from, int to, byte[] out, int at) {
    for (int i = from; i < to; i++) {
      byte b = bytes[i];
      if (b >= 0x20 && b != '"' && b != '\\' || b < 0) {
        out[at++] = b; // every byte of a multi-byte character is negative: copied as it is
      } else if (b == '"' || b == '\\') {
        out[at++] = '\\';
        out[at++] = b;
      } else {
        out[at++] = '\\';
        switch (b) {
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
    }
    return at;
  }

  /**
   * Where the first malformed sequence of {@code bytes} starts, or -1 when they are valid UTF-8:
   * the strict reading the JDK's decoder makes (no overlong forms, no surrogates, nothing above
   * U+10FFFF, no sequence cut short), and the same position it reports.
   */
  static int firstMalformed(byte[] bytes) {
    int length = bytes.length;
    int i = 0;
    while (i < length) {
      int c = bytes[i];
      if (c >= 0) {
        i++;
        continue;
      }
      c &= 0xff;
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
   * Room for the members as written, plus an eighth for escapes: the builder is then seldom grown
   * (each growth copies the whole text, a note's content included, on every call).
   */
  private static int capacity(String... namesAndValues) {
    int length = 2;
    for (String text : namesAndValues) {
      length += text.length() + 3;
    }
    return length + length / 8;
  }

  private static StringBuilder string(StringBuilder out, String value) {
    out.append('"');
    ESCAPE.quoteAsString(value, out);
    return out.append('"');
  }
}

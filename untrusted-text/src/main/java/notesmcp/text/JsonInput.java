package notesmcp.text;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonFactoryBuilder;

/**
 * How JSON from outside is judged, the same way wherever it is read (a protocol line, a tool's
 * arguments, a policy file, a proposal record): whether it is UTF-8 at all, what a parse fault is
 * called in the answer, and the limits its parser reads under; and how text from outside (a note's
 * bytes) is written into a JSON string ({@link JsonString}). Stateless; any thread.
 */
public final class JsonInput {
  /** Why {@link #isNotUtf8} refuses, in the words of a refusal. */
  public static final String NOT_UTF8 = "not UTF-8 (UTF-16 and UTF-32 are not read)";

  /** The deepest nesting read, and the most digits of one number. */
  public static final int MAX_NESTING = 64;

  public static final int MAX_NUMBER_DIGITS = 100;

  private JsonInput() {}

  /**
   * Whether the first {@code length} bytes are not UTF-8 JSON. JSON exchanged between programs must
   * be UTF-8; Jackson would guess UTF-16 or UTF-32 from a byte-order mark or the zero bytes of the
   * first characters, read such input as JSON, and decode malformed UTF-16 to U+FFFD. UTF-8 JSON
   * holds no zero byte and no 0xFE or 0xFF byte anywhere, so the first four bytes, all that Jackson
   * looks at, settle it. A UTF-8 byte-order mark stays allowed.
   */
  public static boolean isNotUtf8(byte[] bytes, int length) {
    for (int i = 0; i < length && i < 4; i++) {
      int b = bytes[i] & 0xff;
      if (b == 0 || b == 0xfe || b == 0xff) {
        return true;
      }
    }
    return false;
  }

  public static boolean isNotUtf8(byte[] bytes) {
    return isNotUtf8(bytes, bytes.length);
  }

  /**
   * Jackson's description of a parse fault, without the Java names some of its texts carry ("from
   * `StreamReadConstraints.getMaxNestingDepth()`", "enable `JsonReadFeature...` to allow"): what is
   * wrong with the input, in words its author can act on, never our code (docs/design.md, "Errors:
   * three outcomes, plus bugs").
   */
  public static String describe(JacksonException e) {
    String text = e.getOriginalMessage();
    if (text == null) {
      return "not valid JSON";
    }
    // No regular expression: java.util.regex links lambdas of the JDK's own, milliseconds on the
    // start path, where this class is loaded.
    int from;
    while ((from = text.indexOf(", from `")) >= 0) {
      int end = text.indexOf('`', from + 8);
      text = end < 0 ? text.substring(0, from) : text.substring(0, from) + text.substring(end + 1);
    }
    int quote = text.indexOf('`');
    if (quote >= 0) {
      int cut = text.lastIndexOf(": ", quote);
      text = cut > 0 ? text.substring(0, cut) : "not valid JSON";
    }
    return text;
  }

  /**
   * The JSON type a value starting with {@code token} has, as refusals name it: "string", "number",
   * "boolean", "null", "object" or "array" (the policy's arguments and the protocol's envelope say
   * it alike).
   *
   * @throws IllegalArgumentException if {@code token} starts no value (a member name, an end)
   */
  public static String typeOf(JsonToken token) {
    switch (token) {
      case VALUE_STRING:
        return "string";
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        return "number";
      case VALUE_TRUE:
      case VALUE_FALSE:
        return "boolean";
      case VALUE_NULL:
        return "null";
      case START_OBJECT:
        return "object";
      case START_ARRAY:
        return "array";
      default:
        throw new IllegalArgumentException("not the start of a JSON value: " + token);
    }
  }

  /**
   * A streaming parser factory with the limits of docs/behaviour.md, "Limits": nesting {@value
   * #MAX_NESTING}, numbers of {@value #MAX_NUMBER_DIGITS} digits, strings and member names of at
   * most {@code maxStringLength} characters. With {@code strictDuplicates}, the parser itself
   * refuses a repeated member name; without, the caller finds duplicates (and says where).
   */
  public static JsonFactory factory(int maxStringLength, boolean strictDuplicates) {
    JsonFactoryBuilder builder =
        JsonFactory.builder()
            .streamReadConstraints(
                StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_NESTING)
                    .maxStringLength(maxStringLength)
                    .maxNumberLength(MAX_NUMBER_DIGITS)
                    .maxNameLength(maxStringLength)
                    .build());
    if (strictDuplicates) {
      builder.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION);
    }
    return builder.build();
  }

  /**
   * A JSON string's escaped UTF-8 form without its quotes: {@code bytes[0, length)}, written
   * straight from UTF-8 bytes and escaped as Jackson escapes (a quote, a backslash, and every
   * character below U+0020: a short escape for backspace, tab, line feed, form feed and carriage
   * return, else a six-character one with upper-case hex digits). A note's page is every read's
   * work, and under the launcher's JIT a loop over bytes costs a fraction of one over characters;
   * so a page goes from the file's bytes to the protocol line without ever becoming a Java string
   * (docs/design.md, "A read's bytes"). The codec writes one as it stands.
   */
  public record JsonString(byte[] bytes, int length) {
    private static final byte[] HEX = {
      '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B', 'C', 'D', 'E', 'F'
    };

    /**
     * How each byte is written: 0, as it is; else after a backslash, this letter ({@code "}, {@code
     * \\}, {@code b t n f r}) or {@code u} for {@code u00XX} (the other controls).
     */
    static final byte[] ESCAPE = new byte[256];

    static {
      for (int b = 0; b < 0x20; b++) {
        ESCAPE[b] = 'u';
      }
      ESCAPE['"'] = '"';
      ESCAPE['\\'] = '\\';
      ESCAPE['\b'] = 'b';
      ESCAPE['\t'] = 't';
      ESCAPE['\n'] = 'n';
      ESCAPE['\f'] = 'f';
      ESCAPE['\r'] = 'r';
    }

    /**
     * {@code bytes[from, to)}, which hold valid UTF-8, escaped into {@code out} from {@code at},
     * which has room for six bytes each; returns the new end. The bytes of a multi-byte character
     * are all at or above 0x80 and are copied as they are. Runs that need no escape are copied
     * whole: one look at each byte, and one copy of the run.
     */
    public static int escape(byte[] bytes, int from, int to, byte[] out, int at) {
      int i = from;
      while (i < to) {
        int run = i;
        i = ByteRuns.endOfPlain(bytes, i, to);
        System.arraycopy(bytes, run, out, at, i - run);
        at += i - run;
        if (i == to) {
          break;
        }
        byte b = bytes[i++];
        byte letter = ESCAPE[b];
        out[at++] = '\\';
        out[at++] = letter;
        if (letter == 'u') {
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
      return at + more <= out.length
          ? out
          : Arrays.copyOf(out, Math.max(out.length * 2, at + more));
    }

    /**
     * The string {@code utf8[0, length)}, valid UTF-8, as the bytes between a JSON string's quotes.
     */
    public static JsonString of(byte[] utf8, int length) {
      byte[] out = new byte[length + length / 8 + 16];
      int at = 0;
      for (int i = 0; i < length; ) {
        // In pieces, so the buffer grows only as escapes need: each byte takes at most six.
        int stop = Math.min(length, i + 4096);
        out = room(out, at, (stop - i) * 6);
        at = escape(utf8, i, stop, out, at);
        i = stop;
      }
      return new JsonString(out, at);
    }
  }

  /**
   * Runs of bytes found eight at a time, for the byte loops every large answer runs (escaping a
   * page, checking it is UTF-8, checking a line holds no line break). Under the launcher's C1-only
   * JIT a loop over single bytes costs about 1 ns a byte, two to three times a loop over the same
   * bytes read as eight-byte words (docs/design.md, "A read's bytes"). The word view is a {@link
   * VarHandle}: linking it costs milliseconds once per process, so only an array of at least
   * {@value #WORDS_FROM} bytes is read by words, and the start path, whose messages are all
   * shorter, links none ({@code StartPathIT}). Each method returns what the loop over single bytes
   * returns ({@code ByteRunsTest} compares them).
   */
  public static final class ByteRuns {
    /** The shortest array read by words. */
    public static final int WORDS_FROM = 4096;

    /**
     * Makes the word loops ready on the calling thread, so that the first large answer does not pay
     * for it: links the word view (some milliseconds, once per process), then runs each loop a few
     * hundred times over a few words, which is what the JIT waits for before it compiles them
     * (until then a word read through the view, interpreted, costs more than the eight bytes read
     * one by one). About two milliseconds of this thread's time.
     */
    public static void link() {
      byte[] plain = new byte[WORDS_FROM];
      Arrays.fill(plain, (byte) 'a');
      for (int round = 0; round < 300; round++) {
        endOfPlain(plain, 0, 64);
        endOfAscii(plain, 0, 64);
        hasLineBreak(plain, 0, 64);
      }
    }

    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH = 0x8080808080808080L;

    private ByteRuns() {}

    /**
     * The first index in {@code [from, to)} of a byte a JSON string must escape (a quote, a
     * backslash, or a byte below 0x20), or {@code to}.
     */
    public static int endOfPlain(byte[] bytes, int from, int to) {
      int i = from;
      if (bytes.length >= WORDS_FROM) {
        while (i <= to - 8 && needsEscape(Words.at(bytes, i)) == 0) {
          i += 8;
        }
      }
      while (i < to && JsonString.ESCAPE[bytes[i] & 0xff] == 0) {
        i++;
      }
      return i;
    }

    /** The first index in {@code [from, to)} of a byte at or above 0x80, or {@code to}. */
    public static int endOfAscii(byte[] bytes, int from, int to) {
      int i = from;
      if (bytes.length >= WORDS_FROM) {
        while (i <= to - 8 && (Words.at(bytes, i) & HIGH) == 0) {
          i += 8;
        }
      } else {
        // Eight bytes a test without the view: their OR is negative when one of them is.
        while (i <= to - 8
            && (bytes[i]
                    | bytes[i + 1]
                    | bytes[i + 2]
                    | bytes[i + 3]
                    | bytes[i + 4]
                    | bytes[i + 5]
                    | bytes[i + 6]
                    | bytes[i + 7])
                >= 0) {
          i += 8;
        }
      }
      while (i < to && bytes[i] >= 0) {
        i++;
      }
      return i;
    }

    /** Whether {@code [from, to)} holds a line feed or a carriage return. */
    public static boolean hasLineBreak(byte[] bytes, int from, int to) {
      boolean words = bytes.length >= WORDS_FROM;
      int i = from;
      while (i < to) {
        if (words) {
          while (i <= to - 8 && lineBreak(Words.at(bytes, i)) == 0) {
            i += 8;
          }
        }
        // The word that was marked (or the bytes after the last whole word) decides, byte by byte.
        for (int end = Math.min(to, i + 8); i < end; i++) {
          if (bytes[i] == '\n' || bytes[i] == '\r') {
            return true;
          }
        }
      }
      return false;
    }

    /**
     * Non-zero when a byte of {@code word} is below 0x20, a quote or a backslash. A word is only
     * ever skipped when this is zero, and the bytes after it are then looked at one by one, so a
     * false mark would cost speed, never an answer; and there is none: a borrow can only mark a
     * byte above one that is marked already, and a byte at or above 0x80 marks nothing itself (its
     * top bit is set in {@code word}, so clear in {@code ~word}).
     */
    private static long needsEscape(long word) {
      return ((word - 0x2020202020202020L) & ~word & HIGH)
          | zeroByte(word ^ 0x2222222222222222L)
          | zeroByte(word ^ 0x5c5c5c5c5c5c5c5cL);
    }

    /** Non-zero when a byte of {@code word} is a line feed or a carriage return. */
    private static long lineBreak(long word) {
      return zeroByte(word ^ 0x0a0a0a0a0a0a0a0aL) | zeroByte(word ^ 0x0d0d0d0d0d0d0d0dL);
    }

    /** Non-zero when a byte of {@code word} is zero. */
    private static long zeroByte(long word) {
      return (word - ONES) & ~word & HIGH;
    }

    /** The word view, made when a large array is first read. */
    private static final class Words {
      private static final VarHandle LONGS =
          MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

      static long at(byte[] bytes, int index) {
        return (long) LONGS.get(bytes, index);
      }
    }
  }
}

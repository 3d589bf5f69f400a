package notesmcp.text;

import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonFactoryBuilder;

/**
 * How JSON from outside is judged, the same way wherever it is read (a protocol line, a tool's
 * arguments, a policy file, a proposal record): whether it is UTF-8 at all, what a parse fault is
 * called in the answer, and the limits its parser reads under. Stateless; any thread.
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
}

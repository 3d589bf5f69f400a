package notesmcp.policy;

import tools.jackson.core.JacksonException;

/**
 * Jackson's description of a JSON fault without the Java names some of its texts carry ("from
 * `StreamReadConstraints.getMaxNestingDepth()`", "enable `JsonReadFeature...` to allow"), so that a
 * refusal a client reads names the fault in its input, never our code (STYLE §4). The protocol
 * module has the same rule in {@code Codec.describe}; the modules do not share code.
 */
final class JsonProblem {
  private JsonProblem() {}

  /** Why {@link #isNotUtf8} refuses, in the words of a refusal. */
  static final String NOT_UTF8 = "not UTF-8 (UTF-16 and UTF-32 are not read)";

  /**
   * Whether Jackson would read {@code bytes} as UTF-16 or UTF-32: it guesses them from a byte-order
   * mark or the zero bytes of the first characters, where JSON files must be UTF-8 (RFC 8259 §8.1),
   * and decodes malformed UTF-16 to U+FFFD. UTF-8 JSON holds no zero byte and no 0xFE or 0xFF byte,
   * so the first four bytes, all that Jackson looks at, settle it. (Codec in the protocol module
   * has the same check.)
   */
  static boolean isNotUtf8(byte[] bytes) {
    for (int i = 0; i < bytes.length && i < 4; i++) {
      int b = bytes[i] & 0xff;
      if (b == 0 || b == 0xfe || b == 0xff) {
        return true;
      }
    }
    return false;
  }

  static String describe(JacksonException e) {
    String text = e.getOriginalMessage();
    if (text == null) {
      return "not valid JSON";
    }
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
}

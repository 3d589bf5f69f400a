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

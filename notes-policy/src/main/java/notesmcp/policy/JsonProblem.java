package notesmcp.policy;

import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;

/**
 * Jackson's description of a JSON fault without the Java names some of its texts carry ("from
 * `StreamReadConstraints.getMaxNestingDepth()`", "enable `JsonReadFeature...` to allow"), so that a
 * refusal a client reads names the fault in its input, never our code (STYLE §4). The protocol
 * module has the same rule in {@code Codec.describe}; the modules do not share code.
 */
final class JsonProblem {
  private static final Pattern FROM_JAVA_NAME = Pattern.compile(", from `[^`]*`");

  private JsonProblem() {}

  static String describe(JacksonException e) {
    String text = e.getOriginalMessage();
    if (text == null) {
      return "not valid JSON";
    }
    text = FROM_JAVA_NAME.matcher(text).replaceAll("");
    int quote = text.indexOf('`');
    if (quote >= 0) {
      int cut = text.lastIndexOf(": ", quote);
      text = cut > 0 ? text.substring(0, cut) : "not valid JSON";
    }
    return text;
  }
}

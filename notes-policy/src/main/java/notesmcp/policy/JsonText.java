package notesmcp.policy;

import java.util.List;
import tools.jackson.core.io.JsonStringEncoder;

/**
 * The tools' answers: small JSON objects of string members, written straight into a string with
 * Jackson's own escaping (no generator to set up per answer: this is on every call's path).
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

  /** {@code {"name":["v1","v2",...]}}. */
  static String array(String name, List<String> values) {
    StringBuilder out = new StringBuilder(64).append('{');
    string(out, name).append(":[");
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      string(out, values.get(i));
    }
    return out.append("]}").toString();
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

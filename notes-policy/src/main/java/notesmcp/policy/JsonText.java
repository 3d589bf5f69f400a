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

  /**
   * {@code {"notes":["p1","p2",...]}}, and {@code "nextCursor":"..."} after them when {@code
   * cursor} is not null.
   */
  static String notes(List<String> paths, String cursor) {
    int length = 16;
    for (String path : paths) {
      length += path.length() + 3;
    }
    StringBuilder out = new StringBuilder(length + length / 8).append("{\"notes\":[");
    for (int i = 0; i < paths.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      string(out, paths.get(i));
    }
    out.append(']');
    if (cursor != null) {
      out.append(",\"nextCursor\":");
      string(out, cursor);
    }
    return out.append('}').toString();
  }

  /**
   * One page of a long note: {@code {"path":...,"content":...,"offset":N,"totalBytes":N,
   * "nextOffset":N}}, {@code nextOffset} null when {@code next} is negative (the last page).
   */
  static String page(String path, String content, int offset, int total, int next) {
    StringBuilder out = new StringBuilder(capacity(path, content) + 64).append('{');
    string(out, "path").append(':');
    string(out, path).append(',');
    string(out, "content").append(':');
    string(out, content);
    out.append(",\"offset\":").append(offset);
    out.append(",\"totalBytes\":").append(total);
    out.append(",\"nextOffset\":");
    if (next < 0) {
      out.append("null");
    } else {
      out.append(next);
    }
    return out.append('}').toString();
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

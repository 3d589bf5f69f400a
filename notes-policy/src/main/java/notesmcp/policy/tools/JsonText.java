package notesmcp.policy.tools;

import java.nio.charset.StandardCharsets;
import java.util.List;
import notesmcp.text.JsonInput.JsonString;
import tools.jackson.core.io.JsonStringEncoder;

/**
 * The tools' answers: small JSON objects of string members, written straight into a string with
 * Jackson's own escaping (no generator to set up per answer: this is on every call's path).
 *
 * <p>A note's answer ({@link #note}) and a listing ({@link #notes}) are written from UTF-8 bytes
 * into UTF-8 bytes by {@link JsonString}, and stay bytes on their way to the protocol line ({@link
 * Outcome.Answer#escaped}): a 16 KiB page is every read's work.
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
  static Outcome.Answer notes(List<String> paths, String cursor) {
    byte[] out = new byte[64 + paths.size() * 48];
    int at = ascii(out, 0, "{\"notes\":[");
    for (int i = 0; i < paths.size(); i++) {
      byte[] path = paths.get(i).getBytes(StandardCharsets.UTF_8);
      out = JsonString.room(out, at, path.length * 6 + 8);
      if (i > 0) {
        out[at++] = ',';
      }
      out[at++] = '"';
      at = JsonString.escape(path, 0, path.length, out, at);
      out[at++] = '"';
    }
    out = JsonString.room(out, at, (cursor == null ? 0 : cursor.length()) + 32);
    at = ascii(out, at, "]");
    if (cursor != null) {
      at = ascii(out, at, ",\"nextCursor\":\"");
      at = ascii(out, at, cursor); // base64url: nothing to escape
      at = ascii(out, at, "\"");
    }
    at = ascii(out, at, "}");
    return new Outcome.Answer(out, at);
  }

  /**
   * A note's answer from its bytes {@code [from, to)}, which are valid UTF-8: {@code
   * {"path":...,"content":...}} when {@code total} is negative (the whole note), else one page,
   * {@code {"path":...,"content":...,"offset":N,"totalBytes":N,"nextOffset":N}}, {@code nextOffset}
   * null when {@code next} is negative (the last page).
   */
  static Outcome.Answer note(String path, byte[] bytes, int from, int to, int total, int next) {
    return note(path, bytes, from, to, total, next, null);
  }

  /** As above, with {@code "sha256"} of the whole note last when {@code sha256} is not null. */
  static Outcome.Answer note(
      String path, byte[] bytes, int from, int to, int total, int next, String sha256) {
    byte[] name = path.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[(to - from) + (to - from) / 8 + name.length * 2 + 96];
    int at = ascii(out, 0, "{\"path\":\"");
    out = JsonString.room(out, at, name.length * 6);
    at = JsonString.escape(name, 0, name.length, out, at);
    at = ascii(out, at, "\",\"content\":\"");
    for (int i = from; i < to; ) {
      // In pieces, so the buffer grows only as escapes need: each byte takes at most six.
      int end = Math.min(to, i + 4096);
      out = JsonString.room(out, at, (end - i) * 6 + 96);
      at = JsonString.escape(bytes, i, end, out, at);
      i = end;
    }
    out = JsonString.room(out, at, 192);
    at = ascii(out, at, "\"");
    if (total >= 0) {
      at = ascii(out, at, ",\"offset\":" + from + ",\"totalBytes\":" + total + ",\"nextOffset\":");
      at = ascii(out, at, next < 0 ? "null" : Integer.toString(next));
    }
    if (sha256 != null) {
      at = ascii(out, at, ",\"sha256\":\"");
      at = ascii(out, at, sha256);
      at = ascii(out, at, "\"");
    }
    at = ascii(out, at, "}");
    return new Outcome.Answer(out, at);
  }

  /**
   * One section's answer (docs/knowledge.md, "Sections"): {@code {"path","section","content"}} from
   * the section's bytes {@code [from, to)}, or one page of it, {@code
   * ...,"offset","totalBytes","nextOffset"} within the section, as {@link #note} writes a page;
   * {@code "sha256"} of the whole note last when it is not null.
   */
  static Outcome.Answer section(
      String path,
      String heading,
      byte[] bytes,
      int from,
      int to,
      int total,
      int next,
      String sha256) {
    Outcome.Answer note = note(path, bytes, from, to, total, next, sha256);
    // {"path":"...","content":... with the section put between them.
    String text = note.text();
    int comma = text.indexOf(",\"content\":");
    StringBuilder out = new StringBuilder(text.length() + heading.length() + 16);
    out.append(text, 0, comma).append(",\"section\":");
    string(out, heading);
    return new Outcome.Answer(out.append(text, comma, text.length()).toString());
  }

  private static int ascii(byte[] out, int at, String text) {
    for (int i = 0; i < text.length(); i++) {
      out[at++] = (byte) text.charAt(i);
    }
    return at;
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

  /** {@code value} as a JSON string, appended to {@code out}. */
  static StringBuilder string(StringBuilder out, String value) {
    out.append('"');
    ESCAPE.quoteAsString(value, out);
    return out.append('"');
  }
}

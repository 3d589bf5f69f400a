package notesmcp.jsonrpc;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The reference reading the line + codec fuzz test holds {@link Codec} to: a strict JSON reader
 * written from RFC 8259 (the grammar) and RFC 3629 (UTF-8), with docs/behaviour.md, "Limits"'s
 * bounds, sharing no code with Jackson. It keeps what a tree would lose: members in order with
 * their duplicates, and the byte span of every value, so the fuzz test can tell what text a member
 * had on the wire.
 *
 * <p>Choices where the RFCs leave room, each the one docs/protocol.md or JSON-RPC implies: a UTF-8
 * byte order mark before the value is ignored (RFC 8259 §8.1: parsers "MAY ignore the presence of a
 * byte order mark"); any other encoding is not JSON (§8.1: "MUST be encoded using UTF-8"); escaped
 * unpaired surrogates ({@code "\ud800"}) are allowed (the grammar allows any {@code \}{@code u}
 * escape). Bounds (docs/behaviour.md, "Limits"): at most 64 nested arrays and objects, a number of
 * at most 100 digits (integer, fraction and exponent digits together), a string or member name of
 * at most 1 MiB once decoded. docs/behaviour.md does not say in what the 1 MiB is counted, and
 * Jackson counts a string value in UTF-16 code units and a member name in UTF-8 bytes (in the
 * 4-byte blocks it hashes names in); within both a string is within the bound, beyond either it may
 * be refused (the fuzz test then requires that nothing over 1 Mi code units is ever kept). A server
 * line is at most 1 MiB, so only the client's 4 MiB lines can reach the difference.
 */
final class ReferenceJson {
  static final int MAX_DEPTH = 64;
  static final int MAX_STRING = 1024 * 1024;
  static final int MAX_DIGITS = 100;

  /** One JSON value and the bytes {@code [start, end)} of the input that spelled it. */
  sealed interface Value permits Obj, Arr, Str, Num, Bool, Null {
    int start();

    int end();
  }

  record Member(String name, Value value) {}

  record Obj(List<Member> members, int start, int end) implements Value {
    /** Every member of that name, in order (duplicates kept). */
    List<Value> all(String name) {
      List<Value> found = new ArrayList<>();
      for (Member member : members) {
        if (member.name().equals(name)) {
          found.add(member.value());
        }
      }
      return found;
    }

    /** The last member of that name, or null. */
    Value get(String name) {
      List<Value> found = all(name);
      return found.isEmpty() ? null : found.get(found.size() - 1);
    }
  }

  record Arr(List<Value> items, int start, int end) implements Value {}

  record Str(String text, int start, int end) implements Value {}

  /** A number as spelled; {@code integral} when it has no fraction and no exponent. */
  record Num(String text, boolean integral, int start, int end) implements Value {}

  record Bool(boolean value, int start, int end) implements Value {}

  record Null(int start, int end) implements Value {}

  /**
   * Not one JSON value within the bounds; {@code bound} when only a bound was broken or the text
   * holds what RFC 8259 leaves open (§8.2: a string with an unpaired surrogate, "the behavior of
   * software that receives JSON texts containing such values is unpredictable"): a member name with
   * one. Jackson refuses those in names and keeps them in values, which docs/behaviour.md allows.
   */
  static final class NotJson extends Exception {
    private static final long serialVersionUID = 1L;
    final boolean bound;

    NotJson(String why, boolean bound) {
      super(why, null, false, false);
      this.bound = bound;
    }
  }

  private final byte[] in;
  private final int length;
  private final boolean boundStrings;
  private int at;

  private ReferenceJson(byte[] in, int length, boolean boundStrings) {
    this.in = in;
    this.length = length;
    this.boundStrings = boundStrings;
  }

  /** The one JSON value of {@code in[0..length)}, every bound held. */
  static Value parse(byte[] in, int length) throws NotJson {
    return parse(in, length, true);
  }

  /**
   * As {@link #parse(byte[], int)}; without {@code boundStrings}, strings of any length and names
   * with unpaired surrogates are read (a reader may skip a string it never keeps without measuring
   * it).
   */
  static Value parse(byte[] in, int length, boolean boundStrings) throws NotJson {
    ReferenceJson reader = new ReferenceJson(in, length, boundStrings);
    if (length >= 3 && (in[0] & 0xff) == 0xef && (in[1] & 0xff) == 0xbb && (in[2] & 0xff) == 0xbf) {
      reader.at = 3;
    }
    reader.space();
    Value value = reader.value(1);
    reader.space();
    if (reader.at != length) {
      throw new NotJson("more after the value at byte " + reader.at, false);
    }
    return value;
  }

  /** The JSON type of a value as JSON Schema names it. */
  static String type(Value value) {
    if (value instanceof Obj) {
      return "object";
    } else if (value instanceof Arr) {
      return "array";
    } else if (value instanceof Str) {
      return "string";
    } else if (value instanceof Num) {
      return "number";
    } else if (value instanceof Bool) {
      return "boolean";
    }
    return "null";
  }

  private void space() {
    while (at < length) {
      byte b = in[at];
      if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
        return;
      }
      at++;
    }
  }

  private NotJson bad(String why) {
    return new NotJson(why + " at byte " + at, false);
  }

  private int peek() throws NotJson {
    if (at >= length) {
      throw bad("end of input");
    }
    return in[at] & 0xff;
  }

  private Value value(int depth) throws NotJson {
    int start = at;
    int b = peek();
    switch (b) {
      case '{':
        return object(depth);
      case '[':
        return array(depth);
      case '"':
        return new Str(string(), start, at);
      case 't':
        literal("true");
        return new Bool(true, start, at);
      case 'f':
        literal("false");
        return new Bool(false, start, at);
      case 'n':
        literal("null");
        return new Null(start, at);
      default:
        if (b == '-' || (b >= '0' && b <= '9')) {
          return number();
        }
        throw bad("no value");
    }
  }

  private void literal(String word) throws NotJson {
    for (int i = 0; i < word.length(); i++) {
      if (peek() != word.charAt(i)) {
        throw bad("not " + word);
      }
      at++;
    }
  }

  private Obj object(int depth) throws NotJson {
    if (depth > MAX_DEPTH) {
      throw new NotJson("nesting deeper than " + MAX_DEPTH, true);
    }
    int start = at++;
    List<Member> members = new ArrayList<>();
    space();
    if (peek() == '}') {
      at++;
      return new Obj(members, start, at);
    }
    while (true) {
      space();
      if (peek() != '"') {
        throw bad("no member name");
      }
      int nameAt = at;
      String name = string();
      if (boundStrings && hasUnpairedSurrogate(name)) {
        at = nameAt;
        throw new NotJson("a member name with an unpaired surrogate", true);
      }
      space();
      if (peek() != ':') {
        throw bad("no colon");
      }
      at++;
      space();
      members.add(new Member(name, value(depth + 1)));
      space();
      int b = peek();
      at++;
      if (b == '}') {
        return new Obj(members, start, at);
      }
      if (b != ',') {
        at--;
        throw bad("no comma or end of object");
      }
    }
  }

  private Arr array(int depth) throws NotJson {
    if (depth > MAX_DEPTH) {
      throw new NotJson("nesting deeper than " + MAX_DEPTH, true);
    }
    int start = at++;
    List<Value> items = new ArrayList<>();
    space();
    if (peek() == ']') {
      at++;
      return new Arr(items, start, at);
    }
    while (true) {
      space();
      items.add(value(depth + 1));
      space();
      int b = peek();
      at++;
      if (b == ']') {
        return new Arr(items, start, at);
      }
      if (b != ',') {
        at--;
        throw bad("no comma or end of array");
      }
    }
  }

  private Num number() throws NotJson {
    int start = at;
    int digits = 0;
    boolean integral = true;
    if (peek() == '-') {
      at++;
    }
    int first = peek();
    if (first == '0') {
      at++;
      digits++;
    } else if (first >= '1' && first <= '9') {
      while (at < length && isDigit(in[at])) {
        at++;
        digits++;
      }
    } else {
      throw bad("no digit");
    }
    if (at < length && in[at] == '.') {
      integral = false;
      at++;
      int fraction = 0;
      while (at < length && isDigit(in[at])) {
        at++;
        fraction++;
      }
      if (fraction == 0) {
        throw bad("no fraction digit");
      }
      digits += fraction;
    }
    if (at < length && (in[at] == 'e' || in[at] == 'E')) {
      integral = false;
      at++;
      if (at < length && (in[at] == '+' || in[at] == '-')) {
        at++;
      }
      int exponent = 0;
      while (at < length && isDigit(in[at])) {
        at++;
        exponent++;
      }
      if (exponent == 0) {
        throw bad("no exponent digit");
      }
      digits += exponent;
    }
    if (digits > MAX_DIGITS) {
      throw new NotJson("a number of " + digits + " digits", true);
    }
    return new Num(
        new String(in, start, at - start, StandardCharsets.US_ASCII), integral, start, at);
  }

  private static boolean isDigit(byte b) {
    return b >= '0' && b <= '9';
  }

  /** A string literal at {@code at}, decoded; {@code at} ends after its closing quote. */
  private String string() throws NotJson {
    at++; // the opening quote
    StringBuilder out = new StringBuilder();
    while (true) {
      int b = peek();
      if (b == '"') {
        at++;
        break;
      }
      if (b < 0x20) {
        throw bad("a raw control character in a string");
      }
      if (b == '\\') {
        at++;
        escape(out);
      } else if (b < 0x80) {
        out.append((char) b);
        at++;
      } else {
        out.appendCodePoint(utf8());
      }
      if (boundStrings && out.length() > MAX_STRING) {
        // Checked as it grows, so the reference never holds much more than the bound either.
        throw new NotJson("a string over " + MAX_STRING + " characters", true);
      }
    }
    if (boundStrings && utf8Length(out) > MAX_STRING) {
      throw new NotJson("a string over " + MAX_STRING + " bytes of UTF-8", true);
    }
    return out.toString();
  }

  private static boolean hasUnpairedSurrogate(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return true;
      }
    }
    return false;
  }

  /** The UTF-8 length of {@code text}, each surrogate counted as half of a four-byte pair. */
  private static long utf8Length(CharSequence text) {
    long bytes = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      bytes += c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3;
    }
    return bytes;
  }

  private void escape(StringBuilder out) throws NotJson {
    int b = peek();
    at++;
    switch (b) {
      case '"' -> out.append('"');
      case '\\' -> out.append('\\');
      case '/' -> out.append('/');
      case 'b' -> out.append('\b');
      case 'f' -> out.append('\f');
      case 'n' -> out.append('\n');
      case 'r' -> out.append('\r');
      case 't' -> out.append('\t');
      case 'u' -> {
        int unit = 0;
        for (int i = 0; i < 4; i++) {
          int digit = Character.digit(peek(), 16);
          if (digit < 0) {
            throw bad("not a hex digit");
          }
          unit = unit * 16 + digit;
          at++;
        }
        out.append((char) unit);
      }
      default -> {
        at--;
        throw bad("an unknown escape");
      }
    }
  }

  /** One UTF-8 sequence of two to four bytes, as RFC 3629 §4 allows it; its code point. */
  private int utf8() throws NotJson {
    int lead = peek();
    int count;
    int min;
    int cp;
    if (lead >= 0xc2 && lead <= 0xdf) {
      count = 1;
      min = 0x80;
      cp = lead & 0x1f;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      count = 2;
      min = 0x800;
      cp = lead & 0x0f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      count = 3;
      min = 0x10000;
      cp = lead & 0x07;
    } else {
      throw bad("not a UTF-8 lead byte");
    }
    at++;
    for (int i = 0; i < count; i++) {
      int next = peek();
      if ((next & 0xc0) != 0x80) {
        throw bad("not a UTF-8 continuation byte");
      }
      cp = (cp << 6) | (next & 0x3f);
      at++;
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
      throw bad("an overlong, surrogate or too large UTF-8 sequence");
    }
    return cp;
  }
}

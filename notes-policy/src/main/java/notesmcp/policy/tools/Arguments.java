package notesmcp.policy.tools;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import notesmcp.policy.rules.Policy;
import notesmcp.text.JsonInput;
import notesmcp.text.Quote;
import notesmcp.text.Utf8;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;

/**
 * A tool call's arguments, decoded strictly from the raw JSON text a client sent.
 *
 * <p>The decoder sees the text itself, so a duplicate key is caught before any tree could merge it
 * ({@code docs/behaviour.md}, "Refusals": duplicate keys are found in the raw JSON, before any
 * decoding could merge them). Only the top-level members matter: every argument of every tool is a
 * string or an integer, so any nested value is refused by its type, whatever it holds. Immutable
 * once decoded.
 */
final class Arguments {
  private static final JsonFactory JSON =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(64)
                  .maxNumberLength(100)
                  .maxStringLength(Policy.MAX_ARGUMENT_BYTES)
                  .build())
          .build();

  private final Map<String, Value> members;

  private Arguments(Map<String, Value> members) {
    this.members = members;
  }

  /**
   * One top-level member: its JSON type (a JSON type's name: an integer is a {@code number}), and
   * its text when it is a string or a number without fraction or exponent.
   */
  record Value(String type, String text) {}

  /** Thrown with the refusal text when the raw arguments are not acceptable. */
  static final class Rejected extends Exception {
    private static final long serialVersionUID = 1L;

    Rejected(String reason) {
      super(reason, null, false, false);
    }
  }

  /**
   * Decodes {@code raw}, the arguments object exactly as received; {@code null} means the client
   * omitted {@code arguments}, which docs/behaviour.md treats as {@code {}}.
   */
  static Arguments decode(String raw) throws Rejected {
    if (raw == null) {
      return new Arguments(Map.of());
    }
    int bytes = Utf8.length(raw);
    if (bytes > Policy.MAX_ARGUMENT_BYTES) {
      throw new Rejected(
          "arguments are "
              + bytes
              + " bytes; the limit is "
              + Policy.MAX_ARGUMENT_BYTES
              + " bytes");
    }
    try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), raw)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new Rejected("arguments must be a JSON object");
      }
      Map<String, Value> members = new LinkedHashMap<>();
      String name;
      while ((name = parser.nextName()) != null) {
        if (members.containsKey(name)) {
          throw new Rejected("duplicate argument " + Quote.of(name) + ": each key may appear once");
        }
        JsonToken token = parser.nextToken();
        members.put(
            name,
            new Value(
                JsonInput.typeOf(token),
                token == JsonToken.VALUE_STRING || token == JsonToken.VALUE_NUMBER_INT
                    ? parser.getString()
                    : null));
        parser.skipChildren();
      }
      if (parser.nextToken() != null) {
        throw new Rejected("arguments must be a single JSON object");
      }
      return new Arguments(members);
    } catch (JacksonException e) {
      throw new Rejected("arguments are not valid JSON: " + JsonInput.describe(e));
    }
  }

  /** Refuses the first member whose name is not among {@code allowed}. */
  Arguments allowOnly(String tool, Set<String> allowed) throws Rejected {
    for (String name : members.keySet()) {
      if (!allowed.contains(name)) {
        String accepted =
            allowed.isEmpty()
                ? tool + " takes no arguments"
                : tool + " accepts only " + String.join(", ", quoted(allowed));
        throw new Rejected("unknown argument " + Quote.of(name) + ": " + accepted);
      }
    }
    return this;
  }

  private static List<String> quoted(Set<String> names) {
    List<String> quoted = new ArrayList<>();
    for (String name : new TreeSet<>(names)) {
      quoted.add(Quote.of(name));
    }
    return quoted;
  }

  /** The required string member {@code name}. */
  String string(String name) throws Rejected {
    String text = optionalString(name);
    if (text == null) {
      throw new Rejected("missing required argument " + Quote.of(name));
    }
    return text;
  }

  /** The string member {@code name}, or null when it is absent. */
  String optionalString(String name) throws Rejected {
    Value value = members.get(name);
    if (value == null) {
      return null;
    }
    if (!value.type().equals("string")) {
      throw new Rejected("argument " + Quote.of(name) + " must be a string, not " + value.type());
    }
    return value.text();
  }

  /**
   * A count a client sent: its {@code value} ({@code Long.MAX_VALUE} for one of 19 digits or more,
   * past any note's end and any limit), and the digits as sent, which a refusal names (never the
   * value a longer one was cut to).
   */
  record Count(long value, String digits) {}

  /**
   * The integer member {@code name} (a JSON number without fraction or exponent, 0 or more), or
   * null when it is absent.
   */
  Count optionalCount(String name) throws Rejected {
    Value value = members.get(name);
    if (value == null) {
      return null;
    }
    if (!value.type().equals("number") || value.text() == null) {
      throw new Rejected(
          "argument "
              + Quote.of(name)
              + " must be an integer, not "
              + (value.type().equals("number")
                  ? "a number with a fraction or exponent"
                  : value.type()));
    }
    String digits = value.text();
    if (digits.startsWith("-")) {
      throw new Rejected("argument " + Quote.of(name) + " must be 0 or more, not " + digits);
    }
    return new Count(digits.length() > 18 ? Long.MAX_VALUE : Long.parseLong(digits), digits);
  }
}

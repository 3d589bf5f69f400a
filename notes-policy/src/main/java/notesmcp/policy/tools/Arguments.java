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
 * decoding could merge them). The top-level members matter, and the members of an object one level
 * down ({@code find_notes}' {@code property}); every argument is a string, an integer, a boolean or
 * such an object of them, so anything nested deeper is refused by its type, whatever it holds.
 * Immutable once decoded.
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

  /** The argument this object is the value of, or null for the arguments themselves. */
  private final String owner;

  /**
   * An object's first key given twice, or null: refused when the object is asked for ({@link
   * #optionalObject}), so that an object where a string belongs is refused by its type as before.
   */
  private final String duplicate;

  private Arguments(Map<String, Value> members, String owner, String duplicate) {
    this.members = members;
    this.owner = owner;
    this.duplicate = duplicate;
  }

  /**
   * One member: its JSON type (a JSON type's name: an integer is a {@code number}), its text when
   * it is a string, a number without fraction or exponent, or a boolean, and its members when it is
   * an object directly inside the arguments.
   */
  record Value(String type, String text, Arguments object) {}

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
      return new Arguments(Map.of(), null, null);
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
      Arguments arguments = members(parser, null);
      if (parser.nextToken() != null) {
        throw new Rejected("arguments must be a single JSON object");
      }
      return arguments;
    } catch (JacksonException e) {
      throw new Rejected("arguments are not valid JSON: " + JsonInput.describe(e));
    }
  }

  /**
   * The members of the object whose {@code {}} the parser has just read, up to its {@code }}: of
   * the arguments ({@code owner} null), or of the argument {@code owner}, whose objects are not
   * read.
   */
  private static Arguments members(JsonParser parser, String owner) throws Rejected {
    Map<String, Value> members = new LinkedHashMap<>();
    String duplicate = null;
    String name;
    while ((name = parser.nextName()) != null) {
      if (members.containsKey(name)) {
        if (owner == null) {
          throw new Rejected("duplicate argument " + Quote.of(name) + ": each key may appear once");
        }
        if (duplicate == null) {
          duplicate = name;
        }
      }
      JsonToken token = parser.nextToken();
      Arguments object = null;
      if (token == JsonToken.START_OBJECT && owner == null) {
        object = members(parser, name);
      } else {
        parser.skipChildren();
      }
      members.put(
          name,
          new Value(
              JsonInput.typeOf(token),
              token == JsonToken.VALUE_STRING
                      || token == JsonToken.VALUE_NUMBER_INT
                      || token == JsonToken.VALUE_TRUE
                      || token == JsonToken.VALUE_FALSE
                  ? parser.getString()
                  : null,
              object));
    }
    return new Arguments(members, owner, duplicate);
  }

  /** Refuses the first member whose name is not among {@code allowed}. */
  Arguments allowOnly(String tool, Set<String> allowed) throws Rejected {
    for (String name : members.keySet()) {
      if (!allowed.contains(name)) {
        if (owner != null) {
          throw new Rejected(
              "unknown key "
                  + Quote.of(name)
                  + " in argument "
                  + Quote.of(owner)
                  + ": it accepts only "
                  + String.join(", ", quoted(allowed)));
        }
        String accepted =
            allowed.isEmpty()
                ? tool + " takes no arguments"
                : tool + " accepts only " + String.join(", ", quoted(allowed));
        throw new Rejected("unknown argument " + Quote.of(name) + ": " + accepted);
      }
    }
    return this;
  }

  /** Whether the member {@code name} was given. */
  boolean has(String name) {
    return members.containsKey(name);
  }

  /** How a refusal names the member {@code name}: "argument "x"", or "key "x" of argument "y"". */
  private String named(String name) {
    return owner == null
        ? "argument " + Quote.of(name)
        : "key " + Quote.of(name) + " of argument " + Quote.of(owner);
  }

  /** The boolean member {@code name}, or null when it is absent. */
  Boolean optionalBoolean(String name) throws Rejected {
    Value value = members.get(name);
    if (value == null) {
      return null;
    }
    if (!value.type().equals("boolean")) {
      throw new Rejected(named(name) + " must be true or false, not " + value.type());
    }
    return Boolean.valueOf(value.text());
  }

  /** The object member {@code name} (its members), or null when it is absent. */
  Arguments optionalObject(String name) throws Rejected {
    Value value = members.get(name);
    if (value == null) {
      return null;
    }
    if (value.object() == null) {
      throw new Rejected(named(name) + " must be an object, not " + value.type());
    }
    if (value.object().duplicate != null) {
      throw new Rejected(
          "duplicate key "
              + Quote.of(value.object().duplicate)
              + " in argument "
              + Quote.of(name)
              + ": each key may appear once");
    }
    return value.object();
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
      throw new Rejected(
          owner == null
              ? "missing required argument " + Quote.of(name)
              : "argument " + Quote.of(owner) + " is missing its key " + Quote.of(name));
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
      throw new Rejected(named(name) + " must be a string, not " + value.type());
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

package notesmcp.app;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import notesmcp.text.JsonInput;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.io.JsonStringEncoder;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Edits a host's JSON configuration by splicing text into it at offsets the parser reports, never
 * by writing the parsed file back: every other member, its order, spacing and comments stay byte
 * for byte. A new member goes first in its object (right after the opening brace), indented as the
 * object's first member is; a replaced one keeps its place. Each edit is checked by parsing the
 * result and comparing it with the parsed original plus the intended change, so a splice that would
 * touch anything else is refused rather than written. Stateless; any thread.
 */
final class JsonSplice {
  /** What a host's parser accepts beyond plain JSON. */
  enum Flavor {
    /** Plain JSON (RFC 8259). */
    STRICT("JSON"),
    /**
     * JSON with {@code //} and {@code /* *}{@code /} comments, as Gemini CLI and Qwen Code read.
     */
    COMMENTS("JSON with comments"),
    /** JSON with comments and trailing commas (VS Code's JSONC). */
    JSONC("JSON with comments (JSONC)");

    final String words;

    Flavor(String words) {
      this.words = words;
    }

    JsonFactory factory() {
      var builder = JsonFactory.builder();
      if (this != STRICT) {
        builder.enable(JsonReadFeature.ALLOW_JAVA_COMMENTS);
      }
      if (this == JSONC) {
        builder.enable(JsonReadFeature.ALLOW_TRAILING_COMMA);
      }
      return builder.build();
    }
  }

  /** The file cannot be edited as asked; the message says why, in words. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    /** True when the refusal is a member of that name that is already there. */
    final boolean exists;

    Refused(String message, boolean exists) {
      super(message);
      this.exists = exists;
    }
  }

  private JsonSplice() {}

  /**
   * {@code text} with member {@code name} set to {@code value} in the object at {@code path} (keys
   * from the top-level object; missing objects on the way are created). A member of that name that
   * is already there is refused ({@link Refused#exists}) unless {@code replace}, and then only if
   * it is an object or an array.
   *
   * @param text the file, or null or blank for none: a new document is made
   */
  static String put(
      String text, Flavor flavor, List<String> path, String name, Object value, boolean replace)
      throws Refused {
    if (text == null || text.isBlank()) {
      return render(nest(path, name, value), "", "  ") + "\n";
    }
    JsonNode before = parse(text, flavor);
    List<String> keys = new ArrayList<>(path);
    keys.add(name);
    Members object = Members.top(text, flavor);
    for (int depth = 0; depth < keys.size(); depth++) {
      String where = String.join(".", keys.subList(0, depth + 1));
      Member found = object.find(keys.get(depth), where);
      if (found == null) {
        Object inserted =
            depth < path.size() ? nest(path.subList(depth + 1, path.size()), name, value) : value;
        String result = object.insertMember(text, keys.get(depth), inserted);
        return checked(flavor, before, result, path, name, value);
      }
      if (depth == path.size()) {
        if (!replace) {
          throw new Refused(
              "already has an MCP server named \"" + name + "\" (" + where + ")", true);
        }
        if (found.end < 0) {
          throw new Refused(where + " is not an object or array; remove it by hand first", false);
        }
        String result =
            text.substring(0, found.start)
                + render(value, object.childIndent, object.unit)
                + text.substring(found.end);
        return checked(flavor, before, result, path, name, value);
      }
      if (found.kind != JsonToken.START_OBJECT) {
        throw new Refused(where + " is not a JSON object", false);
      }
      object = Members.inside(text, flavor, found, object);
    }
    throw new AssertionError(name);
  }

  /**
   * {@code text} with each of {@code values} that is not there yet added to the array of strings at
   * {@code path} (made, with its objects, if missing), first in the array, in the given order.
   */
  static String addStrings(String text, Flavor flavor, List<String> path, List<String> values)
      throws Refused {
    List<String> parents = path.subList(0, path.size() - 1);
    String key = path.get(path.size() - 1);
    String where = String.join(".", path);
    if (text == null || text.isBlank()) {
      return put(text, flavor, parents, key, values, false);
    }
    JsonNode before = parse(text, flavor);
    JsonNode existing = before;
    for (String part : path) {
      existing = existing == null || !existing.isObject() ? null : existing.get(part);
    }
    if (existing == null) {
      return put(text, flavor, parents, key, values, false);
    }
    if (!existing.isArray()) {
      throw new Refused(where + " is not a JSON array", false);
    }
    List<String> missing = new ArrayList<>();
    for (String value : values) {
      boolean there = false;
      for (JsonNode element : existing) {
        there |= element.isString() && element.asString().equals(value);
      }
      if (!there) {
        missing.add(value);
      }
    }
    if (missing.isEmpty()) {
      return text;
    }
    Members object = Members.top(text, flavor);
    for (int i = 0; i < parents.size(); i++) {
      Member part = object.find(parents.get(i), String.join(".", parents.subList(0, i + 1)));
      object = Members.inside(text, flavor, part, object);
    }
    Members array = Members.inside(text, flavor, object.find(key, where), object);
    List<String> quoted = new ArrayList<>();
    for (String value : missing) {
      quoted.add(quote(value));
    }
    String result = array.insertFirst(text, String.join(", ", quoted));
    ObjectNode want = (ObjectNode) before.deepCopy();
    ObjectNode parent = want;
    for (String part : parents) {
      parent = (ObjectNode) parent.get(part);
    }
    ArrayNode merged = parent.arrayNode();
    for (String value : missing) {
      merged.add(value);
    }
    merged.addAll((ArrayNode) existing);
    parent.set(key, merged);
    if (!parse(result, flavor).equals(want)) {
      throw new Refused("cannot be edited safely (" + where + " would change otherwise)", false);
    }
    return result;
  }

  /** The parsed document, or a refusal that says where it does not parse. */
  static JsonNode parse(String text, Flavor flavor) throws Refused {
    try {
      JsonNode node = JsonMapper.builder(flavor.factory()).build().readTree(text);
      if (node == null || !node.isObject()) {
        throw new Refused("does not hold a JSON object", false);
      }
      return node;
    } catch (JacksonException e) {
      throw new Refused(
          "does not parse as "
              + flavor.words
              + " (line "
              + e.getLocation().getLineNr()
              + ", column "
              + e.getLocation().getColumnNr()
              + ": "
              + JsonInput.describe(e)
              + ")",
          false);
    }
  }

  /** Checks that {@code result} is {@code text} with exactly the intended member set. */
  private static String checked(
      Flavor flavor, JsonNode before, String result, List<String> path, String name, Object value)
      throws Refused {
    ObjectNode want = (ObjectNode) before.deepCopy();
    ObjectNode parent = want;
    for (String part : path) {
      JsonNode next = parent.get(part);
      parent = next instanceof ObjectNode ? (ObjectNode) next : parent.putObject(part);
    }
    parent.set(name, node(value));
    JsonNode got;
    try {
      got = parse(result, flavor);
    } catch (Refused e) {
      throw new Refused("cannot be edited safely (the edit would not parse)", false);
    }
    if (!got.equals(want)) {
      throw new Refused(
          "cannot be edited safely (it holds a member twice, or an edit would change more)", false);
    }
    return result;
  }

  /** {@code {"path0": {"path1": ... {name: value}}}} as nested maps. */
  private static Object nest(List<String> path, String name, Object value) {
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put(name, value);
    Object result = inner;
    for (int i = path.size() - 1; i >= 0; i--) {
      Map<String, Object> outer = new LinkedHashMap<>();
      outer.put(path.get(i), result);
      result = outer;
    }
    return result;
  }

  /**
   * A value (a {@code Map<String, ?>} in order, a {@code List}, a String or a Boolean) as JSON
   * text, an object's members one a line under {@code indent} plus {@code unit}; an array of
   * strings stays on one line.
   */
  static String render(Object value, String indent, String unit) {
    StringBuilder out = new StringBuilder();
    render(value, indent, unit, out);
    return out.toString();
  }

  private static void render(Object value, String indent, String unit, StringBuilder out) {
    if (value instanceof Map<?, ?> map) {
      if (map.isEmpty()) {
        out.append("{}");
        return;
      }
      out.append("{\n");
      int i = 0;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        out.append(indent).append(unit).append(quote((String) entry.getKey())).append(": ");
        render(entry.getValue(), indent + unit, unit, out);
        out.append(++i < map.size() ? ",\n" : "\n");
      }
      out.append(indent).append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        out.append(i == 0 ? "" : ", ");
        render(list.get(i), indent, unit, out);
      }
      out.append(']');
    } else if (value instanceof String string) {
      out.append(quote(string));
    } else if (value instanceof Boolean bool) {
      out.append(bool.toString());
    } else {
      throw new IllegalArgumentException(String.valueOf(value));
    }
  }

  /** The same value as a tree, for printing and for checks. */
  static JsonNode node(Object value) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    if (value instanceof Map<?, ?> map) {
      ObjectNode object = nodes.objectNode();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        object.set((String) entry.getKey(), node(entry.getValue()));
      }
      return object;
    }
    if (value instanceof List<?> list) {
      ArrayNode array = nodes.arrayNode();
      for (Object element : list) {
        array.add(node(element));
      }
      return array;
    }
    if (value instanceof String string) {
      return nodes.stringNode(string);
    }
    if (value instanceof Boolean bool) {
      return nodes.booleanNode(bool);
    }
    throw new IllegalArgumentException(String.valueOf(value));
  }

  static String quote(String text) {
    StringBuilder out = new StringBuilder("\"");
    JsonStringEncoder.getInstance().quoteAsString(text, out);
    return out.append('"').toString();
  }

  /** A member as the parser saw it: where its value starts and ends (end -1: a scalar). */
  private record Member(String name, JsonToken kind, int start, int end) {}

  /**
   * One object or array of the text: where it opens, its members (none for an array), and the
   * indentation a new first child gets: that of the first child when it stands on its own line,
   * else the container's line's indentation plus one unit.
   */
  private static final class Members {
    final int open;
    final boolean empty;
    final String base;
    final String childIndent;
    final String unit;
    final boolean childOnOwnLine;
    final boolean array;
    final List<Member> members;

    private Members(
        int open,
        boolean empty,
        String base,
        String childIndent,
        String unit,
        boolean childOnOwnLine,
        boolean array,
        List<Member> members) {
      this.open = open;
      this.empty = empty;
      this.base = base;
      this.childIndent = childIndent;
      this.unit = unit;
      this.childOnOwnLine = childOnOwnLine;
      this.array = array;
      this.members = members;
    }

    static Members top(String text, Flavor flavor) throws Refused {
      return read(text, flavor, 0, "  ");
    }

    static Members inside(String text, Flavor flavor, Member member, Members parent)
        throws Refused {
      return read(text, flavor, member.start, parent.unit);
    }

    /** Reads the object or array whose bracket is the first token at or after {@code from}. */
    private static Members read(String text, Flavor flavor, int from, String inheritedUnit)
        throws Refused {
      try (JsonParser parser =
          flavor.factory().createParser(ObjectReadContext.empty(), text.substring(from))) {
        JsonToken first = parser.nextToken();
        if (first != JsonToken.START_OBJECT && first != JsonToken.START_ARRAY) {
          throw new Refused("does not hold a JSON object", false);
        }
        int open = from + (int) parser.currentTokenLocation().getCharOffset();
        List<Member> members = new ArrayList<>();
        int firstChild = -1;
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_OBJECT
            && token != JsonToken.END_ARRAY) {
          int at = from + (int) parser.currentTokenLocation().getCharOffset();
          if (firstChild < 0) {
            firstChild = at;
          }
          String name = null;
          if (token == JsonToken.PROPERTY_NAME) {
            name = parser.currentName();
            token = parser.nextToken();
            at = from + (int) parser.currentTokenLocation().getCharOffset();
          }
          int end = -1;
          if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
            parser.skipChildren();
            end = from + (int) parser.currentTokenLocation().getCharOffset() + 1;
          }
          if (name != null) {
            members.add(new Member(name, token, at, end));
          }
        }
        String base = leading(text, open);
        String unit = inheritedUnit;
        String childIndent = base + unit;
        boolean ownLine = false;
        if (firstChild >= 0) {
          int lineStart = text.lastIndexOf('\n', firstChild - 1) + 1;
          ownLine = lineStart > open && text.substring(lineStart, firstChild).isBlank();
          if (ownLine) {
            childIndent = text.substring(lineStart, firstChild);
            if (childIndent.startsWith(base) && childIndent.length() > base.length()) {
              unit = childIndent.substring(base.length());
            }
          }
        }
        return new Members(
            open,
            firstChild < 0,
            base,
            childIndent,
            unit,
            ownLine,
            first == JsonToken.START_ARRAY,
            members);
      } catch (JacksonException e) {
        throw new Refused("does not parse: " + JsonInput.describe(e), false);
      }
    }

    /** The spaces and tabs that start the line holding {@code at}. */
    private static String leading(String text, int at) {
      int start = text.lastIndexOf('\n', at - 1) + 1;
      int i = start;
      while (i < at && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
        i++;
      }
      return text.substring(start, i);
    }

    /** The member named {@code key}; a name that appears twice is refused. */
    Member find(String key, String where) throws Refused {
      Member found = null;
      for (Member member : members) {
        if (member.name.equals(key)) {
          if (found != null) {
            throw new Refused("has \"" + where + "\" twice; remove one by hand first", false);
          }
          found = member;
        }
      }
      return found;
    }

    /** {@code text} with {@code child} (a member's or an element's text) first in this one. */
    String insertFirst(String text, String child) {
      String head = text.substring(0, open + 1);
      String tail = text.substring(open + 1);
      if (array && !childOnOwnLine) {
        return head + child + (empty ? "" : ", ") + tail;
      }
      if (empty) {
        return head + "\n" + childIndent + child + "\n" + base + tail.stripLeading();
      }
      return head + "\n" + childIndent + child + "," + (childOnOwnLine ? "" : " ") + tail;
    }

    String insertMember(String text, String key, Object value) {
      return insertFirst(text, quote(key) + ": " + render(value, childIndent, unit));
    }
  }
}

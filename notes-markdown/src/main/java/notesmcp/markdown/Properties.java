package notesmcp.markdown;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A note's front matter properties (docs/knowledge.md, "Properties"): absent (the note has no front
 * matter block), read (a map of names to {@link Value}s, in the order written), or unreadable with
 * the reason (the body is read all the same). Immutable.
 */
public final class Properties {
  static final int ABSENT = 0;
  static final int READ = 1;
  static final int UNREADABLE = 2;

  private final int state;
  private final String problem;
  private final Map<String, Value> map;

  private Properties(int state, String problem, Map<String, Value> map) {
    this.state = state;
    this.problem = problem;
    this.map = map;
  }

  /** Whether the note has a front matter block (readable or not). */
  public boolean present() {
    return state != ABSENT;
  }

  /** Whether the block was read: false when it is absent or unreadable. */
  public boolean readable() {
    return state == READ;
  }

  /** Why the block is unreadable, in one line naming the note's line where it can; else null. */
  public String problem() {
    return problem;
  }

  /** The properties by name, in the order written; empty unless {@link #readable}. */
  public Map<String, Value> map() {
    return map;
  }

  /** The property named exactly {@code name}, or null. */
  public Value get(String name) {
    return map.get(name);
  }

  /**
   * The note's aliases: the values of {@code aliases} and of {@code alias} (Obsidian's older name),
   * each name in any case; a string is one alias, a list gives its text items (strings, dates);
   * each stripped, empty ones left out, each once, in the order written.
   */
  public List<String> aliases() {
    List<String> aliases = new ArrayList<>();
    for (Value value : named(map, "aliases", "alias")) {
      for (Value item : value.kind() == Value.Kind.LIST ? value.items() : List.of(value)) {
        if (isText(item)) {
          String alias = item.text().strip();
          if (!alias.isEmpty() && !aliases.contains(alias)) {
            aliases.add(alias);
          }
        }
      }
    }
    return Collections.unmodifiableList(aliases);
  }

  /**
   * The tags {@code properties} give: the values of {@code tags} and {@code tag} (any case); a
   * string is split at commas and white space ({@code tags: a, b}), a list gives each string item
   * whole, stripped; each without one leading {@code #}, kept when it is a whole tag ({@link
   * Tag#isTag}: an item {@code two words} is none).
   */
  static List<String> tags(Map<String, Value> properties) {
    List<String> tags = new ArrayList<>();
    for (Value value : named(properties, "tags", "tag")) {
      for (Value item : value.kind() == Value.Kind.LIST ? value.items() : List.of(value)) {
        if (!isText(item)) {
          continue;
        }
        String text = item.text().strip();
        for (String part :
            value.kind() == Value.Kind.LIST ? new String[] {text} : text.split("[,\\s]+")) {
          String name = part.startsWith("#") ? part.substring(1) : part;
          if (Tag.isTag(name)) {
            tags.add(name);
          }
        }
      }
    }
    return tags;
  }

  private static boolean isText(Value value) {
    return value.kind() == Value.Kind.STRING
        || value.kind() == Value.Kind.DATE
        || value.kind() == Value.Kind.DATETIME;
  }

  /** The values of the properties whose names equal one of {@code names}, ignoring case. */
  private static List<Value> named(Map<String, Value> properties, String... names) {
    List<Value> values = new ArrayList<>();
    for (Map.Entry<String, Value> entry : properties.entrySet()) {
      String name = entry.getKey().toLowerCase(Locale.ROOT);
      for (String wanted : names) {
        if (name.equals(wanted)) {
          values.add(entry.getValue());
        }
      }
    }
    return values;
  }

  // ---- the packed form

  static void encode(Map<String, Value> properties, Packed.Writer out) {
    out.number(properties.size());
    for (Map.Entry<String, Value> entry : properties.entrySet()) {
      out.text(entry.getKey());
      encode(entry.getValue(), out);
    }
  }

  private static void encode(Value value, Packed.Writer out) {
    out.number(value.kind().ordinal());
    switch (value.kind()) {
      case STRING:
      case DATE:
      case DATETIME:
        out.text(value.text());
        return;
      case INTEGER:
        out.signed(value.longValue());
        return;
      case FLOAT:
        out.eight(Double.doubleToRawLongBits(value.doubleValue()));
        return;
      case BOOLEAN:
        out.number(value.booleanValue() ? 1 : 0);
        return;
      case LIST:
        out.number(value.items().size());
        for (Value item : value.items()) {
          encode(item, out);
        }
        return;
      case MAP:
        encode(value.entries(), out);
        return;
      default:
        return;
    }
  }

  static Properties decode(Packed.Reader in) {
    int state = in.integer();
    if (state == UNREADABLE) {
      return new Properties(state, in.text(), Map.of());
    }
    if (state == ABSENT) {
      return new Properties(state, null, Map.of());
    }
    return new Properties(state, null, decodeMap(in).entries());
  }

  private static Value decodeMap(Packed.Reader in) {
    int count = in.integer();
    LinkedHashMap<String, Value> entries = new LinkedHashMap<>();
    for (int k = 0; k < count; k++) {
      String key = in.text();
      entries.put(key, decodeValue(in));
    }
    return Value.map(entries);
  }

  private static Value decodeValue(Packed.Reader in) {
    Value.Kind kind = Value.Kind.values()[in.integer()];
    switch (kind) {
      case STRING:
      case DATE:
      case DATETIME:
        return Value.text(kind, in.text());
      case INTEGER:
        return Value.integer(in.signed());
      case FLOAT:
        return Value.real(Double.longBitsToDouble(in.eight()));
      case BOOLEAN:
        return in.integer() == 1 ? Value.TRUE : Value.FALSE;
      case LIST:
        int count = in.integer();
        List<Value> items = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
          items.add(decodeValue(in));
        }
        return Value.list(items);
      case MAP:
        return decodeMap(in);
      default:
        return Value.NULL;
    }
  }
}

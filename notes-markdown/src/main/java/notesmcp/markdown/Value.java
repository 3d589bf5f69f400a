package notesmcp.markdown;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One property value of a note's front matter, with the type YAML gave it (docs/knowledge.md,
 * "Properties"). Immutable.
 */
public final class Value {
  /** The types a value can have. */
  public enum Kind {
    /** Text: a quoted scalar, or a plain one that is none of the types below. */
    STRING,
    /** A whole number within 64 bits: {@code 42}, {@code -7}, {@code 0x1f}, {@code 0o17}. */
    INTEGER,
    /** A finite number with a fraction or an exponent: {@code 3.5}, {@code 1e3}. */
    FLOAT,
    /** {@code true} or {@code false} (also {@code True}, {@code TRUE}, ...). */
    BOOLEAN,
    /** A plain {@code 2026-12-01}: a calendar date, as Obsidian writes a Date property. */
    DATE,
    /**
     * A plain {@code 2026-12-01T10:30}, with optional seconds, fraction and offset: a Date & time
     * property.
     */
    DATETIME,
    /** {@code null}, {@code ~} or nothing. */
    NULL,
    /** A sequence; {@link #items}. */
    LIST,
    /** A nested mapping; {@link #entries}. */
    MAP
  }

  private final Kind kind;
  private final Object value;

  private Value(Kind kind, Object value) {
    this.kind = kind;
    this.value = value;
  }

  static final Value NULL = new Value(Kind.NULL, null);
  static final Value TRUE = new Value(Kind.BOOLEAN, Boolean.TRUE);
  static final Value FALSE = new Value(Kind.BOOLEAN, Boolean.FALSE);

  static Value text(Kind kind, String text) {
    return new Value(kind, text);
  }

  static Value integer(long value) {
    return new Value(Kind.INTEGER, value);
  }

  static Value real(double value) {
    return new Value(Kind.FLOAT, value);
  }

  static Value list(List<Value> items) {
    return new Value(Kind.LIST, Collections.unmodifiableList(items));
  }

  static Value map(LinkedHashMap<String, Value> entries) {
    return new Value(Kind.MAP, Collections.unmodifiableMap(entries));
  }

  public Kind kind() {
    return kind;
  }

  /**
   * The value as text: a string, date or date-time as written; a number, boolean or null as YAML
   * writes it ({@code 42}, {@code 3.5}, {@code true}, {@code null}); a list or map has none (null).
   */
  public String text() {
    switch (kind) {
      case STRING:
      case DATE:
      case DATETIME:
        return (String) value;
      case INTEGER:
      case FLOAT:
      case BOOLEAN:
        return String.valueOf(value);
      case NULL:
        return "null";
      default:
        return null;
    }
  }

  /** An {@link Kind#INTEGER}'s value. */
  public long longValue() {
    return (Long) require(Kind.INTEGER);
  }

  /** A {@link Kind#FLOAT}'s value (always finite), or an {@link Kind#INTEGER}'s as a double. */
  public double doubleValue() {
    return kind == Kind.INTEGER ? (Long) value : (Double) require(Kind.FLOAT);
  }

  /** A {@link Kind#BOOLEAN}'s value. */
  public boolean booleanValue() {
    return (Boolean) require(Kind.BOOLEAN);
  }

  /** A {@link Kind#LIST}'s items, in order. */
  @SuppressWarnings("unchecked")
  public List<Value> items() {
    return (List<Value>) require(Kind.LIST);
  }

  /** A {@link Kind#MAP}'s entries, in the order written; keys are the keys' text. */
  @SuppressWarnings("unchecked")
  public Map<String, Value> entries() {
    return (Map<String, Value>) require(Kind.MAP);
  }

  private Object require(Kind wanted) {
    if (kind != wanted) {
      throw new IllegalStateException("a " + kind + " value, not " + wanted);
    }
    return value;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Value
        && kind == ((Value) other).kind
        && Objects.equals(value, ((Value) other).value);
  }

  @Override
  public int hashCode() {
    return kind.hashCode() * 31 + Objects.hashCode(value);
  }

  @Override
  public String toString() {
    return kind == Kind.LIST || kind == Kind.MAP ? String.valueOf(value) : kind + ":" + text();
  }
}

package notesmcp.markdown;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.common.Anchor;
import org.snakeyaml.engine.v2.events.AliasEvent;
import org.snakeyaml.engine.v2.events.CollectionStartEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.MappingStartEvent;
import org.snakeyaml.engine.v2.events.NodeEvent;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.resolver.CoreScalarResolver;
import org.snakeyaml.engine.v2.resolver.ScalarResolver;

/**
 * A note's front matter (docs/knowledge.md, "Properties"): where the block is, and its YAML read
 * into {@link Value}s. The YAML is read as SnakeYAML Engine's parse events and composed here, never
 * constructed into objects by the library: no tag is honoured (any explicit tag refuses the block),
 * plain scalars resolve by YAML 1.2's core schema, and every bound below is checked as the events
 * arrive, so a hostile block is refused after at most {@link #MAX_VALUES} values' work.
 */
final class Frontmatter {
  /** The most bytes of YAML read between the two {@code ---} lines. */
  static final int MAX_BYTES = 65536;

  /** The deepest nesting of lists and maps, the properties' own map counted as 1. */
  static final int MAX_DEPTH = 16;

  /** The most values (keys, scalars, lists, maps), an alias counted as all it stands for. */
  static final int MAX_VALUES = 10000;

  /** The most bytes of text in keys and scalars, an alias counted as all it stands for. */
  static final int MAX_TEXT_BYTES = 131072;

  private static final ScalarResolver CORE = new CoreScalarResolver(false);

  private Frontmatter() {}

  /** Where a front matter block lies in a note: its YAML text, and where the body starts. */
  static final class Block {
    final int yamlStart;
    final int yamlEnd;
    final int bodyOffset;

    Block(int yamlStart, int yamlEnd, int bodyOffset) {
      this.yamlStart = yamlStart;
      this.yamlEnd = yamlEnd;
      this.bodyOffset = bodyOffset;
    }
  }

  /**
   * The front matter block of {@code b[0, n)}, or null. Obsidian's rule: at the very start (after
   * an optional UTF-8 byte-order mark), a line {@code ---} (trailing spaces and tabs allowed); the
   * block ends at the first later line that starts with {@code ---}. The body starts after that
   * line, or right after its {@code ---} when the line holds more ({@code ---x}: {@code x} is
   * body). A line break is LF, CR LF or a lone CR. Without a closing line there is no front matter.
   */
  static Block locate(byte[] b, int n) {
    int p =
        n >= 3 && (b[0] & 0xff) == 0xef && (b[1] & 0xff) == 0xbb && (b[2] & 0xff) == 0xbf ? 3 : 0;
    if (!dashes(b, n, p)) {
      return null;
    }
    int q = p + 3;
    while (q < n && (b[q] == ' ' || b[q] == '\t')) {
      q++;
    }
    int yamlStart = afterBreak(b, n, q);
    if (yamlStart < 0) {
      return null;
    }
    int line = yamlStart;
    while (!dashes(b, n, line)) {
      line = nextLine(b, n, line);
      if (line < 0) {
        return null;
      }
    }
    int yamlEnd =
        line == yamlStart
            ? line
            : (b[line - 1] == '\n' && b[line - 2] == '\r' ? line - 2 : line - 1);
    int rest = line + 3;
    while (rest < n && (b[rest] == ' ' || b[rest] == '\t')) {
      rest++;
    }
    int body = rest == n ? n : afterBreak(b, n, rest);
    return new Block(yamlStart, Math.max(yamlStart, yamlEnd), body < 0 ? line + 3 : body);
  }

  private static boolean dashes(byte[] b, int n, int at) {
    return at + 3 <= n && b[at] == '-' && b[at + 1] == '-' && b[at + 2] == '-';
  }

  /** The position after the line break at {@code at}, or -1 when none is there. */
  private static int afterBreak(byte[] b, int n, int at) {
    if (at < n && b[at] == '\r') {
      return at + 1 < n && b[at + 1] == '\n' ? at + 2 : at + 1;
    }
    return at < n && b[at] == '\n' ? at + 1 : -1;
  }

  /** The start of the line after the one holding {@code at}, or -1 at the last line. */
  static int nextLine(byte[] b, int n, int at) {
    for (int i = at; i < n; i++) {
      if (b[i] == '\n' || b[i] == '\r') {
        return afterBreak(b, n, i);
      }
    }
    return -1;
  }

  /** What reading a block gave: its properties, or why they cannot be read; and the work done. */
  static final class Result {
    final LinkedHashMap<String, Value> properties;
    final String problem;
    final int events;

    Result(LinkedHashMap<String, Value> properties, String problem, int events) {
      this.properties = properties;
      this.problem = problem;
      this.events = events;
    }
  }

  /**
   * The properties the YAML text {@code yaml} holds, or the problem that refuses them all. {@code
   * firstLine} is the note's line of the YAML's first line, for the problem's words.
   */
  static Result read(String yaml, int firstLine) {
    Composer composer = new Composer(firstLine);
    try {
      LoadSettings settings =
          LoadSettings.builder()
              .setCodePointLimit(MAX_BYTES + 1)
              .setUseMarks(true)
              .setParseComments(false)
              .build();
      for (Event event : new Parse(settings).parseString(yaml)) {
        composer.take(event);
      }
      return composer.result();
    } catch (Refused e) {
      return new Result(null, e.getMessage(), composer.events);
    } catch (MarkedYamlEngineException e) {
      int line = e.getProblemMark().map(m -> m.getLine()).orElse(-1);
      return new Result(
          null, composer.at(line) + "not valid YAML: " + words(e.getProblem()), composer.events);
    } catch (YamlEngineException e) {
      return new Result(
          null, "front matter: not valid YAML: " + words(e.getMessage()), composer.events);
    }
  }

  /** A message of the library's, on one line and at most 200 characters. */
  private static String words(String message) {
    String line = message == null ? "" : message.strip().replaceAll("\\s+", " ");
    return line.length() > 200 ? line.substring(0, 200) + "…" : line;
  }

  /** Why a block is refused, with the words of the refusal. */
  private static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message, null, false, false);
    }
  }

  /** A value with what it costs: the values and the bytes of text it stands for. */
  private static final class Sized {
    final Value value;
    final String keyText;
    final int values;
    final int bytes;

    Sized(Value value, String keyText, int values, int bytes) {
      this.value = value;
      this.keyText = keyText;
      this.values = values;
      this.bytes = bytes;
    }
  }

  /** A list or map being read. */
  private static final class Open {
    final boolean map;
    final Optional<Anchor> anchor;
    final List<Value> items = new ArrayList<>();
    final LinkedHashMap<String, Value> entries = new LinkedHashMap<>();
    String key;
    int values = 1;
    int bytes;

    Open(boolean map, Optional<Anchor> anchor) {
      this.map = map;
      this.anchor = anchor;
    }
  }

  /** Builds the values from the parse events, checking every bound as it goes. */
  private static final class Composer {
    private final int firstLine;
    private final Map<Anchor, Sized> anchors = new HashMap<>();
    private final List<Open> open = new ArrayList<>();
    private Sized root;
    private int documents;
    private int values;
    private int bytes;
    int events;

    Composer(int firstLine) {
      this.firstLine = firstLine;
    }

    String at(int yamlLine) {
      return yamlLine < 0 ? "front matter: " : "front matter line " + (firstLine + yamlLine) + ": ";
    }

    private String at(Event event) {
      return at(event.getStartMark().map(m -> m.getLine()).orElse(-1));
    }

    void take(Event event) {
      events++;
      switch (event.getEventId()) {
        case DocumentStart:
          if (++documents > 1) {
            throw new Refused(at(event) + "holds more than one YAML document");
          }
          return;
        case Scalar:
          scalar((ScalarEvent) event);
          return;
        case Alias:
          alias((AliasEvent) event);
          return;
        case SequenceStart:
        case MappingStart:
          start((CollectionStartEvent) event);
          return;
        case SequenceEnd:
        case MappingEnd:
          end();
          return;
        default:
          return;
      }
    }

    private void scalar(ScalarEvent event) {
      refuseTag(event, event.getTag());
      String text = event.getValue();
      Value value = event.isPlain() ? plain(text, event) : Value.text(Value.Kind.STRING, text);
      int size = utf8Length(text);
      Sized sized = new Sized(value, text, 1, size);
      event.getAnchor().ifPresent(a -> anchors.put(a, sized));
      add(sized, event);
    }

    private void alias(AliasEvent event) {
      Anchor name = event.getAlias();
      Sized target = anchors.get(name);
      if (target == null) {
        for (Open o : open) {
          if (o.anchor.isPresent() && o.anchor.get().equals(name)) {
            throw new Refused(
                at(event) + "the alias *" + name + " refers to a value that holds it");
          }
        }
        throw new Refused(at(event) + "the alias *" + name + " refers to no anchor before it");
      }
      add(target, event);
    }

    private void start(CollectionStartEvent event) {
      refuseTag(event, event.getTag());
      if (open.size() + 1 > MAX_DEPTH) {
        throw new Refused(at(event) + "nests lists and maps more than " + MAX_DEPTH + " deep");
      }
      count(1, 0, event);
      open.add(new Open(event instanceof MappingStartEvent, event.getAnchor()));
    }

    private void end() {
      Open done = open.remove(open.size() - 1);
      Value value = done.map ? Value.map(done.entries) : Value.list(done.items);
      Sized sized = new Sized(value, null, done.values, done.bytes);
      done.anchor.ifPresent(a -> anchors.put(a, sized));
      values -= done.values;
      bytes -= done.bytes;
      add(sized, null);
    }

    /** Counts {@code sized} where it is placed: in the open list or map, or as the root. */
    private void add(Sized sized, Event event) {
      if (event != null) {
        count(sized.values, sized.bytes, event);
      } else {
        values += sized.values;
        bytes += sized.bytes;
      }
      if (open.isEmpty()) {
        root = sized;
        return;
      }
      Open into = open.get(open.size() - 1);
      into.values += sized.values;
      into.bytes += sized.bytes;
      if (!into.map) {
        into.items.add(sized.value);
      } else if (into.key == null) {
        if (sized.keyText == null) {
          throw new Refused(at(event == null ? -1 : line(event)) + "has a list or map as a key");
        }
        into.key = sized.keyText;
      } else {
        if (into.entries.putIfAbsent(into.key, sized.value) != null) {
          throw new Refused(
              at(event == null ? -1 : line(event)) + "has the key \"" + cut(into.key) + "\" twice");
        }
        into.key = null;
      }
    }

    private int line(Event event) {
      return event.getStartMark().map(m -> m.getLine()).orElse(-1);
    }

    private void count(int moreValues, int moreBytes, Event event) {
      values += moreValues;
      bytes += moreBytes;
      if (values > MAX_VALUES) {
        throw new Refused(
            at(event)
                + "holds more than "
                + MAX_VALUES
                + " values (aliases counted as what they stand for)");
      }
      if (bytes > MAX_TEXT_BYTES) {
        throw new Refused(
            at(event)
                + "holds more than "
                + MAX_TEXT_BYTES
                + " bytes of text (aliases counted as what they stand for)");
      }
    }

    private void refuseTag(NodeEvent event, Optional<String> tag) {
      if (tag.isPresent()) {
        throw new Refused(
            at(event) + "has the explicit tag " + cut(tag.get()) + "; no tag is read");
      }
    }

    private Value plain(String text, ScalarEvent event) {
      Tag tag = CORE.resolve(text, true);
      if (Tag.NULL.equals(tag)) {
        return Value.NULL;
      } else if (Tag.BOOL.equals(tag)) {
        return text.charAt(0) == 't' || text.charAt(0) == 'T' ? Value.TRUE : Value.FALSE;
      } else if (Tag.INT.equals(tag)) {
        return integer(text, event);
      } else if (Tag.FLOAT.equals(tag)) {
        String lower = text.toLowerCase(Locale.ROOT);
        double real =
            lower.endsWith(".inf") || lower.endsWith(".nan")
                ? Double.NaN
                : Double.parseDouble(text);
        if (!Double.isFinite(real)) {
          throw new Refused(at(event) + "has the number " + cut(text) + ", which is not finite");
        }
        return Value.real(real);
      }
      return Value.text(dateKind(text), text);
    }

    private Value integer(String text, ScalarEvent event) {
      String digits = text;
      boolean negative = false;
      if (digits.startsWith("-") || digits.startsWith("+")) {
        negative = digits.charAt(0) == '-';
        digits = digits.substring(1);
      }
      int radix = 10;
      if (digits.startsWith("0x")) {
        radix = 16;
        digits = digits.substring(2);
      } else if (digits.startsWith("0o")) {
        radix = 8;
        digits = digits.substring(2);
      }
      BigInteger value = new BigInteger(digits, radix);
      value = negative ? value.negate() : value;
      if (value.bitLength() > 63) {
        throw new Refused(at(event) + "has the integer " + cut(text) + ", which is beyond 64 bits");
      }
      return Value.integer(value.longValue());
    }

    Result result() {
      if (root == null || root.value.kind() == Value.Kind.NULL) {
        return new Result(new LinkedHashMap<>(), null, events);
      }
      if (root.value.kind() != Value.Kind.MAP) {
        String what = root.value.kind() == Value.Kind.LIST ? "a list" : "a single value";
        throw new Refused("front matter: is " + what + ", not a map of properties");
      }
      return new Result(new LinkedHashMap<>(root.value.entries()), null, events);
    }
  }

  /**
   * {@link Value.Kind#DATE} for {@code YYYY-MM-DD}, {@link Value.Kind#DATETIME} for {@code
   * YYYY-MM-DDTHH:MM} with optional {@code :SS}, a fraction of 1 to 9 digits and an offset ({@code
   * Z} or {@code ±HH:MM}), {@code T} also written {@code t} or a space; each a real calendar date
   * and time of day. Anything else is {@link Value.Kind#STRING}.
   */
  static Value.Kind dateKind(String text) {
    int n = text.length();
    if (n < 10
        || !digits(text, 0, 4)
        || text.charAt(4) != '-'
        || !digits(text, 5, 7)
        || text.charAt(7) != '-'
        || !digits(text, 8, 10)) {
      return Value.Kind.STRING;
    }
    try {
      java.time.LocalDate.of(number(text, 0, 4), number(text, 5, 7), number(text, 8, 10));
    } catch (java.time.DateTimeException e) {
      return Value.Kind.STRING;
    }
    if (n == 10) {
      return Value.Kind.DATE;
    }
    char t = text.charAt(10);
    if ((t != 'T' && t != 't' && t != ' ')
        || n < 16
        || !digits(text, 11, 13)
        || text.charAt(13) != ':'
        || !digits(text, 14, 16)
        || number(text, 11, 13) > 23
        || number(text, 14, 16) > 59) {
      return Value.Kind.STRING;
    }
    int p = 16;
    if (p < n && text.charAt(p) == ':') {
      if (!digits(text, p + 1, p + 3) || number(text, p + 1, p + 3) > 59) {
        return Value.Kind.STRING;
      }
      p += 3;
      if (p < n && text.charAt(p) == '.') {
        int q = p + 1;
        while (q < n && q - p <= 9 && text.charAt(q) >= '0' && text.charAt(q) <= '9') {
          q++;
        }
        if (q == p + 1 || (q < n && text.charAt(q) >= '0' && text.charAt(q) <= '9')) {
          return Value.Kind.STRING;
        }
        p = q;
      }
    }
    if (p < n && (text.charAt(p) == 'Z' || text.charAt(p) == 'z')) {
      p++;
    } else if (p < n && (text.charAt(p) == '+' || text.charAt(p) == '-')) {
      if (p + 6 != n
          || !digits(text, p + 1, p + 3)
          || text.charAt(p + 3) != ':'
          || !digits(text, p + 4, p + 6)
          || number(text, p + 1, p + 3) > 18
          || number(text, p + 4, p + 6) > 59) {
        return Value.Kind.STRING;
      }
      p = n;
    }
    return p == n ? Value.Kind.DATETIME : Value.Kind.STRING;
  }

  private static boolean digits(String text, int from, int to) {
    if (to > text.length()) {
      return false;
    }
    for (int i = from; i < to; i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private static int number(String text, int from, int to) {
    return Integer.parseInt(text.substring(from, to));
  }

  private static String cut(String text) {
    String line = text.replaceAll("[\\p{Cc}\\p{Zl}\\p{Zp}]", " ");
    return line.length() > 64 ? line.substring(0, 64) + "…" : line;
  }

  static int utf8Length(String text) {
    int bytes = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes++;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }
}

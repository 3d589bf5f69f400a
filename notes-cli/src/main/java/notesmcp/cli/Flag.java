package notesmcp.cli;

import java.util.List;
import java.util.Set;

/**
 * One flag of a command line, read by the rule every mode follows (docs/behaviour.md, "Command
 * line"): one or two dashes, and a value either as the next word or after {@code =}: {@code -root
 * W}, {@code --root W}, {@code --root=W}. A final class, not a record: it is read on the start
 * path, which links no {@code invokedynamic} (StartPathIT).
 */
public final class Flag {
  /** The name without dashes or value: {@code root} for {@code --root=W}. */
  public final String name;

  /** The value, or null for a switch. */
  public final String value;

  /** How many words of the command line the flag took: 2 when its value was the next word. */
  public final int words;

  private Flag(String name, String value, int words) {
    this.name = name;
    this.value = value;
    this.words = words;
  }

  /**
   * Reads the flag at {@code args[index]}. {@code switches} take no value, {@code valued} take one;
   * any other name is unknown ("unknown flag W", then {@code unknownSuffix}, such as " for chat").
   */
  public static Flag read(
      List<String> args, int index, Set<String> switches, Set<String> valued, String unknownSuffix)
      throws UsageException {
    String word = args.get(index);
    if (!word.startsWith("-") || word.equals("-") || word.equals("--")) {
      throw new UsageException("unexpected argument \"" + word + "\"");
    }
    String name = word.startsWith("--") ? word.substring(2) : word.substring(1);
    String inline = null;
    int equals = name.indexOf('=');
    if (equals >= 0) {
      inline = name.substring(equals + 1);
      name = name.substring(0, equals);
    }
    if (switches.contains(name)) {
      if (inline != null) {
        throw new UsageException(word.substring(0, word.indexOf('=')) + " takes no value");
      }
      return new Flag(name, null, 1);
    }
    if (!valued.contains(name)) {
      throw new UsageException("unknown flag " + word + unknownSuffix);
    }
    if (inline != null) {
      return new Flag(name, inline, 1);
    }
    if (index + 1 >= args.size()) {
      throw new UsageException(word + " needs a value");
    }
    return new Flag(name, args.get(index + 1), 2);
  }
}

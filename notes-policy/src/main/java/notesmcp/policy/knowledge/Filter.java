package notesmcp.policy.knowledge;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.regex.Pattern;
import notesmcp.markdown.Tag;

/**
 * What {@code find_notes} (and {@code search_notes}' filters) ask of a note (docs/knowledge.md,
 * "find_notes"): a tag, a property's value, a folder, when it was modified; each given one must
 * hold (AND). Immutable; made by the tool surface from a client's arguments, checked there.
 */
public final class Filter {
  private static final Pattern ZONE = Pattern.compile("[+-][0-9]{2}(:?[0-9]{2})?");
  private static final Pattern TIME =
      Pattern.compile("[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?");

  private final String tag;
  private final String property;
  private final String equals;
  private final String contains;
  private final LocalDateTime after;
  private final LocalDateTime before;
  private final String folder;
  private final long modifiedAfter;
  private final long modifiedBefore;

  /** The property's test of a value, or null when it has none (the property need only be named). */
  private final PropertyValues.Test test;

  /**
   * @param tag a tag without {@code #}, or null
   * @param property a property's name (its case ignored), or null; without {@code equals}, {@code
   *     contains}, {@code after} and {@code before}, a note passes when it has the property at all
   * @param equals the property's value (or an item of it) is this text, character for character
   * @param contains the property's value (or an item of it) holds this text, case ignored
   * @param after the property's value (or an item of it) is a date or date and time later than this
   *     one ({@link #dateProblem} says what is one)
   * @param before ... earlier than this one; with {@code after}, one value must be in between
   * @param folder a folder's path: the note is in it or below it; or null
   * @param modifiedAfter the note's file was last modified after this, in nanoseconds since the
   *     epoch; {@code Long.MIN_VALUE} for any time
   * @param modifiedBefore ... before this; {@code Long.MAX_VALUE} for any time
   * @throws IllegalArgumentException for a date that is not one
   */
  public Filter(
      String tag,
      String property,
      String equals,
      String contains,
      String after,
      String before,
      String folder,
      long modifiedAfter,
      long modifiedBefore) {
    this.tag = tag == null ? null : Tag.fold(tag);
    this.property = property == null ? null : lower(property);
    this.equals = equals;
    this.contains = contains == null ? null : Tag.fold(contains);
    this.after = after == null ? null : requireDate(after);
    this.before = before == null ? null : requireDate(before);
    this.folder = folder;
    this.modifiedAfter = modifiedAfter;
    this.modifiedBefore = modifiedBefore;
    this.test =
        equals == null && contains == null && after == null && before == null
            ? null
            : new PropertyValues.Test(this.equals, this.contains, this.after, this.before);
  }

  /** Whether this filter asks anything of a note's structure (a tag or a property). */
  boolean needsStructure() {
    return tag != null || property != null;
  }

  String tag() {
    return tag;
  }

  String property() {
    return property;
  }

  String folder() {
    return folder;
  }

  /**
   * Why {@code text} is not a date as find_notes compares them, or null when it is one: a calendar
   * date {@code YYYY-MM-DD}, or one with a time of day {@code YYYY-MM-DDTHH:MM}, seconds and a
   * fraction optional, the {@code T} also {@code t} or a space, as YAML writes Obsidian's Date and
   * Date & time properties; an offset ({@code Z}, {@code +02:00}) is allowed and not applied.
   */
  public static String dateProblem(String text) {
    return parse(text) == null
        ? "is not a date: write 2026-12-01 or 2026-12-01T10:30 (a real day and time of day)"
        : null;
  }

  private static LocalDateTime requireDate(String text) {
    LocalDateTime date = parse(text);
    if (date == null) {
      throw new IllegalArgumentException("not a date: " + text);
    }
    return date;
  }

  /**
   * A date or a date and time as a point on the calendar (a date is its day's start; an offset is
   * dropped: times compare as written), or null when {@code text} is neither.
   */
  static LocalDateTime parse(String text) {
    if (text == null || text.length() < 10 || text.length() > 64) {
      return null;
    }
    for (int i = 0; i < 10; i++) {
      char c = text.charAt(i);
      if (i == 4 || i == 7 ? c != '-' : c < '0' || c > '9') {
        return null;
      }
    }
    try {
      // Digits checked above; of() refuses a day the calendar lacks (2026-02-30), as parse() did.
      LocalDate day =
          LocalDate.of(
              Integer.parseInt(text, 0, 4, 10),
              Integer.parseInt(text, 5, 7, 10),
              Integer.parseInt(text, 8, 10, 10));
      if (text.length() == 10) {
        return day.atStartOfDay();
      }
      char separator = text.charAt(10);
      if (separator != 'T' && separator != 't' && separator != ' ') {
        return null;
      }
      String time = text.substring(11);
      int offset = offsetStart(time);
      if (offset >= 0) {
        String zone = time.substring(offset);
        if (!zone.equals("Z") && !zone.equals("z") && !ZONE.matcher(zone).matches()) {
          return null;
        }
        time = time.substring(0, offset);
      }
      if (!TIME.matcher(time).matches()) {
        return null;
      }
      return day.atTime(LocalTime.parse(time));
    } catch (DateTimeException e) {
      return null;
    }
  }

  private static int offsetStart(String time) {
    for (int i = 0; i < time.length(); i++) {
      char c = time.charAt(i);
      if (c == 'Z' || c == 'z' || c == '+' || c == '-') {
        return i;
      }
    }
    return -1;
  }

  /** Whether the note of {@code entry} (read, with a structure) passes this filter. */
  boolean matches(NoteStructures.Entry entry) {
    if (folder != null && !entry.path.startsWith(folder + "/")) {
      return false;
    }
    if (modifiedAfter != Long.MIN_VALUE || modifiedBefore != Long.MAX_VALUE) {
      if (entry.identity == null) {
        return false;
      }
      long modified = entry.identity.modified();
      if (modified <= modifiedAfter || modified >= modifiedBefore) {
        return false;
      }
    }
    if (!needsStructure()) {
      return entry.structure != null;
    }
    if (entry.structure == null) {
      return false;
    }
    if (tag != null && !hasTag(entry.tags)) {
      return false;
    }
    return property == null || hasProperty(entry);
  }

  private boolean hasTag(String[] keys) {
    for (String key : keys) {
      if (key.equals(tag) || (key.startsWith(tag) && key.charAt(tag.length()) == '/')) {
        return true;
      }
    }
    return false;
  }

  private boolean hasProperty(NoteStructures.Entry entry) {
    for (int i = 0; i < entry.properties.length; i++) {
      if (entry.properties[i].equals(property)) {
        // A property named has a value; with a test, one of its leaves must pass it.
        return test == null || entry.values.anyPasses(i, test);
      }
    }
    return false;
  }

  static String lower(String name) {
    return name.toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * The filter as text, the same for the same question: what a cursor is issued for, so that a
   * cursor holds only with the filters it came with.
   */
  public String canonical() {
    return String.join(
        "\u0000",
        List.of(
            String.valueOf(tag),
            String.valueOf(property),
            String.valueOf(equals),
            String.valueOf(contains),
            String.valueOf(after),
            String.valueOf(before),
            String.valueOf(folder),
            Long.toString(modifiedAfter),
            Long.toString(modifiedBefore)));
  }
}

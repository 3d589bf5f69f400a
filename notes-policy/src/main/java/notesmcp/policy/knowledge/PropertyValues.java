package notesmcp.policy.knowledge;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import notesmcp.markdown.Tag;
import notesmcp.markdown.Value;

/**
 * A note's property values as {@link Filter} tests them, decoded once when the note is read into
 * the index (docs/knowledge.md, "find_notes") and kept packed: for each property, its leaves, each
 * with its text in UTF-8, whether folding it ({@link Tag#fold}) changes it, and its date when it is
 * a date or a date and time. A leaf is a value that is not a list, or an item of a list value that
 * is neither a list nor a map. About 20 bytes a leaf, so that keeping them for every note costs
 * little beside the note's {@link notesmcp.markdown.Structure}.
 *
 * <p>A leaf is: one byte of flags ({@link #NO_TEXT}, {@link #FOLDS}, {@link #DATE}); unless {@code
 * NO_TEXT}, its text's length (a varint) and bytes; with {@code DATE}, the date's second since the
 * epoch (8 bytes) and nanosecond (4 bytes), read as UTC (times compare as written).
 */
final class PropertyValues {
  /** The leaf has no text: a map ({@link Value#text} is null). */
  private static final int NO_TEXT = 1;

  /** Folding the leaf's text changes it: {@code contains} folds it when it tests it. */
  private static final int FOLDS = 2;

  /** The leaf is a date or a date and time ({@link Filter#parse}). */
  private static final int DATE = 4;

  private static final int[] NO_STARTS = {0};
  private static final byte[] NO_BYTES = new byte[0];

  /**
   * For property {@code i}, its leaves are the bytes from {@code starts[i]} to {@code starts[i +
   * 1]}.
   */
  private final int[] starts;

  private final byte[] data;

  static final PropertyValues NONE = new PropertyValues(NO_STARTS, NO_BYTES);

  private PropertyValues(int[] starts, byte[] data) {
    this.starts = starts;
    this.data = data;
  }

  /**
   * The leaves of each property; {@code values.get(i)} are the values the front matter gives the
   * {@code i}th property (never empty: a property is named because it has one).
   */
  static PropertyValues of(List<List<Value>> values) {
    if (values.isEmpty()) {
      return NONE;
    }
    int[] starts = new int[values.size() + 1];
    ByteArrayOutputStream out = new ByteArrayOutputStream(64);
    for (int i = 0; i < values.size(); i++) {
      for (Value value : values.get(i)) {
        if (value.kind() != Value.Kind.LIST) {
          write(out, value);
          continue;
        }
        for (Value item : value.items()) {
          if (item.kind() != Value.Kind.LIST && item.kind() != Value.Kind.MAP) {
            write(out, item);
          }
        }
      }
      starts[i + 1] = out.size();
    }
    return new PropertyValues(starts, out.toByteArray());
  }

  private static void write(ByteArrayOutputStream out, Value leaf) {
    String text = leaf.text();
    LocalDateTime date =
        leaf.kind() == Value.Kind.DATE || leaf.kind() == Value.Kind.DATETIME
            ? Filter.parse(text)
            : null;
    int flags =
        (text == null ? NO_TEXT : Tag.fold(text).equals(text) ? 0 : FOLDS)
            | (date == null ? 0 : DATE);
    out.write(flags);
    if (text != null) {
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      for (int n = bytes.length; ; n >>>= 7) {
        if (n < 0x80) {
          out.write(n);
          break;
        }
        out.write((n & 0x7f) | 0x80);
      }
      out.write(bytes, 0, bytes.length);
    }
    if (date != null) {
      long second = date.toEpochSecond(ZoneOffset.UTC);
      for (int b = 0; b < 8; b++) {
        out.write((int) (second >>> (8 * b)));
      }
      int nano = date.getNano();
      for (int b = 0; b < 4; b++) {
        out.write(nano >>> (8 * b));
      }
    }
  }

  /** What it keeps, in bytes of heap. */
  long bytes() {
    return this == NONE ? 0 : 16 + 16 + 4L * starts.length + 16 + data.length;
  }

  /** Whether a leaf of property {@code i} passes {@code test}. */
  boolean anyPasses(int i, Test test) {
    if (test.never) {
      return false;
    }
    int at = starts[i];
    int end = starts[i + 1];
    while (at < end) {
      int flags = data[at++];
      int textAt = -1;
      int length = 0;
      if ((flags & NO_TEXT) == 0) {
        for (int shift = 0; ; shift += 7) {
          int b = data[at++];
          length |= (b & 0x7f) << shift;
          if (b >= 0) {
            break;
          }
        }
        textAt = at;
        at += length;
      }
      long second = 0;
      int nano = 0;
      if ((flags & DATE) != 0) {
        for (int b = 0; b < 8; b++) {
          second |= (data[at++] & 0xffL) << (8 * b);
        }
        for (int b = 0; b < 4; b++) {
          nano |= (data[at++] & 0xff) << (8 * b);
        }
      }
      if (test.passes(data, flags, textAt, length, second, nano)) {
        return true;
      }
    }
    return false;
  }

  /** The test of one leaf: the filter's, prepared once for every note it looks at. */
  static final class Test {
    private final byte[] equals;
    private final String contains;
    private final byte[] containsBytes;
    private final long afterSecond;
    private final int afterNano;
    private final long beforeSecond;
    private final int beforeNano;
    private final boolean after;
    private final boolean before;

    /** No leaf can pass: the text asked for holds a lone surrogate, which no note's text does. */
    final boolean never;

    /**
     * A leaf passes when it has each of: the text {@code equals}, character for character; text
     * that, folded, holds {@code contains}; a date later than {@code after} and earlier than {@code
     * before}. Each null asks nothing.
     *
     * @param contains already folded ({@link Tag#fold})
     */
    Test(String equals, String contains, LocalDateTime after, LocalDateTime before) {
      this.equals = equals == null ? null : utf8(equals);
      this.contains = contains;
      this.containsBytes = contains == null ? null : utf8(contains);
      never =
          (equals != null && this.equals == null) || (contains != null && containsBytes == null);
      afterSecond = after == null ? 0 : after.toEpochSecond(ZoneOffset.UTC);
      afterNano = after == null ? 0 : after.getNano();
      beforeSecond = before == null ? 0 : before.toEpochSecond(ZoneOffset.UTC);
      beforeNano = before == null ? 0 : before.getNano();
      this.after = after != null;
      this.before = before != null;
    }

    /**
     * The text's UTF-8, or null when it holds a lone surrogate (no note's text, valid UTF-8, is one
     * or holds one).
     */
    private static byte[] utf8(String text) {
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (Character.isLowSurrogate(c)) {
          return null;
        }
        if (Character.isHighSurrogate(c)) {
          if (i + 1 == text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
            return null;
          }
          i++;
        }
      }
      return text.getBytes(StandardCharsets.UTF_8);
    }

    private boolean passes(byte[] data, int flags, int textAt, int length, long second, int nano) {
      if (equals != null
          && (textAt < 0
              || !java.util.Arrays.equals(
                  data, textAt, textAt + length, equals, 0, equals.length))) {
        return false;
      }
      if (contains != null) {
        if (textAt < 0) {
          return false;
        }
        boolean holds =
            (flags & FOLDS) == 0
                ? holds(data, textAt, length, containsBytes)
                : Tag.fold(new String(data, textAt, length, StandardCharsets.UTF_8))
                    .contains(contains);
        if (!holds) {
          return false;
        }
      }
      if (!after && !before) {
        return true;
      }
      if ((flags & DATE) == 0) {
        return false;
      }
      return (!after || second > afterSecond || (second == afterSecond && nano > afterNano))
          && (!before || second < beforeSecond || (second == beforeSecond && nano < beforeNano));
    }

    /**
     * Whether the UTF-8 text at {@code at} holds {@code needle}'s bytes: for valid UTF-8 on both
     * sides, exactly when the text holds the needle's characters (a character's bytes never begin
     * inside another's).
     */
    private static boolean holds(byte[] data, int at, int length, byte[] needle) {
      int last = at + length - needle.length;
      outer:
      for (int i = at; i <= last; i++) {
        for (int j = 0; j < needle.length; j++) {
          if (data[i + j] != needle[j]) {
            continue outer;
          }
        }
        return true;
      }
      return false;
    }
  }
}

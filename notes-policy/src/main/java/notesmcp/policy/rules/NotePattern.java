package notesmcp.policy.rules;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import notesmcp.text.Quote;

/**
 * One entry of a policy's {@code readable}, {@code exclude} or {@code proposable} list ({@code
 * docs/behaviour.md}, "Policy files"): an exact relative name such as {@code Projects/Paper
 * Kite.md}, or a pattern in which {@code *} matches any characters within one component (never
 * {@code /}), {@code ?} exactly one character, and {@code **} as a whole component zero or more
 * components. Matching is case-sensitive, character for character, on the name as enumerated.
 * Immutable.
 *
 * <p>A pattern is matched component by component, as the catalog walks folders, with the states of
 * a small automaton: a state is the index of the next segment to match, and a set of states says
 * where every pattern of a list stands after the folders walked so far ({@link #start}, {@link
 * #enter}, {@link #accepts}). So a folder no pattern can reach is never entered.
 */
final class NotePattern {
  /** A segment that is {@code **}. */
  private static final String ANY_DEPTH = "**";

  /** Segments a pattern may have: 17 components, and room for {@code **} between them. */
  private static final int MAX_SEGMENTS = 40;

  private final String text;
  private final String[] segments;
  private final boolean exact;

  /**
   * For each segment that is {@code *} and then a literal ({@code *.md}, the commonest), the
   * literal, else null: such a segment matches exactly the names that end with it, one {@link
   * String#endsWith} instead of {@link #glob}'s loop, for every file the catalog lists. Not for a
   * literal that starts with a low surrogate, which {@code *} could not end before (it takes whole
   * characters).
   */
  private final String[] suffixes;

  private NotePattern(String text, String[] segments, boolean exact) {
    this.text = text;
    this.segments = segments;
    this.exact = exact;
    this.suffixes = new String[segments.length];
    for (int s = 0; s < segments.length; s++) {
      String segment = segments[s];
      if (!exact
          && segment.length() > 1
          && segment.charAt(0) == '*'
          && segment.indexOf('*', 1) < 0
          && segment.indexOf('?') < 0
          && !Character.isLowSurrogate(segment.charAt(1))) {
        suffixes[s] = segment.substring(1);
      }
    }
  }

  /**
   * Reads one entry of a policy list.
   *
   * @throws IllegalArgumentException naming the entry and why it can never match a note
   */
  static NotePattern parse(String text) {
    boolean exact = text.indexOf('*') < 0 && text.indexOf('?') < 0;
    if (exact) {
      NoteName.configured(text);
      return new NotePattern(text, text.split("/", -1), true);
    }
    String problem = problemWith(text);
    if (problem != null) {
      throw new IllegalArgumentException("pattern " + Quote.of(text) + " " + problem);
    }
    List<String> segments = new ArrayList<>();
    for (String segment : text.split("/", -1)) {
      // ** twice in a row means what ** once means.
      if (!(segment.equals(ANY_DEPTH)
          && !segments.isEmpty()
          && segments.get(segments.size() - 1).equals(ANY_DEPTH))) {
        segments.add(segment);
      }
    }
    return new NotePattern(text, segments.toArray(new String[0]), false);
  }

  private static String problemWith(String text) {
    String[] parts = text.split("/", -1);
    if (parts.length > MAX_SEGMENTS) {
      return "has more than " + MAX_SEGMENTS + " components";
    }
    // The literal parts follow the rules of names (a pattern that only a name no note may have
    // could match is a mistake): checked on the pattern without its ** components, each * and ?
    // standing for one letter, which is no longer than anything the pattern matches.
    if (parts[0].isEmpty()) {
      return "starts with '/': a pattern is relative to the workspace";
    }
    if (parts[parts.length - 1].isEmpty()) {
      return "ends with '/'";
    }
    StringBuilder literal = new StringBuilder(text.length());
    for (String part : parts) {
      if (part.isEmpty()) {
        return "has an empty component ('//')";
      }
      if (part.contains(ANY_DEPTH) && !part.equals(ANY_DEPTH)) {
        return "has " + Quote.of(part) + ": ** must be a whole component, as in a/**/b";
      }
      if (!part.equals(ANY_DEPTH)) {
        if (literal.length() > 0) {
          literal.append('/');
        }
        literal.append(part.replace('*', 'x').replace('?', 'x'));
      }
    }
    if (literal.length() == 0) {
      return null; // ** alone: every note
    }
    String problem = NoteName.problemWith(literal.toString());
    return problem == null ? null : "can never match a note: its fixed part " + problem;
  }

  /** The entry as written in the policy file. */
  String text() {
    return text;
  }

  /** Whether the entry has no {@code *} and no {@code ?}: it names one path exactly. */
  boolean isExact() {
    return exact;
  }

  /** Whether {@code path}, a note's path (its components separated by '/'), matches. */
  boolean matches(String path) {
    if (exact) {
      return text.equals(path);
    }
    return matches(path.split("/", -1), 0, 0);
  }

  private boolean matches(String[] components, int c, int s) {
    while (s < segments.length) {
      if (segments[s].equals(ANY_DEPTH)) {
        for (int skip = c; skip <= components.length; skip++) {
          if (matches(components, skip, s + 1)) {
            return true;
          }
        }
        return false;
      }
      if (c == components.length || !glob(segments[s], components[c])) {
        return false;
      }
      c++;
      s++;
    }
    return c == components.length;
  }

  /** Whether this pattern matches {@code path} or one of the folders it lies in. */
  boolean matchesOrContains(String path) {
    if (matches(path)) {
      return true;
    }
    for (int slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
      if (matches(path.substring(0, slash))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether one component matches one segment: {@code *} any run of characters, {@code ?} one
   * character (a code point), anything else itself. Linear, with one step back per {@code *}.
   */
  static boolean glob(String segment, String name) {
    int s = 0;
    int n = 0;
    int starS = -1;
    int starN = 0;
    while (n < name.length()) {
      if (s < segment.length() && segment.charAt(s) == '*') {
        starS = s++;
        starN = n;
      } else if (s < segment.length() && segment.charAt(s) == '?') {
        s++;
        n += Character.charCount(name.codePointAt(n));
      } else if (s < segment.length() && segment.charAt(s) == name.charAt(n)) {
        s++;
        n++;
      } else if (starS >= 0) {
        s = starS + 1;
        starN += Character.charCount(name.codePointAt(starN));
        n = starN;
      } else {
        return false;
      }
    }
    while (s < segment.length() && segment.charAt(s) == '*') {
      s++;
    }
    return s == segment.length();
  }

  // The automaton. A state is (pattern index << 6) | segment index, over a list of patterns; a set
  // of states is a sorted int[] without repeats. A state whose segment index is the pattern's
  // length has matched the whole path walked so far.

  /** The states before any component: every pattern at its first segment. */
  static int[] start(List<NotePattern> patterns) {
    int[] states = new int[patterns.size()];
    for (int p = 0; p < states.length; p++) {
      states[p] = p << 6;
    }
    return closure(patterns, states);
  }

  /** The states after one more component {@code name}; empty when no pattern can go on. */
  static int[] enter(List<NotePattern> patterns, int[] states, String name) {
    int[] next = new int[states.length * 2];
    int count = 0;
    for (int state : states) {
      NotePattern pattern = patterns.get(state >>> 6);
      int s = state & 63;
      if (s == pattern.segments.length) {
        continue;
      }
      if (pattern.segments[s].equals(ANY_DEPTH)) {
        next[count++] = state; // ** takes this component and stays
      } else if (matchesSegment(pattern, s, name)) {
        next[count++] = state + 1;
      }
    }
    return closure(patterns, Arrays.copyOf(next, count));
  }

  /**
   * Whether one more component {@code name} would end a match: {@code ended(enter(states, name))}
   * without building the states (the catalog asks this of every file it lists). A state at a {@code
   * **} that ends its pattern takes any name; a state whose segment is the pattern's last one, or
   * the last before a final {@code **}, takes the names its segment matches.
   */
  static boolean endsWith(List<NotePattern> patterns, int[] states, String name) {
    for (int state : states) {
      NotePattern pattern = patterns.get(state >>> 6);
      int s = state & 63;
      int length = pattern.segments.length;
      if (s >= length) {
        continue;
      }
      boolean anyDepth = pattern.segments[s].equals(ANY_DEPTH);
      if (anyDepth
          ? s + 1 == length
          : lastBefore(pattern, s + 1) && matchesSegment(pattern, s, name)) {
        return true;
      }
    }
    return false;
  }

  /** Whether nothing but one final {@code **}, or nothing, follows segment index {@code s}. */
  private static boolean lastBefore(NotePattern pattern, int s) {
    return s == pattern.segments.length
        || (s + 1 == pattern.segments.length && pattern.segments[s].equals(ANY_DEPTH));
  }

  private static boolean matchesSegment(NotePattern pattern, int s, String name) {
    if (pattern.exact) {
      return pattern.segments[s].equals(name);
    }
    String suffix = pattern.suffixes[s];
    return suffix != null ? name.endsWith(suffix) : glob(pattern.segments[s], name);
  }

  /** Whether some pattern has matched exactly the components walked so far. */
  static boolean ended(List<NotePattern> patterns, int[] states) {
    for (int state : states) {
      if ((state & 63) == patterns.get(state >>> 6).segments.length) {
        return true;
      }
    }
    return false;
  }

  /** Whether some pattern can still match a path one or more components longer. */
  static boolean alive(List<NotePattern> patterns, int[] states) {
    for (int state : states) {
      if ((state & 63) < patterns.get(state >>> 6).segments.length) {
        return true;
      }
    }
    return false;
  }

  /** Adds, for each state at a {@code **}, the state after it (it matches zero components). */
  private static int[] closure(List<NotePattern> patterns, int[] states) {
    int[] out = Arrays.copyOf(states, states.length * 2 + 1);
    int count = states.length;
    for (int i = 0; i < count; i++) {
      int state = out[i];
      NotePattern pattern = patterns.get(state >>> 6);
      int s = state & 63;
      if (s < pattern.segments.length && pattern.segments[s].equals(ANY_DEPTH)) {
        if (count == out.length) {
          out = Arrays.copyOf(out, out.length * 2);
        }
        out[count++] = state + 1;
      }
    }
    int[] sorted = Arrays.copyOf(out, count);
    Arrays.sort(sorted);
    int unique = 0;
    for (int i = 0; i < sorted.length; i++) {
      if (unique == 0 || sorted[unique - 1] != sorted[i]) {
        sorted[unique++] = sorted[i];
      }
    }
    return unique == sorted.length ? sorted : Arrays.copyOf(sorted, unique);
  }

  @Override
  public String toString() {
    return text;
  }
}

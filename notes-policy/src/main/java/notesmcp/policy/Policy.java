package notesmcp.policy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What the notes policy allows: which notes may be read ({@code readable} less {@code exclude}),
 * which may be proposed ({@code proposable} less {@code exclude}), how large a note may be, and how
 * many tool calls one server process may dispatch ({@code docs/behaviour.md}, "Tools" and "Policy
 * files").
 *
 * <p>Each list holds {@link NotePattern}s: exact names or patterns. A policy whose {@code readable}
 * has no {@code *} or {@code ?} anywhere <em>names its notes</em>: like the default, it lists them
 * in its own order, and with at most {@link #MAX_LISTED} of them its schemas and refusals name them
 * all. Any other policy is served from the catalog the server enumerates itself, in code-point
 * order of the paths.
 *
 * <p>Immutable. The defaults are the documented ones; a policy file ({@link PolicyFile}) or the
 * {@code -max-calls} flag may change them before the server starts, never afterwards.
 */
public final class Policy {
  /** {@code docs/behaviour.md}, "Limits": the tool arguments object, as received. Fixed. */
  public static final int MAX_ARGUMENT_BYTES = 16 * 1024;

  public static final int DEFAULT_MAX_NOTE_BYTES = 2048;
  public static final int DEFAULT_MAX_CALLS = 16;

  /** The most a note may be, whatever the policy file says. */
  public static final int MAX_NOTE_BYTES = 1024 * 1024;

  /** Most names a schema gives as the {@code enum} of {@code path}, and a refusal names in full. */
  static final int MAX_LISTED = 64;

  private final List<NotePattern> readable;
  private final List<NotePattern> exclude;
  private final List<NotePattern> proposable;
  private final List<NoteName> named;
  private final List<NoteName> namedProposable;
  private final int maxNoteBytes;
  private final int maxCalls;
  private final boolean search;

  private Policy(
      List<NotePattern> readable,
      List<NotePattern> exclude,
      List<NotePattern> proposable,
      int maxNoteBytes,
      int maxCalls) {
    this(readable, exclude, proposable, maxNoteBytes, maxCalls, false);
  }

  private Policy(
      List<NotePattern> readable,
      List<NotePattern> exclude,
      List<NotePattern> proposable,
      int maxNoteBytes,
      int maxCalls,
      boolean search) {
    if (readable.isEmpty()) {
      throw new IllegalArgumentException("readable must name at least one note");
    }
    if (maxNoteBytes < 1 || maxNoteBytes > MAX_NOTE_BYTES) {
      throw new IllegalArgumentException(
          "maxNoteBytes must be 1.." + MAX_NOTE_BYTES + ", not " + maxNoteBytes);
    }
    if (maxCalls < 0) {
      throw new IllegalArgumentException("maxCalls must be >= 0, not " + maxCalls);
    }
    this.readable = List.copyOf(readable);
    this.exclude = List.copyOf(exclude);
    this.proposable = List.copyOf(proposable);
    this.named = exactNames(readable, exclude);
    if (named != null && named.isEmpty()) {
      throw new IllegalArgumentException("exclude leaves no readable note");
    }
    this.namedProposable = exactNames(proposable, exclude);
    this.maxNoteBytes = maxNoteBytes;
    this.maxCalls = maxCalls;
    this.search = search;
  }

  /** The names of {@code patterns}, less the excluded, if all are exact; otherwise null. */
  private static List<NoteName> exactNames(List<NotePattern> patterns, List<NotePattern> exclude) {
    List<NoteName> names = new ArrayList<>(patterns.size());
    for (NotePattern pattern : patterns) {
      if (!pattern.isExact()) {
        return null;
      }
      if (excluding(exclude, pattern.text()) == null) {
        names.add(NoteName.checked(pattern.text()));
      }
    }
    return List.copyOf(names);
  }

  /** The documented defaults: read notes.txt, project.txt, draft.txt; propose draft.txt. */
  public static Policy defaults() {
    return of(
        List.of("notes.txt", "project.txt", "draft.txt"),
        List.of("draft.txt"),
        DEFAULT_MAX_NOTE_BYTES,
        DEFAULT_MAX_CALLS);
  }

  /**
   * Builds a policy without exclusions.
   *
   * @throws IllegalArgumentException naming the first bad value
   */
  public static Policy of(
      List<String> readable, List<String> proposable, int maxNoteBytes, int maxCalls) {
    return of(readable, List.of(), proposable, maxNoteBytes, maxCalls);
  }

  /**
   * Builds a policy from configured names and patterns.
   *
   * @throws IllegalArgumentException naming the first bad value
   */
  public static Policy of(
      List<String> readable,
      List<String> exclude,
      List<String> proposable,
      int maxNoteBytes,
      int maxCalls) {
    return new Policy(
        patterns(readable, "readable"),
        patterns(exclude, "exclude"),
        patterns(proposable, "proposable"),
        maxNoteBytes,
        maxCalls);
  }

  private static List<NotePattern> patterns(List<String> values, String list) {
    List<NotePattern> patterns = new ArrayList<>(values.size());
    Set<String> seen = new HashSet<>();
    for (String value : values) {
      if (!seen.add(value)) {
        throw new IllegalArgumentException(list + " lists " + Quote.of(value) + " twice");
      }
      patterns.add(NotePattern.parse(value));
    }
    return patterns;
  }

  /** The same policy with another call budget (the {@code -max-calls} flag). */
  public Policy withMaxCalls(int calls) {
    return new Policy(readable, exclude, proposable, maxNoteBytes, calls, search);
  }

  /**
   * The same policy with {@code search_notes} offered or not: off in the built-in default (its
   * tools stay exactly three), on for a policy file unless it says {@code "search": false}.
   */
  public Policy withSearch(boolean offered) {
    return new Policy(readable, exclude, proposable, maxNoteBytes, maxCalls, offered);
  }

  /** Whether {@code search_notes} is offered. */
  public boolean search() {
    return search;
  }

  /** The {@code readable} entries, as written. */
  public List<String> readable() {
    return texts(readable);
  }

  /** The {@code exclude} entries, as written. */
  public List<String> exclude() {
    return texts(exclude);
  }

  /** The {@code proposable} entries, as written. */
  public List<String> proposable() {
    return texts(proposable);
  }

  private static List<String> texts(List<NotePattern> patterns) {
    List<String> texts = new ArrayList<>(patterns.size());
    for (NotePattern pattern : patterns) {
      texts.add(pattern.text());
    }
    return texts;
  }

  public int maxNoteBytes() {
    return maxNoteBytes;
  }

  public int maxCalls() {
    return maxCalls;
  }

  /** Whether {@code readable} names its notes one by one (no {@code *} or {@code ?} in it). */
  public boolean namesNotes() {
    return named != null;
  }

  /** The readable notes by name, in the policy's order, less the excluded; null unless named. */
  List<NoteName> named() {
    return named;
  }

  /** The proposable notes by name, in the policy's order; null if a pattern is among them. */
  List<NoteName> namedProposable() {
    return namedProposable;
  }

  /** Whether refusals and schemas name every readable note (the default's words). */
  boolean listsReadable() {
    return named != null && named.size() <= MAX_LISTED;
  }

  /** Whether refusals and schemas name every proposable note. */
  boolean listsProposable() {
    return namedProposable != null && namedProposable.size() <= MAX_LISTED;
  }

  boolean offersProposals() {
    return !proposable.isEmpty();
  }

  /** The readable name that equals {@code candidate} exactly, or null (named policies). */
  NoteName readableNamed(String candidate) {
    return find(named, candidate);
  }

  /** The proposable name that equals {@code candidate} exactly, or null (named proposable). */
  NoteName proposableNamed(String candidate) {
    return find(namedProposable, candidate);
  }

  private static NoteName find(List<NoteName> names, String candidate) {
    if (names != null) {
      for (NoteName name : names) {
        if (name.value().equals(candidate)) {
          return name;
        }
      }
    }
    return null;
  }

  /**
   * Why the policy does not let {@code path} (a path that follows the name rules) be read, in the
   * words of a refusal, or null when it does.
   */
  String readRefusal(String path) {
    return refusal(readable, "readable", path);
  }

  /** Why the policy does not let {@code path} (following the name rules) be proposed, or null. */
  String proposeRefusal(String path) {
    return refusal(proposable, "proposable", path);
  }

  private String refusal(List<NotePattern> allowed, String list, String path) {
    if (matching(allowed, path) == null) {
      return "path "
          + Quote.of(path)
          + " is not allowed by the policy: it matches none of its "
          + list
          + " names and patterns";
    }
    NotePattern excluded = excluding(exclude, path);
    if (excluded != null) {
      return "path "
          + Quote.of(path)
          + " is excluded by the policy (exclude "
          + Quote.of(excluded.text())
          + ")";
    }
    return null;
  }

  private static NotePattern matching(List<NotePattern> patterns, String path) {
    for (NotePattern pattern : patterns) {
      if (pattern.matches(path)) {
        return pattern;
      }
    }
    return null;
  }

  /** The exclude entry that matches {@code path} or one of its folders, or null. */
  private static NotePattern excluding(List<NotePattern> exclude, String path) {
    for (NotePattern pattern : exclude) {
      if (pattern.matchesOrContains(path)) {
        return pattern;
      }
    }
    return null;
  }

  /** Where the readable and exclude patterns stand at the workspace's root. */
  Reach reach() {
    return new Reach(this, NotePattern.start(readable), NotePattern.start(exclude));
  }

  /**
   * What the policy can still let be read below one folder: the catalog enters a folder only while
   * some readable pattern can go on below it and no exclude pattern has matched it. Immutable.
   */
  static final class Reach {
    private final Policy policy;
    private final int[] readable;
    private final int[] exclude;

    private Reach(Policy policy, int[] readable, int[] exclude) {
      this.policy = policy;
      this.readable = readable;
      this.exclude = exclude;
    }

    /**
     * Where the patterns stand inside the sub-folder {@code name}, or null when the catalog need
     * not enter it: nothing readable can lie below it, or it is excluded.
     */
    Reach enter(String name) {
      int[] reads = NotePattern.enter(policy.readable, readable, name);
      if (!NotePattern.alive(policy.readable, reads)) {
        return null;
      }
      int[] excludes = NotePattern.enter(policy.exclude, exclude, name);
      if (NotePattern.ended(policy.exclude, excludes)) {
        return null;
      }
      return new Reach(policy, reads, excludes);
    }

    /** Whether the file {@code name} in this folder is readable (matched, and not excluded). */
    boolean reads(String name) {
      return NotePattern.endsWith(policy.readable, readable, name)
          && !NotePattern.endsWith(policy.exclude, exclude, name);
    }
  }
}

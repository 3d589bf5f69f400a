package notesmcp.policy.rules;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import notesmcp.text.Quote;

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

  /** The most proposals {@code maxPending} may allow to wait at once. */
  public static final int MAX_PENDING = 10_000;

  /** The most a note may be, whatever the policy file says. */
  public static final int MAX_NOTE_BYTES = 1024 * 1024;

  /** Most names a schema gives as the {@code enum} of {@code path}, and a refusal names in full. */
  static final int MAX_LISTED = 64;

  private final List<NotePattern> readable;
  private final List<NotePattern> exclude;
  private final List<NotePattern> proposable;
  private final List<NotePattern> editable;
  private final List<NoteName> named;
  private final List<NoteName> namedProposable;
  private final int maxNoteBytes;
  private final int maxCalls;
  private final boolean search;

  /** The policy file's {@code maxPending}, or 0 when it gave none (today's rule holds). */
  private final int maxPending;

  private Policy(
      List<NotePattern> readable,
      List<NotePattern> exclude,
      List<NotePattern> proposable,
      List<NotePattern> editable,
      int maxNoteBytes,
      int maxCalls,
      int maxPending) {
    this(readable, exclude, proposable, editable, maxNoteBytes, maxCalls, maxPending, false);
  }

  private Policy(
      List<NotePattern> readable,
      List<NotePattern> exclude,
      List<NotePattern> proposable,
      List<NotePattern> editable,
      int maxNoteBytes,
      int maxCalls,
      int maxPending,
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
    if (maxPending < 0 || maxPending > MAX_PENDING) {
      throw new IllegalArgumentException(
          "maxPending must be 1.." + MAX_PENDING + ", not " + maxPending);
    }
    this.readable = List.copyOf(readable);
    this.exclude = List.copyOf(exclude);
    this.proposable = List.copyOf(proposable);
    this.editable = List.copyOf(editable);
    this.named = exactNames(readable, exclude);
    if (named != null && named.isEmpty()) {
      throw new IllegalArgumentException("exclude leaves no readable note");
    }
    this.namedProposable = exactNames(proposable, exclude);
    this.maxNoteBytes = maxNoteBytes;
    this.maxCalls = maxCalls;
    this.maxPending = maxPending;
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
    return of(readable, exclude, proposable, List.of(), maxNoteBytes, maxCalls, 0);
  }

  /**
   * Builds a policy that may also let notes be edited ({@code editable}) and more proposals wait
   * ({@code maxPending}, 0 for "not given": today's rule).
   *
   * @throws IllegalArgumentException naming the first bad value
   */
  public static Policy of(
      List<String> readable,
      List<String> exclude,
      List<String> proposable,
      List<String> editable,
      int maxNoteBytes,
      int maxCalls,
      int maxPending) {
    return new Policy(
        patterns(readable, "readable"),
        patterns(exclude, "exclude"),
        patterns(proposable, "proposable"),
        patterns(editable, "editable"),
        maxNoteBytes,
        maxCalls,
        maxPending);
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
    return new Policy(
        readable, exclude, proposable, editable, maxNoteBytes, calls, maxPending, search);
  }

  /**
   * The same policy with {@code search_notes} offered or not: off in the built-in default (its
   * tools stay exactly three), on for a policy file unless it says {@code "search": false}.
   */
  public Policy withSearch(boolean offered) {
    return new Policy(
        readable, exclude, proposable, editable, maxNoteBytes, maxCalls, maxPending, offered);
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

  /** The {@code editable} entries, as written. */
  public List<String> editable() {
    return texts(editable);
  }

  /**
   * How many proposals may wait at once, at most one per note (docs/approvals.md): 1 unless the
   * policy file says more.
   */
  public int maxPending() {
    return maxPending == 0 ? 1 : maxPending;
  }

  /**
   * Whether the policy file gave {@code maxPending}: only then does it bound a proposals folder,
   * which without it keeps its own rule (one pending proposal per note, however many notes).
   */
  public boolean boundsPendingInFolder() {
    return maxPending != 0;
  }

  /** Whether some note may be edited: then propose_edit and proposal_status are offered. */
  public boolean offersEdits() {
    return !editable.isEmpty();
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
  public List<NoteName> named() {
    return named;
  }

  /** The proposable notes by name, in the policy's order; null if a pattern is among them. */
  public List<NoteName> namedProposable() {
    return namedProposable;
  }

  /** Whether refusals and schemas name every readable note (the default's words). */
  public boolean listsReadable() {
    return named != null && named.size() <= MAX_LISTED;
  }

  /** Whether refusals and schemas name every proposable note. */
  public boolean listsProposable() {
    return namedProposable != null && namedProposable.size() <= MAX_LISTED;
  }

  public boolean offersProposals() {
    return !proposable.isEmpty();
  }

  /** The readable name that equals {@code candidate} exactly, or null (named policies). */
  public NoteName readableNamed(String candidate) {
    return find(named, candidate);
  }

  /** The proposable name that equals {@code candidate} exactly, or null (named proposable). */
  public NoteName proposableNamed(String candidate) {
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
  public String readRefusal(String path) {
    return refusal(readable, "readable", path);
  }

  /** Why the policy does not let {@code path} (following the name rules) be edited, or null. */
  public String editRefusal(String path) {
    String unreadable = readRefusal(path);
    return unreadable != null ? unreadable : refusal(editable, "editable", path);
  }

  /** Whether {@code path} (following the name rules) may be edited: readable and editable. */
  public boolean edits(String path) {
    return offersEdits() && editRefusal(path) == null;
  }

  /** Why the policy does not let {@code path} (following the name rules) be proposed, or null. */
  public String proposeRefusal(String path) {
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
  public Reach reach() {
    return new Reach(this, NotePattern.start(readable), NotePattern.start(exclude));
  }

  /**
   * What the policy can still let be read below one folder: the catalog enters a folder only while
   * some readable pattern can go on below it and no exclude pattern has matched it. Immutable.
   */
  public static final class Reach {
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
    public Reach enter(String name) {
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
    public boolean reads(String name) {
      return NotePattern.endsWith(policy.readable, readable, name)
          && !NotePattern.endsWith(policy.exclude, exclude, name);
    }
  }
}

package notesmcp.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the notes policy allows: which notes may be read, which may be proposed, how large a note
 * may be, and how many tool calls one server process may dispatch (CONTRACT §3, §4).
 *
 * <p>Immutable. The defaults are the contract's; a policy file ({@link PolicyFile}) or the {@code
 * -max-calls} flag may change them before the server starts, never afterwards.
 */
public final class Policy {
  /** CONTRACT §5: "tool arguments object: 16 KiB as received". Not configurable. */
  public static final int MAX_ARGUMENT_BYTES = 16 * 1024;

  public static final int DEFAULT_MAX_NOTE_BYTES = 2048;
  public static final int DEFAULT_MAX_CALLS = 16;

  private final List<NoteName> readable;
  private final List<NoteName> proposable;
  private final int maxNoteBytes;
  private final int maxCalls;
  private final boolean search;

  private Policy(
      List<NoteName> readable, List<NoteName> proposable, int maxNoteBytes, int maxCalls) {
    this(readable, proposable, maxNoteBytes, maxCalls, false);
  }

  private Policy(
      List<NoteName> readable,
      List<NoteName> proposable,
      int maxNoteBytes,
      int maxCalls,
      boolean search) {
    if (readable.isEmpty()) {
      throw new IllegalArgumentException("readable must name at least one note");
    }
    if (maxNoteBytes < 1 || maxNoteBytes > 1024 * 1024) {
      throw new IllegalArgumentException("maxNoteBytes must be 1..1048576, not " + maxNoteBytes);
    }
    if (maxCalls < 0) {
      throw new IllegalArgumentException("maxCalls must be >= 0, not " + maxCalls);
    }
    this.readable = List.copyOf(readable);
    this.proposable = List.copyOf(proposable);
    this.maxNoteBytes = maxNoteBytes;
    this.maxCalls = maxCalls;
    this.search = search;
  }

  /** The contract's defaults: read notes.txt, project.txt, draft.txt; propose draft.txt. */
  public static Policy defaults() {
    return of(
        List.of("notes.txt", "project.txt", "draft.txt"),
        List.of("draft.txt"),
        DEFAULT_MAX_NOTE_BYTES,
        DEFAULT_MAX_CALLS);
  }

  /**
   * Builds a policy from configured names.
   *
   * @throws IllegalArgumentException naming the first bad value
   */
  public static Policy of(
      List<String> readable, List<String> proposable, int maxNoteBytes, int maxCalls) {
    return new Policy(
        names(readable, "readable"), names(proposable, "proposable"), maxNoteBytes, maxCalls);
  }

  private static List<NoteName> names(List<String> values, String list) {
    List<NoteName> names = new ArrayList<>(values.size());
    for (String value : values) {
      NoteName name = NoteName.configured(value);
      if (names.contains(name)) {
        throw new IllegalArgumentException(list + " lists " + Quote.of(value) + " twice");
      }
      names.add(name);
    }
    return names;
  }

  /** The same policy with another call budget (the {@code -max-calls} flag). */
  public Policy withMaxCalls(int calls) {
    return new Policy(readable, proposable, maxNoteBytes, calls, search);
  }

  /**
   * The same policy with {@code search_notes} offered or not (the policy file's {@code "search"};
   * off by default, so the default tools stay exactly three).
   */
  public Policy withSearch(boolean offered) {
    return new Policy(readable, proposable, maxNoteBytes, maxCalls, offered);
  }

  /** Whether {@code search_notes} is offered. */
  public boolean search() {
    return search;
  }

  public List<NoteName> readable() {
    return readable;
  }

  public List<NoteName> proposable() {
    return proposable;
  }

  public int maxNoteBytes() {
    return maxNoteBytes;
  }

  public int maxCalls() {
    return maxCalls;
  }

  /** The readable name that equals {@code candidate} exactly, if there is one. */
  Optional<NoteName> readableNamed(String candidate) {
    return find(readable, candidate);
  }

  /** The proposable name that equals {@code candidate} exactly, if there is one. */
  Optional<NoteName> proposableNamed(String candidate) {
    return find(proposable, candidate);
  }

  private static Optional<NoteName> find(List<NoteName> names, String candidate) {
    for (NoteName name : names) {
      if (name.value().equals(candidate)) {
        return Optional.of(name);
      }
    }
    return Optional.empty();
  }
}

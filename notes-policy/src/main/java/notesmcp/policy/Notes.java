package notesmcp.policy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * The three note tools, {@code list_notes}, {@code read_note} and {@code propose_note}, with every
 * refusal of CONTRACT §3, behind one entry point: {@link #execute}.
 *
 * <p>Lock rule: one lock, this object's monitor, is held for the whole of each call, from the
 * cancellation check through the budget, the file access and the proposal. Notes are at most a few
 * KiB, so a call holds it for microseconds, and two proposals can never race. Any thread may call;
 * nothing else is shared.
 *
 * <p>Proposals are kept in memory (at most one pending per process, discarded on exit), or, when
 * built with a {@link ProposalDirectory}, durably in that folder (at most one pending per
 * destination there, across restarts). The folder's lock is taken inside this object's, never the
 * other way round.
 *
 * <p>This view can list, read and propose. It cannot approve or write a note: nothing reachable
 * from a tool call can. Only {@link Approvals}, which no tool holds, commits.
 */
public final class Notes {
  public static final String LIST_NOTES = "list_notes";
  public static final String READ_NOTE = "read_note";
  public static final String PROPOSE_NOTE = "propose_note";
  public static final String SEARCH_NOTES = SearchTool.NAME;

  private static final Runnable NOTHING =
      new Runnable() {
        @Override
        public void run() {}
      };

  private final Policy policy;
  private final Workspace workspace;
  private final Clock clock;
  private final List<ToolDefinition> tools;
  private final ProposalDirectory directory;
  private final SearchTool search;

  // Guarded by this.
  private int calls;
  private Proposal pending;

  /** Notes whose proposals live in memory only (CONTRACT §3). */
  public Notes(Policy policy, Workspace workspace, Clock clock) {
    this(policy, workspace, clock, null);
  }

  /** Notes whose proposals are kept in {@code directory}, or in memory when it is null. */
  public Notes(Policy policy, Workspace workspace, Clock clock, ProposalDirectory directory) {
    this(policy, workspace, clock, directory, null);
  }

  private Notes(
      Policy policy,
      Workspace workspace,
      Clock clock,
      ProposalDirectory directory,
      NoteSearch.Factory search) {
    this.policy = policy;
    this.workspace = workspace;
    this.clock = clock;
    this.directory = directory;
    this.search = search == null ? null : new SearchTool(search, policy, workspace);
    List<ToolDefinition> tools = new ArrayList<>(ToolSchemas.of(policy));
    if (search != null) {
      tools.add(SearchTool.definition());
    }
    this.tools = List.copyOf(tools);
  }

  /**
   * These notes with {@code search_notes} too, its engine made by {@code factory} on the first
   * search (docs/behaviour.md, "search_notes"). Call before the first call: the budget is not
   * shared with this object.
   */
  public Notes withSearch(NoteSearch.Factory factory) {
    return new Notes(policy, workspace, clock, directory, factory);
  }

  /** The tools this policy offers, in a fixed order, with schemas generated from the policy. */
  public List<ToolDefinition> tools() {
    return tools;
  }

  /** Whether {@code name} is one of {@link #tools()}. */
  public boolean has(String name) {
    for (ToolDefinition tool : tools) {
      if (tool.name().equals(name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The proposal waiting in memory for approval, if any (for the server's log, never for a client);
   * always null when proposals are kept in a folder.
   */
  public synchronized Proposal pending() {
    return pending;
  }

  /** Runs one tool call for a client that gave no identity; see the four-argument form. */
  public Outcome execute(String tool, String rawArguments, BooleanSupplier cancelled) {
    return execute(tool, rawArguments, null, cancelled);
  }

  /**
   * Runs one tool call.
   *
   * @param tool one of {@link #tools()}
   * @param rawArguments the arguments object exactly as received, or {@code null} when omitted
   * @param requester the client's self-reported identity, or null; kept with a proposal, unverified
   * @param cancelled checked under the lock before anything runs or counts
   * @throws CancellationException if {@code cancelled} was already true: nothing ran or counted
   * @throws IllegalArgumentException if {@code tool} is not one of {@link #tools()}
   */
  public Outcome execute(
      String tool, String rawArguments, Requester requester, BooleanSupplier cancelled) {
    if (!has(tool)) {
      throw new IllegalArgumentException("unknown tool " + Quote.of(tool));
    }
    if (tool.equals(SEARCH_NOTES)) {
      // Outside the lock: a first search builds an index for seconds, and must not hold up the
      // other tools. The budget is still counted under it.
      Outcome spent = admit(tool, cancelled);
      if (spent != null) {
        return spent;
      }
      try {
        return search.search(Arguments.decode(rawArguments));
      } catch (Arguments.Rejected rejected) {
        return new Outcome.Refusal(rejected.getMessage());
      }
    }
    return executeLocked(tool, rawArguments, requester, cancelled);
  }

  /** Counts a call against the budget; a refusal when it is spent, else null. */
  private synchronized Outcome admit(String tool, BooleanSupplier cancelled) {
    if (cancelled.getAsBoolean()) {
      throw new CancellationException("cancelled before " + tool + " ran");
    }
    if (calls >= policy.maxCalls()) {
      return new Outcome.Refusal(
          "call budget spent: this server process dispatches at most "
              + policy.maxCalls()
              + " tool calls; start a new server process to continue");
    }
    calls++;
    return null;
  }

  private synchronized Outcome executeLocked(
      String tool, String rawArguments, Requester requester, BooleanSupplier cancelled) {
    if (cancelled.getAsBoolean()) {
      throw new CancellationException("cancelled before " + tool + " ran");
    }
    if (calls >= policy.maxCalls()) {
      return new Outcome.Refusal(
          "call budget spent: this server process dispatches at most "
              + policy.maxCalls()
              + " tool calls; start a new server process to continue");
    }
    calls++;
    try {
      Arguments arguments = Arguments.decode(rawArguments);
      switch (tool) {
        case LIST_NOTES:
          return list(arguments);
        case READ_NOTE:
          return read(arguments);
        case PROPOSE_NOTE:
          return propose(arguments, requester);
        default:
          throw new AssertionError(tool);
      }
    } catch (Arguments.Rejected rejected) {
      return new Outcome.Refusal(rejected.getMessage());
    }
  }

  private Outcome list(Arguments arguments) throws Arguments.Rejected {
    arguments.allowOnly(LIST_NOTES, Set.of());
    List<String> present = new ArrayList<>();
    for (NoteName name : policy.readable()) {
      if (workspace.isRegularFile(name)) {
        present.add(name.value());
      }
    }
    return new Outcome.Answer(JsonText.array("notes", present));
  }

  private Outcome read(Arguments arguments) throws Arguments.Rejected {
    arguments.allowOnly(READ_NOTE, Set.of("path"));
    String path = arguments.string("path");
    NoteName name = policy.readableNamed(path).orElse(null);
    if (name == null) {
      throw notAllowed(path, policy.readable());
    }
    Workspace.Read read = workspace.read(name, policy.maxNoteBytes());
    if (read instanceof Workspace.Unreadable) {
      return new Outcome.Refusal(((Workspace.Unreadable) read).reason());
    }
    String content = ((Workspace.Text) read).content();
    return new Outcome.Answer(JsonText.object("path", name.value(), "content", content));
  }

  private Outcome propose(Arguments arguments, Requester requester) throws Arguments.Rejected {
    arguments.allowOnly(PROPOSE_NOTE, Set.of("path", "content"));
    String path = arguments.string("path");
    String content = arguments.string("content");
    NoteName name = policy.proposableNamed(path).orElse(null);
    if (name == null) {
      throw notAllowed(path, policy.proposable());
    }
    String problem = contentProblem(content);
    if (problem != null) {
      return new Outcome.Refusal(problem);
    }
    Proposal proposal =
        new Proposal(UUID.randomUUID().toString(), name, content, clock.instant(), requester);
    return directory == null ? keepInMemory(proposal) : keepInDirectory(proposal);
  }

  private Outcome keepInMemory(Proposal proposal) {
    if (pending != null) {
      return new Outcome.Refusal(
          "a proposal is already pending ("
              + pending.id()
              + " for "
              + pending.path()
              + "); this server process holds at most one pending proposal");
    }
    if (workspace.isOccupied(proposal.path())) {
      return occupied(proposal.path());
    }
    pending = proposal;
    return accepted(proposal);
  }

  /**
   * "A killed server loses no accepted proposal" (approvals issue): the record is on disk, synced,
   * before the answer exists.
   */
  private Outcome keepInDirectory(Proposal proposal) {
    // Anonymous classes, not lambdas: this class is on the server's start path, which links no
    // invokedynamic (see StartPathIT).
    try {
      return directory.locked(
          NOTHING,
          new ProposalDirectory.Locked<Outcome>() {
            @Override
            public Outcome run() throws IOException {
              Optional<String> blocking = directory.blocking(proposal.path());
              if (blocking.isPresent()) {
                return new Outcome.Refusal(blocking.get());
              }
              if (workspace.isOccupied(proposal.path())) {
                return occupied(proposal.path());
              }
              directory.store(proposal);
              return accepted(proposal);
            }
          });
    } catch (IOException e) {
      return new Outcome.Refusal(
          "the proposal could not be stored for review ("
              + FileProblem.describe(e)
              + "); nothing is pending");
    }
  }

  private static Outcome occupied(NoteName name) {
    return new Outcome.Refusal(
        name + " already exists; a proposal may only create a new note," + " never replace one");
  }

  private static Outcome accepted(Proposal proposal) {
    return new Outcome.Answer(
        JsonText.object(
            "status",
            "pending_approval",
            "proposal_id",
            proposal.id(),
            "path",
            proposal.path().value()));
  }

  /** Why {@code content} may not be proposed, or {@code null}: checked on its UTF-8 bytes. */
  private String contentProblem(String content) {
    for (int i = 0; i < content.length(); i++) {
      char c = content.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < content.length()
          && Character.isLowSurrogate(content.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return "content is not valid UTF-8: unpaired surrogate \\u"
            + String.format("%04x", (int) c)
            + " at character "
            + i;
      }
    }
    int bytes = content.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > policy.maxNoteBytes()) {
      return "content is "
          + bytes
          + " bytes of UTF-8; the limit is "
          + policy.maxNoteBytes()
          + " bytes";
    }
    return null;
  }

  private static Arguments.Rejected notAllowed(String path, List<NoteName> allowed) {
    List<String> names = new ArrayList<>();
    for (NoteName name : allowed) {
      names.add(name.value());
    }
    return new Arguments.Rejected(
        "path "
            + Quote.of(path)
            + " is not allowed: it must be exactly"
            + " one of "
            + String.join(", ", names));
  }
}

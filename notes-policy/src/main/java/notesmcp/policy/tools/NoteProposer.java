package notesmcp.policy.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import notesmcp.files.FileProblem;
import notesmcp.policy.proposals.Authenticated;
import notesmcp.policy.proposals.Proposal;
import notesmcp.policy.proposals.ProposalDirectory;
import notesmcp.policy.proposals.Requester;
import notesmcp.policy.rules.NoteName;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.vault.Workspace;
import notesmcp.text.Quote;

/**
 * {@code propose_note} and {@code propose_edit}: a proposal checked against the policy and the
 * workspace, then kept in memory (at most {@code maxPending} per process, discarded on exit) or,
 * with a {@link ProposalDirectory}, durably in that folder (at most one pending per destination
 * there, across restarts). It writes proposal records, never a note.
 *
 * <p>Lock rule: this object's monitor is held for a proposal's whole check-and-store (the workspace
 * looked at, the record written and synced), so two proposals never race; then the proposals
 * folder's lock, inside it. Reads and listings never take it. Any thread.
 */
final class NoteProposer {
  private static final Runnable NOTHING =
      new Runnable() {
        @Override
        public void run() {}
      };

  private final Policy policy;
  private final Workspace workspace;
  private final Clock clock;
  private final ProposalDirectory directory;
  private final NoteReader reader;

  // Guarded by this: the proposals kept in memory, all pending (nothing in this process approves).
  private final List<Proposal> kept = new ArrayList<>();

  /** Told of each proposal accepted, once it is kept; null for nobody. */
  private volatile NoteAccess.Arrivals arrivals;

  NoteProposer(
      Policy policy,
      Workspace workspace,
      Clock clock,
      ProposalDirectory directory,
      NoteReader reader) {
    this.policy = policy;
    this.workspace = workspace;
    this.clock = clock;
    this.directory = directory;
    this.reader = reader;
  }

  void tell(NoteAccess.Arrivals arrivals) {
    this.arrivals = arrivals;
  }

  /**
   * Tells {@link #arrivals} of {@code proposal} when {@code outcome} accepted it: after it is kept
   * and every lock is let go, on the calling thread (the listener must not wait).
   */
  private Outcome told(Outcome outcome, Proposal proposal) {
    NoteAccess.Arrivals listener = arrivals;
    if (listener != null && outcome instanceof Outcome.Answer) {
      listener.proposed(proposal, directory != null);
    }
    return outcome;
  }

  /** The first proposal waiting in memory, or null; always null with a proposals folder. */
  synchronized Proposal pending() {
    return kept.isEmpty() ? null : kept.get(0);
  }

  /** The proposal of {@code id} kept in memory, or null. */
  synchronized Proposal kept(String id) {
    for (Proposal proposal : kept) {
      if (proposal.id().equals(id)) {
        return proposal;
      }
    }
    return null;
  }

  Outcome propose(Arguments arguments, Requester requester, Authenticated who)
      throws Arguments.Rejected {
    arguments.allowOnly(NoteAccess.PROPOSE_NOTE, Set.of("path", "content"));
    String path = arguments.string("path");
    String content = arguments.string("content");
    NoteName name = proposable(path);
    String problem = contentProblem(content);
    if (problem != null) {
      return new Outcome.Refusal(problem);
    }
    Proposal proposal =
        new Proposal(
            UUID.randomUUID().toString(),
            name,
            content,
            clock.instant(),
            requester,
            null,
            Authenticated.nameOf(who));
    Outcome outcome;
    synchronized (this) {
      outcome = directory == null ? keepInMemory(proposal) : keepInDirectory(proposal);
    }
    return told(outcome, proposal);
  }

  /** The destination a client's {@code path} names, if the policy lets it be proposed. */
  private NoteName proposable(String path) throws Arguments.Rejected {
    List<NoteName> named = policy.namedProposable();
    if (named != null) {
      NoteName name = policy.proposableNamed(path);
      if (name != null) {
        return name;
      }
      if (policy.listsProposable()) {
        throw NoteReader.notAllowed(path, named);
      }
      throw new Arguments.Rejected(
          "path "
              + Quote.of(path)
              + " is not allowed by the policy: it is not one of the "
              + named.size()
              + " notes it lets be proposed");
    }
    NoteReader.rejectNonName(path);
    String refusal = policy.proposeRefusal(path);
    if (refusal != null) {
      throw new Arguments.Rejected(refusal);
    }
    // The client chooses a new note's name, within what the policy allows: it has passed the
    // name rules and the patterns, and review checks it again as a name before it creates it.
    return NoteName.checked(path);
  }

  private Outcome keepInMemory(Proposal proposal) {
    String full = inMemoryBlocking(proposal);
    if (full != null) {
      return new Outcome.Refusal(full);
    }
    String taken = workspace.destinationProblem(proposal.path());
    if (taken != null) {
      return new Outcome.Refusal(taken);
    }
    kept.add(proposal);
    return accepted(proposal);
  }

  /** Why no more may wait in memory: one per process by default, at most one per note. */
  private String inMemoryBlocking(Proposal proposal) {
    for (Proposal waiting : kept) {
      if (waiting.path().equals(proposal.path()) && policy.maxPending() > 1) {
        return "a proposal for "
            + waiting.path()
            + " is already pending"
            + ownId(waiting, proposal)
            + "; at most one proposal per note may wait";
      }
    }
    if (kept.size() >= policy.maxPending()) {
      Proposal first = kept.get(0);
      boolean own = Objects.equals(first.authenticated(), proposal.authenticated());
      return policy.maxPending() == 1
          ? "a proposal is already pending"
              + (own ? " (" + first.id() + " for " + first.path() + ")" : "")
              + "; this server process holds at most one pending proposal"
          : "this server process holds at most "
              + policy.maxPending()
              + " pending proposals (maxPending), and "
              + kept.size()
              + " are pending";
    }
    return null;
  }

  /**
   * {@code propose_edit}: a change to a note that exists, bound to the text it was made against
   * ({@code base_sha256}, the {@code sha256} that read_note gave). Writes nothing.
   */
  /** " (ID)" when {@code waiting} is the same caller's as {@code asking}: nobody sees another's. */
  private static String ownId(Proposal waiting, Proposal asking) {
    return Objects.equals(waiting.authenticated(), asking.authenticated())
        ? " (" + waiting.id() + ")"
        : "";
  }

  Outcome proposeEdit(Arguments arguments, Requester requester, Authenticated who)
      throws Arguments.Rejected {
    arguments.allowOnly(
        NoteAccess.PROPOSE_EDIT, Set.of("path", "base_sha256", "content", "append"));
    String path = arguments.string("path");
    String baseSha256 = arguments.string("base_sha256");
    String content = arguments.optionalString("content");
    String append = arguments.optionalString("append");
    if ((content == null) == (append == null)) {
      throw new Arguments.Rejected(
          "propose_edit takes exactly one of \"content\" (the whole new text) and \"append\""
              + " (text to add at the end)");
    }
    NoteName name = reader.readable(path);
    String refusal = policy.editRefusal(name.value());
    if (refusal != null) {
      throw new Arguments.Rejected(refusal);
    }
    byte[] bytes;
    try {
      bytes = reader.text(name);
    } catch (NoteReader.NotText notText) {
      return new Outcome.Refusal(notText.getMessage());
    }
    String current = Proposal.sha256(bytes);
    if (!current.equals(baseSha256)) {
      return new Outcome.Refusal(
          name
              + " has changed: its text now has SHA-256 "
              + current
              + ", not the base_sha256 given; read it again and propose against what it holds"
              + " now");
    }
    String base = new String(bytes, StandardCharsets.UTF_8);
    String text = content != null ? content : base + append;
    String problem = contentProblem(text);
    if (problem != null) {
      return new Outcome.Refusal(
          content != null ? problem : "with the appended text, the note's " + problem);
    }
    if (text.equals(base)) {
      return new Outcome.Refusal(
          "the new text is the note's current text; there is nothing to change");
    }
    Proposal proposal =
        new Proposal(
            UUID.randomUUID().toString(),
            name,
            text,
            clock.instant(),
            requester,
            base,
            Authenticated.nameOf(who));
    Outcome outcome;
    synchronized (this) {
      if (directory == null) {
        String full = inMemoryBlocking(proposal);
        if (full != null) {
          return new Outcome.Refusal(full);
        }
        kept.add(proposal);
        outcome = accepted(proposal);
      } else {
        outcome = keepInDirectory(proposal);
      }
    }
    return told(outcome, proposal);
  }

  /** The bound on pending proposals in a folder: the policy file's maxPending, or none. */
  private int folderBound() {
    return policy.boundsPendingInFolder() ? policy.maxPending() : 0;
  }

  /**
   * Stores a new note's or an edit's proposal. A killed server loses no accepted proposal ({@code
   * docs/approvals.md}): the record is on disk, synced, before the answer exists.
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
              Optional<String> blocking =
                  directory.blocking(proposal.path(), folderBound(), proposal.authenticated());
              if (blocking.isPresent()) {
                return new Outcome.Refusal(blocking.get());
              }
              // A new note's name must be free and its folder there; an edit's note exists.
              String taken =
                  proposal.isEdit() ? null : workspace.destinationProblem(proposal.path());
              if (taken != null) {
                return new Outcome.Refusal(taken);
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
}

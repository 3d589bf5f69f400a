package notesmcp.policy.review;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import notesmcp.files.DurableFiles;
import notesmcp.files.FileProblem;
import notesmcp.files.Folder;
import notesmcp.files.WritableFolder;
import notesmcp.policy.proposals.AuditLog;
import notesmcp.policy.proposals.Proposal;
import notesmcp.policy.proposals.ProposalDirectory;
import notesmcp.policy.proposals.ProposalDirectory.Status;
import notesmcp.policy.proposals.Recorded;
import notesmcp.policy.proposals.Recorded.Damaged;
import notesmcp.policy.proposals.Recorded.Valid;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.vault.Workspace;
import notesmcp.text.Quote;
import notesmcp.text.TerminalText;

/**
 * The trusted approval path: the only code that creates a note, and only for a proposal a person
 * approved outside MCP ({@code docs/approvals.md}). Only the review builds one, in its two faces:
 * {@code notes-mcp review} in a terminal, and the review page of the HTTP server for the signed-in
 * owner ({@code docs/review-page.md}); the MCP adapter holds a {@code NoteAccess}, which has no way
 * to reach this type, and neither has {@code /mcp}'s request handling (BordersTest).
 *
 * <p>Commit of proposal P, destination D (a name N in folder F of workspace W, F being W itself or
 * a folder below it), all under the proposals folder's lock. F is reached from W's descriptor
 * folder by folder ({@link Workspace#reach}: never a link, never across a mount point), and every
 * step below is made relative to F's descriptor, so nothing is written outside W whatever is
 * renamed meanwhile:
 *
 * <ol>
 *   <li>Check: P is pending, its record matches its SHA-256, the SHA-256 the person approved is
 *       P's, F exists and nothing is at D.
 *   <li>Write P's bytes to T = {@code F/.notes-mcp-ID.tmp}: created exclusively, {@code 0600},
 *       fsynced. (The leading dot keeps T from ever being a note name.)
 *   <li>{@code linkat(T, D)}: D appears atomically with all its bytes, or, if anything at all is at
 *       D (a dangling link too), nothing happens. fsync F.
 *   <li>Remove T; fsync F.
 *   <li>Publish P's {@code committed} marker (itself atomic and exclusive).
 * </ol>
 *
 * <p>A crash at each point, and what the next review's {@link #recover} does:
 *
 * <ul>
 *   <li>before or during 2, or before 3: no D, perhaps a T. P is pending; T is removed.
 *   <li>after 3, before 4: D holds P's bytes and shares T's inode (two links; until then {@code
 *       read_note} refuses D). P is "this proposal's note" (below): T removed, P marked committed.
 *   <li>after 4, before 5: D holds P's bytes, one link: P is marked committed.
 *   <li>during 5: the marker exists whole or not at all; if not, as above.
 * </ul>
 *
 * So a crash leaves no note and P pending, or the exact note and P committed once recovered; never
 * a partial D (it appears only as a link to a complete, synced file) and never two commits (D is
 * created exclusively, and the status check and the marker happen under one lock, so of two
 * reviewers the second sees the first's marker). D is "this proposal's note" only if it is a
 * regular file (not followed) with exactly P's bytes and one link, or two links where the other is
 * T. Anything else at D is someone else's: refused and left untouched.
 *
 * <p>Thread-safe: every decision runs inside {@link ProposalDirectory#locked}.
 */
public final class Approvals {
  /**
   * The named points of the commit, for {@code checkpoints}: see the class comment; an edit's
   * commit ({@link EditSwap}) passes the {@code edit-} points, its undo the {@code undo-} ones.
   */
  public static final List<String> CHECKPOINTS =
      List.of(
          "before-create",
          "after-temp",
          "after-link",
          "after-unlink",
          "edit-after-check",
          "edit-after-temp",
          "edit-after-exchange",
          "edit-after-verify",
          "edit-after-unlink",
          "undo-after-check",
          "undo-after-temp",
          "undo-after-exchange",
          "undo-after-verify",
          "undo-after-unlink");

  private final Workspace workspace;
  private final ProposalDirectory directory;
  private final Clock clock;
  private final PrintStream log;
  private final Consumer<String> checkpoints;

  /** The policy review was given ({@code -policy}), or null: then creations are checked by name. */
  private final Policy policy;

  private final AuditLog audit;

  /**
   * What each decision line of the audit trail says beside the OS user: empty for the terminal; the
   * page's {@code via}, session and peer ({@link #from}).
   */
  private final List<String> face;

  /** The outcome of one decision: done (exit 0), or refused with nothing changed. */
  public sealed interface Decision permits Done, Refused {
    String message();
  }

  public record Done(String message) implements Decision {}

  public record Refused(String message) implements Decision {}

  /**
   * @param log where to say that another review holds the lock
   * @param checkpoints told each {@link #CHECKPOINTS} name as the commit passes it: a seam where
   *     crash tests stop the process (from test code only); a no-op in use
   */
  public Approvals(
      Workspace workspace,
      ProposalDirectory directory,
      Clock clock,
      PrintStream log,
      Consumer<String> checkpoints) {
    this(workspace, directory, clock, log, checkpoints, null);
  }

  /**
   * @param policy the server's policy ({@code review -policy FILE}): every proposal is checked
   *     against it again before it is shown as approvable or committed; null for none given, when a
   *     new note is checked by the note-name rules only (as it always was) and no edit is
   *     approvable
   */
  public Approvals(
      Workspace workspace,
      ProposalDirectory directory,
      Clock clock,
      PrintStream log,
      Consumer<String> checkpoints,
      Policy policy) {
    this(workspace, directory, clock, log, checkpoints, policy, List.of());
  }

  private Approvals(
      Workspace workspace,
      ProposalDirectory directory,
      Clock clock,
      PrintStream log,
      Consumer<String> checkpoints,
      Policy policy,
      List<String> face) {
    this.policy = policy;
    this.audit = new AuditLog(directory, clock);
    this.workspace = workspace;
    this.directory = directory;
    this.clock = clock;
    this.log = log;
    this.checkpoints = checkpoints;
    this.face = List.copyOf(face);
  }

  /**
   * The same approvals, whose decisions the audit trail records as made through {@code face}: names
   * and values in turn, after the outcome (the review page's {@code via}, {@code session} and
   * {@code peer}: docs/review-page.md). Every rule is the same; only the lines say more.
   */
  public Approvals from(List<String> face) {
    return new Approvals(workspace, directory, clock, log, checkpoints, policy, face);
  }

  /**
   * Completes interrupted commits and clears their leftovers: "a later review run detects and
   * completes an interrupted commit" ({@code docs/approvals.md}). Returns what it did, one line
   * each.
   */
  public List<String> recover() throws IOException {
    return locked(
        () -> {
          directory.removeStaleTemporaries();
          List<String> done = new ArrayList<>();
          for (String id : directory.ids()) {
            Status status = directory.status(id);
            Recorded entry =
                status == Status.PENDING || status == Status.COMMITTED ? directory.load(id) : null;
            if (entry instanceof Valid && ((Valid) entry).proposal().isEdit()) {
              String line = recoverEdit(((Valid) entry).proposal(), status);
              if (line != null) {
                done.add(line);
              }
            } else if (entry instanceof Valid && status == Status.PENDING) {
              Proposal proposal = ((Valid) entry).proposal();
              if (holdsThisNote(proposal)) {
                finish(proposal);
                done.add("completed the interrupted commit of " + id + ": " + fileOf(proposal));
              } else {
                clearTemp(proposal);
              }
            }
          }
          return done;
        });
  }

  /** The pending proposals, oldest first, damaged records last. */
  public List<Recorded> pending() throws IOException {
    List<Recorded> pending = new ArrayList<>();
    for (String id : directory.ids()) {
      if (directory.status(id) == Status.PENDING) {
        pending.add(directory.load(id));
      }
    }
    pending.sort(
        Comparator.comparing(
                (Recorded e) ->
                    e instanceof Valid ? ((Valid) e).proposal().createdAt() : Instant.MAX)
            .thenComparing(Recorded::id));
    return pending;
  }

  /**
   * The committed edits that are not undone, newest first, at most {@code max}: what {@link #undo}
   * can be asked for. Damaged records are left out (an undo refuses them).
   */
  public List<Proposal> undoable(int max) throws IOException {
    List<Proposal> found = new ArrayList<>();
    for (String id : directory.ids()) {
      if (directory.status(id) == Status.COMMITTED) {
        Recorded entry = directory.load(id);
        if (entry instanceof Valid && ((Valid) entry).proposal().isEdit()) {
          found.add(((Valid) entry).proposal());
        }
      }
    }
    found.sort(Comparator.comparing(Proposal::createdAt).thenComparing(Proposal::id).reversed());
    return found.size() > max ? List.copyOf(found.subList(0, max)) : found;
  }

  /** The status of proposal {@code id}, or null when the folder holds no such proposal. */
  public Status status(String id) throws IOException {
    return directory.statusOf(id);
  }

  /**
   * Why the policy review was given does not allow {@code proposal} now, or null when it does (see
   * the constructor).
   */
  public String disallowed(Proposal proposal) {
    String path = proposal.path().value();
    if (proposal.isEdit()) {
      if (policy == null) {
        return "an edit is checked against the server's policy: run review with -policy FILE, the"
            + " file the server was given (the default policy lets no note be edited)";
      }
      return policy.edits(path) ? null : "the policy does not let " + path + " be edited";
    }
    if (policy == null) {
      return null;
    }
    boolean allowed =
        policy.namedProposable() != null
            ? policy.proposableNamed(path) != null
            : policy.offersProposals() && policy.proposeRefusal(path) == null;
    return allowed ? null : "the policy does not let " + path + " be proposed";
  }

  /** Where proposal {@code proposal}'s note is created. */
  public Path fileOf(Proposal proposal) {
    return workspace.fileOf(proposal.path());
  }

  /**
   * Approves proposal {@code id}, bound to its bytes: {@code sha256} must be the full SHA-256 of
   * exactly the content shown to the person (never a prefix; a wrong one refuses and leaves the
   * proposal pending).
   */
  public Decision approve(String id, String sha256) throws IOException {
    return logged("approve", id, approveUnlogged(id, sha256));
  }

  /**
   * Appends a decision to the audit trail (docs/approvals.md, "The audit trail") with the OS user
   * that made it, and returns it.
   */
  private Decision logged(String action, String id, Decision decision) {
    try {
      audit.recordDecision(
          action,
          ProposalDirectory.isId(id) ? id : "(not a proposal id)",
          (decision instanceof Done ? "done: " : "refused: ") + decision.message(),
          face);
    } catch (IOException e) {
      // The decision stands (it is on disk); the person is told the trail lacks it.
      log.println(
          "notes-mcp: the decision was made but the audit log could not be written ("
              + FileProblem.describe(e)
              + ")");
    }
    return decision;
  }

  /**
   * Prints the audit trail, each line in the visible form ({@link TerminalText#visibleLine}, at
   * most {@link AuditLog#SHOWN_CHARS} characters), and returns what its chain check found ({@link
   * AuditLog#verify}): the first line that does not carry the SHA-256 of the line before it (0 when
   * every line does), and the torn lines. Both faces of the review show the log this way.
   *
   * @throws IOException if the log cannot be read, or is not a regular file of this user's (a FIFO
   *     there is refused, never waited on)
   */
  public AuditLog.Check printLog(PrintStream out) throws IOException {
    return audit.verify(
        out,
        new UnaryOperator<String>() {
          @Override
          public String apply(String line) {
            return TerminalText.visibleLine(line, AuditLog.SHOWN_CHARS);
          }
        });
  }

  private Decision approveUnlogged(String id, String sha256) throws IOException {
    if (!ProposalDirectory.isId(id)) {
      return noSuch(id);
    }
    if (!sha256.matches("[0-9a-fA-F]{64}")) {
      return new Refused("the SHA-256 must be the full 64 hex digits; nothing changed");
    }
    return locked(() -> approveLocked(id, sha256.toLowerCase(Locale.ROOT)));
  }

  private Decision approveLocked(String id, String sha256) throws IOException {
    Recorded entry;
    try {
      entry = directory.load(id);
    } catch (NoSuchFileException e) {
      return noSuch(id);
    }
    Status status = directory.status(id);
    if (status != Status.PENDING) {
      return new Refused("proposal " + id + " is already " + status.word() + "; nothing changed");
    }
    if (entry instanceof Damaged) {
      return new Refused(
          "proposal " + id + ": " + ((Damaged) entry).problem() + "; refusing it, nothing changed");
    }
    Proposal proposal = ((Valid) entry).proposal();
    if (!proposal.sha256().equals(sha256)) {
      return new Refused(
          "the SHA-256 given is not that of proposal "
              + id
              + " ("
              + proposal.sha256()
              + "); nothing changed, it is still pending");
    }
    String disallowed = disallowed(proposal);
    if (disallowed != null) {
      return new Refused(
          disallowed
              + "; proposal "
              + id
              + " is still pending (reject it with --reject "
              + id
              + ")");
    }
    if (proposal.isEdit()) {
      return approveEdit(proposal);
    }
    if (holdsThisNote(proposal)) {
      finish(proposal);
      return new Done("completed the interrupted commit of " + id + ": " + fileOf(proposal));
    }
    String taken = workspace.destinationProblem(proposal.path());
    if (taken != null && !taken.endsWith(Workspace.EXISTS)) {
      return new Refused(
          taken + "; proposal " + id + " is still pending (reject it with --reject " + id + ")");
    }
    if (taken != null || !create(proposal)) {
      return new Refused(
          fileOf(proposal)
              + " already exists; it was left untouched and proposal "
              + id
              + " is still pending (reject it with --reject "
              + id
              + ")");
    }
    if (!holdsThisNote(proposal)) {
      // Only if someone else writes into the workspace mid-commit; never mark that committed.
      throw new IOException(fileOf(proposal) + " changed during the commit; it was not recorded");
    }
    finish(proposal);
    return new Done("created " + fileOf(proposal) + " (" + proposal.bytes().length + " bytes)");
  }

  /** Rejects proposal {@code id}: it can never be committed afterwards. */
  public Decision reject(String id) throws IOException {
    return logged("reject", id, rejectUnlogged(id));
  }

  private Decision rejectUnlogged(String id) throws IOException {
    if (!ProposalDirectory.isId(id)) {
      return noSuch(id);
    }
    return locked(
        () -> {
          Recorded entry;
          try {
            entry = directory.load(id);
          } catch (NoSuchFileException e) {
            return noSuch(id);
          }
          if (entry instanceof Valid && directory.status(id) == Status.PENDING) {
            Proposal proposal = ((Valid) entry).proposal();
            if (holdsThisNote(proposal)) {
              finish(proposal);
            }
          }
          Status status = directory.status(id);
          if (status == Status.COMMITTED) {
            return new Refused("proposal " + id + " is already committed; nothing changed");
          }
          if (status == Status.REJECTED) {
            return new Done("proposal " + id + " was already rejected");
          }
          if (status != Status.PENDING) {
            return new Refused(
                "proposal " + id + " is already " + status.word() + "; nothing changed");
          }
          directory.mark(id, Status.REJECTED, clock.instant(), sha256Of(entry));
          return new Done("rejected proposal " + id);
        });
  }

  // Edits (docs/approvals.md, "Edits"): the note is replaced by exchange, never by a plain rename.

  private Decision approveEdit(Proposal proposal) throws IOException {
    String id = proposal.id();
    EditSwap swap = EditSwap.commit(workspace, checkpoints, log, proposal);
    if (swap.recover() == EditSwap.Result.DONE || swap.holdsReplacement()) {
      directory.mark(id, Status.COMMITTED, clock.instant(), proposal.sha256());
      return new Done("completed the interrupted commit of " + id + ": " + fileOf(proposal));
    }
    EditSwap.Result result = swap.run();
    if (result == EditSwap.Result.DONE) {
      directory.mark(id, Status.COMMITTED, clock.instant(), proposal.sha256());
      return new Done(
          "changed "
              + fileOf(proposal)
              + " ("
              + proposal.baseBytes().length
              + " bytes to "
              + proposal.bytes().length
              + " bytes; undo with --undo "
              + id
              + ")");
    }
    if (result == EditSwap.Result.UNREACHABLE) {
      return new Refused(
          swap.problem()
              + "; proposal "
              + id
              + " is still pending (reject it with --reject "
              + id
              + ")");
    }
    directory.mark(id, Status.STALE, clock.instant(), proposal.sha256());
    return new Refused(
        fileOf(proposal)
            + " changed since proposal "
            + id
            + " was made (it no longer holds exactly the text the edit was made against, SHA-256 "
            + proposal.baseSha256()
            + "); it was left untouched and the proposal is now stale");
  }

  /**
   * Restores the text a committed edit replaced, by the same rules as its commit: only if the note
   * still holds exactly the edit's text.
   */
  public Decision undo(String id) throws IOException {
    return logged("undo", id, undoUnlogged(id));
  }

  private Decision undoUnlogged(String id) throws IOException {
    if (!ProposalDirectory.isId(id)) {
      return noSuch(id);
    }
    return locked(
        () -> {
          Recorded entry;
          try {
            entry = directory.load(id);
          } catch (NoSuchFileException e) {
            return noSuch(id);
          }
          if (entry instanceof Damaged) {
            return new Refused(
                "proposal " + id + ": " + ((Damaged) entry).problem() + "; nothing changed");
          }
          Proposal proposal = ((Valid) entry).proposal();
          Status status = directory.status(id);
          if (!proposal.isEdit()) {
            return new Refused(
                "proposal "
                    + id
                    + " created a new note; only an edit can be undone, nothing changed");
          }
          if (status == Status.UNDONE) {
            return new Done("proposal " + id + " was already undone");
          }
          if (status != Status.COMMITTED) {
            return new Refused(
                "proposal " + id + " is " + status.word() + ", not committed; nothing changed");
          }
          EditSwap swap = EditSwap.undo(workspace, checkpoints, log, proposal);
          if (swap.recover() == EditSwap.Result.DONE || swap.holdsReplacement()) {
            directory.mark(id, Status.UNDONE, clock.instant(), proposal.baseSha256());
            return new Done("completed the interrupted undo of " + id + ": " + fileOf(proposal));
          }
          EditSwap.Result result = swap.run();
          if (result == EditSwap.Result.DONE) {
            directory.mark(id, Status.UNDONE, clock.instant(), proposal.baseSha256());
            return new Done(
                "restored "
                    + fileOf(proposal)
                    + " to the text before proposal "
                    + id
                    + " ("
                    + proposal.baseBytes().length
                    + " bytes)");
          }
          if (result == EditSwap.Result.UNREACHABLE) {
            return new Refused(swap.problem() + "; nothing changed");
          }
          return new Refused(
              fileOf(proposal)
                  + " changed since proposal "
                  + id
                  + " was committed (it no longer holds exactly that text, SHA-256 "
                  + proposal.sha256()
                  + "); it was left untouched and nothing was undone");
        });
  }

  /** What the next review does with an edit left by a crash: one line, or null if nothing. */
  private String recoverEdit(Proposal proposal, Status status) throws IOException {
    EditSwap swap =
        status == Status.PENDING
            ? EditSwap.commit(workspace, checkpoints, log, proposal)
            : EditSwap.undo(workspace, checkpoints, log, proposal);
    EditSwap.Result result = swap.recover();
    if (result == EditSwap.Result.NOTHING && status == Status.PENDING && swap.holdsReplacement()) {
      result = EditSwap.Result.DONE; // crashed after the displaced text was removed
    }
    if (result == EditSwap.Result.DONE) {
      directory.mark(
          proposal.id(),
          status == Status.PENDING ? Status.COMMITTED : Status.UNDONE,
          clock.instant(),
          status == Status.PENDING ? proposal.sha256() : proposal.baseSha256());
      return (status == Status.PENDING
              ? "completed the interrupted commit of "
              : "completed the interrupted undo of ")
          + proposal.id()
          + ": "
          + fileOf(proposal);
    }
    if (result == EditSwap.Result.STALE) {
      return "put back what another process had written to "
          + fileOf(proposal)
          + " during the interrupted "
          + (status == Status.PENDING ? "commit" : "undo")
          + " of "
          + proposal.id();
    }
    return null;
  }

  /** Steps 2 and 3: false if something took D first (nothing of ours is left behind then). */
  private boolean create(Proposal proposal) throws IOException {
    // Every step relative to the note's folder, held by its descriptor (Workspace.reach): never
    // by path, never through a link.
    try (Workspace.Place place = workspace.reach(proposal.path().value())) {
      WritableFolder folder = WritableFolder.of(place.folder());
      String temp = tempOf(proposal);
      checkpoints.accept("before-create");
      DurableFiles.removeIfPresent(folder, temp); // left by a crash before step 3; never followed
      DurableFiles.createSynced(folder, temp, proposal.bytes());
      checkpoints.accept("after-temp");
      try {
        folder.link(temp, folder, place.name());
      } catch (FileAlreadyExistsException e) {
        folder.remove(temp);
        return false;
      }
      folder.sync();
      checkpoints.accept("after-link");
      return true;
    }
  }

  /** Steps 4 and 5, also the completion of an interrupted commit. */
  private void finish(Proposal proposal) throws IOException {
    removeTemp(proposal);
    checkpoints.accept("after-unlink");
    directory.mark(proposal.id(), Status.COMMITTED, clock.instant(), proposal.sha256());
  }

  /** Removes T, if it is there, and syncs the note's folder. */
  private void removeTemp(Proposal proposal) throws IOException {
    try (Workspace.Place place = workspace.reach(proposal.path().value())) {
      WritableFolder folder = WritableFolder.of(place.folder());
      DurableFiles.removeIfPresent(folder, tempOf(proposal));
      folder.sync();
    } catch (NoSuchFileException e) {
      // the note's folder is gone: so is T
    }
  }

  /**
   * Removes the T of a proposal that is not committed, where its folder can still be entered: a
   * folder that is gone, or is now a link or a mount point, holds no T that review could reach (and
   * nothing is ever removed through a link), so the review goes on.
   */
  private void clearTemp(Proposal proposal) throws IOException {
    try {
      removeTemp(proposal);
    } catch (Folder.NotAFolder e) {
      // not a folder to enter: nothing of ours is reached through it
    }
  }

  /** Whether D is this proposal's note: see the class comment. */
  private boolean holdsThisNote(Proposal proposal) throws IOException {
    return workspace.holdsExactly(proposal.path(), proposal.bytes(), tempOf(proposal));
  }

  /** T's name, in D's own folder. */
  private static String tempOf(Proposal proposal) {
    return ".notes-mcp-" + proposal.id() + ".tmp";
  }

  private <T> T locked(ProposalDirectory.Locked<T> work) throws IOException {
    return directory.locked(
        () -> log.println("notes-mcp: another review holds " + directory.path() + "; waiting"),
        work);
  }

  private static String sha256Of(Recorded entry) {
    return entry instanceof Valid ? ((Valid) entry).proposal().sha256() : "unknown (damaged)";
  }

  private Refused noSuch(String id) {
    return new Refused(
        "there is no proposal " + Quote.of(id) + " in " + directory.path() + "; nothing changed");
  }
}

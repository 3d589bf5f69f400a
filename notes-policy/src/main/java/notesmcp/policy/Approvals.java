package notesmcp.policy;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import notesmcp.policy.ProposalDirectory.Status;
import notesmcp.policy.Recorded.Damaged;
import notesmcp.policy.Recorded.Valid;

/**
 * The trusted approval path: the only code that creates a note, and only for a proposal a person
 * approved outside MCP ({@code docs/approvals.md}). Only {@code notes-mcp review} builds one; the
 * MCP adapter holds a {@link Notes}, which has no way to reach this type.
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
   * commit ({@link Swap}) passes the {@code edit-} points, its undo the {@code undo-} ones.
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
    this.policy = policy;
    this.audit = new AuditLog(directory, clock);
    this.workspace = workspace;
    this.directory = directory;
    this.clock = clock;
    this.log = log;
    this.checkpoints = checkpoints;
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
          (decision instanceof Done ? "done: " : "refused: ") + decision.message());
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
   * Prints the audit trail and what its chain check found ({@link AuditLog#verify}): the first line
   * that does not carry the SHA-256 of the line before it (0 when every line does), and the torn
   * lines.
   *
   * @throws IOException if the log cannot be read, or is not a regular file of this user's (a FIFO
   *     there is refused, never waited on)
   */
  public AuditLog.Check printLog(PrintStream out, java.util.function.UnaryOperator<String> shown)
      throws IOException {
    return audit.verify(out, shown);
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
    Swap swap = Swap.commit(this, proposal);
    if (swap.recover() == Swap.Result.DONE || swap.holdsReplacement()) {
      directory.mark(id, Status.COMMITTED, clock.instant(), proposal.sha256());
      return new Done("completed the interrupted commit of " + id + ": " + fileOf(proposal));
    }
    Swap.Result result = swap.run();
    if (result == Swap.Result.DONE) {
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
    if (result == Swap.Result.UNREACHABLE) {
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
          Swap swap = Swap.undo(this, proposal);
          if (swap.recover() == Swap.Result.DONE || swap.holdsReplacement()) {
            directory.mark(id, Status.UNDONE, clock.instant(), proposal.baseSha256());
            return new Done("completed the interrupted undo of " + id + ": " + fileOf(proposal));
          }
          Swap.Result result = swap.run();
          if (result == Swap.Result.DONE) {
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
          if (result == Swap.Result.UNREACHABLE) {
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
    Swap swap = status == Status.PENDING ? Swap.commit(this, proposal) : Swap.undo(this, proposal);
    Swap.Result result = swap.recover();
    if (result == Swap.Result.NOTHING && status == Status.PENDING && swap.holdsReplacement()) {
      result = Swap.Result.DONE; // crashed after the displaced text was removed
    }
    if (result == Swap.Result.DONE) {
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
    if (result == Swap.Result.STALE) {
      return "put back what another process had written to "
          + fileOf(proposal)
          + " during the interrupted "
          + (status == Status.PENDING ? "commit" : "undo")
          + " of "
          + proposal.id();
    }
    return null;
  }

  /**
   * One replacement of a note's whole text, {@code expected} by {@code replacement}, in the note's
   * own folder F (reached from the workspace's descriptor, never through a link), every step
   * relative to F's descriptor, under the proposals folder's lock:
   *
   * <ol>
   *   <li>the careful read of the note: exactly {@code expected}, one link; its identity (device,
   *       inode, size, modification time) is kept. Else: stale, nothing written.
   *   <li>{@code replacement} written to T ({@code F/.notes-mcp-ID.edit.tmp} or {@code .undo.tmp}):
   *       created exclusively, 0600, fsynced.
   *   <li>{@code renameat2(T, note, RENAME_EXCHANGE)}: the note now is T's file, and T names the
   *       file displaced.
   *   <li>the displaced file must be the one checked in 1: same device and inode, size and
   *       modification time, and exactly {@code expected} by a careful read. If not (a
   *       rename-replace editor put another file there, or an in-place writer wrote between 1 and
   *       3), exchanged back, T (our file) removed: stale, and the other process's bytes are the
   *       note again.
   *   <li>fsync F; remove T (the displaced text, which the record keeps); fsync F.
   * </ol>
   *
   * A crash leaves the note either {@code expected} (before 3, or after an exchange back) or {@code
   * replacement} (after 3), never a mix; {@link #recover} then finds T and finishes (4 and 5) or
   * clears it.
   */
  static final class Swap {
    enum Result {
      DONE,
      STALE,
      UNREACHABLE,
      NOTHING
    }

    private final Approvals approvals;
    private final NoteName path;
    private final byte[] expected;
    private final byte[] replacement;
    private final String temp;
    private final String prefix;
    private String problem;

    private Swap(
        Approvals approvals,
        NoteName path,
        byte[] expected,
        byte[] replacement,
        String temp,
        String prefix) {
      this.approvals = approvals;
      this.path = path;
      this.expected = expected;
      this.replacement = replacement;
      this.temp = temp;
      this.prefix = prefix;
    }

    static Swap commit(Approvals approvals, Proposal proposal) {
      return new Swap(
          approvals,
          proposal.path(),
          proposal.baseBytes(),
          proposal.bytes(),
          ".notes-mcp-" + proposal.id() + ".edit.tmp",
          "edit-");
    }

    static Swap undo(Approvals approvals, Proposal proposal) {
      return new Swap(
          approvals,
          proposal.path(),
          proposal.bytes(),
          proposal.baseBytes(),
          ".notes-mcp-" + proposal.id() + ".undo.tmp",
          "undo-");
    }

    /** Why the note's folder could not be reached, after {@link Result#UNREACHABLE}. */
    String problem() {
      return problem;
    }

    Result run() throws IOException {
      Workspace.Place place;
      try {
        place = approvals.workspace.reach(path.value());
      } catch (NoSuchFileException e) {
        problem = path + " cannot be changed: its folder " + path.folder() + " does not exist";
        return Result.UNREACHABLE;
      } catch (Folder.NotAFolder e) {
        problem = path + " cannot be changed: " + e.getMessage();
        return Result.UNREACHABLE;
      }
      try (place) {
        Folder folder = place.folder();
        String name = place.name();
        DurableFiles.removeIfPresent(folder, temp);
        OpenedFile.Identity checked = holding(folder, name, expected);
        approvals.checkpoints.accept(prefix + "after-check");
        if (checked == null) {
          return Result.STALE;
        }
        long[] ours;
        try (WritableFile file = folder.create(temp)) {
          file.write(replacement);
          file.sync();
          ours = file.attributesWhenCreated();
        }
        approvals.checkpoints.accept(prefix + "after-temp");
        folder.rename(temp, folder, name, Posix.RENAME_EXCHANGE);
        approvals.checkpoints.accept(prefix + "after-exchange");
        OpenedFile.Identity displaced = holding(folder, temp, expected);
        if (!sameFile(displaced, checked)) {
          putBack(folder, name, ours);
          return Result.STALE;
        }
        approvals.checkpoints.accept(prefix + "after-verify");
        finish(folder);
        return Result.DONE;
      }
    }

    /**
     * After a crash: T beside a note that holds {@code replacement} means the exchange was made;
     * the displaced file is then checked as in {@link #run} and the swap finished, or put back. T
     * beside any other note is our unexchanged file, removed.
     */
    Result recover() throws IOException {
      try (Workspace.Place place = approvals.workspace.reach(path.value())) {
        Folder folder = place.folder();
        long[] tempAttributes;
        try {
          tempAttributes = folder.attributesOf(temp);
        } catch (NoSuchFileException e) {
          return Result.NOTHING;
        }
        if (holding(folder, place.name(), replacement) == null) {
          DurableFiles.removeIfPresent(folder, temp);
          folder.sync();
          return Result.NOTHING;
        }
        if (holding(folder, temp, expected) != null) {
          finish(folder);
          return Result.DONE;
        }
        long[] note = folder.attributesOf(place.name());
        putBack(folder, place.name(), note);
        return Result.STALE;
      } catch (NoSuchFileException | Folder.NotAFolder e) {
        return Result.NOTHING; // no folder to enter: nothing of ours is reached through it
      }
    }

    /**
     * Whether the note already holds exactly {@code replacement}, one link, with no T beside it: a
     * swap finished but not yet recorded. As for a new note, that counts as done even if another
     * process wrote those very bytes: either way the note holds exactly the approved text.
     */
    boolean holdsReplacement() throws IOException {
      try (Workspace.Place place = approvals.workspace.reach(path.value())) {
        try {
          place.folder().attributesOf(temp);
          return false;
        } catch (NoSuchFileException e) {
          return holding(place.folder(), place.name(), replacement) != null;
        }
      } catch (NoSuchFileException | Folder.NotAFolder e) {
        return false;
      }
    }

    /** Steps 5: the displaced text's name removed, durably. */
    private void finish(Folder folder) throws IOException {
      folder.sync();
      DurableFiles.removeIfPresent(folder, temp);
      folder.sync();
      approvals.checkpoints.accept(prefix + "after-unlink");
    }

    /**
     * Exchanges back, so the other process's file is the note again; then removes T only if it is
     * the file we made ({@code ours}), never anything else.
     */
    private void putBack(Folder folder, String name, long[] ours) throws IOException {
      // Exchanged back only while the note's name still holds our file: if another process has
      // since replaced it, what it put there stays the note.
      if (isOurs(folder, name, ours)) {
        folder.rename(temp, folder, name, Posix.RENAME_EXCHANGE);
      }
      folder.sync();
      if (isOurs(folder, temp, ours)) {
        folder.remove(temp);
        folder.sync();
      } else {
        // Someone else's bytes (what the note held before another process replaced it, after
        // our exchange): never removed.
        approvals.log.println(
            "notes-mcp: "
                + path
                + ": another process replaced the note during the commit; what it held before"
                + " is kept beside it as "
                + temp
                + " (remove it when you no longer need it)");
      }
    }

    private static boolean isOurs(Folder folder, String name, long[] ours) throws IOException {
      try {
        long[] now = folder.attributesOf(name);
        return now[Posix.DEVICE] == ours[Posix.DEVICE] && now[Posix.INODE] == ours[Posix.INODE];
      } catch (NoSuchFileException e) {
        return false;
      }
    }

    /**
     * The identity of {@code name} in {@code folder} if the careful read finds exactly {@code
     * bytes} there with one link; else null. A file changed within the margin is waited for.
     */
    private static OpenedFile.Identity holding(Folder folder, String name, byte[] bytes)
        throws IOException {
      try {
        return OpenedFile.patiently(
            new OpenedFile.Attempt<OpenedFile.Identity>() {
              @Override
              public OpenedFile.Identity run() throws IOException {
                try (OpenedFile file = folder.open(name)) {
                  if (file.links() != 1) {
                    return null;
                  }
                  byte[] held = file.readAll(bytes.length);
                  return held != null && Arrays.equals(held, bytes) ? file.identity() : null;
                } catch (NoSuchFileException
                    | Folder.NotRegularFile
                    | Folder.ChangedWhileOpening e) {
                  return null;
                }
              }
            });
      } catch (OpenedFile.ChangedWhileReading e) {
        return null;
      }
    }

    /**
     * Whether the displaced file is the one checked: same device, inode, size and modification time
     * (its change time is stamped by the exchange itself, so it is not compared), and it held the
     * expected bytes (displaced is null otherwise).
     */
    private static boolean sameFile(OpenedFile.Identity displaced, OpenedFile.Identity checked) {
      return displaced != null
          && displaced.device() == checked.device()
          && displaced.inode() == checked.inode()
          && displaced.size() == checked.size()
          && displaced.modified() == checked.modified();
    }
  }

  /** Steps 2 and 3: false if something took D first (nothing of ours is left behind then). */
  private boolean create(Proposal proposal) throws IOException {
    // Every step relative to the note's folder, held by its descriptor (Workspace.reach): never
    // by path, never through a link.
    try (Workspace.Place place = workspace.reach(proposal.path().value())) {
      Folder folder = place.folder();
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
      DurableFiles.removeIfPresent(place.folder(), tempOf(proposal));
      place.folder().sync();
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

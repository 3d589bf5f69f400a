package notesmcp.policy;

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
  /** The named points of the commit, for {@code checkpoints}: see the class comment. */
  public static final List<String> CHECKPOINTS =
      List.of("before-create", "after-temp", "after-link", "after-unlink");

  private final Workspace workspace;
  private final ProposalDirectory directory;
  private final Clock clock;
  private final PrintStream log;
  private final Consumer<String> checkpoints;

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
            Recorded entry = directory.status(id) == Status.PENDING ? directory.load(id) : null;
            if (entry instanceof Valid) {
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
          directory.mark(id, Status.REJECTED, clock.instant(), sha256Of(entry));
          return new Done("rejected proposal " + id);
        });
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

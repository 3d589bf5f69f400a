package notesmcp.policy.review;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.function.Consumer;
import notesmcp.files.DurableFiles;
import notesmcp.files.Folder;
import notesmcp.files.OpenedFile;
import notesmcp.files.Posix;
import notesmcp.files.WritableFile;
import notesmcp.files.WritableFolder;
import notesmcp.policy.proposals.Proposal;
import notesmcp.policy.rules.NoteName;
import notesmcp.policy.vault.Workspace;

/**
 * One replacement of a note's whole text, {@code expected} by {@code replacement}, in the note's
 * own folder F (reached from the workspace's descriptor, never through a link), every step relative
 * to F's descriptor, under the proposals folder's lock:
 *
 * <ol>
 *   <li>the careful read of the note: exactly {@code expected}, one link; its identity (device,
 *       inode, size, modification time) is kept. Else: stale, nothing written.
 *   <li>{@code replacement} written to T ({@code F/.notes-mcp-ID.edit.tmp} or {@code .undo.tmp}):
 *       created exclusively, 0600, fsynced.
 *   <li>{@code renameat2(T, note, RENAME_EXCHANGE)}: the note now is T's file, and T names the file
 *       displaced.
 *   <li>the displaced file must be the one checked in 1: same device and inode, size and
 *       modification time, and exactly {@code expected} by a careful read. If not (a rename-replace
 *       editor put another file there, or an in-place writer wrote between 1 and 3), exchanged
 *       back, T (our file) removed: stale, and the other process's bytes are the note again.
 *   <li>fsync F; remove T (the displaced text, which the record keeps); fsync F.
 * </ol>
 *
 * A crash leaves the note either {@code expected} (before 3, or after an exchange back) or {@code
 * replacement} (after 3), never a mix; {@link #recover} then finds T and finishes (4 and 5) or
 * clears it.
 */
final class EditSwap {
  enum Result {
    DONE,
    STALE,
    UNREACHABLE,
    NOTHING
  }

  private final Workspace workspace;
  private final Consumer<String> checkpoints;
  private final PrintStream log;
  private final NoteName path;
  private final byte[] expected;
  private final byte[] replacement;
  private final String temp;
  private final String prefix;
  private String problem;

  private EditSwap(
      Workspace workspace,
      Consumer<String> checkpoints,
      PrintStream log,
      NoteName path,
      byte[] expected,
      byte[] replacement,
      String temp,
      String prefix) {
    this.workspace = workspace;
    this.checkpoints = checkpoints;
    this.log = log;
    this.path = path;
    this.expected = expected;
    this.replacement = replacement;
    this.temp = temp;
    this.prefix = prefix;
  }

  static EditSwap commit(
      Workspace workspace, Consumer<String> checkpoints, PrintStream log, Proposal proposal) {
    return new EditSwap(
        workspace,
        checkpoints,
        log,
        proposal.path(),
        proposal.baseBytes(),
        proposal.bytes(),
        ".notes-mcp-" + proposal.id() + ".edit.tmp",
        "edit-");
  }

  static EditSwap undo(
      Workspace workspace, Consumer<String> checkpoints, PrintStream log, Proposal proposal) {
    return new EditSwap(
        workspace,
        checkpoints,
        log,
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
      place = workspace.reach(path.value());
    } catch (NoSuchFileException e) {
      problem = path + " cannot be changed: its folder " + path.folder() + " does not exist";
      return Result.UNREACHABLE;
    } catch (Folder.NotAFolder e) {
      problem = path + " cannot be changed: " + e.getMessage();
      return Result.UNREACHABLE;
    }
    try (place) {
      WritableFolder folder = WritableFolder.of(place.folder());
      String name = place.name();
      DurableFiles.removeIfPresent(folder, temp);
      OpenedFile.Identity checked = holding(folder.folder(), name, expected);
      checkpoints.accept(prefix + "after-check");
      if (checked == null) {
        return Result.STALE;
      }
      long[] ours;
      try (WritableFile file = folder.create(temp)) {
        file.write(replacement);
        file.sync();
        ours = file.attributesWhenCreated();
      }
      checkpoints.accept(prefix + "after-temp");
      folder.exchange(temp, name);
      checkpoints.accept(prefix + "after-exchange");
      OpenedFile.Identity displaced = holding(folder.folder(), temp, expected);
      if (!sameFile(displaced, checked)) {
        putBack(folder, name, ours);
        return Result.STALE;
      }
      checkpoints.accept(prefix + "after-verify");
      finish(folder);
      return Result.DONE;
    }
  }

  /**
   * After a crash: T beside a note that holds {@code replacement} means the exchange was made; the
   * displaced file is then checked as in {@link #run} and the swap finished, or put back. T beside
   * any other note is our unexchanged file, removed.
   */
  Result recover() throws IOException {
    try (Workspace.Place place = workspace.reach(path.value())) {
      WritableFolder folder = WritableFolder.of(place.folder());
      long[] tempAttributes;
      try {
        tempAttributes = folder.folder().attributesOf(temp);
      } catch (NoSuchFileException e) {
        return Result.NOTHING;
      }
      if (holding(folder.folder(), place.name(), replacement) == null) {
        DurableFiles.removeIfPresent(folder, temp);
        folder.sync();
        return Result.NOTHING;
      }
      if (holding(folder.folder(), temp, expected) != null) {
        finish(folder);
        return Result.DONE;
      }
      long[] note = folder.folder().attributesOf(place.name());
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
    try (Workspace.Place place = workspace.reach(path.value())) {
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
  private void finish(WritableFolder folder) throws IOException {
    folder.sync();
    DurableFiles.removeIfPresent(folder, temp);
    folder.sync();
    checkpoints.accept(prefix + "after-unlink");
  }

  /**
   * Exchanges back, so the other process's file is the note again; then removes T only if it is the
   * file we made ({@code ours}), never anything else.
   */
  private void putBack(WritableFolder folder, String name, long[] ours) throws IOException {
    // Exchanged back only while the note's name still holds our file: if another process has
    // since replaced it, what it put there stays the note.
    if (isOurs(folder.folder(), name, ours)) {
      folder.exchange(temp, name);
    }
    folder.sync();
    if (isOurs(folder.folder(), temp, ours)) {
      folder.remove(temp);
      folder.sync();
    } else {
      // Someone else's bytes (what the note held before another process replaced it, after
      // our exchange): never removed.
      log.println(
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
   * The identity of {@code name} in {@code folder} if the careful read finds exactly {@code bytes}
   * there with one link; else null. A file changed within the margin is waited for.
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
              } catch (NoSuchFileException | Folder.NotRegularFile | Folder.ChangedWhileOpening e) {
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

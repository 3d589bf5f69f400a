package notesmcp.policy.proposals;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import notesmcp.files.DurableFiles;
import notesmcp.files.FileProblem;
import notesmcp.files.Folder;
import notesmcp.files.OpenedFile;
import notesmcp.files.PlannedFolder;
import notesmcp.files.Posix;
import notesmcp.files.WritableFolder;
import notesmcp.policy.rules.NoteName;
import notesmcp.policy.vault.Workspace;

/**
 * The proposals folder ({@code -proposals DIR}): one immutable record per accepted proposal, and
 * beside it at most one status marker, each published atomically and owner-only (docs/approvals.md,
 * "What is on disk, and what a crash leaves").
 *
 * <pre>DIR/ID.json        the record: destination, exact content, bytes, SHA-256, time, client
 * DIR/ID.committed   marker: the note was created   (absent both: the proposal is pending)
 * DIR/ID.rejected    marker: a person rejected it
 * DIR/ID.stale       marker: an edit whose note changed since the proposal; left alone
 * DIR/ID.undone      marker (beside .committed): a person undid the committed edit
 * DIR/lock           the lock every writer holds; .tmp-* names are publishes under way</pre>
 *
 * <p>Markers are created exclusively and never removed, so a status changes once: pending to
 * committed, rejected or stale; committed (an edit) to undone. Lock rule: every read-decide-write
 * on the folder, by a server accepting a proposal or by a review deciding one, runs inside {@link
 * #locked}, which holds an in-process lock and then an exclusive {@link FileLock} on {@code
 * DIR/lock}; so two processes never race on one proposal or one destination. Any thread may call.
 *
 * <p>Used by the tools (to store a proposal and tell its status) and by the review (to decide one):
 * {@link #mark}, which records a decision, is the review's alone ({@code BordersTest} holds that
 * nothing reachable through MCP calls it).
 */
public final class ProposalDirectory {
  /** A proposal id's length: a UUID's canonical text, 8-4-4-4-12 lower-case hex digits. */
  private static final int ID_LENGTH = 36;

  private static final String RECORD = ".json";
  private static final String LOCK = "lock";

  /** A record holds at most a 1 MiB note, escaped: far less than this. */
  static final int MAX_RECORD_BYTES = 8 * 1024 * 1024;

  /** A proposal's status; the marker file's suffix names it. */
  public enum Status {
    PENDING,
    COMMITTED,
    REJECTED,
    STALE,
    UNDONE;

    public String word() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The word {@code proposal_status} answers with (docs/behaviour.md, "Tools"). */
    public String answer() {
      switch (this) {
        case PENDING:
          return "pending_approval";
        case COMMITTED:
          return "approved";
        default:
          return word();
      }
    }
  }

  /** Thrown when the folder may not hold proposals; the message says why and what to do. */
  public static final class Unusable extends Exception {
    private static final long serialVersionUID = 1L;

    Unusable(Path dir, String problem) {
      super("-proposals " + dir + ": " + problem);
    }
  }

  /** Work done under the folder's lock. */
  public interface Locked<T> {
    T run() throws IOException;
  }

  private final Path dir;
  private final long uid;
  private final WritableFolder folder;
  private final ReentrantLock inProcess = new ReentrantLock();

  private ProposalDirectory(Path dir, long uid, WritableFolder folder) {
    this.dir = dir;
    this.uid = uid;
    this.folder = folder;
  }

  /**
   * Opens {@code dir}, creating it (and any missing parent) {@code 0700} if it is missing. DIR must
   * be outside the workspace, owned by the user and writable by neither group nor others, all
   * decided on its real path (links resolved; its parents are not checked); otherwise start-up
   * fails with a clear message (docs/approvals.md). A DIR that is, or would resolve to, a place
   * inside the workspace is refused before any folder is created (docs/behaviour.md, "Limits"):
   * where it would be is decided first ({@link PlannedFolder#realPathOf}), and only then is
   * anything created.
   *
   * @throws Posix.Unavailable if the native library is missing (not wrapped: the program is broken)
   */
  public static ProposalDirectory open(Path dir, Workspace workspace)
      throws Unusable, Posix.Unavailable {
    try {
      Path planned = PlannedFolder.realPathOf(dir);
      refuseInside(dir, planned, workspace);
      Folder.bytesOf(planned, planned.toString()); // a name this JVM cannot open is refused first
      if (Files.notExists(planned, LinkOption.NOFOLLOW_LINKS)) {
        // Missing parents too (like mkdir -p), and each one private: nothing else goes in them.
        Files.createDirectories(
            planned,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
      Path real = planned.toRealPath(); // the name as given may hold "missing/.."
      if (!Files.isDirectory(real)) {
        throw new Unusable(dir, "is not a directory");
      }
      refuseInside(dir, real, workspace);
      long me = new UnixSystem().getUid();
      // Owner and mode as the descriptor opened shows them: the folder checked is the one used.
      WritableFolder folder = WritableFolder.open(real, workspace.rule());
      long[] opened = folder.folder().attributesWhenOpened();
      long owner = opened[Posix.OWNER];
      int mode = (int) opened[Posix.MODE] & 0777;
      if (owner != me) {
        folder.close();
        throw new Unusable(dir, "is owned by uid " + owner + ", not by this user (uid " + me + ")");
      }
      if ((mode & 0022) != 0) {
        folder.close();
        throw new Unusable(
            dir,
            "is writable by group or others ("
                + PosixFilePermissions.toString(permissions(mode))
                + "); run: chmod go-w "
                + real);
      }
      // Kept for the life of the process; nothing closes it.
      return new ProposalDirectory(real, me, folder);
    } catch (Posix.Unavailable e) {
      throw e;
    } catch (IOException e) {
      throw new Unusable(dir, "cannot be used (" + FileProblem.describe(e) + ")");
    }
  }

  private static Set<PosixFilePermission> permissions(int mode) {
    Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ ... OTHERS_EXECUTE
    for (int i = 0; i < bits.length; i++) {
      if ((mode & (0400 >> i)) != 0) {
        set.add(bits[i]);
      }
    }
    return set;
  }

  private static void refuseInside(Path dir, Path real, Workspace workspace) throws Unusable {
    if (real.startsWith(workspace.root())) {
      throw new Unusable(
          dir,
          "is inside the workspace "
              + workspace.root()
              + " (as "
              + real
              + "); keep proposals outside it");
    }
  }

  /** The folder's real path. */
  public Path path() {
    return dir;
  }

  /** The folder, held for the life of the process, to write in ({@link AuditLog} appends there). */
  WritableFolder folder() {
    return folder;
  }

  /**
   * The file {@code name} of this folder (the audit log) to append to, created 0600 if missing:
   * never a link, never blocking, a regular file of this user's ({@link
   * WritableFolder#openToAppend}).
   */
  FileChannel openToAppend(String name) throws IOException {
    return folder.openToAppend(name, uid);
  }

  /**
   * The file {@code name} of this folder (the audit log) to read as it may still grow: the careful
   * open ({@link Folder#open(String)}: never a link, never blocking, a regular file, as its
   * descriptor shows), of a file of this user's, through a channel of its own onto the file opened
   * ({@link OpenedFile#reopened}).
   *
   * @throws NoSuchFileException if there is none
   * @throws Folder.NotRegularFile if it is a link, a directory, a FIFO, a socket or a device
   */
  FileChannel openToRead(String name) throws IOException {
    try (OpenedFile file = folder.folder().open(name)) {
      if (file.owner() != uid) {
        throw new FileSystemException(
            name,
            null,
            "it is owned by uid " + file.owner() + ", not by this user (uid " + uid + ")");
      }
      return file.reopened();
    }
  }

  /**
   * Whether {@code candidate} is a proposal id: {@code [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-
   * [0-9a-f]{4}-[0-9a-f]{12}}. Written out rather than a {@code java.util.regex.Pattern}: this
   * class is loaded as {@code -serve -proposals} starts, and compiling a pattern links the JDK's
   * own lambdas there (the start path links no {@code invokedynamic}; {@code StartPathIT}).
   */
  public static boolean isId(String candidate) {
    if (candidate.length() != ID_LENGTH) {
      return false;
    }
    for (int i = 0; i < ID_LENGTH; i++) {
      char c = candidate.charAt(i);
      boolean ok =
          i == 8 || i == 13 || i == 18 || i == 23
              ? c == '-'
              : (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /**
   * Runs {@code work} holding the folder's lock; {@code onWait} runs first if another process holds
   * it, so a person knows why nothing happens yet.
   */
  public <T> T locked(Runnable onWait, Locked<T> work) throws IOException {
    inProcess.lock();
    try {
      if (inProcess.getHoldCount() > 1) {
        return work.run(); // this thread holds the folder's lock already
      }
      // flock on DIR/lock, relative to the folder's descriptor (WritableFolder#locked).
      return folder.locked(
          LOCK,
          dir.resolve(LOCK).toString(),
          onWait,
          new WritableFolder.Locked<T>() {
            @Override
            public T run() throws IOException {
              return work.run();
            }
          });
    } finally {
      inProcess.unlock();
    }
  }

  /** The ids of all records, sorted; listed through the folder's descriptor. */
  public List<String> ids() throws IOException {
    List<String> ids = new ArrayList<>();
    try (Folder.Entries entries = folder.folder().entries()) {
      Folder.Entry entry;
      while ((entry = entries.next()) != null) {
        String name = entry.text();
        if (name != null && name.endsWith(RECORD)) {
          String id = name.substring(0, name.length() - RECORD.length());
          if (isId(id)) {
            ids.add(id);
          }
        }
      }
    }
    ids.sort(null);
    return ids;
  }

  /** A marker that exists, or whose existence cannot be told, counts: never commit twice. */
  public Status status(String id) {
    if (!isAbsent(marker(id, Status.UNDONE))) {
      return Status.UNDONE;
    }
    if (!isAbsent(marker(id, Status.COMMITTED))) {
      return Status.COMMITTED;
    }
    if (!isAbsent(marker(id, Status.REJECTED))) {
      return Status.REJECTED;
    }
    if (!isAbsent(marker(id, Status.STALE))) {
      return Status.STALE;
    }
    return Status.PENDING;
  }

  private boolean isAbsent(String name) {
    try {
      folder.folder().attributesOf(name);
      return false;
    } catch (NoSuchFileException e) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Reads the record of {@code id}.
   *
   * @throws NoSuchFileException if there is none
   */
  public Recorded load(String id) throws IOException {
    // Patiently: the server itself wrote the record, or published a marker beside it, a moment ago
    // (the change rule's margin, OpenedFile); a person's review or the next proposal waits it out.
    try {
      return OpenedFile.patiently(
          new OpenedFile.Attempt<Recorded>() {
            @Override
            public Recorded run() throws IOException {
              return loadNow(id);
            }
          });
    } catch (OpenedFile.ChangedWhileReading e) {
      return new Recorded.Damaged(id, "record cannot be read safely (" + e.getMessage() + ")");
    }
  }

  private Recorded loadNow(String id) throws IOException {
    byte[] bytes;
    try (OpenedFile record = folder.folder().open(id + RECORD)) {
      if (record.owner() != uid || (record.permissions() & 0022) != 0) {
        return new Recorded.Damaged(
            id, "record is not owner-only (someone else could have changed it)");
      }
      bytes = record.readAll(MAX_RECORD_BYTES);
    } catch (NoSuchFileException | OpenedFile.ChangedWhileReading e) {
      throw e;
    } catch (IOException e) {
      return new Recorded.Damaged(id, "record cannot be read safely (" + e.getMessage() + ")");
    }
    if (bytes == null) {
      return new Recorded.Damaged(id, "record is larger than " + MAX_RECORD_BYTES + " bytes");
    }
    try {
      return new Recorded.Valid(RecordFormat.decode(id, bytes));
    } catch (RecordFormat.Damaged e) {
      return new Recorded.Damaged(id, "record " + e.getMessage());
    }
  }

  /**
   * Why no new proposal for {@code name} may be accepted, if one may not: at most one proposal per
   * destination name is pending in DIR, across server restarts, as DIR says each time propose_note
   * is called, never as it was at start-up (docs/approvals.md). A damaged pending record blocks
   * every name, since its destination cannot be known. Call inside {@link #locked}.
   */
  Optional<String> blocking(NoteName name) throws IOException {
    return blocking(name, 0);
  }

  /**
   * As {@link #blocking(NoteName)}, and with {@code maxPending} above 0 also refused when that many
   * proposals are pending already (the policy file's {@code maxPending}).
   */
  public Optional<String> blocking(NoteName name, int maxPending) throws IOException {
    return blocking(name, maxPending, null);
  }

  /**
   * As {@link #blocking(NoteName, int)} for a caller authenticated as {@code asker} (null: none):
   * another caller's pending proposal is not named by its id.
   */
  public Optional<String> blocking(NoteName name, int maxPending, String asker) throws IOException {
    int pending = 0;
    for (String id : ids()) {
      if (status(id) != Status.PENDING) {
        continue;
      }
      Recorded entry = load(id);
      if (entry instanceof Recorded.Damaged) {
        return Optional.of(
            "a pending proposal record ("
                + id
                + ") cannot be read; a person must run 'notes-mcp review' before anything more"
                + " can be proposed");
      }
      Proposal waiting = ((Recorded.Valid) entry).proposal();
      if (waiting.path().equals(name)) {
        return Optional.of(
            "a proposal for "
                + name
                + " is already pending"
                + (Objects.equals(waiting.authenticated(), asker) ? " (" + id + ")" : "")
                + "; a person must approve or reject it with 'notes-mcp review' first");
      }
      pending++;
    }
    if (maxPending > 0 && pending >= maxPending) {
      return Optional.of(
          pending
              + " proposals are already pending, the most the policy allows (maxPending "
              + maxPending
              + "); a person must review them with 'notes-mcp review' first");
    }
    return Optional.empty();
  }

  /**
   * Keeps {@code proposal} durably: when this returns, a crash cannot lose it. When it throws,
   * nothing is pending: a record that got its name but could not be made durable is removed again,
   * since the client is told the proposal was not kept.
   */
  public void store(Proposal proposal) throws IOException {
    String record = proposal.id() + RECORD;
    try {
      DurableFiles.publish(folder, record, RecordFormat.encode(proposal));
    } catch (FileAlreadyExistsException e) {
      throw e; // not ours to remove
    } catch (IOException e) {
      try {
        DurableFiles.removeIfPresent(folder, record);
      } catch (IOException again) {
        e.addSuppressed(again);
      }
      throw e;
    }
  }

  /** Records a decision beside the record; refused if any decision is already recorded. */
  public void mark(String id, Status status, Instant at, String sha256) throws IOException {
    Status now = status(id);
    boolean allowed = status == Status.UNDONE ? now == Status.COMMITTED : now == Status.PENDING;
    if (status == Status.PENDING || !allowed) {
      throw new IllegalStateException(id + " cannot become " + status.word());
    }
    DurableFiles.publish(
        folder, marker(id, status), RecordFormat.encodeStatus(id, status.word(), at, sha256));
  }

  /** The record of {@code id} and its status, for {@code proposal_status}; null if none. */
  public Status statusOf(String id) throws IOException {
    if (!isId(id)) {
      return null;
    }
    try {
      folder.folder().attributesOf(id + RECORD);
    } catch (NoSuchFileException e) {
      return null;
    }
    return status(id);
  }

  /** Clears what interrupted publishes left; call inside {@link #locked}. */
  public void removeStaleTemporaries() throws IOException {
    DurableFiles.removeStaleTemporaries(folder);
  }

  private static String marker(String id, Status status) {
    return id + "." + status.word();
  }
}

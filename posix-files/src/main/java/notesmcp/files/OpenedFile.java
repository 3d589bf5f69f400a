package notesmcp.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * One regular file opened by {@link Folder#open}: it owns the descriptor, which is closed by {@link
 * #close} (use try-with-resources), and it holds what the folder and the name showed before the
 * open ({@code fstat} of the folder, {@code lstat} of the name) and what the descriptor itself is
 * ({@code fstat}). Every check a caller makes here (links, size, owner, mode) is of the file
 * actually opened, and {@link #readAll} reads from that same descriptor, so no rename or exchange
 * after the open can change what is checked or read.
 *
 * <p>{@link #links} is the larger of the link counts the name and the descriptor showed, and the
 * two must be the same file; {@link #readAll} accepts its bytes only under the {@link ChangeRule}.
 * Why both looks and the change times, and what they leave open: {@code docs/behaviour.md}, "What
 * holds against other processes" (told there once).
 *
 * <p>Not thread-safe: one thread opens, reads and closes it.
 */
public final class OpenedFile implements AutoCloseable {
  private final String shown;
  private final Folder folder;
  private final long[] folderBefore;
  private final long[] named;
  private final long[] opened;
  private long[] after;
  private int fd;

  OpenedFile(
      int fd, String shown, Folder folder, long[] folderBefore, long[] named, long[] opened) {
    this.fd = fd;
    this.shown = shown;
    this.folder = folder;
    this.folderBefore = folderBefore;
    this.named = named;
    this.opened = opened;
  }

  /**
   * What a file was when it was read: enough to tell later, without reading it, whether it is the
   * same file with the same content (a changed note has another change time, size or inode). Times
   * in nanoseconds since the epoch.
   */
  public record Identity(long device, long inode, long size, long changed, long modified) {
    public static Identity of(long[] attributes) {
      return new Identity(
          attributes[Posix.DEVICE],
          attributes[Posix.INODE],
          attributes[Posix.SIZE],
          attributes[Posix.CHANGED],
          attributes[Posix.MODIFIED]);
    }
  }

  public static boolean isRegular(long[] attributes) {
    return ((int) attributes[Posix.MODE] & Posix.S_IFMT) == Posix.S_IFREG;
  }

  /**
   * Whether the descriptor is a regular file, and the same file the name showed before the open.
   */
  boolean isWhatTheNameShowed() {
    return isRegular(named)
        && isRegular(opened)
        && named[Posix.DEVICE] == opened[Posix.DEVICE]
        && named[Posix.INODE] == opened[Posix.INODE];
  }

  /** Whether {@code other} (attributes from {@link Folder#attributesOf}) is this same file. */
  public boolean isSameFileAs(long[] other) {
    return other[Posix.DEVICE] == opened[Posix.DEVICE] && other[Posix.INODE] == opened[Posix.INODE];
  }

  /** Hard links to the file: the larger of what the name showed and what the descriptor shows. */
  public int links() {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(named[Posix.LINKS], opened[Posix.LINKS]));
  }

  /** The size when opened, from the descriptor; {@link #readAll} still stops at its own bound. */
  public long size() {
    return opened[Posix.SIZE];
  }

  /** The device and inode, from the descriptor. */
  public long device() {
    return opened[Posix.DEVICE];
  }

  public long inode() {
    return opened[Posix.INODE];
  }

  /** The owner's user id, from the descriptor. */
  public long owner() {
    return opened[Posix.OWNER];
  }

  /** The permission bits, from the descriptor. */
  public int permissions() {
    return (int) opened[Posix.MODE] & 07777;
  }

  /**
   * The file as {@link #readAll} last accepted it (else as it was opened): device, inode, size,
   * change and modification time.
   */
  public Identity identity() {
    return Identity.of(after != null ? after : opened);
  }

  /**
   * All the file's bytes, or null when it holds more than {@code max}. The buffer starts at the
   * size the descriptor showed and grows (to at most {@code max + 1}) if the file grew meanwhile.
   * Bytes are returned only once the change rule holds (see the class comment).
   *
   * @throws ChangedWhileReading if the file or its folder changed during the read or within the
   *     margin before it; a later read may succeed
   * @throws UnsafeFolder if hard links are not protected and the folder has become writable by
   *     another user
   */
  public byte[] readAll(int max) throws IOException {
    if (fd < 0) {
      throw new IllegalStateException("closed");
    }
    byte[] buffer = new byte[(int) Math.min(max + 1L, Math.max(0, size()) + 1)];
    int length = read(buffer, 0);
    while (length == buffer.length && length <= max) {
      buffer = Arrays.copyOf(buffer, (int) Math.min(max + 1L, 2L * buffer.length));
      int more = read(buffer, length);
      if (more == 0) {
        break;
      }
      length += more;
    }
    if (length > max) {
      return null;
    }
    settle();
    return length == buffer.length ? buffer : Arrays.copyOf(buffer, length);
  }

  private int read(byte[] buffer, int from) throws IOException {
    int read = Posix.read(fd, buffer, from, buffer.length - from);
    if (read < 0) {
      throw Folder.failure(shown, read);
    }
    return read;
  }

  /** The change rule, checked after the read: see the class comment. */
  private void settle() throws IOException {
    long[] now = new long[Posix.ATTRIBUTES];
    int result = Posix.stat(fd, now);
    if (result < 0) {
      throw Folder.failure(shown, result);
    }
    long[] folderNow = folder.attributes();
    long clock = Posix.now();
    String unsafe = folder.rule().othersMayWrite(folderNow);
    if (unsafe != null) {
      throw new UnsafeFolder(shown, unsafe);
    }
    boolean changed =
        named[Posix.CHANGED] != opened[Posix.CHANGED]
            || now[Posix.CHANGED] != opened[Posix.CHANGED]
            || now[Posix.LINKS] != opened[Posix.LINKS]
            || now[Posix.INODE] != opened[Posix.INODE]
            || folderNow[Posix.CHANGED] != folderBefore[Posix.CHANGED];
    long margin = folder.rule().marginNanos();
    long wait =
        Math.max(
            left(now[Posix.CHANGED], clock, margin), left(folderNow[Posix.CHANGED], clock, margin));
    if (changed || wait > 0) {
      throw new ChangedWhileReading(shown, Math.max(wait, changed ? 1_000_000L : 0), changed);
    }
    after = now;
  }

  /**
   * How long until a change stamped {@code changed} is older than {@code margin} by {@code clock}:
   * 0 when it already is. A stamp more than the margin ahead of the clock (the clock was set back)
   * counts as old: nothing done now can stamp a time ahead of the clock.
   */
  static long left(long changed, long clock, long margin) {
    long age = clock - changed;
    if (age >= margin || age < -margin) {
      return 0;
    }
    return margin - age;
  }

  /**
   * A channel of its own onto the file actually opened, for a reader that streams a file which may
   * grow while it reads (a log), where {@link #readAll}'s change rule would never settle: the
   * descriptor's file reopened read-only through {@code /proc/self/fd/N}, which names the open file
   * itself, never a path, so what it reads is the regular file checked here, whatever is at the
   * name by then. The caller closes both.
   */
  public FileChannel reopened() throws IOException {
    if (fd < 0) {
      throw new IllegalStateException("closed");
    }
    return reopen(fd, StandardOpenOption.READ);
  }

  /** Hands the descriptor over to the caller, who closes it from then on; this no longer does. */
  public int release() {
    int released = fd;
    fd = -1;
    return released;
  }

  /** The file of descriptor {@code fd}, opened anew through {@code /proc/self/fd/N}. */
  public static FileChannel reopen(int fd, StandardOpenOption... options) throws IOException {
    return FileChannel.open(Path.of("/proc/self/fd/" + fd), options);
  }

  /** Releases the descriptor; a second call does nothing. A read-only close loses nothing. */
  @Override
  public void close() {
    if (fd >= 0) {
      Posix.close(fd);
      fd = -1;
    }
  }

  /**
   * The file or its folder changed while it was being read, or within the margin before: its bytes
   * were not returned. A later read may succeed; {@link #waitNanos} says when at the earliest.
   */
  public static final class ChangedWhileReading extends IOException {
    private static final long serialVersionUID = 1L;
    private final long waitNanos;
    private final boolean duringTheRead;

    ChangedWhileReading(String name, long waitNanos, boolean duringTheRead) {
      super(name + " changed while it was being read; try again");
      this.waitNanos = waitNanos;
      this.duringTheRead = duringTheRead;
    }

    /**
     * Whether the file or its folder changed between the looks of this read, not only before it
     * (within the margin): something is changing it now.
     */
    public boolean duringTheRead() {
      return duringTheRead;
    }

    /** How long to wait before a new read could succeed, if nothing changes meanwhile. */
    long waitNanos() {
      return waitNanos;
    }
  }

  /** Hard links are unprotected and the file's folder may be written by another user. */
  public static final class UnsafeFolder extends IOException {
    private static final long serialVersionUID = 1L;

    UnsafeFolder(String name, String problem) {
      super(
          name
              + " cannot be read: its folder "
              + problem.substring("it ".length())
              + Folder.unprotectedHardLinks());
    }
  }

  /** Reads a careful read may be retried by: see {@link #patiently}. */
  public interface Attempt<T> {
    T run() throws IOException;
  }

  /** How many times {@link #patiently} tries before it gives up. */
  static final int ATTEMPTS = 4;

  /** Nothing: what runs before a wait until {@link #beforeEachWait} says otherwise. */
  private static final Runnable NOTHING =
      new Runnable() {
        @Override
        public void run() {}
      };

  /** What runs on a thread just before it waits out the margin: {@link #beforeEachWait}. */
  private static volatile Runnable beforeEachWait = NOTHING;

  /**
   * Sets what runs on a thread just before it waits out the change margin ({@link #waitOut}):
   * process-wide, as threads are; nothing until set.
   */
  public static void beforeEachWait(Runnable hook) {
    beforeEachWait = hook;
  }

  /**
   * Waits until the change {@code e} found is older than the margin, running the hook of {@link
   * Workspace#beforeEachWait} first. False, with the thread's interrupt flag set again, if the wait
   * was interrupted.
   */
  public static boolean waitOut(ChangedWhileReading e) {
    long nanos = e.waitNanos();
    if (nanos <= 0) {
      return true;
    }
    beforeEachWait.run();
    try {
      Thread.sleep(nanos / 1_000_000L, (int) (nanos % 1_000_000L));
      return true;
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Runs {@code attempt} (a whole careful read: open, checks, read) again while it fails with
   * {@link ChangedWhileReading}, waiting out the margin in between, at most {@link #ATTEMPTS}
   * times; for readers that are a person or a commit rather than a client, which may always retry
   * itself (a record the server itself just wrote is younger than the margin).
   */
  public static <T> T patiently(Attempt<T> attempt) throws IOException {
    for (int tries = 1; ; tries++) {
      try {
        return attempt.run();
      } catch (ChangedWhileReading e) {
        if (tries == ATTEMPTS || !waitOut(e)) {
          throw e;
        }
      }
    }
  }
}

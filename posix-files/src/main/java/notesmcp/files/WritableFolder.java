package notesmcp.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A {@link Folder} to write in: every write the program makes, all relative to the folder's
 * descriptor, never by path, never following a link (docs/design.md, "Reading a note"). Each throws
 * the IOException its errno means.
 *
 * <p>A folder is read through {@link Folder}, which has no way to write; one is written only
 * through this type, which is had in two ways: {@link #open}, a folder opened by path for writing
 * (the proposals folder), and {@link #of}, the write side of a folder already held for reading (a
 * note's folder, reached from the workspace by a review). The architecture test ({@code
 * BordersTest} in notes-app) holds who may call which.
 *
 * <p>Thread-safe as {@link Folder} is: the descriptor is fixed; {@link #close} belongs to the
 * owner.
 */
public final class WritableFolder implements AutoCloseable {
  private final Folder folder;

  private WritableFolder(Folder folder) {
    this.folder = folder;
  }

  /**
   * Opens the directory at {@code realPath} to write in, as {@link Folder#openOnce}: its {@link
   * #close} releases it.
   *
   * @throws Posix.Unavailable if the native library is missing
   * @throws java.nio.file.NotDirectoryException if it is a link or not a directory
   */
  public static WritableFolder open(Path realPath, ChangeRule rule) throws IOException {
    return new WritableFolder(Folder.openOnce(realPath, rule));
  }

  /**
   * The write side of {@code folder}, held for reading: closing either closes the one descriptor.
   */
  public static WritableFolder of(Folder folder) {
    return new WritableFolder(folder);
  }

  /** The folder, to read from. */
  public Folder folder() {
    return folder;
  }

  /**
   * Creates {@code name} exclusively ({@code O_CREAT|O_EXCL|O_NOFOLLOW}, mode 0600), for writing.
   *
   * @throws FileAlreadyExistsException if anything, even a dangling link, is at the name
   */
  public WritableFile create(String name) throws IOException {
    long[] attributes = new long[Posix.ATTRIBUTES];
    int file = Posix.createAt(folder.descriptor(), Folder.bytes(name), attributes);
    if (file < 0) {
      throw Folder.failure(name, file);
    }
    return new WritableFile(file, name, attributes);
  }

  /**
   * Gives the file {@code existing} of this folder a second name, {@code name} in {@code to}
   * ({@code linkat}; a link at {@code existing} is linked itself, never followed).
   *
   * @throws FileAlreadyExistsException if anything is at {@code name}
   */
  public void link(String existing, WritableFolder to, String name) throws IOException {
    int result =
        Posix.linkAt(
            folder.descriptor(),
            Folder.bytes(existing),
            to.folder.descriptor(),
            Folder.bytes(name));
    if (result < 0) {
      throw Folder.failure(result == -Posix.EEXIST ? name : existing, result);
    }
  }

  /**
   * Renames {@code from} of this folder to {@code name} in {@code to}: {@code replace} replaces
   * what is there atomically, else the rename is refused ({@link FileAlreadyExistsException}) when
   * anything is at {@code name}.
   */
  public void rename(String from, WritableFolder to, String name, boolean replace)
      throws IOException {
    renameAt(from, to, name, replace ? Posix.RENAME_REPLACE : Posix.RENAME_NOREPLACE);
  }

  /**
   * Swaps the files at {@code one} and {@code other} of this folder atomically ({@code renameat2}
   * with {@code RENAME_EXCHANGE}): each name then holds what the other held.
   */
  public void exchange(String one, String other) throws IOException {
    renameAt(one, this, other, Posix.RENAME_EXCHANGE);
  }

  private void renameAt(String from, WritableFolder to, String name, int how) throws IOException {
    int result =
        Posix.renameAt(
            folder.descriptor(),
            Folder.bytes(from),
            to.folder.descriptor(),
            Folder.bytes(name),
            how);
    if (result < 0) {
      throw Folder.failure(result == -Posix.EEXIST ? name : from, result);
    }
  }

  /** Removes the name {@code name} (a file or a link, never a folder; a link is not followed). */
  public void remove(String name) throws IOException {
    int result = Posix.unlinkAt(folder.descriptor(), Folder.bytes(name), false);
    if (result < 0) {
      throw Folder.failure(name, result);
    }
  }

  /** Removes the empty folder {@code name}. */
  public void removeFolder(String name) throws IOException {
    int result = Posix.unlinkAt(folder.descriptor(), Folder.bytes(name), true);
    if (result < 0) {
      throw Folder.failure(name, result);
    }
  }

  /** Makes the folder {@code name}, mode 0700. */
  public void makeFolder(String name) throws IOException {
    int result = Posix.makeFolderAt(folder.descriptor(), Folder.bytes(name));
    if (result < 0) {
      throw Folder.failure(name, result);
    }
  }

  /** Forces this folder's entries to disk ({@code fsync}), so a name made or removed stays. */
  public void sync() throws IOException {
    int result = Posix.sync(folder.descriptor());
    if (result < 0) {
      throw Folder.failure("the folder", result);
    }
  }

  /** Work done holding a {@link #locked lock file} of the folder. */
  public interface Locked<T> {
    T run() throws IOException;
  }

  /**
   * Runs {@code work} holding an exclusive {@code flock} on the file {@code name} of this folder:
   * opened relative to the folder's descriptor, created 0600 if missing, never a link, never a
   * FIFO's wait for a reader; released when the descriptor is closed, after {@code work}. {@code
   * onWait} runs first if another process holds it.
   *
   * @param shown how messages name the lock file
   */
  public <T> T locked(String name, String shown, Runnable onWait, Locked<T> work)
      throws IOException {
    long[] attributes = new long[Posix.ATTRIBUTES];
    int fd = Posix.openLockAt(folder.descriptor(), Folder.bytes(name), attributes);
    if (fd < 0) {
      throw Folder.failure(shown, fd);
    }
    try {
      if (!OpenedFile.isRegular(attributes)) {
        throw new FileSystemException(shown, null, "not a regular file");
      }
      int result = Posix.lock(fd, false);
      if (result == -Posix.EAGAIN) {
        onWait.run();
        result = Posix.lock(fd, true);
      }
      if (result < 0) {
        throw Folder.failure(shown, result);
      }
      return work.run();
    } finally {
      Posix.close(fd);
    }
  }

  /**
   * {@code name} opened to be read and appended to (a log), created 0600 when missing: never a
   * link, never blocking (an open for writing waits for a FIFO's reader otherwise: {@code
   * O_NONBLOCK} makes it fail at once), and used only when the descriptor shows a regular file
   * owned by {@code owner}. The channel is that descriptor's file reopened through {@code
   * /proc/self/fd/N} ({@link OpenedFile#reopen}), never a path looked up again. The caller closes
   * it.
   *
   * @throws Folder.NotRegularFile if the name is a link, a directory, a FIFO, a socket or a device
   * @throws FileSystemException if the file belongs to another user
   */
  public FileChannel openToAppend(String name, long owner) throws IOException {
    int file = openToWrite(name, owner);
    try {
      return OpenedFile.reopen(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } finally {
      Posix.close(file);
    }
  }

  /**
   * As {@link #openToAppend}, the descriptor itself ({@code O_WRONLY}), which the caller closes.
   */
  public int openToWrite(String name, long owner) throws IOException {
    return folder.openToWrite(name, owner);
  }

  /** Closes the folder as {@link Folder#close} does. */
  @Override
  public void close() {
    folder.close();
  }
}

package notesmcp.files;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A file of a folder this user keeps for itself (the search index's, in the user's cache folder)
 * held open after the careful open a note gets: never through a link, never blocking on a FIFO or a
 * device, and kept only when its descriptor shows a regular file owned by this user. For a library
 * that opens its files by path (the search engine), {@link #path} names the file actually opened,
 * {@code /proc/self/fd/N}: what the library opens there is the file checked here, whatever another
 * process has put at the name since. Opening a magic link to a regular file never blocks.
 *
 * <p>Not thread-safe: its opener uses it and closes it, and {@link #path} is valid until then.
 */
public final class OwnFile implements AutoCloseable {
  /** Only opens: the change rule's margin, for a read of a note, is no part of it. */
  private static final ChangeRule RULE = new ChangeRule(true, Duration.ZERO);

  private int fd;

  private OwnFile(int fd) {
    this.fd = fd;
  }

  /**
   * {@code name} in {@code folder} (an absolute path whose last part is not a link), opened to be
   * read.
   *
   * @throws java.nio.file.NoSuchFileException if nothing is at the name
   * @throws IOException if it is a link, a directory, a FIFO, a socket or a device, or another
   *     user's (the message says which), or changed while it was being opened
   */
  public static OwnFile open(Path folder, String name) throws IOException {
    Posix.require();
    long me = Posix.userId();
    try (Folder holder = Folder.openOnce(folder, RULE);
        OpenedFile file = holder.open(name)) {
      if (file.owner() != me) {
        throw new FileSystemException(
            name,
            null,
            "it is owned by uid " + file.owner() + ", not by this user (uid " + me + ")");
      }
      return new OwnFile(file.release());
    }
  }

  /**
   * {@code name} in {@code folder} opened to be written (a lock file), created 0600 when missing,
   * on the same terms ({@link Folder#openToWrite}).
   */
  public static OwnFile openToWrite(Path folder, String name) throws IOException {
    Posix.require();
    try (Folder holder = Folder.openOnce(folder, RULE)) {
      return new OwnFile(holder.openToWrite(name, Posix.userId()));
    }
  }

  /**
   * Forces the entries of {@code folder} to disk ({@code fsync} of the folder, opened {@code
   * O_DIRECTORY|O_NOFOLLOW}: a FIFO or a link put in its place is refused, never waited on).
   */
  public static void syncFolder(Path folder) throws IOException {
    Posix.require();
    try (Folder holder = Folder.openOnce(folder, RULE)) {
      int result = Posix.sync(holder.descriptor());
      if (result < 0) {
        throw Folder.failure(folder.toString(), result);
      }
    }
  }

  /** {@code /proc/self/fd/N}: the file this holds open, for a library that opens by path. */
  public Path path() {
    if (fd < 0) {
      throw new IllegalStateException("closed");
    }
    return Path.of("/proc/self/fd/" + fd);
  }

  /** Releases the descriptor; a second call does nothing. */
  @Override
  public void close() {
    if (fd >= 0) {
      Posix.close(fd);
      fd = -1;
    }
  }
}

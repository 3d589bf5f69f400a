package notesmcp.search;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.Map;
import notesmcp.files.OwnFile;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.Lock;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.store.NIOFSDirectory;

/**
 * A kept index's folder as the engine hands it to Lucene ({@link IndexFolder}): Lucene's own {@link
 * NIOFSDirectory}, except that no file is ever opened by its name with a plain open. A FIFO, a
 * link, a folder, a device or another user's file put in place of an index file by another process
 * would otherwise be followed, or block the open for ever (a FIFO's open waits for a writer), and
 * with it the search and the server's exit.
 *
 * <p>Each file Lucene opens to read, to sync or to lock is opened carefully first ({@link OwnFile}:
 * never a link, never blocking, a regular file of this user's as its descriptor shows) and reached
 * through that descriptor, {@code /proc/self/fd/N}, never through its name again: a read by
 * Lucene's own reader of the folder {@code /proc/self/fd}, a sync by {@code fsync} of a channel
 * onto it, the write lock by an {@code fcntl} lock on it (the lock Lucene's {@code
 * NativeFSLockFactory} takes, so a process using that one and this one exclude each other). The
 * folder's own sync opens it {@code O_DIRECTORY|O_NOFOLLOW}. What Lucene does by name besides
 * (listing, creating a file exclusively, renaming, deleting, a file's length) opens no file and
 * never blocks. {@link #stray} checks every entry of the folder before Lucene first looks at it.
 */
final class KeptDirectory extends FilterDirectory {
  /** Lucene's reader over the process's own descriptors: a name there is a descriptor's number. */
  private static final NIOFSDirectory DESCRIPTORS = descriptors();

  private final Path folder;

  KeptDirectory(Path folder) throws IOException {
    super(new NIOFSDirectory(folder));
    this.folder = folder;
  }

  private static NIOFSDirectory descriptors() {
    try {
      return new NIOFSDirectory(Path.of("/proc/self/fd"));
    } catch (IOException e) {
      throw new IllegalStateException("/proc/self/fd cannot be read", e);
    }
  }

  /**
   * The first entry of {@code folder} that is not a regular file of the user {@code uid}, as "NAME
   * is ...", or null when every one is. Looks at names only ({@code lstat}), opening none.
   */
  static String stray(Path folder, long uid) throws IOException {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
      for (Path entry : entries) {
        Map<String, Object> unix =
            Files.readAttributes(entry, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS);
        int type = ((Number) unix.get("mode")).intValue() & 0170000;
        String name = entry.getFileName().toString();
        if (type != 0100000) {
          return name + " is " + kind(type) + ", not a regular file";
        }
        long owner = ((Number) unix.get("uid")).longValue();
        if (owner != uid) {
          return name + " is owned by uid " + owner + ", not by this user (uid " + uid + ")";
        }
      }
    }
    return null;
  }

  private static String kind(int type) {
    switch (type) {
      case 0120000:
        return "a symbolic link";
      case 0040000:
        return "a directory";
      case 0010000:
        return "a FIFO";
      case 0140000:
        return "a socket";
      default:
        return "a device";
    }
  }

  @Override
  public IndexInput openInput(String name, IOContext context) throws IOException {
    ensureOpen();
    try (OwnFile file = OwnFile.open(folder, name)) {
      return DESCRIPTORS.openInput(file.path().getFileName().toString(), context);
    }
  }

  @Override
  public void sync(Collection<String> names) throws IOException {
    ensureOpen();
    for (String name : names) {
      try (OwnFile file = OwnFile.open(folder, name);
          FileChannel channel = FileChannel.open(file.path(), StandardOpenOption.WRITE)) {
        channel.force(true);
      }
    }
  }

  @Override
  public void syncMetaData() throws IOException {
    ensureOpen();
    OwnFile.syncFolder(folder);
  }

  @Override
  public Lock obtainLock(String name) throws IOException {
    ensureOpen();
    FileChannel channel;
    Object identity;
    try (OwnFile file = OwnFile.openToWrite(folder, name)) {
      identity = Files.readAttributes(file.path(), "unix:dev,ino");
      channel = FileChannel.open(file.path(), StandardOpenOption.WRITE);
    }
    FileLock lock = null;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException held) {
      // held by another index of this process
    } finally {
      if (lock == null) {
        channel.close();
      }
    }
    if (lock == null) {
      throw new LockObtainFailedException("held by another process: " + folder.resolve(name));
    }
    return new Held(name, channel, lock, identity);
  }

  /** The write lock, held while its channel is open and its name names the file locked. */
  private final class Held extends Lock {
    private final String name;
    private final FileChannel channel;
    private final FileLock lock;
    private final Object identity;
    private volatile boolean closed;

    Held(String name, FileChannel channel, FileLock lock, Object identity) {
      this.name = name;
      this.channel = channel;
      this.lock = lock;
      this.identity = identity;
    }

    @Override
    public void ensureValid() throws IOException {
      if (closed || !lock.isValid()) {
        throw new AlreadyClosedException("the lock " + folder.resolve(name) + " was released");
      }
      Object now;
      try {
        now = Files.readAttributes(folder.resolve(name), "unix:dev,ino", LinkOption.NOFOLLOW_LINKS);
      } catch (IOException e) {
        now = null;
      }
      if (!identity.equals(now)) {
        throw new AlreadyClosedException(
            "the lock file "
                + folder.resolve(name)
                + " was removed or replaced by another process");
      }
    }

    @Override
    public void close() throws IOException {
      closed = true;
      channel.close();
    }
  }
}

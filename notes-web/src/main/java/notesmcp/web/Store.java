package notesmcp.web;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import notesmcp.files.Posix;
import notesmcp.files.TrustedFile;

/**
 * The owner's OAuth state on disk (docs/oauth.md, "What is kept, and where"): the folder {@value
 * #NAME} inside the proposals folder, {@code 0700}, holding one JSON file each for the signing key,
 * the registered clients, the grants, the owner's passphrase and the pending sign-in links, every
 * one {@code 0600}.
 *
 * <p>Files are read like the policy file ({@link TrustedFile}: owned by this user or root, writable
 * by nobody else, nor any folder above; never a link, a FIFO or a device; read up to a bound) and,
 * since they hold secrets or their hashes, must also be readable by this user alone. They are
 * written whole to a new owner-only file beside the old one, synced, then renamed over it, so a
 * reader sees the old file or the new, never half of one. Every read-change-write, by the server or
 * by an {@code owner} command, holds {@link #locked}: an in-process lock, then an exclusive lock on
 * the file {@code lock}, so two processes never lose each other's change.
 */
final class Store {
  static final String NAME = "oauth";

  private static final String LOCK = "lock";

  private final Path dir;
  private final ReentrantLock inProcess = new ReentrantLock();

  private Store(Path dir) {
    this.dir = dir;
  }

  /** Work done under the folder's lock. */
  interface Locked<T> {
    T run() throws IOException;
  }

  /** The folder cannot hold the state; the message says why. */
  static final class Unusable extends Exception {
    private static final long serialVersionUID = 1L;

    Unusable(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * The state folder in {@code proposals}, made {@code 0700} if it is missing. It must be a folder
   * (not a link) owned by this user and open to nobody else.
   */
  static Store in(Path proposals) throws Unusable {
    Path dir = proposals.resolve(NAME);
    try {
      Posix.require();
      if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
        try {
          Files.createDirectory(
              dir,
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (FileAlreadyExistsException raced) {
          // made by another process meanwhile: checked below
        }
      }
      if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
        throw new Unusable(dir + " is not a folder");
      }
      Map<String, Object> a = Files.readAttributes(dir, "unix:uid,mode", LinkOption.NOFOLLOW_LINKS);
      if (((Integer) a.get("uid")).longValue() != new UnixSystem().getUid()) {
        throw new Unusable(dir + " belongs to another user");
      }
      int mode = (Integer) a.get("mode");
      if ((mode & 0077) != 0) {
        throw new Unusable(
            dir
                + " is open to others (mode "
                + Integer.toOctalString(mode & 0777)
                + "); it holds secrets: run chmod 700 "
                + dir);
      }
    } catch (IOException e) {
      throw new Unusable(dir + ": " + e.getMessage());
    }
    return new Store(dir);
  }

  Path dir() {
    return dir;
  }

  /**
   * The bytes of file {@code name}, or null when it does not exist.
   *
   * @throws IOException when it cannot be read, is larger than {@code max}, or is not this user's
   *     alone
   */
  byte[] read(String name, int max) throws IOException {
    Path file = dir.resolve(name);
    byte[] bytes;
    try {
      bytes = TrustedFile.read(file, max);
    } catch (NoSuchFileException e) {
      return null;
    }
    if (bytes == null) {
      throw new IOException(file + " is larger than " + max + " bytes");
    }
    int mode = (Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS);
    if ((mode & 0077) != 0) {
      throw new IOException(
          file
              + " is open to others (mode "
              + Integer.toOctalString(mode & 0777)
              + "); it holds secrets: run chmod 600 "
              + file);
    }
    return bytes;
  }

  /** Replaces file {@code name} with {@code bytes}, atomically, owner-only. */
  void write(String name, byte[] bytes) throws IOException {
    TrustedFile.replace(dir.resolve(name), bytes);
  }

  /** Runs {@code work} holding the in-process lock, then the folder's file lock. */
  <T> T locked(Locked<T> work) throws IOException {
    inProcess.lock();
    try (FileChannel channel =
            FileChannel.open(
                dir.resolve(LOCK),
                Set.of(
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rw-------")));
        FileLock held = channel.lock()) {
      assert held.isValid();
      return work.run();
    } finally {
      inProcess.unlock();
    }
  }

  /**
   * File {@code name}'s identity (device, inode, size, change and modification times), or null when
   * it is missing: a reader that kept what it read compares it to know when to read again.
   */
  String identity(String name) {
    return TrustedFile.identity(dir.resolve(name), false);
  }
}

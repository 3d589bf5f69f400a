package notesmcp.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;

/**
 * A file of trusted configuration (the policy file), read as carefully as a note and refused when
 * anyone but this user (or root) could have written it or could replace it ({@code
 * docs/behaviour.md}, "Command line"):
 *
 * <ol>
 *   <li>The path is resolved to its real path (links in it are followed once, here, as for {@code
 *       -proposals}).
 *   <li>Every folder of the real path, from {@code /} down, is opened by descriptor relative to the
 *       one above it, never through a link (one swapped in since step 1 is refused, not followed),
 *       and must be owned by this user or root and not writable by group or others, unless it has
 *       the sticky bit (as {@code /tmp}: there nobody else may rename or remove what this user
 *       owns).
 *   <li>The file is opened as a note is ({@link Folder#open}: never a link, never blocking on a
 *       FIFO or device, a regular file), must be owned by this user or root and writable by nobody
 *       else, and is read from its descriptor up to the bound, not up to the size it reports. It
 *       must be the same file, unchanged, across the read; the change margin is not waited for
 *       (only this user or root can write there, and either could change it anyway).
 * </ol>
 *
 * Stateless; any thread. Public for the program's other trusted files (the HTTP server's tokens).
 */
public final class TrustedFile {
  private static final SecureRandom RANDOM = new SecureRandom();

  private TrustedFile() {}

  /**
   * Replaces {@code file}, one of the program's own trusted files (the tokens, the OAuth server's
   * state), with {@code bytes}: a new owner-only file beside it under a random name, synced,
   * renamed over it, and the folder synced; a crash leaves the old file or the new one, never half
   * of one.
   */
  public static void replace(Path file, byte[] bytes) throws IOException {
    Path folder = file.toAbsolutePath().getParent();
    Path temporary = null;
    for (int attempt = 0; temporary == null; attempt++) {
      Path candidate =
          folder.resolve("." + file.getFileName() + ".tmp-" + Long.toHexString(RANDOM.nextLong()));
      try {
        Files.createFile(
            candidate,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        temporary = candidate;
      } catch (FileAlreadyExistsException e) {
        if (attempt > 8) {
          throw e;
        }
      }
    }
    try {
      try (FileChannel channel =
          FileChannel.open(temporary, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        channel.force(true);
      }
      Files.move(
          temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      temporary = null;
      try (FileChannel directory = FileChannel.open(folder, StandardOpenOption.READ)) {
        directory.force(true);
      }
    } finally {
      if (temporary != null) {
        Files.deleteIfExists(temporary);
      }
    }
  }

  /**
   * The identity of the file at {@code file} (device, inode, size, change and modification times),
   * or null when it is missing: a reader that kept what it read compares it to know when to read
   * again. {@code followLinks} as the reader resolves the name.
   */
  public static String identity(Path file, boolean followLinks) {
    try {
      Map<String, Object> a =
          followLinks
              ? Files.readAttributes(file, "unix:dev,ino,size,ctime,lastModifiedTime")
              : Files.readAttributes(
                  file, "unix:dev,ino,size,ctime,lastModifiedTime", LinkOption.NOFOLLOW_LINKS);
      return a.get("dev")
          + ":"
          + a.get("ino")
          + ":"
          + a.get("size")
          + ":"
          + a.get("ctime")
          + ":"
          + a.get("lastModifiedTime");
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return null;
    }
  }

  /** Why a trusted file cannot be used; the message says what to do. */
  public static final class Refused extends IOException {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  /**
   * The bytes of {@code file}, or null when it holds more than {@code max}.
   *
   * @throws Refused if it, or a folder above it, may be written by someone else, or is not a
   *     regular file
   * @throws IOException if it cannot be read (missing, permission denied, ...)
   */
  public static byte[] read(Path file, int max) throws IOException {
    Posix.require();
    Path real = file.toRealPath();
    Path parent = real.getParent();
    if (parent == null) {
      throw new Refused("is not a file");
    }
    long me = Posix.userId();
    // No margin: only this user or root can write where the file is, and either could change
    // what it says anyway; it must still be the same file, unchanged, across the read.
    ChangeRule rule = new ChangeRule(true, Duration.ZERO);
    Folder folder = Folder.openOnce(real.getRoot(), rule);
    try {
      String problem = folderProblem(folder.attributesWhenOpened(), me);
      if (problem != null) {
        throw new Refused("its folder " + real.getRoot() + " " + problem);
      }
      Path reached = real.getRoot();
      for (Path part : parent) {
        reached = reached.resolve(part);
        Folder next = openPlain(folder, part.toString(), reached);
        folder.close();
        folder = next;
        problem = folderProblem(folder.attributesWhenOpened(), me);
        if (problem != null) {
          throw new Refused("its folder " + reached + " " + problem);
        }
      }
      Folder holder = folder;
      String name = real.getFileName().toString();
      return OpenedFile.patiently(
          new OpenedFile.Attempt<byte[]>() {
            @Override
            public byte[] run() throws IOException {
              try (OpenedFile opened = holder.open(name, "it")) {
                long owner = opened.owner();
                if (owner != me && owner != 0) {
                  throw new Refused(
                      "is owned by uid " + owner + ", not by this user (uid " + me + ") or root");
                }
                int mode = opened.permissions();
                if ((mode & 0022) != 0) {
                  throw new Refused(
                      "is writable by "
                          + ((mode & 0002) != 0 ? "every user" : "its group")
                          + " (mode "
                          + ChangeRule.octal(mode)
                          + "); run: chmod go-w "
                          + real);
                }
                return opened.readAll(max);
              }
            }
          });
    } catch (Folder.NotRegularFile e) {
      // "it is a special file (FIFO, socket or device), not a regular file"
      throw new Refused(e.getMessage().substring("it ".length()));
    } finally {
      folder.close();
    }
  }

  /** One folder below {@code folder}, by descriptor, never a link; any file system. */
  private static Folder openPlain(Folder folder, String name, Path reached) throws IOException {
    try {
      return folder.anyFolder(name);
    } catch (Folder.NotAFolder e) {
      throw new Refused(
          "changed while it was being opened: " + reached + " " + e.problem().substring(3));
    }
  }

  /** Why a folder above a trusted file may let someone else replace it, or null. */
  private static String folderProblem(long[] folder, long me) {
    long owner = folder[Posix.OWNER];
    int mode = (int) folder[Posix.MODE];
    if (owner != me && owner != 0) {
      return "is owned by uid " + owner + ", not by this user (uid " + me + ") or root";
    }
    boolean sticky = (mode & 01000) != 0;
    if ((mode & 0022) != 0 && !sticky) {
      return "is writable by "
          + ((mode & 0002) != 0 ? "every user" : "its group")
          + " (mode "
          + ChangeRule.octal(mode)
          + "), so someone else could replace the file; keep it in a folder only you can write";
    }
    return null;
  }
}

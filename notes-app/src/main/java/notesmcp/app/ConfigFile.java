package notesmcp.app;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Set;
import notesmcp.files.FileProblem;
import notesmcp.files.OwnFile;

/**
 * One host configuration file as {@code config --install} reads and replaces it: read as a note is
 * read ({@link OwnFile}: never through a link, never blocking on a FIFO or a device, only a regular
 * file of this user's, as its descriptor shows), replaced atomically (a temporary file in the same
 * folder, written, flushed to disk, renamed over the old one, the folder flushed), the previous
 * file kept beside it as {@code NAME.bak-YYYYMMDDTHHMMSSZ}, its permissions kept; a new file is
 * {@code 0600} and a folder made for it {@code 0700}. A file that is a symbolic link (a dotfiles
 * manager's, say) is refused, never written through: the link's target may be shared or under
 * version control, and replacing the link by a file would silently detach it. The folders above it
 * may be links.
 */
final class ConfigFile {
  /** Larger than any configuration a host writes; a bigger file is refused, not read. */
  static final long MAX_BYTES = 16L * 1024 * 1024;

  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rw-------");
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  /** The file cannot be used; nothing was written. */
  static final class Unusable extends Exception {
    private static final long serialVersionUID = 1L;

    Unusable(String message) {
      super(message);
    }
  }

  final Path path;
  private byte[] read;

  ConfigFile(Path path) {
    this.path = path.toAbsolutePath().normalize();
  }

  /** The file's text, or null when there is none. */
  String read() throws Unusable {
    if (Files.isSymbolicLink(path)) {
      String target;
      try {
        target = Files.readSymbolicLink(path).toString();
      } catch (IOException e) {
        target = "?";
      }
      throw new Unusable(
          path
              + " is a symbolic link (to "
              + target
              + "); config --install does not write through links, so nothing was written:"
              + " run config without --install and paste the entry into the file it links to");
    }
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      read = null;
      return null;
    }
    if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
      throw new Unusable(path + " is not a regular file; nothing was written");
    }
    try {
      read = readCarefully();
    } catch (IOException e) {
      throw new Unusable("cannot read " + path + " (" + why(e) + "); nothing was written");
    }
    if (read == null) {
      throw new Unusable(path + " is larger than " + MAX_BYTES + " bytes; nothing was written");
    }
    try {
      CharBuffer text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(read));
      String string = text.toString();
      return string.startsWith("\uFEFF") ? string.substring(1) : string;
    } catch (CharacterCodingException e) {
      throw new Unusable(path + " is not UTF-8 text; nothing was written");
    }
  }

  /**
   * Replaces the file read by {@link #read} with {@code text}, keeping the previous one as a backup
   * beside it; returns the backup's path, or null when there was no file.
   *
   * @throws Unusable when nothing could be written (an unwritable folder, say), or the file changed
   *     since it was read; the file is then as it was
   */
  Path write(String text) throws Unusable {
    Path folder = path.getParent();
    try {
      makeFolders(folder);
    } catch (IOException e) {
      throw new Unusable(
          "cannot make the folder "
              + folder
              + " ("
              + FileProblem.describe(e)
              + "); nothing was written");
    }
    Set<PosixFilePermission> mode = OWNER_ONLY;
    Path temp = null;
    try {
      if (read != null) {
        mode = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
      }
      temp =
          folder.resolve("." + path.getFileName() + ".notes-mcp-" + ProcessHandle.current().pid());
      Files.deleteIfExists(temp);
      writeNew(temp, text.getBytes(StandardCharsets.UTF_8), mode);
      Path backup = null;
      if (read != null) {
        if (!Arrays.equals(read, current())) {
          throw new Unusable(
              path + " changed while config was writing it; nothing was written: run config again");
        }
        backup = backup(mode);
      }
      Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      temp = null;
      syncFolder(folder);
      return backup;
    } catch (IOException e) {
      throw new Unusable(
          "cannot write " + path + " (" + FileProblem.describe(e) + "); nothing was written");
    } finally {
      if (temp != null) {
        try {
          Files.deleteIfExists(temp);
        } catch (IOException e) {
          // left behind; its name says whose it is
        }
      }
    }
  }

  /**
   * The file as it is now, or null when it is gone or is no longer a regular file of this user's
   * (so it changed since it was read).
   */
  private byte[] current() {
    try {
      return readCarefully();
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * The file's bytes, read through the careful open ({@link OwnFile}) in its folder's real path
   * (the folders above it may be links), or null when it holds more than {@link #MAX_BYTES}.
   */
  private byte[] readCarefully() throws IOException {
    try (OwnFile file = OwnFile.open(path.getParent().toRealPath(), path.getFileName().toString());
        FileChannel channel = FileChannel.open(file.path(), StandardOpenOption.READ)) {
      if (channel.size() > MAX_BYTES) {
        return null;
      }
      ByteBuffer buffer = ByteBuffer.allocate((int) channel.size());
      while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
        // reads until full or end
      }
      return Arrays.copyOf(buffer.array(), buffer.position());
    }
  }

  /** A failed read in words: the system's reason, or the careful open's own message. */
  private static String why(IOException e) {
    return e instanceof FileSystemException || e.getMessage() == null
        ? FileProblem.describe(e)
        : e.getMessage();
  }

  /** A copy of the previous file, named for this moment; a name taken already gets a number. */
  private Path backup(Set<PosixFilePermission> mode) throws IOException {
    String stamp = STAMP.format(Instant.now());
    for (int i = 0; ; i++) {
      Path backup =
          path.resolveSibling(path.getFileName() + ".bak-" + stamp + (i == 0 ? "" : "-" + i));
      try {
        writeNew(backup, read, mode);
        return backup;
      } catch (FileAlreadyExistsException e) {
        // next number
      }
    }
  }

  private static void writeNew(Path file, byte[] bytes, Set<PosixFilePermission> mode)
      throws IOException {
    try (FileChannel channel =
        FileChannel.open(
            file,
            Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
            PosixFilePermissions.asFileAttribute(OWNER_ONLY))) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      channel.force(true);
    }
    Files.setPosixFilePermissions(file, mode);
  }

  /** Makes each missing folder {@code 0700}, from the top down. */
  private static void makeFolders(Path folder) throws IOException {
    if (Files.isDirectory(folder)) {
      return;
    }
    makeFolders(folder.getParent());
    Files.createDirectory(
        folder, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
  }

  private static void syncFolder(Path folder) {
    try {
      OwnFile.syncFolder(folder.toRealPath());
    } catch (IOException e) {
      // the rename is done; only its durability across a power cut is less certain
    }
  }
}

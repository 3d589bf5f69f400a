package notesmcp.policy;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * A directory opened once, by descriptor, at start-up: the workspace root, or the proposals folder.
 * Every file in it is looked up relative to that descriptor ({@code openat}, {@code fstatat}),
 * never by path, so renaming or replacing the folder or any of its parents later changes nothing
 * about which directory is read. The descriptor is never closed: in the program each folder is
 * opened once and lives as long as the process (closing it while another thread may still use its
 * number could make that thread look up names in whatever the number is reused for).
 *
 * <p>{@link #open} is the one careful read of the program, used by the tools ({@link Workspace})
 * and by the review ({@link ProposalDirectory}, {@link Approvals}): a file is opened without
 * following links and without blocking, and every check holds for the file actually opened
 * (docs/behaviour.md, "What holds against other processes"). See {@link OpenedFile} for what the
 * caller then checks. Thread-safe: immutable.
 */
final class Folder {
  private final int fd;

  private Folder(int fd) {
    this.fd = fd;
  }

  /**
   * Opens the directory at {@code realPath} (an absolute path whose last part is not a link).
   *
   * @throws Posix.Unavailable if the native library is missing: nothing can be read safely
   */
  static Folder open(Path realPath) throws IOException {
    Posix.require();
    long[] attributes = new long[Posix.ATTRIBUTES];
    String text = realPath.toString();
    int fd = Posix.openDirectory(bytesOf(realPath, text), attributes);
    if (fd == -Posix.ELOOP || fd == -Posix.ENOTDIR) {
      throw new NotDirectoryException(text);
    }
    if (fd < 0) {
      throw failure(text, fd);
    }
    return new Folder(fd);
  }

  /**
   * The bytes the system knows {@code path} by. The JVM keeps them behind its text, which it
   * decodes with its file-name encoding ({@code sun.jnu.encoding}, from the locale); bytes not
   * valid in that encoding become U+FFFD, and such text, encoded again, names some other folder
   * (the real path of a link to {@code caf\xe9} would open {@code caf\xef\xbf\xbd}). So a path
   * whose text does not turn back into the same path is refused; any other is encoded as the JVM
   * encodes paths.
   */
  static byte[] bytesOf(Path path, String text) throws FileSystemException {
    Charset encoding = Charset.defaultCharset();
    try {
      encoding = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
      if (Path.of(text).equals(path)) {
        return text.getBytes(encoding);
      }
    } catch (IllegalArgumentException e) {
      // an InvalidPathException, or an unknown encoding: refused below
    }
    throw new FileSystemException(
        text.replace('\uFFFD', '?'),
        null,
        "its real path is not valid " + encoding.name() + ", this JVM's file-name encoding");
  }

  /**
   * The name's own attributes, a link described and never followed ({@code lstat}).
   *
   * @throws NoSuchFileException if nothing is at the name
   */
  long[] attributesOf(String name) throws IOException {
    long[] attributes = new long[Posix.ATTRIBUTES];
    int result = Posix.statAt(fd, bytes(name), attributes);
    if (result < 0) {
      throw failure(name, result);
    }
    return attributes;
  }

  /**
   * The careful open: the name is inspected without following a link ({@code lstat}) and must be a
   * regular file; it is then opened relative to this folder with {@code O_NONBLOCK|O_NOFOLLOW}, and
   * the descriptor ({@code fstat}) must be a regular file with the device and inode the name
   * showed. The caller checks links, size and owner on the returned file and reads from it.
   *
   * @throws NotRegularFile if the name is not a regular file; nothing was opened then
   * @throws ChangedWhileOpening if what was opened is not what the name showed
   * @throws NoSuchFileException if nothing is at the name
   */
  OpenedFile open(String name) throws IOException {
    byte[] bytes = bytes(name);
    long[] named = new long[Posix.ATTRIBUTES];
    int result = Posix.statAt(fd, bytes, named);
    if (result < 0) {
      throw failure(name, result);
    }
    if (!OpenedFile.isRegular(named)) {
      throw new NotRegularFile(name, named);
    }
    long[] opened = new long[Posix.ATTRIBUTES];
    int descriptor = Posix.openAt(fd, bytes, opened);
    if (descriptor == -Posix.ELOOP || descriptor == -Posix.ENOENT || descriptor == -Posix.ENXIO) {
      // A link, nothing, or a socket where a regular file was a moment ago.
      throw new ChangedWhileOpening(name);
    }
    if (descriptor < 0) {
      throw failure(name, descriptor);
    }
    OpenedFile file = new OpenedFile(descriptor, named, opened);
    if (!file.isWhatTheNameShowed()) {
      file.close();
      throw new ChangedWhileOpening(name);
    }
    return file;
  }

  private static byte[] bytes(String name) {
    // A name here is one plain file name from the allow-list or a record's id: never a path.
    if (name.isEmpty() || name.indexOf('/') >= 0 || name.equals(".") || name.equals("..")) {
      throw new IllegalArgumentException("not a file name: " + Quote.of(name));
    }
    return name.getBytes(StandardCharsets.UTF_8);
  }

  static IOException failure(String name, int negativeErrno) {
    int error = -negativeErrno;
    if (error == Posix.ENOENT) {
      return new NoSuchFileException(name);
    }
    if (error == Posix.EACCES) {
      return new AccessDeniedException(name);
    }
    return new FileSystemException(name, null, Posix.describe(error));
  }

  /** The name is not a regular file: a link, a directory, a FIFO, a socket or a device. */
  static final class NotRegularFile extends IOException {
    private static final long serialVersionUID = 1L;

    NotRegularFile(String name, long[] attributes) {
      super(name + " is " + kindOf(attributes) + ", not a regular file");
    }

    private static String kindOf(long[] attributes) {
      switch ((int) attributes[Posix.MODE] & Posix.S_IFMT) {
        case Posix.S_IFLNK:
          return "a symbolic link (links are never followed)";
        case Posix.S_IFDIR:
          return "a directory";
        default:
          return "a special file (FIFO, socket or device)";
      }
    }
  }

  /** The file opened is not the one the name showed a moment before: another process changed it. */
  static final class ChangedWhileOpening extends IOException {
    private static final long serialVersionUID = 1L;

    ChangedWhileOpening(String name) {
      super(name + " changed while it was being opened; try again");
    }
  }
}

package notesmcp.policy;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;

/**
 * The POSIX calls Java 17's standard library lacks, from the project's own {@code libnotesmcp.so}
 * (source: {@code notes-policy/src/main/c/notesmcp.c}): a non-blocking open that never follows a
 * link, relative to a directory descriptor, and {@code fstat} of the descriptor opened (CONTRACT
 * §3: the checks hold "for the file actually opened ... as fstat gives them"; issue 8). Only {@link
 * Folder} and {@link OpenedFile} call them.
 *
 * <p>Where the library is: {@code native/libnotesmcp.so} beside the jar or classes folder that
 * holds this class (its code source), so {@code notes-app/target/notes-mcp.jar} loads {@code
 * notes-app/target/native/libnotesmcp.so}, and notes-policy's own {@code target/classes} loads
 * {@code target/native/libnotesmcp.so}. When it cannot be loaded, {@link #require} says so; nothing
 * falls back to a path-based read.
 *
 * <p>Every native function returns a non-negative result or {@code -errno} and never throws.
 * Stateless; any thread.
 */
public final class Posix {
  /** Linux's error numbers (asm-generic/errno-base.h, errno.h), the only system it is built for. */
  static final int ENOENT = 2;

  static final int ENXIO = 6;
  static final int EACCES = 13;
  static final int ENOTDIR = 20;
  static final int ELOOP = 40;

  /** The layout of an attributes array, as the C side fills it from a {@code struct stat}. */
  static final int MODE = 0;

  static final int LINKS = 1;
  static final int OWNER = 2;
  static final int DEVICE = 3;
  static final int INODE = 4;
  static final int SIZE = 5;
  static final int ATTRIBUTES = 6;

  /** The file type bits of a mode, and the types told apart in messages. */
  static final int S_IFMT = 0170000;

  static final int S_IFREG = 0100000;
  static final int S_IFDIR = 0040000;
  static final int S_IFLNK = 0120000;

  private static final String FILE_NAME = "libnotesmcp.so";
  private static final Path LIBRARY;
  private static final String PROBLEM;

  static {
    Path library = null;
    String problem = null;
    try {
      library = besideCodeSource();
      System.load(library.toString());
    } catch (UnsatisfiedLinkError e) {
      problem = e.getMessage();
    } catch (URISyntaxException | RuntimeException e) {
      // A code source that is not a file (a jlink image's jrt:/, a custom class loader's URL).
      problem = "the classes' location is not a file: " + e;
    }
    LIBRARY = library;
    PROBLEM = problem;
  }

  private Posix() {}

  /** Thrown when the library is missing or unusable: the program must not start without it. */
  public static final class Unavailable extends IOException {
    private static final long serialVersionUID = 1L;

    Unavailable(String message) {
      super(message);
    }
  }

  /**
   * Returns normally when the library is loaded.
   *
   * @throws Unavailable saying which file was looked for and why it could not be used
   */
  public static void require() throws Unavailable {
    if (PROBLEM != null) {
      throw new Unavailable(
          "the native library "
              + (LIBRARY == null ? FILE_NAME : LIBRARY.toString())
              + " could not be loaded ("
              + PROBLEM
              + "); it is built with the program (mvn package) and must sit in native/ beside"
              + " the jar. Without it notes cannot be read safely, so nothing is served.");
    }
  }

  private static Path besideCodeSource() throws URISyntaxException {
    CodeSource source = Posix.class.getProtectionDomain().getCodeSource();
    if (source == null || source.getLocation() == null) {
      throw new IllegalStateException("no code source");
    }
    // .../target/notes-mcp.jar or .../target/classes/: its parent holds native/.
    Path jarOrClasses = Path.of(source.getLocation().toURI());
    return jarOrClasses.toAbsolutePath().getParent().resolve("native").resolve(FILE_NAME);
  }

  /** {@code open(path, O_RDONLY|O_DIRECTORY|O_NOFOLLOW|O_CLOEXEC)} and its fstat. */
  static native int openDirectory(byte[] path, long[] attributes);

  /** {@code fstatat(dir, name, AT_SYMLINK_NOFOLLOW)}: the name's own attributes, never a target. */
  static native int statAt(int dir, byte[] name, long[] attributes);

  /**
   * {@code openat(dir, name, O_RDONLY|O_NONBLOCK|O_NOFOLLOW|O_CLOEXEC|O_NOCTTY)} and fstat of the
   * descriptor: never follows a link, never waits on a FIFO or device.
   */
  static native int openAt(int dir, byte[] name, long[] attributes);

  /** Reads into {@code buffer[offset, offset+length)} until it is full or the file ends. */
  static native int read(int fd, byte[] buffer, int offset, int length);

  static native int close(int fd);

  /** The system's text for an error number. */
  static native String describe(int error);
}

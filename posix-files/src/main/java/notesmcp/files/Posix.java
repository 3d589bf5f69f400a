package notesmcp.files;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.CodeSource;
import java.util.zip.CRC32;

/**
 * The POSIX calls Java 17's standard library lacks, from the project's own {@code libnotesmcp.so}
 * (source: {@code posix-files/src/main/c/notesmcp.c}; why and how in {@code
 * posix-files/NATIVE.md}): opens that never follow a link and never block, relative to a folder's
 * descriptor; {@code statx} of a name or a descriptor (with nanosecond change and modification
 * times and the mount id); folders read through their descriptor in bounded chunks; inotify; and
 * the descriptor-relative writes of {@link WritableFolder}. The checks of a careful read hold "for
 * the file actually opened", as its descriptor's own attributes give them (docs/behaviour.md, "What
 * holds against other processes"). Only the classes of this package call them; the rest of the
 * program sees {@link Folder}, {@link WritableFolder} and their helpers.
 *
 * <p>Where the library is: {@code native/libnotesmcp.so} beside the jar or classes folder that
 * holds this class (its code source), so {@code notes-app/target/notes-mcp.jar} loads {@code
 * notes-app/target/native/libnotesmcp.so}, and posix-files' own {@code target/classes} loads {@code
 * target/native/libnotesmcp.so}. Before it is mapped it is checked: a regular file, an ELF shared
 * object for x86-64, and exactly the bytes the build made: their size and CRC-32, which the build
 * records in the resource {@value #RECORD} ({@link Record}). A damaged library (a truncated copy,
 * say) would otherwise crash the JVM as it maps it. A checksum, not a cryptographic hash: whoever
 * could write the library could write the record beside this class too, so this catches damage, not
 * forgery; and the JDK's SHA-256 costs 100 ms and more of a cold start (its security providers
 * load), CRC-32 about one (posix-files/NATIVE.md). When the library cannot be used, {@link
 * #require} says so and names the file; nothing falls back to a path-based read.
 *
 * <p>Every native function returns a non-negative result or {@code -errno} and never throws.
 * Stateless; any thread.
 */
public final class Posix {
  /** Linux's error numbers (asm-generic/errno-base.h, errno.h), the only system it is built for. */
  static final int ENOENT = 2;

  static final int EINTR = 4;
  static final int ENXIO = 6;
  static final int EAGAIN = 11;
  static final int EACCES = 13;
  static final int EEXIST = 17;
  static final int EXDEV = 18;
  static final int ENOTDIR = 20;
  static final int EISDIR = 21;
  static final int EINVAL = 22;
  static final int ENOSYS = 38;
  static final int ENOTEMPTY = 39;
  static final int ELOOP = 40;

  /** The layout of an attributes array, as the C side fills it from a {@code struct statx}. */
  public static final int MODE = 0;

  public static final int LINKS = 1;
  public static final int OWNER = 2;
  public static final int GROUP = 3;
  public static final int DEVICE = 4;
  public static final int INODE = 5;
  public static final int SIZE = 6;

  /** Status change time (ctime), nanoseconds since the epoch. */
  public static final int CHANGED = 7;

  /** Modification time (mtime), nanoseconds since the epoch. */
  public static final int MODIFIED = 8;

  /** The mount id ({@code statx}'s {@code STATX_MNT_ID}), or -1 when the kernel gave none. */
  public static final int MOUNT = 9;

  public static final int ATTRIBUTES = 10;

  /** The file type bits of a mode, and the types told apart in messages. */
  public static final int S_IFMT = 0170000;

  public static final int S_IFREG = 0100000;
  public static final int S_IFDIR = 0040000;
  public static final int S_IFLNK = 0120000;

  /** {@link #renameAt}'s flags: replace, never replace, exchange. */
  static final int RENAME_REPLACE = 0;

  static final int RENAME_NOREPLACE = 1;
  static final int RENAME_EXCHANGE = 2;

  /** inotify's event bits (linux/inotify.h), for {@link #watchAdd} and the events read. */
  public static final int IN_MODIFY = 0x2;

  public static final int IN_ATTRIB = 0x4;
  public static final int IN_CLOSE_WRITE = 0x8;
  public static final int IN_MOVED_FROM = 0x40;
  public static final int IN_MOVED_TO = 0x80;
  public static final int IN_CREATE = 0x100;
  public static final int IN_DELETE = 0x200;
  public static final int IN_DELETE_SELF = 0x400;
  public static final int IN_MOVE_SELF = 0x800;
  public static final int IN_UNMOUNT = 0x2000;
  public static final int IN_Q_OVERFLOW = 0x4000;
  public static final int IN_IGNORED = 0x8000;
  public static final int IN_ISDIR = 0x40000000;

  /** {@link #readDirectory}'s {@code d_type} values (dirent.h). */
  public static final int DT_UNKNOWN = 0;

  public static final int DT_DIR = 4;
  public static final int DT_REG = 8;
  public static final int DT_LNK = 10;

  /** The smallest buffer {@link #watchRead} always accepts: one event with the longest name. */
  static final int MIN_EVENT_BUFFER = 16 + 256;

  private static final String FILE_NAME = "libnotesmcp.so";

  /** The resource the build writes beside this class: the library's CRC-32 and size. */
  static final String RECORD = "libnotesmcp.so.crc32";

  /** Far more than the library's size (about 20 KB); a bigger file is not the one built. */
  private static final long MAX_LIBRARY_BYTES = 4L * 1024 * 1024;

  private static final Path LIBRARY;
  private static final String PROBLEM;

  /** Whether this kernel has {@code openat2} (Linux 5.6+); learnt once, at load. */
  public static final boolean HAS_OPENAT2;

  static {
    Path library = null;
    String problem = null;
    try {
      library = besideCodeSource();
      problem = damage(library, recorded());
      if (problem == null) {
        System.load(library.toString());
      }
    } catch (UnsatisfiedLinkError e) {
      problem = e.getMessage();
    } catch (URISyntaxException | RuntimeException e) {
      // A code source that is not a file (a jlink image's jrt:/, a custom class loader's URL).
      problem = "the classes' location is not a file";
    }
    LIBRARY = library;
    PROBLEM = problem;
    HAS_OPENAT2 = problem == null && hasOpenat2() == 1;
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

  /** What the build recorded ("CRC-32 in 8 hex digits, a space, the size"), or null if missing. */
  private static String recorded() {
    try (InputStream in = Posix.class.getResourceAsStream(RECORD)) {
      if (in == null) {
        return null;
      }
      String text = new String(in.readNBytes(64), StandardCharsets.US_ASCII).strip();
      return text.isEmpty() ? null : text;
    } catch (IOException e) {
      return null;
    }
  }

  /** The record of {@code bytes}: their CRC-32 in 8 lower-case hex digits, a space, their size. */
  static String recordOf(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes, 0, bytes.length);
    String hex = Long.toHexString(crc.getValue());
    return "00000000".substring(hex.length()) + hex + " " + bytes.length;
  }

  /**
   * Why {@code library} must not be mapped, or null when it is exactly the library the build made:
   * a regular file (not a link), of a plausible size, an ELF 64-bit little-endian shared object for
   * x86-64, whose {@link #recordOf record} is {@code recorded}. Read with Java's own file API:
   * nothing native is loaded yet.
   */
  static String damage(Path library, String recorded) {
    if (recorded == null) {
      return "the build's record of it (resource "
          + RECORD
          + " beside the class Posix) is missing, so it cannot be checked";
    }
    byte[] bytes;
    try {
      BasicFileAttributes attributes =
          Files.readAttributes(library, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!attributes.isRegularFile()) {
        return "it is not a regular file";
      }
      if (attributes.size() > MAX_LIBRARY_BYTES) {
        return "it is " + attributes.size() + " bytes, more than the library built";
      }
      bytes = readAtMost(library, (int) MAX_LIBRARY_BYTES);
    } catch (IOException e) {
      return "it cannot be read: " + FileProblem.describe(e);
    }
    if (!isElfSharedObjectForX8664(bytes)) {
      return "it is " + bytes.length + " bytes and not an ELF shared object for x86-64";
    }
    String actual = recordOf(bytes);
    if (!actual.equals(recorded)) {
      return "it is damaged or not the one built with this program: CRC-32 and size "
          + actual
          + ", the build recorded "
          + recorded;
    }
    return null;
  }

  /** At most {@code max} bytes, stopping at the end whatever the size said (it may be changing). */
  private static byte[] readAtMost(Path file, int max) throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(max, Math.max(0, channel.size())));
      while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
        // read to the end or the bound
      }
      byte[] bytes = new byte[buffer.position()];
      buffer.flip().get(bytes);
      return bytes;
    }
  }

  /** ELF magic, 64-bit, little-endian, version 1, a shared object ({@code ET_DYN}) for x86-64. */
  static boolean isElfSharedObjectForX8664(byte[] bytes) {
    return bytes.length >= 64
        && bytes[0] == 0x7f
        && bytes[1] == 'E'
        && bytes[2] == 'L'
        && bytes[3] == 'F'
        && bytes[4] == 2 // ELFCLASS64
        && bytes[5] == 1 // ELFDATA2LSB
        && bytes[6] == 1 // EV_CURRENT
        && bytes[16] == 3 // e_type ET_DYN
        && bytes[17] == 0
        && bytes[18] == 62 // e_machine EM_X86_64
        && bytes[19] == 0;
  }

  /**
   * Run by posix-files' build right after it compiles the library: {@code Record LIBRARY RESOURCE}
   * writes the library's {@link #recordOf record} to RESOURCE ({@value #RECORD} among the classes,
   * so it travels in every jar that holds this class).
   */
  public static final class Record {
    private Record() {}

    public static void main(String[] args) throws IOException {
      byte[] library = Files.readAllBytes(Path.of(args[0]));
      Files.writeString(Path.of(args[1]), recordOf(library) + "\n", StandardCharsets.US_ASCII);
    }
  }

  /** {@code open(path, O_RDONLY|O_DIRECTORY|O_NOFOLLOW|O_CLOEXEC)} and its fstat. */
  static native int openDirectory(byte[] path, long[] attributes);

  private static native int hasOpenat2();

  /**
   * One folder {@code name} in the folder {@code dir}, {@code O_DIRECTORY|O_NOFOLLOW}, and its
   * fstat; with {@code beneath} (only where {@link #HAS_OPENAT2}) through {@code openat2} with
   * {@code RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_MAGICLINKS|RESOLVE_NO_XDEV}, so a mount
   * point is refused ({@code -EXDEV}) by the kernel.
   */
  static native int openFolderAt(int dir, byte[] name, boolean beneath, long[] attributes);

  /**
   * A folder several components below {@code dir} ({@code "a/b/c"}) in one {@code openat2} with the
   * same resolve flags: no link, no mount point, nothing above {@code dir}; {@code -ENOSYS} without
   * openat2.
   */
  static native int openFolderBeneath(int dir, byte[] path, long[] attributes);

  /**
   * {@code openat(dir, name, O_PATH|O_DIRECTORY|O_NOFOLLOW|O_CLOEXEC)} and its fstat: a folder to
   * look names up from, which needs only search permission on it.
   */
  static native int openPlaceAt(int dir, byte[] name, long[] attributes);

  /** {@code statx(dir, name, AT_SYMLINK_NOFOLLOW)}: the name's own attributes, never a target. */
  static native int statAt(int dir, byte[] name, long[] attributes);

  /** {@code statx} of an open descriptor (a file or a folder). */
  static native int stat(int fd, long[] attributes);

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

  /** {@code CLOCK_REALTIME}, the clock file times are stamped from, in ns since the epoch. */
  static native long now();

  /** {@code geteuid()}: the user the kernel checks permissions against. */
  public static native long userId();

  /** {@code isatty(fd)}: 1 when {@code fd} is open on a terminal, else 0. */
  private static native int isTerminal(int fd);

  /**
   * Whether {@code fd} (2: stderr) is open on a terminal, as {@code isatty} says: what decides
   * whether a command shows progress in place there ({@code notes-mcp index}). False when the
   * library cannot be loaded.
   */
  public static boolean isTerminalDescriptor(int fd) {
    return PROBLEM == null && isTerminal(fd) == 1;
  }

  /**
   * The next entries of the open folder {@code fd}, packed into {@code buffer} as records of
   * [inode: 8][d_type: 1][name length: 2][name], big-endian, without "." and "..": the bytes
   * packed, 0 at the end, {@code -EINVAL} if the buffer cannot hold the next entry. See {@link
   * Folder.Entries}.
   */
  static native int readDirectory(int fd, byte[] buffer);

  /** {@code openat(dir, ".", O_DIRECTORY|O_NOFOLLOW)}: the same folder, a position of its own. */
  static native int reopenFolder(int dir);

  /** Back to the folder's first entry. */
  static native int rewindDirectory(int fd);

  /** {@code inotify_init1(IN_NONBLOCK|IN_CLOEXEC)}. */
  static native int watchInit();

  /** {@code inotify_add_watch} of the open folder {@code folder}, by /proc/self/fd/N. */
  static native int watchAdd(int inotify, int folder, int mask);

  static native int watchRemove(int inotify, int watch);

  /**
   * The waiting events packed as [watch: 4][mask: 4][cookie: 4][name length: 2][name]: the bytes
   * packed, or {@code -EAGAIN} when none waits. See {@link Watcher}.
   */
  static native int watchRead(int inotify, byte[] buffer);

  /** Waits at most {@code millis} for {@code fd} to be readable: 1, 0 when the time passed. */
  static native int poll(int fd, int millis);

  /**
   * {@code openat(dir, name, O_CREAT|O_EXCL|O_WRONLY|O_NOFOLLOW|O_CLOEXEC, 0600)} and its fstat:
   * {@code -EEXIST} if anything, even a dangling link, is at the name.
   */
  static native int createAt(int dir, byte[] name, long[] attributes);

  /** Writes all of {@code buffer[offset, offset+length)}: {@code length}, or -errno. */
  static native int write(int fd, byte[] buffer, int offset, int length);

  /** {@code fsync} of a file or a folder. */
  static native int sync(int fd);

  /**
   * {@code linkat(fromDir, from, toDir, to, 0)}: a link at {@code from} is linked, not followed.
   */
  static native int linkAt(int fromDir, byte[] from, int toDir, byte[] to);

  /** {@code renameat2} with {@link #RENAME_REPLACE}, {@link #RENAME_NOREPLACE} or exchange. */
  static native int renameAt(int fromDir, byte[] from, int toDir, byte[] to, int flags);

  /** {@code unlinkat(dir, name, folder ? AT_REMOVEDIR : 0)}. */
  static native int unlinkAt(int dir, byte[] name, boolean folder);

  /** {@code mkdirat(dir, name, 0700)}. */
  static native int makeFolderAt(int dir, byte[] name);

  /** {@code flock(fd, LOCK_EX)}, or with {@code LOCK_NB} when {@code wait} is false. */
  static native int lock(int fd, boolean wait);

  /**
   * {@code openat(dir, name, O_CREAT|O_WRONLY|O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC, 0600)} and its
   * fstat: a lock file, or a log to append to ({@link Folder#openToAppend}), created if missing,
   * never a link and never a FIFO's wait.
   */
  static native int openLockAt(int dir, byte[] name, long[] attributes);
}

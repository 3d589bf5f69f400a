package notesmcp.files;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import notesmcp.text.Quote;
import notesmcp.text.Utf8;

/**
 * A directory held by its descriptor: the workspace root or the proposals folder, opened once at
 * start-up by path ({@link #open}), or a folder reached from one ({@link #folder}, {@link #walk}).
 * Every file in it is looked up relative to that descriptor ({@code openat}, {@code statx}), never
 * by path, so renaming or replacing the folder or any of its parents later changes nothing about
 * which directory is read. How a note is reached and read through it is written down in {@code
 * docs/design.md}, "Reading a note".
 *
 * <p>A folder opened by path at start-up lives as long as the process and its {@link #close} does
 * nothing: closing it while another thread may still use its number could make that thread look up
 * names in whatever the number is reused for. A folder reached from another one belongs to whoever
 * reached it, who closes it (try-with-resources); {@link #walk} returns the start folder itself for
 * an empty path, whose close then does nothing, so every caller closes what it is given.
 *
 * <p>{@link #open(String)} is the careful open of the program, used by the tools ({@link
 * the workspace) and by the review (the proposals folder, the commit): opened without
 * following links, without blocking, with every check holding for the file actually opened. See
 * {@link OpenedFile} for what the caller then checks and how it reads.
 *
 * <p>Thread-safe for lookups and opens (the descriptor is fixed); {@link #close} belongs to the one
 * owner. A listing ({@link #entries}) reads through a descriptor of its own.
 */
public final class Folder implements AutoCloseable {
  private final int fd;
  private final boolean owned;
  private final ChangeRule rule;
  private final long[] opened;
  private boolean closed;

  private Folder(int fd, boolean owned, ChangeRule rule, long[] opened) {
    this.fd = fd;
    this.owned = owned;
    this.rule = rule;
    this.opened = opened;
  }

  /** Opens the directory at {@code realPath} under the system's {@link ChangeRule}. */
  public static Folder open(Path realPath) throws IOException {
    return open(realPath, ChangeRule.ofSystem());
  }

  /**
   * Opens the directory at {@code realPath} (an absolute path whose last part is not a link), for
   * the life of the process.
   *
   * @throws Posix.Unavailable if the native library is missing: nothing can be read safely
   * @throws NotDirectoryException if it is a link or not a directory
   */
  public static Folder open(Path realPath, ChangeRule rule) throws IOException {
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
    return new Folder(fd, false, rule, attributes);
  }

  /**
   * Opens the directory at {@code realPath} for a moment: as {@link #open(Path, ChangeRule)}, but
   * its {@link #close} releases it (for the folders above a file of trusted configuration).
   */
  public static Folder openOnce(Path realPath, ChangeRule rule) throws IOException {
    Folder kept = open(realPath, rule);
    return new Folder(kept.fd, true, rule, kept.opened);
  }

  /**
   * The folder {@code name} in this one as a place to look names up from ({@code
   * O_PATH|O_DIRECTORY|O_NOFOLLOW}: only search permission needed), on any file system (for the
   * folders above a trusted file, which a path crosses as it likes); it cannot be listed. The
   * caller checks who may write it, and closes it.
   *
   * @throws NotAFolder if it is a link or not a directory
   */
  public Folder anyFolder(String name) throws IOException {
    checkOpen();
    long[] attributes = new long[Posix.ATTRIBUTES];
    byte[] bytes = bytes(name);
    int sub = Posix.openPlaceAt(fd, bytes, attributes);
    if (sub < 0) {
      // The caller (TrustedFile) says "changed while it was being opened" itself.
      int reason = lookedAtAgain(sub, bytes, attributes);
      throw folderFailure(name, reason == CHANGED ? sub : reason);
    }
    return new Folder(sub, true, rule, attributes);
  }

  /** The rule this folder's reads keep: the one it was opened with. */
  public ChangeRule rule() {
    return rule;
  }

  /** The descriptor, for {@link Watcher} and the natives of this package. */
  int descriptor() {
    checkOpen();
    return fd;
  }

  /** The folder's attributes as it was opened. */
  public long[] attributesWhenOpened() {
    return opened;
  }

  /** The folder's attributes now, from its descriptor ({@code fstat}). */
  public long[] attributes() throws IOException {
    checkOpen();
    long[] attributes = new long[Posix.ATTRIBUTES];
    int result = Posix.stat(fd, attributes);
    if (result < 0) {
      throw failure("the folder", result);
    }
    return attributes;
  }

  /**
   * The bytes the system knows {@code path} by. The JVM keeps them behind its text, which it
   * decodes with its file-name encoding ({@code sun.jnu.encoding}, from the locale); bytes not
   * valid in that encoding become U+FFFD, and such text, encoded again, names some other folder
   * (the real path of a link to {@code caf\xe9} would open {@code caf\xef\xbf\xbd}). So a path
   * whose text does not turn back into the same path is refused; any other is encoded as the JVM
   * encodes paths.
   */
  public static byte[] bytesOf(Path path, String text) throws FileSystemException {
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
  public long[] attributesOf(String name) throws IOException {
    checkOpen();
    long[] attributes = new long[Posix.ATTRIBUTES];
    int result = Posix.statAt(fd, bytes(name), attributes);
    if (result < 0) {
      throw failure(name, result);
    }
    return attributes;
  }

  /** The careful open of {@code name}, named so in messages: see {@link #open(String, String)}. */
  public OpenedFile open(String name) throws IOException {
    return open(name, name);
  }

  /**
   * The careful open: the folder's own attributes are taken first (for the read's change check),
   * then the name is inspected without following a link ({@code lstat}) and must be a regular file;
   * it is then opened relative to this folder with {@code O_NONBLOCK|O_NOFOLLOW}, and the
   * descriptor ({@code fstat}) must be a regular file with the device and inode the name showed.
   * The caller checks links, size and owner on the returned file and reads from it ({@link
   * OpenedFile#readAll}, which keeps the change rule).
   *
   * @param shown how messages name the file ({@code Projects/Paper Kite.md} for a name in a folder)
   * @throws NotRegularFile if the name is not a regular file; nothing was opened then
   * @throws ChangedWhileOpening if what was opened is not what the name showed
   * @throws NoSuchFileException if nothing is at the name
   */
  public OpenedFile open(String name, String shown) throws IOException {
    long[] before = attributes();
    byte[] bytes = bytes(name);
    long[] named = new long[Posix.ATTRIBUTES];
    int result = Posix.statAt(fd, bytes, named);
    if (result < 0) {
      throw failure(shown, result);
    }
    if (!OpenedFile.isRegular(named)) {
      throw new NotRegularFile(shown, named);
    }
    long[] opened = new long[Posix.ATTRIBUTES];
    int descriptor = Posix.openAt(fd, bytes, opened);
    if (descriptor == -Posix.ELOOP || descriptor == -Posix.ENOENT || descriptor == -Posix.ENXIO) {
      // A link, nothing, or a socket where a regular file was a moment ago.
      throw new ChangedWhileOpening(shown);
    }
    if (descriptor < 0) {
      throw failure(shown, descriptor);
    }
    OpenedFile file = new OpenedFile(descriptor, shown, this, before, named, opened);
    if (!file.isWhatTheNameShowed()) {
      file.close();
      throw new ChangedWhileOpening(shown);
    }
    return file;
  }

  /**
   * The folder {@code name} in this one, opened {@code O_DIRECTORY|O_NOFOLLOW} (through {@code
   * openat2} with {@code RESOLVE_NO_XDEV} where the kernel has it), which must be on this folder's
   * device and mount and, when hard links are not protected, written by nobody but this user. The
   * caller closes it.
   *
   * @throws NotAFolder if the name is a link, not a directory, a mount point, on another device, or
   *     (hard links unprotected) writable by another user, or changed between the open and a second
   *     look at it
   * @throws NoSuchFileException if nothing is at the name
   */
  public Folder folder(String name) throws IOException {
    return folder(name, name, Posix.HAS_OPENAT2);
  }

  /** As {@link #folder(String)}; {@code beneath} chooses openat2 (package-private for tests). */
  Folder folder(String name, String shown, boolean beneath) throws IOException {
    checkOpen();
    long[] attributes = new long[Posix.ATTRIBUTES];
    byte[] bytes = bytes(name);
    int sub = Posix.openFolderAt(fd, bytes, beneath, attributes);
    if (sub < 0) {
      throw folderFailure(shown, lookedAtAgain(sub, bytes, attributes));
    }
    Folder folder = new Folder(sub, true, rule, attributes);
    String problem = folder.problemBelow(opened);
    if (problem != null) {
      folder.close();
      throw new NotAFolder(shown, problem);
    }
    return folder;
  }

  /** What {@link #folderFailure} reports for a folder that changed between two looks. */
  private static final int CHANGED = Integer.MIN_VALUE;

  /**
   * What the refused open of the folder {@code name} ({@code -errno}) means, once the name is
   * looked at again ({@code statx}, never following a link). {@code O_DIRECTORY|O_NOFOLLOW} says
   * ENOTDIR for a link too: the look says which it was. openat2 says EXDEV for a mount point, and
   * also for a folder moved out from under this one during the open (its last check: the result
   * must still lie beneath). A name that is a folder of this mount at the second look, after the
   * open found something else there, changed in between: {@link #CHANGED}, never a wrong reason
   * (VaultRaceIT races exactly that). A kernel without mount ids ({@code STATX_MNT_ID}, Linux 5.8+)
   * cannot tell a bind mount of the same file system from a move: EXDEV stays a mount point there.
   */
  private int lookedAtAgain(int sub, byte[] name, long[] attributes) {
    if (sub != -Posix.ENOTDIR && sub != -Posix.EXDEV) {
      return sub;
    }
    if (Posix.statAt(fd, name, attributes) != 0) {
      return sub == -Posix.EXDEV ? CHANGED : sub; // gone meanwhile
    }
    int type = (int) attributes[Posix.MODE] & Posix.S_IFMT;
    if (type == Posix.S_IFLNK) {
      return sub == -Posix.ENOTDIR ? -Posix.ELOOP : CHANGED;
    }
    if (type != Posix.S_IFDIR) {
      return sub == -Posix.ENOTDIR ? sub : CHANGED;
    }
    boolean mountPoint =
        attributes[Posix.DEVICE] != opened[Posix.DEVICE]
            || attributes[Posix.MOUNT] != opened[Posix.MOUNT]
            || attributes[Posix.MOUNT] == -1;
    return sub == -Posix.EXDEV && mountPoint ? sub : CHANGED;
  }

  /**
   * The folder at {@code path} below this one ({@code "Projects/2026"}; {@code ""} is this folder
   * itself), reached component by component: every folder opened relative to its parent as {@link
   * #folder} does, so a link is never followed, a mount point never crossed, and a folder replaced
   * by a link or moved meanwhile never leads outside. Where the kernel has openat2 and no folder
   * needs its own look (hard links protected), the whole path is opened by one {@code openat2} with
   * {@code RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_MAGICLINKS|RESOLVE_NO_XDEV}, which makes
   * the same promise in the kernel (measured in {@code posix-files/NATIVE.md}). The caller closes
   * what it gets.
   *
   * @throws NotAFolder as {@link #folder}, naming the part of the path
   * @throws NoSuchFileException if a part is missing
   * @throws IllegalArgumentException if {@code path} is not a relative path of plain names
   */
  public Folder walk(String path) throws IOException {
    return walk(path, Posix.HAS_OPENAT2);
  }

  /** As {@link #walk(String)}; {@code beneath} chooses openat2 (package-private for tests). */
  Folder walk(String path, boolean beneath) throws IOException {
    checkOpen();
    if (path.isEmpty()) {
      return this;
    }
    checkRelative(path);
    if (beneath && rule.hardLinksProtected()) {
      long[] attributes = new long[Posix.ATTRIBUTES];
      int sub = Posix.openFolderBeneath(fd, path.getBytes(StandardCharsets.UTF_8), attributes);
      if (sub >= 0) {
        Folder folder = new Folder(sub, true, rule, attributes);
        String problem = folder.problemBelow(opened);
        if (problem != null) {
          folder.close();
          throw new NotAFolder(path, problem);
        }
        return folder;
      }
      // Refused, or no openat2: the walk below, folder by folder, says which part and why (or
      // finds the path fine now, which it checks as strictly).
    }
    Folder current = this;
    int start = 0;
    try {
      while (start <= path.length()) {
        int end = path.indexOf('/', start);
        end = end < 0 ? path.length() : end;
        Folder next = current.folder(path.substring(start, end), path.substring(0, end), beneath);
        if (current != this) {
          current.close();
        }
        current = next;
        start = end + 1;
      }
      return current;
    } catch (IOException | RuntimeException e) {
      if (current != this) {
        current.close();
      }
      throw e;
    }
  }

  /**
   * Why this folder, reached from one with {@code parent}'s attributes, is not one to read from:
   * another device or mount, or (hard links unprotected) writable by another user; null if fine.
   * The mount id is compared where the kernel gives one ({@code statx STATX_MNT_ID}, Linux 5.8+);
   * else only the device, which cannot tell a bind mount of the same file system (openat2's {@code
   * RESOLVE_NO_XDEV} still can, where the kernel has it).
   */
  private String problemBelow(long[] parent) {
    if (opened[Posix.DEVICE] != parent[Posix.DEVICE]) {
      return "it is on another file system (mount points are never crossed)";
    }
    if (opened[Posix.MOUNT] != parent[Posix.MOUNT]) {
      return "it is a mount point (mount points are never crossed)";
    }
    String others = rule.othersMayWrite(opened);
    if (others != null) {
      return others + unprotectedHardLinks();
    }
    return null;
  }

  /** The end of a refusal for a folder another user may write while hard links are unprotected. */
  public static String unprotectedHardLinks() {
    return ", and this system does not protect hard links (fs.protected_hardlinks is not 1), so"
        + " another user could link into it a file only you can read";
  }

  private static void checkRelative(String path) {
    if (path.startsWith("/") || path.endsWith("/") || path.contains("//")) {
      throw new IllegalArgumentException("not a relative path of names: " + Quote.of(path));
    }
    int start = 0;
    while (start <= path.length()) {
      int end = path.indexOf('/', start);
      end = end < 0 ? path.length() : end;
      String part = path.substring(start, end);
      if (part.equals(".") || part.equals("..") || part.indexOf('\0') >= 0) {
        throw new IllegalArgumentException("not a relative path of names: " + Quote.of(path));
      }
      start = end + 1;
    }
  }

  /**
   * This folder's entries, read through a descriptor of their own (so two listings never share a
   * position), in bounded chunks: memory does not grow with the folder. Close it when done.
   */
  public Entries entries() throws IOException {
    checkOpen();
    int own = Posix.reopenFolder(fd);
    if (own < 0) {
      throw failure("the folder", own);
    }
    return new Entries(own);
  }

  /** One entry of a listing: its name as the bytes the folder holds, its type and inode. */
  public record Entry(byte[] name, int type, long inode) {
    /**
     * The name decoded as UTF-8, or null if the bytes are not valid UTF-8: the JDK decoder's strict
     * reading ({@link Utf8#firstMalformed}), without a decoder made for each name (a vault's first
     * enumeration meets hundreds of names that are not ASCII).
     */
    public String text() {
      return Utf8.firstMalformed(name) < 0 ? new String(name, StandardCharsets.UTF_8) : null;
    }
  }

  /**
   * The entries of one folder, a chunk at a time: {@link #next} gives each entry once ("." and ".."
   * left out), in the folder's own order, holding at most one chunk ({@value #CHUNK} bytes) in
   * memory. Not thread-safe: one thread lists.
   */
  public static final class Entries implements AutoCloseable {
    static final int CHUNK = 16384;

    private final byte[] chunk = new byte[CHUNK];
    private int fd;
    private int length;
    private int at;

    private Entries(int fd) {
      this.fd = fd;
    }

    /** The next entry, or null at the end. */
    public Entry next() throws IOException {
      if (fd < 0) {
        return null;
      }
      if (at >= length) {
        int read = Posix.readDirectory(fd, chunk);
        if (read < 0) {
          throw failure("the folder", read);
        }
        if (read == 0) {
          close();
          return null;
        }
        length = read;
        at = 0;
      }
      long inode = 0;
      for (int i = 0; i < 8; i++) {
        inode = (inode << 8) | (chunk[at + i] & 0xff);
      }
      int type = chunk[at + 8] & 0xff;
      int nameLength = ((chunk[at + 9] & 0xff) << 8) | (chunk[at + 10] & 0xff);
      byte[] name = new byte[nameLength];
      System.arraycopy(chunk, at + 11, name, 0, nameLength);
      at += 11 + nameLength;
      return new Entry(name, type, inode);
    }

    @Override
    public void close() {
      if (fd >= 0) {
        Posix.close(fd);
        fd = -1;
      }
    }
  }

  /**
   * {@code name} opened to be written ({@code O_WRONLY}), created 0600 when missing: never a link,
   * never blocking, used only when the descriptor shows a regular file owned by {@code owner}. For
   * a file the program keeps for itself beside others (a log, a lock: {@link
   * WritableFolder#openToAppend}, {@link OwnFile#openToWrite}); the caller closes it.
   */
  int openToWrite(String name, long owner) throws IOException {
    byte[] bytes = bytes(name);
    long[] attributes = new long[Posix.ATTRIBUTES];
    int looked = Posix.statAt(descriptor(), bytes, attributes);
    if (looked == 0 && !OpenedFile.isRegular(attributes)) {
      throw new NotRegularFile(name, attributes); // nothing opened: never a device
    }
    int file = Posix.openLockAt(descriptor(), bytes, attributes);
    if (file == -Posix.ELOOP || file == -Posix.ENXIO || file == -Posix.EISDIR) {
      // A link, a FIFO without a reader or a folder where a regular file (or nothing) just was.
      throw new ChangedWhileOpening(name);
    }
    if (file < 0) {
      throw failure(name, file);
    }
    if (!OpenedFile.isRegular(attributes) || attributes[Posix.OWNER] != owner) {
      Posix.close(file);
      if (!OpenedFile.isRegular(attributes)) {
        throw new NotRegularFile(name, attributes);
      }
      throw new FileSystemException(
          name,
          null,
          "it is owned by uid "
              + attributes[Posix.OWNER]
              + ", not by this user (uid "
              + owner
              + ")");
    }
    return file;
  }

  /** Releases a folder reached from another; a folder opened at start-up is kept (see above). */
  @Override
  public void close() {
    if (owned && !closed) {
      closed = true;
      Posix.close(fd);
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the folder is closed");
    }
  }

  static byte[] bytes(String name) {
    // A name here is one component: from the allow-list, a listing or a record's id; never a path.
    if (name.isEmpty()
        || name.indexOf('/') >= 0
        || name.indexOf('\0') >= 0
        || name.equals(".")
        || name.equals("..")) {
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
    if (error == Posix.EEXIST) {
      return new FileAlreadyExistsException(name);
    }
    if (error == Posix.ENOTEMPTY) {
      return new DirectoryNotEmptyException(name);
    }
    return new FileSystemException(name, null, Posix.describe(error));
  }

  private static IOException folderFailure(String shown, int negativeErrno) {
    if (negativeErrno == CHANGED) {
      return new NotAFolder(shown, "it changed while it was being opened; try again");
    }
    int error = -negativeErrno;
    if (error == Posix.ELOOP) {
      return new NotAFolder(shown, "it is a symbolic link (links are never followed)");
    }
    if (error == Posix.ENOTDIR) {
      return new NotAFolder(shown, "it is not a folder");
    }
    if (error == Posix.EXDEV) {
      return new NotAFolder(shown, "it is a mount point (mount points are never crossed)");
    }
    return failure(shown, negativeErrno);
  }

  /** The name is not a regular file: a link, a directory, a FIFO, a socket or a device. */
  public static final class NotRegularFile extends IOException {
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

  /**
   * A folder on the way may not be entered: a link, not a directory, a mount point, another file
   * system, or (hard links unprotected) writable by another user. The message names the folder.
   */
  public static final class NotAFolder extends IOException {
    private static final long serialVersionUID = 1L;
    private final String folder;
    private final String problem;

    NotAFolder(String folder, String problem) {
      super("the folder " + folder + " " + problem.substring("it ".length()));
      this.folder = folder;
      this.problem = problem;
    }

    /** The folder's path, as shown. */
    public String folder() {
      return folder;
    }

    /** Why, starting "it is ...". */
    public String problem() {
      return problem;
    }
  }

  /** The file opened is not the one the name showed a moment before: another process changed it. */
  public static final class ChangedWhileOpening extends IOException {
    private static final long serialVersionUID = 1L;

    ChangedWhileOpening(String name) {
      super(name + " changed while it was being opened; try again");
    }
  }
}

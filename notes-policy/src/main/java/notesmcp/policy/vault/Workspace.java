package notesmcp.policy.vault;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import notesmcp.files.ChangeRule;
import notesmcp.files.FileProblem;
import notesmcp.files.Folder;
import notesmcp.files.OpenedFile;
import notesmcp.files.Posix;
import notesmcp.policy.rules.NoteName;

/**
 * The workspace folder, chosen at launch by trusted configuration, and the only code that touches
 * files in it for the tools. It reads; it never writes (only the review's {@code Approvals} creates
 * a note, through a {@code WritableFolder} of its own).
 *
 * <p>The root is opened once, by descriptor, at start-up ({@link Folder}); every note is reached
 * from it folder by folder ({@link Folder#walk}) and read by the careful read ({@link Folder#open},
 * {@link OpenedFile#readAll}), whose rules and what they hold against are told once, in {@code
 * docs/behaviour.md}, "What holds against other processes"; the API is in {@code docs/design.md},
 * "Reading a note". Thread-safe: it holds no mutable state.
 */
public final class Workspace {
  private final Path root;
  private final Folder folder;

  private Workspace(Path root, Folder folder) {
    this.root = root;
    this.folder = folder;
  }

  /**
   * Sets what runs on a thread just before it waits out the change margin (a note read a moment
   * after it changed is read again once the margin has passed, {@link #readBytes}; a commit's or a
   * review's reads wait the same way): the server lets its next thread read requests meanwhile
   * ({@code Server.aboutToWait} in mcp-stdio). Process-wide, as threads are; nothing until set.
   */
  public static void beforeEachWait(Runnable hook) {
    OpenedFile.beforeEachWait(Objects.requireNonNull(hook));
  }

  /** Opens the workspace at {@code root} under this system's {@link ChangeRule}. */
  public static Workspace at(Path root) throws IOException {
    return at(root, ChangeRule.ofSystem());
  }

  /**
   * Opens the workspace at {@code root}, resolved to its real path and opened once, at start-up.
   * Where hard links are not protected ({@link ChangeRule#hardLinksProtected}), a root another user
   * may write is refused (the message says why and what to do).
   *
   * @throws Posix.Unavailable if the native library is missing: nothing can be read safely
   * @throws IOException if it does not exist, is not a directory, or is refused as above
   */
  public static Workspace at(Path root, ChangeRule rule) throws IOException {
    Posix.require();
    Path real = root.toRealPath();
    if (!Files.isDirectory(real)) {
      throw new IOException(root + " is not a directory");
    }
    Folder folder = Folder.open(real, rule);
    String others = rule.othersMayWrite(folder.attributesWhenOpened());
    if (others != null) {
      throw new IOException(
          others
              + Folder.unprotectedHardLinks()
              + "; make it writable only by you (chmod go-w "
              + real
              + "), or set fs.protected_hardlinks = 1");
    }
    return new Workspace(real, folder);
  }

  /**
   * What this kernel cannot tell apart, in words for the start-up log, or null when it can tell
   * everything the walk needs: without a mount id ({@code statx}'s {@code STATX_MNT_ID}, Linux
   * 5.8+) folders are compared by device only, and without openat2 too (Linux 5.6+) a bind mount of
   * the same file system inside the workspace would be entered ({@code posix-files/NATIVE.md}).
   */
  public String mountLimitation() {
    return mountLimitation(folder.attributesWhenOpened()[Posix.MOUNT] >= 0, Posix.HAS_OPENAT2);
  }

  static String mountLimitation(boolean mountIds, boolean openat2) {
    if (mountIds) {
      return null;
    }
    return openat2
        ? "this kernel reports no mount ids (statx STATX_MNT_ID): folders are compared by device,"
            + " and openat2 refuses mount points"
        : "this kernel reports no mount ids (statx STATX_MNT_ID) and has no openat2: folders are"
            + " compared by device only, so a bind mount of the same file system inside the"
            + " workspace is not told apart";
  }

  /** The root's real path, as resolved at start-up; the folder itself is held by descriptor. */
  public Path root() {
    return root;
  }

  /** The rule the reads keep: hard-link protection and the change margin. */
  public ChangeRule rule() {
    return folder.rule();
  }

  /** The root folder, held by descriptor for the life of the process. */
  Folder rootFolder() {
    return folder;
  }

  /** The file behind a note; the name is the allow-list's own value, never a client's string. */
  public Path fileOf(NoteName name) {
    return root.resolve(name.value());
  }

  /**
   * Where a note is: the folder that holds it (open) and its last name. Close it (the root itself
   * is never closed by it).
   */
  public record Place(Folder folder, String name) implements AutoCloseable {
    @Override
    public void close() {
      folder.close();
    }
  }

  /**
   * Reaches the folder of {@code path} ({@code "notes.txt"}, {@code "Projects/Paper Kite.md"}; a
   * name the policy allows, never a client's string) from the root, by {@link Folder#walk}.
   *
   * @throws Folder.NotAFolder if a folder on the way is a link, a mount point or unsafe
   * @throws NoSuchFileException if a folder on the way is missing
   */
  public Place reach(String path) throws IOException {
    int slash = path.lastIndexOf('/');
    if (slash < 0) {
      return new Place(folder, path);
    }
    return new Place(folder.walk(path.substring(0, slash)), path.substring(slash + 1));
  }

  /** Whether the note exists as a regular file (links are not followed). */
  boolean isRegularFile(NoteName name) {
    try (Place place = reach(name.value())) {
      return OpenedFile.isRegular(place.folder().attributesOf(place.name()));
    } catch (IOException e) {
      return false;
    }
  }

  /** How {@link #destinationProblem} ends when something is at the name already. */
  public static final String EXISTS =
      "already exists; a proposal may only create a new note, never replace one";

  /**
   * Why a new note may not be created at {@code name}, or null when its folder is there (reached as
   * {@link #reach} does) and nothing at all, not even a dangling link, is at its name. A name whose
   * presence cannot be told counts as taken.
   */
  public String destinationProblem(NoteName name) {
    Place place;
    try {
      place = reach(name.value());
    } catch (NoSuchFileException e) {
      return name
          + " cannot be created: its folder "
          + name.folder()
          + " does not exist in the workspace (no folder is ever made for a note)";
    } catch (Folder.NotAFolder e) {
      return name + " cannot be created: " + e.getMessage();
    } catch (IOException e) {
      return name
          + " cannot be created: its folder cannot be reached ("
          + FileProblem.describe(e)
          + ")";
    }
    try (place) {
      place.folder().attributesOf(place.name());
      return name + " " + EXISTS;
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      return name + " " + EXISTS;
    }
  }

  /**
   * What the note's name shows now (links not followed): its identity if it is a regular file, or
   * null (nothing there, not a regular file, its folder unreachable). For noticing changes, never
   * for reading.
   */
  public OpenedFile.Identity identityOf(NoteName name) {
    try (Place place = reach(name.value())) {
      long[] attributes = place.folder().attributesOf(place.name());
      return OpenedFile.isRegular(attributes) ? OpenedFile.Identity.of(attributes) : null;
    } catch (IOException e) {
      return null;
    }
  }

  /** Whether anything at all, even a dangling link, occupies the note's name. */
  boolean isOccupied(NoteName name) {
    try (Place place = reach(name.value())) {
      place.folder().attributesOf(place.name());
      return true;
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      return true; // it cannot be told: refuse as if taken
    }
  }

  /**
   * Whether the note is exactly {@code bytes}: a regular file (links not followed) with one hard
   * link, or two when the other one is {@code alsoLinkedAs}, a name in the note's folder (the same
   * inode). Anything else at the name, or nothing, is not. A reader for a commit: a note changed
   * within the margin is waited for ({@link OpenedFile#patiently}), not refused.
   */
  public boolean holdsExactly(NoteName name, byte[] bytes, String alsoLinkedAs) throws IOException {
    try {
      return OpenedFile.patiently(
          new OpenedFile.Attempt<Boolean>() {
            @Override
            public Boolean run() throws IOException {
              return holdsExactlyNow(name, bytes, alsoLinkedAs);
            }
          });
    } catch (OpenedFile.ChangedWhileReading e) {
      return false;
    }
  }

  private boolean holdsExactlyNow(NoteName name, byte[] bytes, String alsoLinkedAs)
      throws IOException {
    try (Place place = reach(name.value());
        OpenedFile note = place.folder().open(place.name(), name.value())) {
      int links = note.links();
      if (links > 2 || (links == 2 && !isSameFile(place.folder(), note, alsoLinkedAs))) {
        return false;
      }
      byte[] held = note.readAll(bytes.length);
      return held != null && Arrays.equals(held, bytes);
    } catch (NoSuchFileException
        | Folder.NotRegularFile
        | Folder.ChangedWhileOpening
        | Folder.NotAFolder e) {
      return false;
    }
  }

  private static boolean isSameFile(Folder folder, OpenedFile note, String other)
      throws IOException {
    try {
      long[] that = folder.attributesOf(other);
      return OpenedFile.isRegular(that) && note.isSameFileAs(that);
    } catch (NoSuchFileException e) {
      return false;
    }
  }

  /** A note's text, or the reason it may not be read. */
  public sealed interface Read permits Text, Unreadable {}

  /** A note's bytes with what the file was, or the reason it may not be read. */
  public sealed interface Raw permits Bytes, Unreadable {}

  public record Text(String content) implements Read {}

  /**
   * A note's bytes as read, and the file's identity as the read accepted it (device, inode, size,
   * change and modification time): a later look with the same identity saw the same content.
   */
  public record Bytes(byte[] bytes, OpenedFile.Identity identity) implements Raw {}

  /** Why a note may not be read, in words that start with its name. */
  public record Unreadable(String reason) implements Read, Raw {}

  /** Reads a note of at most {@code maxBytes} bytes of UTF-8. */
  Read read(NoteName name, int maxBytes) {
    Raw raw = readBytes(name.value(), maxBytes);
    if (raw instanceof Unreadable) {
      return (Unreadable) raw;
    }
    byte[] bytes = ((Bytes) raw).bytes();
    return decode(name.value(), bytes, bytes.length);
  }

  /** How many careful reads {@link #readBytes} makes at most: the first, and one retry. */
  static final int TOOL_ATTEMPTS = 2;

  /**
   * The careful read of the note at {@code path} (the policy's own value, which may hold folders:
   * {@code "Projects/Paper Kite.md"}), of at most {@code maxBytes} bytes; not decoded. Never
   * throws: every failure is an {@link Unreadable} whose reason names {@code path}. A read refused
   * because the note or its folder changed within the margin before it, but not during it, is tried
   * once more when the margin has passed (a note saved a moment ago is read, not refused); one that
   * changed during the read, or again by then, is refused, saying that a retry may succeed. Once,
   * not {@link OpenedFile#ATTEMPTS} times: a client can retry itself, and a worker thread should
   * not sleep long for one call.
   */
  public Raw readBytes(String path, int maxBytes) {
    for (int tries = 1; ; tries++) {
      try {
        return readBytesOnce(path, maxBytes);
      } catch (OpenedFile.ChangedWhileReading e) {
        if (tries == TOOL_ATTEMPTS || e.duringTheRead() || !OpenedFile.waitOut(e)) {
          return new Unreadable(e.getMessage());
        }
      }
    }
  }

  /** One careful read of {@link #readBytes}; the change rule's refusal is the caller's. */
  private Raw readBytesOnce(String path, int maxBytes) throws OpenedFile.ChangedWhileReading {
    try (Place place = reach(path);
        OpenedFile note = place.folder().open(place.name(), path)) {
      int links = note.links();
      if (links != 1) {
        return new Unreadable(
            path
                + " has "
                + links
                + " hard links; a note must have exactly one"
                + " (another link may lead outside the workspace)");
      }
      if (note.size() > maxBytes) {
        return tooLarge(path, note.size(), maxBytes);
      }
      // A buffer of the size the descriptor showed (not of the bound: this is every call's
      // garbage), grown only if the file grew after the fstat; null past the bound.
      byte[] bytes = note.readAll(maxBytes);
      if (bytes == null) {
        return tooLarge(path, Math.max(note.size(), maxBytes + 1L), maxBytes);
      }
      return new Bytes(bytes, note.identity());
    } catch (OpenedFile.ChangedWhileReading e) {
      throw e;
    } catch (Folder.NotRegularFile | Folder.ChangedWhileOpening | OpenedFile.UnsafeFolder e) {
      return new Unreadable(e.getMessage());
    } catch (Folder.NotAFolder e) {
      return new Unreadable(path + " cannot be read: " + e.getMessage());
    } catch (NoSuchFileException e) {
      return new Unreadable(path + " does not exist in the workspace");
    } catch (AccessDeniedException e) {
      return new Unreadable(path + " cannot be read: permission denied");
    } catch (FileSystemException e) {
      String reason = e.getReason() == null ? "file system error" : e.getReason();
      return new Unreadable(path + " cannot be read: " + reason);
    } catch (IOException e) {
      return new Unreadable(path + " cannot be read: input/output error");
    }
  }

  private static Unreadable tooLarge(String name, long size, int maxBytes) {
    return new Unreadable(name + " is " + size + " bytes; the limit is " + maxBytes + " bytes");
  }

  /** {@code array[0, length)} as text, or why not: it is not valid UTF-8 (naming the byte). */
  public static Read decode(String name, byte[] array, int length) {
    if (isAscii(array, length)) {
      // Plain ASCII is valid UTF-8 as it stands: no decoder needed.
      return new Text(new String(array, 0, length, StandardCharsets.US_ASCII));
    }
    ByteBuffer bytes = ByteBuffer.wrap(array, 0, length);
    CharsetDecoder utf8 =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    CharBuffer text = CharBuffer.allocate(bytes.remaining());
    CoderResult result = utf8.decode(bytes, text, true);
    if (result.isError()) {
      return new Unreadable(name + " is not valid UTF-8 (byte " + bytes.position() + ")");
    }
    return new Text(text.flip().toString());
  }

  private static boolean isAscii(byte[] array, int length) {
    for (int i = 0; i < length; i++) {
      if (array[i] < 0) {
        return false;
      }
    }
    return true;
  }
}

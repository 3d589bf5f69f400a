package notesmcp.policy;

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

/**
 * The workspace folder, chosen at launch by trusted configuration, and the only code that touches
 * files in it for the tools. It reads; it never writes (only {@link Approvals} creates a note).
 *
 * <p>The root is resolved to its real path and opened once, by descriptor, at start-up ({@link
 * Folder}); every note is then looked up relative to that descriptor. A note is read by {@link
 * Folder#open}: inspected without following links, opened with {@code O_NONBLOCK|O_NOFOLLOW}, and
 * read only when the descriptor itself is a regular file with one hard link, the same file (device
 * and inode) that the name showed, at most the size limit, and valid UTF-8 (CONTRACT §3: the checks
 * hold "for the file actually opened"). Thread-safe: it holds no mutable state.
 */
public final class Workspace {
  private final Path root;
  private final Folder folder;

  private Workspace(Path root, Folder folder) {
    this.root = root;
    this.folder = folder;
  }

  /**
   * Opens the workspace at {@code root}, resolved to its real path and opened once, at start-up.
   *
   * @throws Posix.Unavailable if the native library is missing: nothing can be read safely
   * @throws IOException if it does not exist or is not a directory
   */
  public static Workspace at(Path root) throws IOException {
    Posix.require();
    Path real = root.toRealPath();
    if (!Files.isDirectory(real)) {
      throw new IOException(root + " is not a directory");
    }
    return new Workspace(real, Folder.open(real));
  }

  /** The root's real path, as resolved at start-up; the folder itself is held by descriptor. */
  public Path root() {
    return root;
  }

  /** The file behind a note; the name is the allow-list's own value, never a client's string. */
  Path fileOf(NoteName name) {
    return root.resolve(name.value());
  }

  /** Whether the note exists as a regular file (links are not followed). */
  boolean isRegularFile(NoteName name) {
    try {
      return OpenedFile.isRegular(folder.attributesOf(name.value()));
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * The note's device, inode and size from a look at its name (links not followed), or null when it
   * is not a regular file: a hint for search's refresh, never a reason to read or return it.
   */
  long[] look(NoteName name) {
    try {
      long[] attributes = folder.attributesOf(name.value());
      return OpenedFile.isRegular(attributes)
          ? new long[] {attributes[Posix.DEVICE], attributes[Posix.INODE], attributes[Posix.SIZE]}
          : null;
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * The change time of the note's name in nanoseconds, or -1: looked up by path, so only a hint for
   * search's refresh (which reads again when it changes), never for a read.
   */
  long changeTime(NoteName name) {
    try {
      Object time =
          Files.getAttribute(fileOf(name), "unix:ctime", java.nio.file.LinkOption.NOFOLLOW_LINKS);
      return ((java.nio.file.attribute.FileTime) time)
          .to(java.util.concurrent.TimeUnit.NANOSECONDS);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Whether anything at all, even a dangling link, occupies the note's name. */
  boolean isOccupied(NoteName name) {
    try {
      folder.attributesOf(name.value());
      return true;
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      return true; // it cannot be told: refuse as if taken
    }
  }

  /**
   * Whether the note is exactly {@code bytes}: a regular file (links not followed) with one hard
   * link, or two when the other one is {@code alsoLinkedAs}, a name in the workspace (the same
   * inode). Anything else at the name, or nothing, is not.
   */
  boolean holdsExactly(NoteName name, byte[] bytes, String alsoLinkedAs) throws IOException {
    try (OpenedFile note = folder.open(name.value())) {
      int links = note.links();
      if (links > 2 || (links == 2 && !isSameFile(note, alsoLinkedAs))) {
        return false;
      }
      byte[] held = note.readAll(bytes.length);
      return held != null && Arrays.equals(held, bytes);
    } catch (NoSuchFileException | Folder.NotRegularFile | Folder.ChangedWhileOpening e) {
      return false;
    }
  }

  private boolean isSameFile(OpenedFile note, String other) throws IOException {
    try {
      long[] that = folder.attributesOf(other);
      return OpenedFile.isRegular(that) && note.isSameFileAs(that);
    } catch (NoSuchFileException e) {
      return false;
    }
  }

  /** A note's text, or the reason it may not be read. */
  sealed interface Read permits Text, Unreadable {}

  /** The text, and the opened file's device, inode and size (what search keeps of a note). */
  record Text(String content, long device, long inode, long size) implements Read {}

  record Unreadable(String reason) implements Read {}

  /** Reads a note of at most {@code maxBytes} bytes of UTF-8. */
  Read read(NoteName name, int maxBytes) {
    try (OpenedFile note = folder.open(name.value())) {
      int links = note.links();
      if (links != 1) {
        return new Unreadable(
            name
                + " has "
                + links
                + " hard links; a note must have exactly one"
                + " (another link may lead outside the workspace)");
      }
      if (note.size() > maxBytes) {
        return tooLarge(name, note.size(), maxBytes);
      }
      // A buffer of the size the descriptor showed (not of the bound: this is every call's
      // garbage), grown only if the file grew after the fstat; null past the bound.
      byte[] bytes = note.readAll(maxBytes);
      if (bytes == null) {
        return tooLarge(name, Math.max(note.size(), maxBytes + 1L), maxBytes);
      }
      return decode(name, bytes, bytes.length, note);
    } catch (Folder.NotRegularFile | Folder.ChangedWhileOpening e) {
      return new Unreadable(e.getMessage());
    } catch (NoSuchFileException e) {
      return new Unreadable(name + " does not exist in the workspace");
    } catch (AccessDeniedException e) {
      return new Unreadable(name + " cannot be read: permission denied");
    } catch (FileSystemException e) {
      String reason = e.getReason() == null ? "file system error" : e.getReason();
      return new Unreadable(name + " cannot be read: " + reason);
    } catch (IOException e) {
      return new Unreadable(name + " cannot be read: input/output error");
    }
  }

  private static Unreadable tooLarge(NoteName name, long size, int maxBytes) {
    return new Unreadable(name + " is " + size + " bytes; the limit is " + maxBytes + " bytes");
  }

  private static Read decode(NoteName name, byte[] array, int length, OpenedFile note) {
    if (isAscii(array, length)) {
      // Plain ASCII is valid UTF-8 as it stands: no decoder needed.
      return new Text(
          new String(array, 0, length, StandardCharsets.US_ASCII),
          note.device(),
          note.inode(),
          length);
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
    return new Text(text.flip().toString(), note.device(), note.inode(), length);
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

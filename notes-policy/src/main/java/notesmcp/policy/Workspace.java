package notesmcp.policy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/**
 * The workspace folder, chosen at launch by trusted configuration, and the only code that touches
 * files in it for the tools. It reads; it never writes (only {@link Approvals} creates a note).
 *
 * <p>A note is read only when it is a regular file with one hard link, inspected without following
 * links; it is opened with {@code O_NOFOLLOW}, and the file opened must be the file inspected (same
 * device and inode), so a swap between the check and the open is refused. A FIFO is refused from
 * its attributes, before any open that could block. Size and UTF-8 are checked on the bytes
 * (CONTRACT §3). Thread-safe: it holds no mutable state.
 */
public final class Workspace {
  private static final LinkOption[] NO_FOLLOW = {LinkOption.NOFOLLOW_LINKS};
  private static final String INSPECTED = "unix:mode,nlink,size,fileKey";
  private static final int S_IFMT = 0170000;
  private static final int S_IFREG = 0100000;
  private static final int S_IFLNK = 0120000;
  private static final int S_IFDIR = 0040000;

  private final Path root;

  private Workspace(Path root) {
    this.root = root;
  }

  /**
   * Opens the workspace at {@code root}, resolved to its real path once, at start-up.
   *
   * @throws IOException if it does not exist or is not a directory
   */
  public static Workspace at(Path root) throws IOException {
    Path real = root.toRealPath();
    if (!Files.isDirectory(real)) {
      throw new IOException(root + " is not a directory");
    }
    return new Workspace(real);
  }

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
      return attributes(name).isRegularFile();
    } catch (IOException e) {
      return false;
    }
  }

  /** Whether anything at all, even a dangling link, occupies the note's name. */
  boolean isOccupied(NoteName name) {
    // notExists is false both when the name is taken and when that cannot be told: refuse both.
    return !Files.notExists(fileOf(name), NO_FOLLOW);
  }

  private BasicFileAttributes attributes(NoteName name) throws IOException {
    return Files.readAttributes(fileOf(name), BasicFileAttributes.class, NO_FOLLOW);
  }

  /**
   * Whether the note is exactly {@code bytes}: a regular file (links not followed) with one hard
   * link, or two when the other one is {@code alsoLinkedAs} (the same inode). Anything else at the
   * name, or nothing, is not.
   */
  boolean holdsExactly(NoteName name, byte[] bytes, Path alsoLinkedAs) throws IOException {
    BasicFileAttributes note;
    try {
      note = attributes(name);
    } catch (NoSuchFileException e) {
      return false;
    }
    if (!note.isRegularFile()) {
      return false;
    }
    int links = linkCount(fileOf(name));
    if (links > 2 || (links == 2 && !isSameFile(note, alsoLinkedAs))) {
      return false;
    }
    byte[] held = DurableFiles.readRegular(fileOf(name), bytes.length);
    return held != null && Arrays.equals(held, bytes);
  }

  private static boolean isSameFile(BasicFileAttributes note, Path other) throws IOException {
    try {
      BasicFileAttributes that = Files.readAttributes(other, BasicFileAttributes.class, NO_FOLLOW);
      return that.isRegularFile() && Objects.equals(that.fileKey(), note.fileKey());
    } catch (NoSuchFileException e) {
      return false;
    }
  }

  /** A note's text, or the reason it may not be read. */
  sealed interface Read permits Text, Unreadable {}

  record Text(String content) implements Read {}

  record Unreadable(String reason) implements Read {}

  /** Reads a note of at most {@code maxBytes} bytes of UTF-8. */
  Read read(NoteName name, int maxBytes) {
    Path file = fileOf(name);
    try {
      // One lstat for the kind, the links, the size and the identity of the file.
      Map<String, Object> before = Files.readAttributes(file, INSPECTED, NO_FOLLOW);
      String kind = kindUnlessRegular((Integer) before.get("mode"));
      if (kind != null) {
        return new Unreadable(name + " is " + kind + ", not a regular file");
      }
      int links = (Integer) before.get("nlink");
      if (links != 1) {
        return new Unreadable(
            name
                + " has "
                + links
                + " hard links; a note must have exactly one"
                + " (another link may lead outside the workspace)");
      }
      long size = (Long) before.get("size");
      if (size > maxBytes) {
        return tooLarge(name, size, maxBytes);
      }
      try (FileChannel channel =
          FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
        if (!Objects.equals(attributes(name).fileKey(), before.get("fileKey"))) {
          return new Unreadable(name + " changed while it was being opened; try again");
        }
        ByteBuffer bytes = ByteBuffer.allocate(maxBytes + 1);
        while (bytes.hasRemaining() && channel.read(bytes) >= 0) {
          // keep reading: one byte past the bound is enough to know it is too large
        }
        if (!bytes.hasRemaining()) {
          return tooLarge(name, Math.max(channel.size(), maxBytes + 1L), maxBytes);
        }
        bytes.flip();
        return decode(name, bytes);
      }
    } catch (NoSuchFileException e) {
      return new Unreadable(name + " does not exist in the workspace");
    } catch (AccessDeniedException e) {
      return new Unreadable(name + " cannot be read: permission denied");
    } catch (FileSystemException e) {
      // ELOOP from O_NOFOLLOW, when a link appeared after the check, lands here too.
      String reason = e.getReason() == null ? "file system error" : e.getReason();
      return new Unreadable(name + " cannot be read: " + reason);
    } catch (IOException e) {
      return new Unreadable(name + " cannot be read: input/output error");
    }
  }

  private static int linkCount(Path file) throws IOException {
    return (Integer) Files.getAttribute(file, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
  }

  /** What a file is when it is not a regular file, from the type bits of its mode. */
  private static String kindUnlessRegular(int mode) {
    switch (mode & S_IFMT) {
      case S_IFREG:
        return null;
      case S_IFLNK:
        return "a symbolic link (links are never followed)";
      case S_IFDIR:
        return "a directory";
      default:
        return "a special file (FIFO, socket or device)";
    }
  }

  private static Unreadable tooLarge(NoteName name, long size, int maxBytes) {
    return new Unreadable(name + " is " + size + " bytes; the limit is " + maxBytes + " bytes");
  }

  private static Read decode(NoteName name, ByteBuffer bytes) {
    if (isAscii(bytes)) {
      // Plain ASCII is valid UTF-8 as it stands: no decoder needed.
      return new Text(new String(bytes.array(), 0, bytes.limit(), StandardCharsets.US_ASCII));
    }
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

  private static boolean isAscii(ByteBuffer bytes) {
    byte[] array = bytes.array();
    for (int i = 0; i < bytes.limit(); i++) {
      if (array[i] < 0) {
        return false;
      }
    }
    return true;
  }
}

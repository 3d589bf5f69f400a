package notesmcp.policy;

import java.io.IOException;
import java.util.Arrays;

/**
 * One regular file opened by {@link Folder#open}: it owns the descriptor, which is closed by {@link
 * #close} (use try-with-resources), and it holds what the name showed before the open ({@code
 * lstat}) and what the descriptor itself is ({@code fstat}). Every check a caller makes here
 * (links, size, owner, mode) is of the file actually opened, and {@link #read} reads from that same
 * descriptor, so no rename or exchange after the open can change what is checked or read.
 *
 * <p>Why both looks: the descriptor alone is not enough. Open a name while it is a second hard link
 * to a file outside the folder, let another process remove the other link, and the descriptor shows
 * one link; the name, looked at before the open, showed two (issue 8, defect 1). So {@link #links}
 * is the larger of the two counts, and the two must be the same file (device and inode).
 *
 * <p>Not thread-safe: one thread opens, reads and closes it.
 */
final class OpenedFile implements AutoCloseable {
  private final long[] named;
  private final long[] opened;
  private int fd;

  OpenedFile(int fd, long[] named, long[] opened) {
    this.fd = fd;
    this.named = named;
    this.opened = opened;
  }

  static boolean isRegular(long[] attributes) {
    return ((int) attributes[Posix.MODE] & Posix.S_IFMT) == Posix.S_IFREG;
  }

  /**
   * Whether the descriptor is a regular file, and the same file the name showed before the open.
   */
  boolean isWhatTheNameShowed() {
    return isRegular(named)
        && isRegular(opened)
        && named[Posix.DEVICE] == opened[Posix.DEVICE]
        && named[Posix.INODE] == opened[Posix.INODE];
  }

  /** Whether {@code other} (attributes from {@link Folder#attributesOf}) is this same file. */
  boolean isSameFileAs(long[] other) {
    return other[Posix.DEVICE] == opened[Posix.DEVICE] && other[Posix.INODE] == opened[Posix.INODE];
  }

  /** Hard links to the file: the larger of what the name showed and what the descriptor shows. */
  int links() {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(named[Posix.LINKS], opened[Posix.LINKS]));
  }

  /** The size when opened, from the descriptor; {@link #read} still stops at its own bound. */
  long size() {
    return opened[Posix.SIZE];
  }

  /** The device and inode, from the descriptor. */
  long device() {
    return opened[Posix.DEVICE];
  }

  long inode() {
    return opened[Posix.INODE];
  }

  /** The owner's user id, from the descriptor. */
  long owner() {
    return opened[Posix.OWNER];
  }

  /** The permission bits, from the descriptor. */
  int permissions() {
    return (int) opened[Posix.MODE] & 07777;
  }

  /**
   * Reads from the descriptor into {@code buffer} until it is full or the file ends, and returns
   * the number of bytes read. A full buffer means the file holds at least that many bytes: pass one
   * byte more than the most you accept.
   */
  int read(byte[] buffer) throws IOException {
    if (fd < 0) {
      throw new IllegalStateException("closed");
    }
    int read = Posix.read(fd, buffer, 0, buffer.length);
    if (read < 0) {
      throw Folder.failure("the opened file", read);
    }
    return read;
  }

  /**
   * All the file's bytes, or null when it holds more than {@code max}. The buffer starts at the
   * size the descriptor showed and grows (to at most {@code max + 1}) if the file grew meanwhile.
   */
  byte[] readAll(int max) throws IOException {
    byte[] buffer = new byte[(int) Math.min(max + 1L, Math.max(0, size()) + 1)];
    int length = read(buffer);
    while (length == buffer.length && length <= max) {
      buffer = Arrays.copyOf(buffer, (int) Math.min(max + 1L, 2L * buffer.length));
      int more = Posix.read(fd, buffer, length, buffer.length - length);
      if (more < 0) {
        throw Folder.failure("the opened file", more);
      }
      if (more == 0) {
        break;
      }
      length += more;
    }
    return length > max ? null : Arrays.copyOf(buffer, length);
  }

  /** Releases the descriptor; a second call does nothing. A read-only close loses nothing. */
  @Override
  public void close() {
    if (fd >= 0) {
      Posix.close(fd);
      fd = -1;
    }
  }
}

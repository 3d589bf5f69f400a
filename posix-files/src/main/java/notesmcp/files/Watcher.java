package notesmcp.files;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * An inotify instance: it tells which watched folders changed, so a cached listing can be refreshed
 * without reading every folder again. A folder is watched by its descriptor (through {@code
 * /proc/self/fd/N}), so what is watched is the folder opened, wherever it is moved. What a watcher
 * says is a hint to look again, never a reason to trust anything: every read still makes all its
 * careful checks.
 *
 * <p>One thread waits ({@link #await}) and reads ({@link #events}); {@link #watch} and {@link
 * #unwatch} may come from any thread. {@link #close} only once the waiting thread has stopped (a
 * number closed under a waiting thread could be reused for another file).
 */
public final class Watcher implements AutoCloseable {
  /** What a listing needs to hear of: names made, removed or moved, and the folder itself going. */
  public static final int NAMES =
      Posix.IN_CREATE
          | Posix.IN_DELETE
          | Posix.IN_MOVED_FROM
          | Posix.IN_MOVED_TO
          | Posix.IN_DELETE_SELF
          | Posix.IN_MOVE_SELF
          | Posix.IN_ATTRIB;

  /** One event: the watch it came from, its {@code IN_*} bits, the rename cookie, the name. */
  public record Event(int watch, int mask, int cookie, byte[] name) {
    /** Whether the kernel dropped events (the queue was full): everything must be looked at. */
    public boolean overflowed() {
      return (mask & Posix.IN_Q_OVERFLOW) != 0;
    }

    /** Whether the watch has ended (the folder was removed, or {@link #unwatch}). */
    public boolean ended() {
      return (mask & Posix.IN_IGNORED) != 0;
    }
  }

  private final byte[] buffer = new byte[16384];
  private int fd;

  private Watcher(int fd) {
    this.fd = fd;
  }

  /** A new inotify instance (non-blocking, close-on-exec). */
  public static Watcher open() throws IOException {
    Posix.require();
    int fd = Posix.watchInit();
    if (fd < 0) {
      throw Folder.failure("inotify", fd);
    }
    return new Watcher(fd);
  }

  /** Watches {@code folder} for {@code mask} ({@link #NAMES}, say): the watch's number. */
  public int watch(Folder folder, int mask) throws IOException {
    int watch = Posix.watchAdd(fd, folder.descriptor(), mask);
    if (watch < 0) {
      throw Folder.failure("inotify watch", watch);
    }
    return watch;
  }

  /** Ends a watch; one the kernel already ended (its folder removed) is not an error. */
  public void unwatch(int watch) throws IOException {
    int result = Posix.watchRemove(fd, watch);
    if (result < 0 && result != -Posix.EINVAL) {
      throw Folder.failure("inotify watch", result);
    }
  }

  /** Waits at most {@code millis} for events: true if some are waiting. */
  public boolean await(int millis) throws IOException {
    int result = Posix.poll(fd, millis);
    if (result < 0) {
      throw Folder.failure("inotify", result);
    }
    return result > 0;
  }

  /** The events waiting now (none: an empty list), without waiting; at most one chunk of them. */
  public List<Event> events() throws IOException {
    List<Event> events = new ArrayList<>();
    int length = Posix.watchRead(fd, buffer);
    if (length == -Posix.EAGAIN) {
      return events;
    }
    if (length < 0) {
      throw Folder.failure("inotify", length);
    }
    for (int at = 0; at < length; ) {
      int watch = int32(at);
      int mask = int32(at + 4);
      int cookie = int32(at + 8);
      int nameLength = ((buffer[at + 12] & 0xff) << 8) | (buffer[at + 13] & 0xff);
      byte[] name = new byte[nameLength];
      System.arraycopy(buffer, at + 14, name, 0, nameLength);
      events.add(new Event(watch, mask, cookie, name));
      at += 14 + nameLength;
    }
    return events;
  }

  private int int32(int at) {
    return ((buffer[at] & 0xff) << 24)
        | ((buffer[at + 1] & 0xff) << 16)
        | ((buffer[at + 2] & 0xff) << 8)
        | (buffer[at + 3] & 0xff);
  }

  @Override
  public void close() {
    if (fd >= 0) {
      Posix.close(fd);
      fd = -1;
    }
  }
}

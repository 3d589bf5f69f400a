package notesmcp.files;

import java.io.IOException;

/**
 * A file {@link WritableFolder#create} made exclusively, open for writing: bytes go in with {@link
 * #write}, reach the disk with {@link #sync}, and {@link #close} reports what a failed close means
 * (on some file systems the last write's error). The building block of a commit's temporary file:
 * create, write, sync, close, then link or rename it into place and sync the folder ({@code
 * docs/design.md}, "Reading a note"). Not thread-safe: one thread writes and closes it.
 */
public final class WritableFile implements AutoCloseable {
  private final String name;
  private final long[] created;
  private int fd;

  WritableFile(int fd, String name, long[] created) {
    this.fd = fd;
    this.name = name;
    this.created = created;
  }

  /** The file's attributes as created (device and inode name it from then on). */
  public long[] attributesWhenCreated() {
    return created;
  }

  /** Writes all of {@code bytes} at the current position. */
  public void write(byte[] bytes) throws IOException {
    check();
    int result = Posix.write(fd, bytes, 0, bytes.length);
    if (result < 0) {
      throw Folder.failure(name, result);
    }
  }

  /** Forces the file's bytes and size to disk ({@code fsync}). */
  public void sync() throws IOException {
    check();
    int result = Posix.sync(fd);
    if (result < 0) {
      throw Folder.failure(name, result);
    }
  }

  private void check() {
    if (fd < 0) {
      throw new IllegalStateException("closed");
    }
  }

  /** Closes the descriptor once; a failed close is reported, never retried. */
  @Override
  public void close() throws IOException {
    if (fd >= 0) {
      int result = Posix.close(fd);
      fd = -1;
      if (result < 0) {
        throw Folder.failure(name, result);
      }
    }
  }
}

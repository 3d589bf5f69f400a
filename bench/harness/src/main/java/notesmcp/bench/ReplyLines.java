package notesmcp.bench;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Newline-delimited lines from a server's stdout, into one reused buffer: the reading side of the
 * harness allocates nothing per line. Not thread-safe: one reader owns it.
 */
final class ReplyLines {
  private final InputStream in;
  private final byte[] chunk = new byte[64 * 1024];
  private int position;
  private int limit;
  private byte[] line = new byte[4096];
  private int length;

  ReplyLines(InputStream in) {
    this.in = in;
  }

  byte[] bytes() {
    return line;
  }

  int length() {
    return length;
  }

  /** Reads the next non-empty line; false when the stream ended (a trailing partial line too). */
  boolean next() throws IOException {
    length = 0;
    while (true) {
      if (position == limit) {
        int read = in.read(chunk, 0, chunk.length);
        if (read <= 0) {
          position = limit = 0;
          return false;
        }
        position = 0;
        limit = read;
      }
      int end = position;
      while (end < limit && chunk[end] != '\n') {
        end++;
      }
      append(position, end - position);
      position = end < limit ? end + 1 : limit;
      if (end < limit) {
        if (length > 0 && line[length - 1] == '\r') {
          length--;
        }
        if (length > 0) {
          return true;
        }
      }
    }
  }

  private void append(int from, int count) {
    if (length + count > line.length) {
      line = Arrays.copyOf(line, Math.max(line.length * 2, length + count));
    }
    System.arraycopy(chunk, from, line, length, count);
    length += count;
  }
}

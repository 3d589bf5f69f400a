package notesmcp.jsonrpc;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into newline-delimited lines of at most {@code maxLineBytes} bytes.
 *
 * <p>A longer line is reported as too long and the rest of it is skipped as it arrives, never held
 * in memory (docs/behaviour.md, "Limits": "the rest of the line discarded without holding it in
 * memory"). A trailing {@code \r} is dropped. Not thread-safe: one reader thread owns it.
 */
public final class LineReader {
  private final InputStream in;
  private final int maxLineBytes;
  private final byte[] chunk = new byte[64 * 1024];
  private int position;
  private int limit;
  private byte[] line = new byte[8 * 1024];
  private int length;

  public LineReader(InputStream in, int maxLineBytes) {
    this.in = in;
    this.maxLineBytes = maxLineBytes;
  }

  /** The bytes of the current line are {@code bytes()[0..length())}. */
  public byte[] bytes() {
    return line;
  }

  public int length() {
    return length;
  }

  /** What {@link #next} found. */
  public enum Result {
    /** A line is in {@link #bytes()}. */
    LINE,
    /** A line longer than the bound was skipped; {@link #bytes()} holds nothing of it. */
    TOO_LONG,
    /** The stream ended. */
    END
  }

  /** Whether a whole line is already buffered, so {@link #next} would not block for it. */
  public boolean hasCompleteLine() {
    return indexOfNewline(position, limit) >= 0;
  }

  /** Reads the next line; blocks until one is complete or the stream ends. */
  public Result next() throws IOException {
    length = 0;
    boolean tooLong = false;
    while (true) {
      if (position == limit) {
        limit = in.read(chunk, 0, chunk.length);
        position = 0;
        if (limit <= 0) {
          limit = 0;
          if (tooLong) {
            return Result.TOO_LONG;
          }
          return length > 0 ? finish() : Result.END;
        }
      }
      int newline = indexOfNewline(position, limit);
      int end = newline < 0 ? limit : newline;
      if (!tooLong) {
        int count = end - position;
        if (length + count > maxLineBytes) {
          tooLong = true;
          length = 0;
        } else {
          append(position, count);
        }
      }
      position = newline < 0 ? limit : newline + 1;
      if (newline >= 0) {
        return tooLong ? Result.TOO_LONG : finish();
      }
    }
  }

  private Result finish() {
    if (length > 0 && line[length - 1] == '\r') {
      length--;
    }
    return Result.LINE;
  }

  private int indexOfNewline(int from, int to) {
    for (int i = from; i < to; i++) {
      if (chunk[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private void append(int from, int count) {
    if (length + count > line.length) {
      line = Arrays.copyOf(line, Math.min(Math.max(line.length * 2, length + count), maxLineBytes));
    }
    System.arraycopy(chunk, from, line, length, count);
    length += count;
  }
}

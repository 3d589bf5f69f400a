package notesmcp.app;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Diagnostics on the way to stderr, which never make their writer wait (docs/behaviour.md,
 * "Limits", "Nothing on the side blocks the protocol": "if nobody reads stderr, log lines are
 * dropped (and counted), never waited for").
 *
 * <p>A write only copies bytes: each complete line (ended by a line feed, or by a carriage return:
 * a progress line rewritten in place, {@code IndexCommand}) joins a queue of at most {@code
 * capacity} bytes, or is dropped and counted when the queue is full. One daemon thread, "notes-mcp
 * stderr", started with the first line, writes the queue to the real stream and may block there for
 * as long as nobody reads it; no other thread ever waits for it. When it gets through again it says
 * how many lines were dropped. Lines are kept whole: a line is queued or dropped entirely, never
 * cut.
 *
 * <p>Wrap it in a {@code PrintStream} for {@code System.out}, {@code System.err} and every log, so
 * that a stray {@code println} and a stack trace take the same path. Thread-safe: one lock, {@code
 * this}, guards the queue and is never held across the real write.
 */
final class LogStream extends OutputStream {
  private final OutputStream target;
  private final int capacity;
  private final ArrayDeque<byte[]> lines = new ArrayDeque<>(); // guarded by this
  private byte[] partial = new byte[256]; // the line being written, guarded by this
  private int partialLength; // guarded by this
  private int queuedBytes; // guarded by this
  private long dropped; // guarded by this
  private long droppedSaid; // guarded by this
  private boolean writing; // the thread is in a write; guarded by this
  private Thread thread; // started with the first line; guarded by this

  /**
   * @param target the real stream, written by this object's own thread only
   * @param capacity bytes of complete lines kept while the target does not take them
   */
  public LogStream(OutputStream target, int capacity) {
    this.target = target;
    this.capacity = capacity;
  }

  @Override
  public void write(int b) {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public synchronized void write(byte[] bytes, int offset, int length) {
    int end = offset + length;
    int from = offset;
    for (int i = offset; i < end; i++) {
      if (bytes[i] == '\n' || bytes[i] == '\r') {
        append(bytes, from, i + 1 - from);
        lineComplete();
        from = i + 1;
      }
    }
    append(bytes, from, end - from);
  }

  private void append(byte[] bytes, int from, int count) {
    if (count == 0) {
      return;
    }
    if (partialLength + count > capacity) {
      partialLength = capacity + 1; // too long to keep: counted as dropped when it ends
      return;
    }
    if (partialLength + count > partial.length) {
      partial = Arrays.copyOf(partial, Math.max(partial.length * 2, partialLength + count));
    }
    System.arraycopy(bytes, from, partial, partialLength, count);
    partialLength += count;
  }

  private void lineComplete() {
    if (partialLength > capacity || queuedBytes + partialLength > capacity) {
      dropped++;
    } else {
      lines.add(Arrays.copyOf(partial, partialLength));
      queuedBytes += partialLength;
    }
    partialLength = 0;
    if (partial.length > 4096) {
      partial = new byte[256];
    }
    if (thread == null) {
      thread =
          new Thread("notes-mcp stderr") {
            @Override
            public void run() {
              writeForever();
            }
          };
      thread.setDaemon(true);
      thread.start();
    }
    notifyAll();
  }

  /** How many lines were dropped so far because the queue was full. */
  public synchronized long dropped() {
    return dropped;
  }

  /**
   * Waits until every queued line is written, at most {@code atMost}; for the end of the process.
   * True if everything was written. A line not yet ended by a line break is ended first.
   */
  public synchronized boolean drain(Duration atMost) {
    if (partialLength > 0) {
      write(new byte[] {'\n'}, 0, 1);
    }
    long deadline = System.nanoTime() + atMost.toNanos();
    try {
      while (!lines.isEmpty() || writing || dropped != droppedSaid) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        wait(Math.max(1, left / 1_000_000));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    return true;
  }

  private void writeForever() {
    while (true) {
      byte[] chunk;
      synchronized (this) {
        writing = false;
        notifyAll();
        while (lines.isEmpty() && dropped == droppedSaid) {
          try {
            wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        chunk = take();
        writing = true;
      }
      try {
        target.write(chunk);
        target.flush();
      } catch (IOException e) {
        // stderr is gone: nothing more can be said anywhere; the lines are lost
      }
    }
  }

  /** Everything queued, then the news of lines dropped since it was last told; under the lock. */
  private byte[] take() {
    byte[] chunk = new byte[queuedBytes];
    int at = 0;
    byte[] line;
    while ((line = lines.poll()) != null) {
      System.arraycopy(line, 0, chunk, at, line.length);
      at += line.length;
    }
    queuedBytes = 0;
    if (dropped != droppedSaid) {
      byte[] news =
          ("notes-mcp: "
                  + (dropped - droppedSaid)
                  + " log line(s) dropped: stderr was not being read\n")
              .getBytes(StandardCharsets.UTF_8);
      droppedSaid = dropped;
      chunk = Arrays.copyOf(chunk, at + news.length);
      System.arraycopy(news, 0, chunk, at, news.length);
    }
    return chunk;
  }
}

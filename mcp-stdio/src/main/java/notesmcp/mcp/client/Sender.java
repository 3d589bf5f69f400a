package notesmcp.mcp.client;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The client's one way into a server's stdin. One thread, "notes-mcp client writer", owns the
 * stream and writes queued lines; no other thread ever writes, flushes or closes it, so no other
 * thread can be stuck in a write when the server stops reading (HostileServerIT). Requesters queue
 * with a deadline and then wait for their reply with the rest of it; the reader thread queues its
 * answers to the server's requests without waiting and drops them when there is no room; {@link
 * #close} asks the writer to close the stream after what is queued and returns at once.
 *
 * <p>The queue is bounded ({@value #CAPACITY} lines) and so is each line the reader thread may
 * queue ({@value #MAX_ANSWER_BYTES} bytes): a server that stops reading costs bounded memory. Once
 * a write fails (the server is gone or closed its input), every later line is refused.
 */
final class Sender {
  static final int CAPACITY = 64;
  static final int MAX_ANSWER_BYTES = 64 * 1024;

  /** One queued line; {@link #written} turns true once it is flushed to the server's stdin. */
  static final class Line {
    final byte[] bytes;
    volatile boolean written;

    Line(byte[] bytes) {
      this.bytes = bytes;
    }
  }

  private static final Line END = new Line(new byte[0]);

  private final OutputStream out;
  private final BlockingQueue<Line> queue = new ArrayBlockingQueue<>(CAPACITY);
  private volatile IOException failed;
  private volatile boolean closing;

  Sender(OutputStream out) {
    this.out = out;
    Thread writer =
        new Thread("notes-mcp client writer") {
          @Override
          public void run() {
            write();
          }
        };
    writer.setDaemon(true);
    writer.start();
  }

  /**
   * Queues {@code message} (one encoded message, no line break), waiting for room until {@code
   * deadlineNanos} (a {@link System#nanoTime} value). Returns null if there was no room in time:
   * the server is not reading its input.
   */
  Line send(byte[] message, long deadlineNanos) throws IOException, InterruptedException {
    refuseIfUnusable();
    Line line = new Line(withNewline(message));
    long wait = deadlineNanos - System.nanoTime();
    if (!queue.offer(line, Math.max(0, wait), TimeUnit.NANOSECONDS)) {
      return null;
    }
    return line;
  }

  /** Queues {@code message} only if there is room now and it is small; never waits. */
  boolean offer(byte[] message) {
    if (failed != null || closing || message.length > MAX_ANSWER_BYTES) {
      return false;
    }
    return queue.offer(new Line(withNewline(message)));
  }

  /**
   * Asks the writer to close the server's stdin once what is queued is written, without waiting for
   * it. If the queue is full (the server stopped reading), the queued lines are dropped so that the
   * close comes next; if the writer is stuck in a write, the stream is closed only when that write
   * ends, which ending the server makes happen.
   */
  void close() {
    closing = true;
    if (!queue.offer(END)) {
      queue.clear();
      queue.offer(END);
    }
  }

  private void refuseIfUnusable() throws IOException {
    IOException why = failed;
    if (why != null) {
      throw new IOException("the server no longer reads its input (" + why.getMessage() + ")", why);
    }
    if (closing) {
      throw new IOException("the connection to the server is closed");
    }
  }

  private static byte[] withNewline(byte[] message) {
    byte[] line = Arrays.copyOf(message, message.length + 1);
    line[message.length] = '\n';
    return line;
  }

  private void write() {
    try {
      Line line;
      while ((line = queue.take()) != END) {
        out.write(line.bytes);
        out.flush();
        line.written = true;
      }
    } catch (IOException e) {
      failed = e;
      queue.clear();
    } catch (InterruptedException e) {
      // nobody interrupts this thread; if someone does, stop writing
      Thread.currentThread().interrupt();
    }
    try {
      out.close();
    } catch (IOException e) {
      // the server is gone; its stdin is as closed as it gets
    }
  }
}

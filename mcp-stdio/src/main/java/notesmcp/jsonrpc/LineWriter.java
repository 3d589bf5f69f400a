package notesmcp.jsonrpc;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The client's writer ({@code Connection}); the server writes through {@link Outbox}. Kept until
 * the client gets its own deadline-bounded writer.
 *
 * <p>The one way out to the peer, shared by every thread that answers: each line is queued, and
 * whichever sender finds no write in progress becomes the writer for a while, writing every queued
 * line (each followed by {@code \n}) and flushing once the queue is empty. There is no writer
 * thread and no lock to wait on: a sender that finds a write in progress leaves its line to that
 * writer and returns. A burst leaves in few writes; a lone reply leaves with no hand-off at all.
 *
 * <p>The queue is bounded. When the peer reads slowly, the writer blocks in {@code write} and
 * senders block in {@link #send} once the queue is full: back-pressure, never a dropped line
 * (CONTRACT §5). Once the stream fails (the peer is gone), lines are discarded and {@link
 * #isBroken()} tells.
 */
public final class LineWriter {
  private final OutputStream out;
  private final PrintStream log;
  private final BlockingQueue<byte[]> queue;
  private final AtomicBoolean writing = new AtomicBoolean();
  private volatile boolean broken;

  public LineWriter(OutputStream out, int capacity, PrintStream log) {
    this.out = new BufferedOutputStream(out, 64 * 1024);
    this.log = log;
    this.queue = new ArrayBlockingQueue<>(capacity);
  }

  /** Sends one encoded message; blocks only while the queue is full and the peer still reads. */
  public void send(byte[] line) throws InterruptedException {
    while (!broken && !queue.offer(line, 100, TimeUnit.MILLISECONDS)) {
      // the peer reads slowly: wait for room rather than drop the line
    }
    drain();
  }

  /**
   * Writes what is queued unless another sender is writing it. The loop closes the gap where a line
   * arrives just after the writer found the queue empty: after giving the role up, a sender looks
   * again.
   */
  private void drain() {
    while (!broken && !queue.isEmpty() && writing.compareAndSet(false, true)) {
      try {
        byte[] line;
        while ((line = queue.poll()) != null) {
          out.write(line);
          out.write('\n');
        }
        out.flush();
      } catch (IOException e) {
        broken = true;
        queue.clear();
        log.println("notes-mcp: output closed by the peer (" + e.getMessage() + ")");
      } finally {
        writing.set(false);
      }
    }
  }

  public boolean isBroken() {
    return broken;
  }

  /** Closes the stream (the peer's input ends); pending lines were written by their senders. */
  public void close() {
    drain();
    try {
      out.close();
    } catch (IOException e) {
      broken = true;
    }
  }
}

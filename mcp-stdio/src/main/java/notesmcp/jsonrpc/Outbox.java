package notesmcp.jsonrpc;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The one way out to the peer: a thread that writes queued lines, each followed by {@code \n}, and
 * flushes whenever the queue runs dry, so a burst leaves in few writes.
 *
 * <p>The queue is bounded. When the peer reads slowly, {@link #send} blocks: back-pressure, never a
 * dropped line (CONTRACT §5). No caller holds a lock while it waits. Once the stream fails (the
 * peer is gone), lines are discarded and {@link #isBroken()} tells.
 */
public final class Outbox {
  private static final byte[] END = new byte[0];

  private final OutputStream out;
  private final PrintStream log;
  private final BlockingQueue<byte[]> queue;
  private final Thread writer;
  private volatile boolean broken;

  public Outbox(OutputStream out, int capacity, String threadName, PrintStream log) {
    this.out = out;
    this.log = log;
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.writer = new Thread(this::run, threadName);
    this.writer.setDaemon(true);
    this.writer.start();
  }

  /** Queues one encoded message; blocks while the queue is full and the peer still reads. */
  public void send(byte[] line) throws InterruptedException {
    while (!broken && !queue.offer(line, 100, TimeUnit.MILLISECONDS)) {
      // the peer reads slowly: wait for room rather than drop the line
    }
  }

  public boolean isBroken() {
    return broken;
  }

  private void run() {
    try {
      while (true) {
        byte[] line = queue.take();
        if (line == END) {
          out.flush();
          return;
        }
        out.write(line);
        out.write('\n');
        if (queue.isEmpty()) {
          out.flush();
        }
      }
    } catch (IOException e) {
      broken = true;
      queue.clear();
      log.println("notes-mcp: output closed by the peer (" + e.getMessage() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Writes what is queued, then stops; waits at most {@code timeoutMillis}. */
  public void close(long timeoutMillis) throws InterruptedException {
    if (!broken && writer.isAlive()) {
      if (!queue.offer(END, timeoutMillis, TimeUnit.MILLISECONDS)) {
        return;
      }
    }
    writer.join(timeoutMillis);
  }
}

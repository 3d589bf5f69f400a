package notesmcp.jsonrpc;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The lines waiting to go to the peer, and the one way they leave: {@link #add} queues a line and
 * never blocks; {@link #flush} writes what is queued, each line followed by {@code \n}, in as few
 * writes as it can. There is no writer thread: the thread that flushes while nobody else is writing
 * becomes the writer until the queue is empty, and a thread that flushes while another writes
 * leaves its lines to that one. So a lone reply leaves with no hand-off, and a burst leaves in few
 * writes.
 *
 * <p>The writer may block in {@code write} for as long as the peer does not read; no lock is held
 * there, and nobody else waits for it except a thread that chose to ({@link #awaitRoom}, {@link
 * #awaitWritten}). Waiting lines are counted in bytes ({@link #pendingBytes}), not lines: one reply
 * may echo a 1 MiB id. The bound is the caller's to keep: the server stops reading its input while
 * too many bytes wait (docs/behaviour.md, "Limits", "Back-pressure, not refusal"). Once the stream
 * fails (the peer is gone), queued and later lines are discarded and {@link #isBroken} tells.
 *
 * <p>Thread-safe. One lock guards the queue and the counters; it is never held across a write.
 */
public final class Outbox {
  /**
   * Bytes of whole lines gathered into one write: at most PIPE_BUF (4096 on Linux), so that a write
   * to a pipe goes in whole or not at all. A process that ends while its writer is blocked
   * (SIGTERM, or the end-of-input grace period) then leaves only whole lines in the pipe, never
   * half a reply; only a single line longer than this can be cut.
   */
  private static final int WRITE_SIZE = 4096;

  private final OutputStream out;
  private final PrintStream log;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition progress = lock.newCondition();
  private final ArrayDeque<byte[]> lines = new ArrayDeque<>(); // guarded by lock
  private final byte[] buffer = new byte[WRITE_SIZE]; // the writer's alone
  private volatile long pendingBytes; // written under lock; read anywhere
  private boolean writing; // guarded by lock
  private long written; // guarded by lock: bytes written so far, a sign of progress
  private volatile boolean broken;

  /**
   * @param out the peer's stream, unbuffered: this class gathers lines into writes itself
   * @param log where to say that the peer closed the stream
   */
  public Outbox(OutputStream out, PrintStream log) {
    this.out = out;
    this.log = log;
  }

  /** Queues one encoded message (without its line break); never blocks. */
  public void add(byte[] line) {
    lock.lock();
    try {
      if (!broken) {
        lines.add(line);
        pendingBytes += line.length + 1;
      }
    } finally {
      lock.unlock();
    }
  }

  /** Bytes queued or being written. */
  public long pendingBytes() {
    return pendingBytes;
  }

  public boolean isBroken() {
    return broken;
  }

  /**
   * Writes everything queued, unless another thread is writing now (then that thread writes it, and
   * this returns at once). May block in {@code write} while the peer does not read.
   */
  public void flush() {
    lock.lock();
    try {
      if (!writing) {
        writeQueued();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Returns once at most {@code limit} bytes wait, writing them itself whenever nobody else is
   * writing: back-pressure for a reader that must not take more input while the peer is not
   * reading. Returns at once if the stream is broken.
   */
  public void awaitRoom(long limit) throws InterruptedException {
    if (pendingBytes <= limit) {
      return; // the common case, without the lock
    }
    lock.lock();
    try {
      while (pendingBytes > limit && !broken) {
        if (writing) {
          progress.await();
        } else {
          writeQueued();
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits, without ever writing itself, until everything queued has been written by the threads
   * that write, or the stream broke, or no byte was written for {@code stall}, or {@code atMost}
   * passed. True when nothing is left. For the end of input and for a shutdown, which must not wait
   * for a peer that stopped reading.
   */
  public boolean awaitWritten(Duration stall, Duration atMost) {
    long end = System.nanoTime() + atMost.toNanos();
    lock.lock();
    try {
      long seen = written;
      long stalledAt = System.nanoTime() + stall.toNanos();
      while (pendingBytes > 0 && !broken) {
        long now = System.nanoTime();
        if (written != seen) {
          seen = written;
          stalledAt = now + stall.toNanos();
        }
        long left = Math.min(stalledAt, end) - now;
        if (left <= 0) {
          return false;
        }
        progress.awaitNanos(left);
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return pendingBytes == 0;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The writer's loop, entered with the lock held and nobody writing: take lines, write them with
   * the lock released, until the queue is empty. A line added while this writes is taken by this
   * loop, because the queue is looked at again under the lock before the writer role is given up.
   */
  private void writeQueued() {
    writing = true;
    try {
      while (!lines.isEmpty() && !broken) {
        byte[] big = null;
        int length = 0;
        byte[] line;
        while ((line = lines.peek()) != null) {
          if (line.length + 1 > WRITE_SIZE - length) {
            if (length == 0) {
              big = lines.poll(); // a line larger than the buffer goes out on its own
            }
            break;
          }
          lines.poll();
          System.arraycopy(line, 0, buffer, length, line.length);
          length += line.length;
          buffer[length++] = '\n';
        }
        long count = big == null ? length : big.length + 1L;
        lock.unlock();
        try {
          if (big == null) {
            out.write(buffer, 0, length);
          } else {
            out.write(big);
            out.write('\n');
          }
          out.flush();
        } catch (IOException e) {
          broken = true;
          log.println("notes-mcp: stdout closed by the peer (" + e.getMessage() + ")");
        } finally {
          lock.lock();
        }
        pendingBytes -= count;
        written += count;
        if (broken) {
          lines.clear();
          pendingBytes = 0;
        }
        progress.signalAll();
      }
    } finally {
      writing = false;
      progress.signalAll();
    }
  }
}

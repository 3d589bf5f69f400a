package notesmcp.mcp.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import notesmcp.text.TerminalText;

/**
 * The end of a server's stderr: the last {@value #KEEP} bytes, kept so that a client that does not
 * show the server's log can still say why the server failed (docs/behaviour.md, "Exit codes, and
 * three kinds of failure": the client is quiet about its server unless asked). "The client MAY
 * capture, forward, or ignore the server's stderr" (transports/stdio).
 *
 * <p>One daemon thread per followed process ("notes-mcp server stderr") reads the pipe until it
 * ends, so the server never blocks on a full stderr, and copies what it reads to a pass-through
 * stream when there is one ({@code -v}). Memory is bounded by the ring; nothing else is held.
 * Thread-safe.
 */
public final class StderrTail {
  static final int KEEP = 4096;

  private final PrintStream passThrough;
  private final byte[] ring = new byte[KEEP];
  private long total;
  private int following;

  /**
   * @param passThrough where to copy the server's stderr as it comes, or null to keep only its end
   */
  public StderrTail(PrintStream passThrough) {
    this.passThrough = passThrough;
  }

  /** Reads {@code process}'s stderr (which must be a pipe) until it ends. */
  public void follow(Process process) {
    InputStream in = process.getErrorStream();
    synchronized (this) {
      following++;
    }
    Thread pump =
        new Thread("notes-mcp server stderr") {
          @Override
          public void run() {
            pump(in);
          }
        };
    pump.setDaemon(true);
    pump.start();
  }

  private void pump(InputStream in) {
    byte[] chunk = new byte[8192];
    try {
      int n;
      while ((n = in.read(chunk)) > 0) {
        if (passThrough != null) {
          passThrough.write(chunk, 0, n);
          passThrough.flush();
        }
        keep(chunk, n);
      }
    } catch (IOException e) {
      // the pipe is gone with the server
    } finally {
      synchronized (this) {
        following--;
        notifyAll();
      }
    }
  }

  private synchronized void keep(byte[] chunk, int n) {
    int skipped = Math.max(0, n - KEEP);
    total += skipped;
    for (int i = skipped; i < n; i++) {
      ring[(int) (total % KEEP)] = chunk[i];
      total++;
    }
  }

  /** Waits up to {@code wait} for every followed stderr to end; whether they all did. */
  public synchronized boolean awaitEnd(Duration wait) throws InterruptedException {
    long end = System.nanoTime() + Connection.nanos(wait);
    while (following > 0) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return true;
  }

  /**
   * The last lines of the server's stderr as text (without a partial first line when the start was
   * cut off), made safe to show; empty if it wrote nothing.
   */
  public synchronized String text() {
    int length = (int) Math.min(total, KEEP);
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = ring[(int) ((total - length + i) % KEEP)];
    }
    String text = new String(bytes, StandardCharsets.UTF_8).replace("\r\n", "\n");
    if (total > KEEP) {
      int newline = text.indexOf('\n');
      text = newline >= 0 ? text.substring(newline + 1) : text;
    }
    return TerminalText.escaped(
        text.strip(), Integer.MAX_VALUE, true); // already bounded by the ring
  }
}

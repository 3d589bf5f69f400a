package notesmcp.mcp;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Cancellation of one in-flight request, set by the reader thread when {@code
 * notifications/cancelled} names the request, read by the worker. Not an interrupt: an interrupt
 * would close a {@code FileChannel} in the middle of a read.
 */
public final class CancelToken {
  private final CountDownLatch cancelled = new CountDownLatch(1);
  private volatile String reason;
  private volatile Runnable beforeWaiting = () -> {};

  /**
   * What to do before this request waits (the server hands its input to another thread, so that a
   * cancellation can still be read while the request waits).
   */
  void beforeWaiting(Runnable action) {
    beforeWaiting = action;
  }

  public void cancel(String why) {
    reason = why;
    cancelled.countDown();
  }

  public boolean isCancelled() {
    return cancelled.getCount() == 0;
  }

  public String reason() {
    return reason;
  }

  /** Waits until cancelled or until {@code timeout} passes; true if cancelled. */
  public boolean await(Duration timeout) throws InterruptedException {
    beforeWaiting.run();
    return cancelled.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }
}

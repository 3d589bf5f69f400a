package notesmcp.mcp;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Cancellation of one in-flight request, set by the thread reading the input when {@code
 * notifications/cancelled} names the request, read by the thread answering it. Not an interrupt: an
 * interrupt would close a {@code FileChannel} in the middle of a read. As a {@link BooleanSupplier}
 * it answers "cancelled?".
 */
public final class CancelToken implements BooleanSupplier {
  private final CountDownLatch cancelled = new CountDownLatch(1);
  private volatile String reason;
  private volatile Runnable beforeWaiting;

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

  @Override
  public boolean getAsBoolean() {
    return isCancelled();
  }

  public String reason() {
    return reason;
  }

  /** Waits until cancelled or until {@code timeout} passes; true if cancelled. */
  public boolean await(Duration timeout) throws InterruptedException {
    Runnable action = beforeWaiting;
    if (action != null) {
      action.run();
    }
    return cancelled.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }
}

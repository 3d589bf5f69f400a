package notesmcp.mcp.server;

import java.util.function.BooleanSupplier;

/**
 * Cancellation of one in-flight request: set by the thread holding the lead when {@code
 * notifications/cancelled} names the request, read by the thread answering it (before the tool
 * runs, and again before the reply is sent). Not an interrupt: an interrupt would close a {@code
 * FileChannel} in the middle of a read. As a {@link BooleanSupplier} it answers "cancelled?".
 */
public final class CancelToken implements BooleanSupplier {
  private volatile boolean cancelled;
  private volatile String reason;

  public void cancel(String why) {
    reason = why;
    cancelled = true;
  }

  public boolean isCancelled() {
    return cancelled;
  }

  @Override
  public boolean getAsBoolean() {
    return cancelled;
  }

  /** The reason the client gave, or null. */
  public String reason() {
    return reason;
  }
}

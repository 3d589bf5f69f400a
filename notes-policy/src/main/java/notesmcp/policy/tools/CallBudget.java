package notesmcp.policy.tools;

import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * The call budget of one server process: at most the policy's {@code maxCalls} tool calls and
 * resource reads, each counted as it starts. Its lock is this object's monitor, held for the count
 * alone (microseconds), never while a call runs. Any thread.
 */
final class CallBudget {
  private final int max;

  // Guarded by this.
  private int calls;

  CallBudget(int max) {
    this.max = max;
  }

  /**
   * Counts one call against the budget, unless it was cancelled; the refusal once it is spent.
   *
   * @throws CancellationException if {@code cancelled} was already true: nothing counted
   */
  synchronized Outcome.Refusal spend(String what, BooleanSupplier cancelled) {
    if (cancelled.getAsBoolean()) {
      throw new CancellationException("cancelled before " + what + " ran");
    }
    if (calls >= max) {
      return new Outcome.Refusal(
          "call budget spent: this server process dispatches at most "
              + max
              + " tool calls; start a new server process to continue");
    }
    calls++;
    return null;
  }
}

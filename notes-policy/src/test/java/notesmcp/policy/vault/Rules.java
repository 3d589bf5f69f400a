package notesmcp.policy.vault;

import java.time.Duration;
import notesmcp.files.ChangeRule;

/** Read rules for tests, and a way to let the change margin pass. */
public final class Rules {
  /**
   * Hard links protected and no margin: for tests about other checks, which write a file and read
   * it at once. The change rule itself is tested with the real margin ({@code ChangeRuleTest}).
   */
  public static final ChangeRule NO_MARGIN = new ChangeRule(true, Duration.ZERO);

  private Rules() {}

  /** Sleeps until what was just written is older than the real margin. */
  public static void waitOutMargin() {
    try {
      Thread.sleep(ChangeRule.MARGIN.toMillis() + 20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}

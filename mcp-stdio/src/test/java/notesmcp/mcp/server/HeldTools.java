package notesmcp.mcp.server;

import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import notesmcp.mcp.Protocol.Implementation;
import notesmcp.mcp.server.Tools.Tool;

/**
 * Tools that keep every call waiting before it reaches the wrapped tools, until the call is
 * cancelled or {@code hold} passes: a slow call, made in test code (docs/testing.md, "What mvn -B
 * -ntp verify runs": the shipped program has no hold of its own). A cancelled call then throws
 * before it runs, as the real adapter does.
 */
final class HeldTools implements Tools {
  private final Tools tools;
  private final Duration hold;

  HeldTools(Tools tools, Duration hold) {
    this.tools = tools;
    this.hold = hold;
  }

  @Override
  public List<Tool> list() {
    return tools.list();
  }

  @Override
  public Tools.Result call(
      String name,
      String rawArguments,
      Implementation client,
      Caller caller,
      BooleanSupplier cancelled) {
    long end = System.nanoTime() + hold.toNanos();
    while (!cancelled.getAsBoolean() && System.nanoTime() < end) {
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return tools.call(name, rawArguments, client, caller, cancelled);
  }
}

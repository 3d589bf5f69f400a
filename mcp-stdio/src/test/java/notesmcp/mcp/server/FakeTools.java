package notesmcp.mcp.server;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import notesmcp.mcp.Protocol.Implementation;
import notesmcp.mcp.server.Tools.Tool;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Tools for protocol tests: {@code echo} answers its raw arguments (or {@code (omitted)}), {@code
 * refuse} answers a refusal, {@code boom} throws, and {@code block} waits until {@link #release}
 * (counting down {@link #entered} first). Like the real adapter, a cancelled call throws before it
 * runs or counts.
 */
final class FakeTools implements Tools {
  final AtomicInteger calls = new AtomicInteger();
  final CountDownLatch entered = new CountDownLatch(1);
  final CountDownLatch release = new CountDownLatch(1);

  private final List<Tool> tools =
      List.of(
          tool("echo", "Answers its arguments as received."),
          tool("refuse", "Always refuses."),
          tool("boom", "Always throws."),
          tool("block", "Waits until the test releases it."));

  private static Tool tool(String name, String description) {
    ObjectNode schema = JsonNodeFactory.instance.objectNode();
    schema.put("type", "object");
    return new Tool(name, description, schema);
  }

  @Override
  public List<Tool> list() {
    return tools;
  }

  @Override
  public Tools.Result call(
      String name,
      String rawArguments,
      Implementation client,
      Caller caller,
      BooleanSupplier cancelled) {
    if (cancelled.getAsBoolean()) {
      throw new CancellationException("cancelled before " + name + " ran");
    }
    calls.incrementAndGet();
    switch (name) {
      case "echo":
        return new Tools.Result(rawArguments == null ? "(omitted)" : rawArguments, false);
      case "refuse":
        return new Tools.Result("refused: " + rawArguments, true);
      case "boom":
        throw new IllegalStateException("the fake tool failed");
      case "block":
        entered.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return new Tools.Result("released", false);
      default:
        throw new AssertionError(name);
    }
  }
}

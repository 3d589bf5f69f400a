package notesmcp.bench.micro;

import java.util.concurrent.TimeUnit;
import notesmcp.jsonrpc.Codec;
import notesmcp.jsonrpc.Message;
import notesmcp.jsonrpc.Message.Id;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Result encode: a successful 2026-07-28 {@code CallToolResult} for {@code read_note}, as the
 * server answers it. {@code encode} is {@link Codec#encode} of a ready tree; {@code buildAndEncode}
 * also builds the tree the way the dispatcher does (ToolResult.toJson, then resultType and the
 * serverInfo {@code _meta}), which is the whole cost per reply after the tool ran.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ResultEncodeBench {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final Codec codec = new Codec("arguments");
  private final Id id = Id.of(12345);
  private String text;
  private Message.Success reply;

  @Setup
  public void setUp() {
    ObjectNode answer = NODES.objectNode();
    answer.put("path", "notes.txt");
    answer.put("content", Samples.NOTE);
    text = answer.toString();
    reply = new Message.Success(id, result(text));
  }

  @Benchmark
  public byte[] encode() {
    return codec.encode(reply);
  }

  @Benchmark
  public byte[] buildAndEncode() {
    return codec.encode(new Message.Success(id, result(text)));
  }

  private static ObjectNode result(String text) {
    ObjectNode result = NODES.objectNode();
    ObjectNode block = result.putArray("content").addObject();
    block.put("type", "text");
    block.put("text", text);
    result.put("isError", false);
    result.put("resultType", "complete");
    ObjectNode info = result.putObject("_meta").putObject("io.modelcontextprotocol/serverInfo");
    info.put("name", "notes-mcp");
    info.put("version", "0.1.0");
    return result;
  }
}

package notesmcp.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import notesmcp.jsonrpc.Codec;
import notesmcp.jsonrpc.Message;
import notesmcp.jsonrpc.Message.Failure;
import notesmcp.jsonrpc.Message.Request;
import notesmcp.jsonrpc.Message.Success;
import notesmcp.mcp.Protocol;
import notesmcp.mcp.Protocol.Implementation;
import notesmcp.mcp.server.Tools.Tool;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The server core as every door uses it: the caller's scope decides what it sees and may call, and
 * a legacy session's state is its own, however many sessions one core serves.
 */
class CoreTest {
  private static final Implementation INFO = new Implementation("fake-server", "1.0");
  private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
  private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);
  private final List<Caller> callers = new ArrayList<>();

  /** {@code look} is read-only, {@code change} is not; each answers who called it. */
  private final Tools tools =
      new Tools() {
        @Override
        public List<Tool> list() {
          return List.of(tool("look", true), tool("change", false));
        }

        @Override
        public Tools.Result call(
            String name,
            String rawArguments,
            Implementation client,
            Caller caller,
            java.util.function.BooleanSupplier cancelled) {
          callers.add(caller);
          return new Tools.Result(name + " by " + (caller == null ? "-" : caller.name()), false);
        }
      };

  private static Tool tool(String name, boolean readOnly) {
    ObjectNode schema = JsonNodeFactory.instance.objectNode().put("type", "object");
    ObjectNode hints = JsonNodeFactory.instance.objectNode().put("readOnlyHint", readOnly);
    return new Tool(name, name, schema, hints);
  }

  private final Core core = new Core(tools, null, INFO, null, log);
  private final Codec codec = new Codec(Protocol.ARGUMENTS);

  private Message send(Session session, Caller caller, String json) throws Exception {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    Request request = (Request) codec.decode(bytes, bytes.length);
    return core.reply(request, new Exchange(session, caller, null, () -> false));
  }

  private static String modern(int id, String method, String params) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":\""
        + method
        + "\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}"
        + params
        + "}}";
  }

  private static final Caller READER = new Caller("phone", Set.of("read"), true, "10.0.0.2");
  private static final Caller PROPOSER =
      new Caller("laptop", Set.of("read", "propose"), false, "10.0.0.3");

  @Test
  void aReadOnlyCallerSeesAndCallsOnlyReadOnlyTools() throws Exception {
    Session session = core.newSession(null);
    Message all = send(session, PROPOSER, modern(1, "tools/list", ""));
    Message reading = send(session, READER, modern(2, "tools/list", ""));

    assertThat(((Success) all).result().at("/tools").size()).isEqualTo(2);
    assertThat(((Success) reading).result().at("/tools").size()).isEqualTo(1);
    assertThat(((Success) reading).result().at("/tools/0/name").stringValue()).isEqualTo("look");

    Message refused =
        send(session, READER, modern(3, "tools/call", ",\"name\":\"change\",\"arguments\":{}"));
    assertThat(((Failure) refused).error().message())
        .isEqualTo(
            "Forbidden: change is not a read-only tool, and this caller's credential allows"
                + " read-only tools only");
    assertThat(callers).isEmpty();

    Message looked =
        send(session, READER, modern(4, "tools/call", ",\"name\":\"look\",\"arguments\":{}"));
    assertThat(((Success) looked).result().at("/content/0/text").stringValue())
        .isEqualTo("look by phone");
    assertThat(callers).containsExactly(READER);
    assertThat(core.isReadOnlyTool("look")).isTrue();
    assertThat(core.isReadOnlyTool("change")).isFalse();
    assertThat(core.isReadOnlyTool("nothing")).isNull();
  }

  @Test
  void eachLegacySessionKeepsItsOwnVersion() throws Exception {
    Session first = core.newSession(null);
    Session second = core.newSession(null);
    send(
        first,
        null,
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-03-26\",\"capabilities\":{},\"clientInfo\":{\"name\":\"a\",\"version\":\"1\"}}}");

    assertThat(first.version()).isEqualTo("2025-03-26");
    assertThat(first.client().name()).isEqualTo("a");
    assertThat(second.version()).isNull();
    assertThat(core.servesBatches(first)).isTrue();
    assertThat(core.servesBatches(second)).isFalse();
    Message uninitialized =
        send(second, null, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
    assertThat(((Failure) uninitialized).error().code()).isEqualTo(-32602);
    assertThat(
            core.precheck(
                (Request)
                    codec.decode(
                        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}".getBytes(), 46),
                first))
        .isNull();
  }
}

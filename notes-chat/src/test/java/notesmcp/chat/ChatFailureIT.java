package notesmcp.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import notesmcp.chat.ScriptedModel.Reply;
import notesmcp.chat.ScriptedModel.Wire;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Failures, each a clear message and never a hang (docs/chat.md): an unreachable or silent model
 * server and an unreachable MCP server are exit 4; a protocol error reaches the model as what it
 * is; a server that dies or misses the deadline during a call is a transport failure, after which
 * nothing more is sent, the model answers, and the chat ends with exit 4. What a model asks to send
 * is bounded before anything reaches the server.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ChatFailureIT {
  /** A generous liveness bound: "promptly", on a loaded machine. */
  private static final Duration PROMPTLY = Duration.ofSeconds(30);

  @TempDir Path dir;
  private Path root;

  @BeforeEach
  void setUp() throws Exception {
    root = Workspace.create(dir, Workspace.NOTES);
  }

  private static List<String> args(ScriptedModel model, String... more) {
    List<String> args = new ArrayList<>(model.flags());
    args.addAll(List.of(more));
    return args;
  }

  private static int closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @ParameterizedTest
  @EnumSource(Wire.class)
  void anUnreachableModelServerIsExit4Promptly(Wire wire) throws Exception {
    String url = "http://127.0.0.1:" + closedPort() + wire.base;
    long start = System.nanoTime();
    ChatProcess.Result run =
        ChatProcess.run(
            dir,
            "hello\n",
            List.of(
                "-root",
                root.toString(),
                "-provider",
                wire.provider,
                "-model-url",
                url,
                "-model",
                "m"));

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(PROMPTLY);
    assertThat(run.exit()).isEqualTo(4);
    assertThat(run.stderr())
        .contains(
            "notes-mcp chat: the model server at "
                + url
                + " cannot be reached: nothing accepts connections there");
    assertThat(run.stdout()).isEmpty();
  }

  @Test
  void anOllamaModelThatIsNotPulledIsExit4WithTheCommandToPullOne() throws Exception {
    try (ScriptedModel model = ScriptedModel.start(Wire.OLLAMA)) {
      ChatProcess.Result run =
          ChatProcess.run(
              dir,
              "hello\n",
              List.of("-root", root.toString(), "-model-url", model.url(), "-model", "absent:7b"));

      assertThat(run.exit()).isEqualTo(4);
      assertThat(run.stderr())
          .contains(
              "notes-mcp chat: the Ollama server at "
                  + model.url()
                  + " has no model \"absent:7b\" (it has scripted:latest); pull one that can call"
                  + " tools first, such as: ollama pull qwen3:4b");
      assertThat(model.requests()).isEmpty();
    }
  }

  @Test
  void aModelServerThatDoesNotAnswerIsExit4AfterTheModelTimeout() throws Exception {
    try (ScriptedModel model =
        ScriptedModel.start(Wire.OPENAI, request -> Reply.silence(Duration.ofSeconds(20)))) {
      long start = System.nanoTime();
      ChatProcess.Result run =
          ChatProcess.run(
              dir, "hello\n", args(model, "-root", root.toString(), "-model-timeout", "1s"));

      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(18));
      assertThat(run.exit()).isEqualTo(4);
      assertThat(run.stderr())
          .contains("notes-mcp chat: the model server at " + model.url() + " did not answer");
      assertThat(run.stdout()).isEmpty();
    }
  }

  @Test
  void aModelServerErrorEndsTheChatWithExit4AndItsAnswer() throws Exception {
    try (ScriptedModel model = ScriptedModel.start(Wire.OLLAMA)) {
      ChatProcess.Result run =
          ChatProcess.run(dir, "hello\nagain\n", args(model, "-root", root.toString()));

      assertThat(run.exit()).isEqualTo(4);
      assertThat(run.stderr())
          .contains(
              "notes-mcp chat: the model server at "
                  + model.url()
                  + " answered HTTP 500: {\"error\":\"the script has no step 1\"}");
      assertThat(model.requests()).hasSize(1);
    }
  }

  @Test
  void anMcpServerThatCannotStartIsExit4() throws Exception {
    try (ScriptedModel model = ScriptedModel.start(Wire.OLLAMA)) {
      ChatProcess.Result run =
          ChatProcess.run(dir, "hello\n", args(model, "-server-command", "/no/such/server"));

      assertThat(run.exit()).isEqualTo(4);
      assertThat(run.stderr())
          .contains("notes-mcp chat: could not start or reach the MCP server /no/such/server");
      assertThat(model.requests()).isEmpty();
    }
  }

  @Test
  void aProtocolErrorReachesTheModelAsAProtocolError() throws Exception {
    McpWire mcp =
        McpWire.fake(
            dir,
            false,
            "printf '{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32602,\"message\":"
                + "\"Invalid params: no notes today\"}}\\n' \"$id\"");
    try (ScriptedModel model =
        ScriptedModel.start(
            Wire.OLLAMA,
            request -> Reply.call("read_note", "{\"path\":\"notes.txt\"}"),
            request -> Reply.text("The server said no."))) {
      ChatProcess.Result run =
          ChatProcess.run(dir, "Read it\n", args(model, "-server-command", mcp.command()));

      assertThat(run.exit()).as(run.stderr()).isZero();
      assertThat(model.requests().get(1).lastToolResult())
          .isEqualTo(
              "PROTOCOL ERROR: the server rejected this request (JSON-RPC error -32602: Invalid"
                  + " params: no notes today); the tool did not run.");
      assertThat(run.stderr()).contains("-> protocol error -32602: Invalid params: no notes today");
    }
  }

  /**
   * A call that misses the deadline is a transport failure like a server that dies: it is cancelled
   * on the wire and reported as of unknown outcome, the next call of the same answer is not sent,
   * the model answers once more, and the chat ends with exit 4 without taking up the next message.
   * (It used to go on sending to the same server, and end with exit 0.)
   */
  @Test
  void aCallThatMissesTheDeadlineEndsTheChatWithExit4AfterTheModelsAnswer() throws Exception {
    McpWire mcp = McpWire.fake(dir, false, ":"); // it never answers a call
    try (ScriptedModel model =
        ScriptedModel.start(
            Wire.OLLAMA,
            request ->
                Reply.calls(
                    new ScriptedModel.Call("read_note", "{\"path\":\"notes.txt\"}"),
                    new ScriptedModel.Call("read_note", "{\"path\":\"notes.txt\"}")),
            request -> Reply.call("read_note", "{\"path\":\"notes.txt\"}"),
            request -> Reply.text("It did not answer."),
            request -> Reply.text("Still here."))) {
      ChatProcess.Result run =
          ChatProcess.run(
              dir,
              "Read it\nAre you there?\n",
              args(model, "-server-command", mcp.command(), "-timeout", "1s"));

      assertThat(run.exit()).as(run.stderr()).isEqualTo(4);
      assertThat(model.requests().get(1).toolResults())
          .containsExactly(
              "TRANSPORT FAILURE: the server did not answer within 1000 ms, and the host cancelled"
                  + " the request. The outcome of this call is unknown: it may or may not have taken"
                  + " effect. The host did not retry it; do not assume it succeeded.",
              AFTER_TRANSPORT_FAILURE);
      assertThat(model.requests().get(2).lastToolResult()).isEqualTo(AFTER_TRANSPORT_FAILURE);
      assertThat(mcp.calls()).containsExactly("read_note");
      assertThat(mcp.sent())
          .anyMatch(
              message -> message.path("method").asString("").equals("notifications/cancelled"));
      assertThat(run.stdout()).isEqualTo("It did not answer.\n");
      assertThat(run.stderr())
          .contains(
              "notes-mcp chat: the MCP server failed (the server did not answer tools/call within"
                  + " 1000 ms); nothing more is sent to it; ending the chat");
      assertThat(model.requests()).hasSize(3); // the second message is never taken up
    }
  }

  private static final String AFTER_TRANSPORT_FAILURE =
      "NOT SENT: the host sends nothing more to the tool server after a transport failure."
          + " Nothing was sent to the server.";

  /**
   * A model that asks to send 8 MiB of arguments: the host refuses them to the model, since the
   * server takes at most 16 KiB of arguments in one call, and nothing reaches the server. (The host
   * used to forward the line; the server refused a line over 1 MiB; the host reported a transport
   * failure after its deadline, and went on sending.)
   */
  @Test
  void argumentsOverTheServersLimitAreRefusedToTheModelAndNeverSent() throws Exception {
    McpWire mcp = McpWire.recording(dir, List.of("-root", root.toString()));
    String huge = "{\"path\":\"notes.txt\",\"pad\":\"" + "x".repeat(8 * 1024 * 1024) + "\"}";
    String over = "{\"path\":\"notes.txt\",\"pad\":\"" + "y".repeat(16 * 1024) + "\"}";
    try (ScriptedModel model =
        ScriptedModel.start(
            Wire.OPENAI,
            request -> Reply.call("read_note", huge),
            request -> Reply.call("read_note", over),
            request -> Reply.call("read_note", "{\"path\":\"notes.txt\"}"),
            request -> Reply.text("Read it in the end."))) {
      ChatProcess.Result run =
          ChatProcess.run(
              dir, "Read it\n", args(model, "-server-command", mcp.command(), "-timeout", "3s"));

      assertThat(run.exit()).as(run.stderr()).isZero();
      assertThat(model.requests().get(1).lastToolResult())
          .isEqualTo(
              "NOT SENT: the host did not send it: its arguments are "
                  + huge.length()
                  + " characters, more than the 65536 the host reads. Nothing was sent to the"
                  + " server.");
      assertThat(model.requests().get(2).lastToolResult())
          .isEqualTo(
              "NOT SENT: the host did not send it: its arguments are "
                  + over.length()
                  + " bytes as JSON, over the 16384 bytes the server takes for one call. Nothing"
                  + " was sent to the server.");
      assertThat(model.requests().get(3).lastToolResult()).contains("Monday: ship the preview.");
      assertThat(mcp.calls()).containsExactly("read_note");
      assertThat(mcp.sent()).allMatch(message -> message.toString().length() < 1024);
      assertThat(run.stdout()).isEqualTo("Read it in the end.\n");
    }
  }

  /**
   * Arguments that are an empty text are no JSON object: they are refused to the model, not sent as
   * {@code {}} (a call the model did not make).
   */
  @Test
  void argumentsThatAreAnEmptyTextAreRefusedToTheModelNotSentAsAnEmptyObject() throws Exception {
    McpWire mcp = McpWire.recording(dir, List.of("-root", root.toString()));
    try (ScriptedModel model =
        ScriptedModel.start(
            Wire.OPENAI,
            request -> Reply.call("list_notes", ""),
            request -> Reply.text("No call."))) {
      ChatProcess.Result run =
          ChatProcess.run(dir, "List them\n", args(model, "-server-command", mcp.command()));

      assertThat(run.exit()).as(run.stderr()).isZero();
      assertThat(model.requests().get(1).lastToolResult())
          .isEqualTo(
              "NOT SENT: the host did not send it: its arguments are an empty text, not a JSON"
                  + " object. Nothing was sent to the server.");
      assertThat(mcp.calls()).isEmpty();
    }
  }

  @Test
  void aServerThatDiesDuringACallIsReportedAsUnknownAndTheCallIsNeverRetried() throws Exception {
    McpWire mcp = McpWire.fake(dir, false, "exit 1");
    try (ScriptedModel model =
        ScriptedModel.start(
            Wire.OPENAI,
            request -> Reply.call("read_note", "{\"path\":\"notes.txt\"}"),
            request -> Reply.call("read_note", "{\"path\":\"notes.txt\"}"),
            request -> Reply.text("The server is gone."))) {
      ChatProcess.Result run =
          ChatProcess.run(
              dir, "Read it\nAnd again\n", args(model, "-server-command", mcp.command()));

      assertThat(run.exit()).isEqualTo(4);
      assertThat(model.requests().get(1).lastToolResult())
          .startsWith("TRANSPORT FAILURE: the connection to the server failed (")
          .endsWith(
              "). The outcome of this call is unknown: it may or may not have taken effect. The"
                  + " host did not retry it; do not assume it succeeded.");
      assertThat(model.requests().get(2).lastToolResult())
          .isEqualTo(
              "NOT SENT: the tool server is no longer running. Nothing was sent to the server.");
      assertThat(mcp.calls()).containsExactly("read_note");
      assertThat(run.stdout()).isEqualTo("The server is gone.\n");
      assertThat(run.stderr())
          .contains("; outcome unknown, not retried")
          .contains("notes-mcp chat: the MCP server is gone (");
      assertThat(model.requests()).hasSize(3); // the second message is never taken up
    }
  }
}

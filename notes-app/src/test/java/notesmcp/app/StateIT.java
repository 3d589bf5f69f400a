package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import notesmcp.mcp.SchemaCheck;
import notesmcp.mcp.client.Connection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The server's application state under load: the call budget, the proposal rule, cancellation. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StateIT {
  @TempDir Path dir;

  @Test
  void theSeventeenthCallIsRefusedWhileDiscoveryAndListingStillWork() throws Exception {
    try (WireServer server = WireServer.start(Fixtures.workspace(dir))) {
      // Protocol errors and unknown tools do not reach the handler, so they do not count.
      assertThat(server.call("save_note", "{}").has("error")).isTrue();
      assertThat(server.call("read_note", "[]").has("error")).isTrue();
      for (int call = 1; call <= 16; call++) {
        String arguments = call % 2 == 0 ? "{\"path\":\"notes.txt\"}" : "{\"path\":\"../x\"}";
        JsonNode reply = server.call("read_note", arguments);
        assertThat(WireServer.isError(reply)).as("call " + call).isEqualTo(call % 2 == 1);
        assertThat(WireServer.text(reply)).doesNotContain("budget");
      }
      JsonNode seventeenth = server.call("list_notes", null);
      assertThat(WireServer.isError(seventeenth)).isTrue();
      assertThat(WireServer.text(seventeenth))
          .isEqualTo(
              "call budget spent: this server process"
                  + " dispatches at most 16 tool calls; start a new server process to continue");
      assertThat(server.modern("server/discover", "", "DiscoverResult").has("result")).isTrue();
      assertThat(server.modern("tools/list", "", "ListToolsResult").at("/result/tools").size())
          .isEqualTo(3);
    }
  }

  @Test
  void manyProposalsAtOnceOverOneConnectionLetExactlyOneWin() throws Exception {
    try (WireServer server = WireServer.start(Fixtures.workspace(dir), "-max-calls", "100")) {
      int proposals = 40;
      StringBuilder burst = new StringBuilder();
      long first = 0;
      for (int i = 0; i < proposals; i++) {
        long id = server.nextId();
        first = i == 0 ? id : first;
        server.expect(id, SchemaCheck.MODERN, "CallToolResult");
        burst
            .append("{\"jsonrpc\":\"2.0\",\"id\":")
            .append(id)
            .append(",\"method\":\"tools/call\",\"params\":{")
            .append(WireServer.META)
            .append(
                ",\"name\":\"propose_note\",\"arguments\":{\"path\":\"draft.txt\","
                    + "\"content\":\"proposal ")
            .append(i)
            .append("\"}}}\n");
      }
      server.sendBytes(burst.toString().getBytes(StandardCharsets.UTF_8));
      int accepted = 0;
      for (long id = first; id < first + proposals; id++) {
        JsonNode reply = server.response(id);
        if (!WireServer.isError(reply)) {
          accepted++;
        } else {
          assertThat(WireServer.text(reply)).startsWith("a proposal is already pending");
        }
      }
      assertThat(accepted).isEqualTo(1);
    }
    assertThat(dir.resolve("workspace/draft.txt")).doesNotExist();
  }

  @Test
  void aCancelledProposalNeverRunsAndLeavesNothingPending() throws Exception {
    Path root = Fixtures.workspace(dir);
    Path log = dir.resolve("server.log");
    ProcessBuilder child =
        new ProcessBuilder(
                TestMain.command("--hold-calls", "3000", "-serve", "-root", root.toString()))
            .redirectError(log.toFile());
    Connection connection =
        Connection.start(child, new PrintStream(System.err, true, StandardCharsets.UTF_8));
    try {
      // The server holds every call for 3 s before the policy; this client gives up after
      // 300 ms and, as the spec says, sends notifications/cancelled for it.
      assertThatThrownBy(
              () -> connection.request("tools/call", propose("first"), Duration.ofMillis(300)))
          .isInstanceOf(Connection.Timeout.class);
      JsonNode second = connection.request("tools/call", propose("second"), Duration.ofSeconds(20));
      assertThat(second.path("isError").asBoolean()).as(second.toString()).isFalse();
      assertThat(second.at("/content/0/text").asString()).contains("pending_approval");
    } finally {
      connection.close(Duration.ofSeconds(5));
    }
    String stderr = Files.readString(log);
    assertThat(stderr)
        .contains("cancellation received for request 1 (\"no answer within 300 ms\")");
    assertThat(stderr).contains("request 1 cancelled before it ran; no reply");
    assertThat(root.resolve("draft.txt")).doesNotExist();
  }

  @Test
  void sigtermEndsTheServerPromptly() throws Exception {
    try (WireServer server = WireServer.start(Fixtures.workspace(dir))) {
      assertThat(server.call("list_notes", null).has("result")).isTrue();
      long start = System.nanoTime();
      server.process().destroy(); // SIGTERM
      assertThat(server.process().waitFor(5, TimeUnit.SECONDS)).isTrue();
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
      assertThat(server.process().exitValue()).isIn(0, 143);
    }
  }

  private static ObjectNode propose(String content) {
    ObjectNode params = WireServer.JSON.createObjectNode();
    ObjectNode meta = params.putObject("_meta");
    meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
    meta.putObject("io.modelcontextprotocol/clientCapabilities");
    params.put("name", "propose_note");
    params.putObject("arguments").put("path", "draft.txt").put("content", content);
    return params;
  }
}

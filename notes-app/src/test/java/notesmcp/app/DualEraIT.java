package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Legacy (initialize) and modern (per-request _meta) requests on one server process: each is served
 * in its own era, and both reach the same policy, so they share one budget and one proposal rule.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DualEraIT {
  private static final String INITIALIZE =
      "{\"protocolVersion\":\"%s\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"legacy-wire\",\"version\":\"1\"}}";

  @TempDir Path dir;

  @Test
  void beforeInitializePingAnswersAndToolRequestsAreRefused() throws Exception {
    try (WireServer server = WireServer.start(Fixtures.workspace(dir))) {
      assertThat(server.legacy("ping", null, "EmptyResult").get("result").toString())
          .isEqualTo("{}");
      JsonNode list = server.legacy("tools/list", "{}", "ListToolsResult");
      assertThat(list.at("/error/code").asInt()).isEqualTo(-32602);
      assertThat(list.at("/error/message").asString()).contains("initialize");
      JsonNode call = server.legacy("tools/call", "{\"name\":\"list_notes\"}", "CallToolResult");
      assertThat(call.at("/error/code").asInt()).isEqualTo(-32602);
    }
  }

  @Test
  void initializeNegotiatesALegacyVersion() throws Exception {
    try (WireServer server = WireServer.start(Fixtures.workspace(dir))) {
      for (String version : new String[] {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
        JsonNode reply =
            server.legacy("initialize", INITIALIZE.formatted(version), "InitializeResult");
        assertThat(reply.at("/result/protocolVersion").asString()).isEqualTo(version);
        assertThat(reply.at("/result/serverInfo/name").asString()).isEqualTo("notes-mcp");
        assertThat(reply.at("/result/capabilities/tools").isObject()).isTrue();
      }
      for (String unknown : new String[] {"2024-10-07", "2026-07-28", "9999-01-01", "latest"}) {
        JsonNode reply =
            server.legacy("initialize", INITIALIZE.formatted(unknown), "InitializeResult");
        assertThat(reply.at("/result/protocolVersion").asString()).isEqualTo("2025-11-25");
      }
    }
  }

  @Test
  void bothErasShareOneBudgetAndOneProposalRule() throws Exception {
    Path root = Fixtures.workspace(dir);
    try (WireServer server = WireServer.start(root)) {
      server.legacy("initialize", INITIALIZE.formatted("2025-11-25"), "InitializeResult");
      server.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

      JsonNode legacyList = server.legacy("tools/list", null, "ListToolsResult");
      assertThat(legacyList.at("/result/tools").size()).isEqualTo(3);
      assertThat(legacyList.at("/result/resultType").isMissingNode()).isTrue();

      JsonNode modernProposal =
          server.call("propose_note", "{\"path\":\"draft.txt\",\"content\":\"modern\"}");
      assertThat(WireServer.isError(modernProposal)).isFalse();
      JsonNode legacyProposal =
          server.legacy(
              "tools/call",
              "{\"name\":\"propose_note\",\"arguments\":{\"path\":\"draft.txt\",\"content\":\"old\"}}",
              "CallToolResult");
      assertThat(WireServer.isError(legacyProposal)).isTrue();
      assertThat(WireServer.text(legacyProposal)).startsWith("a proposal is already pending");

      for (int call = 3; call <= 16; call++) {
        JsonNode reply =
            call % 2 == 0
                ? server.call("read_note", "{\"path\":\"notes.txt\"}")
                : server.legacy(
                    "tools/call",
                    "{\"name\":\"read_note\",\"arguments\":{\"path\":\"project.txt\"}}",
                    "CallToolResult");
        assertThat(WireServer.isError(reply)).as("call " + call + ": " + reply).isFalse();
      }
      JsonNode legacySeventeenth =
          server.legacy("tools/call", "{\"name\":\"list_notes\"}", "CallToolResult");
      assertThat(WireServer.text(legacySeventeenth)).startsWith("call budget spent");
      assertThat(WireServer.text(server.call("list_notes", "{}"))).startsWith("call budget spent");

      assertThat(server.legacy("ping", null, "EmptyResult").has("result")).isTrue();
      assertThat(server.modern("server/discover", "", "DiscoverResult").has("result")).isTrue();
    }
    assertThat(root.resolve("draft.txt")).doesNotExist();
  }

  @Test
  void discoveryAdvertisesOnlyTheStatelessVersionEvenAfterInitialize() throws Exception {
    try (WireServer server = WireServer.start(Fixtures.workspace(dir))) {
      server.legacy("initialize", INITIALIZE.formatted("2025-06-18"), "InitializeResult");
      JsonNode discover = server.modern("server/discover", "", "DiscoverResult");
      assertThat(discover.at("/result/supportedVersions").toString()).isEqualTo("[\"2026-07-28\"]");
    }
  }

  /**
   * The Vercel AI SDK 4.x and Spring AI 1.x clients ask for 2024-11-05 only and disconnect from any
   * other answer. A whole session in that revision: every reply is checked against its own schema
   * (draft-07), with no member it does not declare.
   */
  @Test
  void a2024Session_listsReadsRefusesAndRejectsAnUnknownTool() throws Exception {
    try (WireServer server = WireServer.start(Fixtures.workspace(dir))) {
      JsonNode init =
          server.legacy("initialize", INITIALIZE.formatted("2024-11-05"), "InitializeResult");
      assertThat(init.at("/result/protocolVersion").asString()).isEqualTo("2024-11-05");
      server.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

      JsonNode list = server.legacy("tools/list", null, "ListToolsResult");
      assertThat(list.at("/result/tools").size()).isEqualTo(3);
      JsonNode read =
          server.legacy(
              "tools/call",
              "{\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}",
              "CallToolResult");
      assertThat(WireServer.isError(read)).isFalse();
      assertThat(WireServer.text(read)).contains("\"path\":\"notes.txt\"");
      JsonNode refused =
          server.legacy(
              "tools/call",
              "{\"name\":\"read_note\",\"arguments\":{\"path\":\"../secret.txt\"}}",
              "CallToolResult");
      assertThat(WireServer.isError(refused)).isTrue();
      JsonNode unknown =
          server.legacy(
              "tools/call", "{\"name\":\"save_note\",\"arguments\":{}}", "CallToolResult");
      assertThat(unknown.at("/error/code").asInt()).isEqualTo(-32602);
      assertThat(unknown.at("/error/message").asString()).isEqualTo("Unknown tool: save_note");
      assertThat(server.legacy("ping", null, "EmptyResult").get("result").toString())
          .isEqualTo("{}");

      JsonNode discover = server.modern("server/discover", "", "DiscoverResult");
      assertThat(discover.at("/result/supportedVersions").toString()).isEqualTo("[\"2026-07-28\"]");
    }
  }
}

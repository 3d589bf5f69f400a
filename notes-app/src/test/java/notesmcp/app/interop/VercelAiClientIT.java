package notesmcp.app.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import notesmcp.mcp.SchemaCheck;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The Vercel AI SDK's MCP client, current line ({@code @ai-sdk/mcp} 2.x: {@code createMCPClient}
 * and its stdio transport), unmodified, against our real executable: {@code node
 * peers/interop/vercel-ai-client.mjs ./notes-mcp -serve -root WS}. What it does on the wire: it
 * probes with {@code server/discover} (2026-07-28) on the same process and, finding a modern
 * server, stays stateless: no initialize, {@code _meta} on every request.
 */
class VercelAiClientIT {
  @TempDir static Path dir;
  static Path workspace;
  static ClientReport report;

  @BeforeAll
  static void runClient() throws IOException, InterruptedException {
    workspace = Interop.workspace(dir);
    report = new ClientReport(Interop.runNodeClient(dir, "vercel-ai-client.mjs", workspace));
  }

  @Test
  void discoversAModernServerAndStaysStateless() {
    report.assertEra("modern", "2026-07-28");
    report.assertWireMatchesSchema(SchemaCheck.MODERN);
    assertThat(report.methods())
        .as("the client's messages\n%s", report.run())
        .startsWith("server/discover", "tools/list")
        .doesNotContain("initialize", "notifications/initialized");
    for (JsonNode request : report.requests()) {
      assertThat(
              request
                  .path("params")
                  .path("_meta")
                  .path("io.modelcontextprotocol/protocolVersion")
                  .asString())
          .as("_meta of %s", request)
          .isEqualTo("2026-07-28");
    }
  }

  @Test
  void listsExactlyTheThreeToolsAndMakesAiSdkToolsOfThem() {
    report.assertThreeTools();
    assertThat(report.json().path("aiSdkTools").toString())
        .isEqualTo("[\"list_notes\",\"read_note\",\"propose_note\"]");
  }

  @Test
  void readsTheFixtureNoteThroughTheAiSdkToolsExecute() {
    report.assertReadNote();
  }

  @Test
  void refusedReadIsAToolResultWithIsError() {
    report.assertRefusedRead();
  }

  @Test
  void unknownToolIsJsonRpcInvalidParams() {
    report.assertUnknownToolIsInvalidParams();
  }

  @Test
  void writesNothingToTheWorkspace() throws IOException {
    assertThat(Interop.listing(workspace)).containsExactly("notes.txt", "project.txt");
  }
}

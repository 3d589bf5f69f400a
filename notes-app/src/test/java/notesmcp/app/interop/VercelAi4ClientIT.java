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
 * The Vercel AI SDK 4.x MCP client ({@code ai} 4.3, {@code experimental_createMCPClient}),
 * unmodified, against our real executable: {@code node peers/interop/vercel-ai-4/client.mjs
 * ./notes-mcp -serve -root WS}. It asks for 2024-11-05 only and disconnects from any other answer
 * (docs/testing.md, "Interoperability": before 2024-11-05 was served, it failed with "Server's
 * protocol version is not supported: 2025-11-25"). Its AI SDK tools can only call listed tools, so
 * an unknown tool never reaches us.
 */
class VercelAi4ClientIT {
  @TempDir static Path dir;
  static Path workspace;
  static ClientReport report;

  @BeforeAll
  static void runClient() throws IOException, InterruptedException {
    workspace = Interop.workspace(dir);
    report = new ClientReport(Interop.runNodeClient(dir, "vercel-ai-4/client.mjs", workspace));
  }

  @Test
  void negotiates2024_11_05() {
    report.assertEra("legacy", "2024-11-05");
    report.assertWireMatchesSchema(SchemaCheck.LEGACY_2024);
    assertThat(report.methods())
        .as("the client's messages\n%s", report.run())
        .startsWith("initialize", "notifications/initialized", "tools/list");
    JsonNode initialize = report.requests().get(0);
    assertThat(initialize.path("params").path("protocolVersion").asString())
        .isEqualTo("2024-11-05");
    assertThat(report.json().path("sdk").path("version").asString()).startsWith("4.");
  }

  @Test
  void listsExactlyTheThreeTools() {
    report.assertThreeTools();
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
  void anUnknownToolCannotBeCalledThroughTheClient() {
    assertThat(report.json().path("unknownTool").path("offered").asBoolean(true)).isFalse();
    report.assertUnknownToolNeverSent();
  }

  @Test
  void writesNothingToTheWorkspace() throws IOException {
    assertThat(Interop.listing(workspace)).containsExactly("notes.txt", "project.txt");
  }
}

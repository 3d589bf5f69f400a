package notesmcp.app.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import notesmcp.mcp.SchemaCheck;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP Inspector v2 CLI ({@code @modelcontextprotocol/inspector} 2.x, {@code mcp-inspector --cli
 * --format json}), unmodified, in both of its eras ({@code --protocol-era legacy} and {@code
 * modern}), against our real executable: {@code node peers/interop/inspector-cli.mjs
 * --protocol-era=ERA ./notes-mcp -serve -root WS}, one CLI process per method, each through the
 * transparent wire tap. The CLI checks a tool name against the listed tools before it calls, so the
 * unknown tool never reaches us: it answers {@code tool_not_found} itself.
 */
class InspectorCliIT {
  @TempDir static Path dir;
  static Path workspace;
  static ClientReport legacy;
  static ClientReport modern;

  @BeforeAll
  static void runClient() throws IOException, InterruptedException {
    workspace = Interop.workspace(dir);
    // The Inspector keeps a catalog and settings under HOME: give it one of its own.
    Path home = Files.createDirectory(dir.resolve("home"));
    legacy = run("legacy", home);
    modern = run("modern", home);
  }

  private static ClientReport run(String era, Path home) throws IOException, InterruptedException {
    List<String> command =
        List.of(
            Interop.node().toString(),
            Interop.script("inspector-cli.mjs").toString(),
            "--protocol-era=" + era,
            Interop.launcher().toString(),
            "-serve",
            "-root",
            workspace.toString());
    return new ClientReport(
        Interop.run(dir.resolve("logs-" + era), command, Map.of("HOME", home.toString())));
  }

  @Test
  void legacyEraInitializesWith2025_11_25() {
    legacy.assertEra("legacy", "2025-11-25");
    legacy.assertWireMatchesSchema(SchemaCheck.LEGACY);
    assertThat(legacy.methods()).startsWith("initialize", "notifications/initialized");
  }

  @Test
  void modernEraDiscoversAndSpeaks2026_07_28() {
    modern.assertEra("modern", "2026-07-28");
    modern.assertWireMatchesSchema(SchemaCheck.MODERN);
    // The CLI's client opens a subscriptions/listen stream for list changes right after discovery
    // (the server advertises resources.listChanged); the requests of the session follow it.
    List<String> requests = new ArrayList<>(modern.methods());
    requests.removeAll(List.of("subscriptions/listen", "notifications/cancelled"));
    assertThat(requests).startsWith("server/discover", "tools/list").doesNotContain("initialize");
  }

  @Test
  void listsExactlyTheThreeToolsInBothEras() {
    legacy.assertThreeTools();
    modern.assertThreeTools();
    assertThat(legacy.json().path("listExit").asInt()).isZero();
    assertThat(modern.json().path("listExit").asInt()).isZero();
  }

  @Test
  void readsTheFixtureNoteInBothEras() {
    legacy.assertReadNote();
    modern.assertReadNote();
    assertThat(legacy.json().path("readNote").path("exit").asInt()).isZero();
  }

  @Test
  void refusedReadIsAToolResultWithIsErrorInBothEras() {
    legacy.assertRefusedRead();
    modern.assertRefusedRead();
    // The CLI's documented exit status for a tool result with isError: true.
    assertThat(legacy.json().path("refusedRead").path("exit").asInt()).isEqualTo(5);
  }

  @Test
  void theCliRefusesAnUnknownToolItselfInBothEras() {
    for (ClientReport report : List.of(legacy, modern)) {
      assertThat(report.json().path("unknownTool").path("error").path("code").asString())
          .isEqualTo("tool_not_found");
      report.assertUnknownToolNeverSent();
    }
  }

  @Test
  void writesNothingToTheWorkspace() throws IOException {
    assertThat(Interop.listing(workspace)).containsExactly("notes.txt", "project.txt");
  }
}

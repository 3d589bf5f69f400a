package notesmcp.app.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import notesmcp.mcp.SchemaCheck;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The official TypeScript SDK v1 client ({@code @modelcontextprotocol/sdk} 1.x), unmodified,
 * against our real executable: {@code node peers/interop/ts-v1-client.mjs ./notes-mcp -serve -root
 * WS}. It knows only the legacy era: initialize with 2025-11-25, then plain requests without _meta.
 */
class TsV1ClientIT {
  @TempDir static Path dir;
  static Path workspace;
  static ClientReport report;

  @BeforeAll
  static void runClient() throws IOException, InterruptedException {
    workspace = Interop.workspace(dir);
    report = new ClientReport(Interop.runNodeClient(dir, "ts-v1-client.mjs", workspace));
  }

  @Test
  void negotiatesTheLegacyEra() {
    report.assertEra("legacy", "2025-11-25");
    report.assertWireMatchesSchema(SchemaCheck.LEGACY);
    assertThat(report.methods())
        .as("the client's messages\n%s", report.run())
        .startsWith("initialize", "notifications/initialized");
    JsonNode initialize = report.requests().get(0);
    assertThat(initialize.path("params").path("protocolVersion").asString())
        .isEqualTo("2025-11-25");
    assertThat(report.json().path("serverCapabilities").has("tools")).isTrue();
  }

  @Test
  void listsExactlyTheThreeTools() {
    report.assertThreeTools();
  }

  @Test
  void readsTheFixtureNote() {
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

  /**
   * Resources in the legacy era: listed, read, a refusal, a path completed, and resources/subscribe
   * told of notes.txt rewritten on disk (no search_notes: the default lists none; see
   * searchesThroughAPolicyFile).
   */
  @Test
  void listsReadsCompletesAndIsToldOfAnEditedNote() {
    report.assertResources();
  }

  @Test
  void writesNothingToTheWorkspace() throws IOException {
    assertThat(Interop.listing(workspace)).containsExactly("notes.txt", "project.txt");
  }

  /**
   * With a policy file that offers search_notes (a workspace, policy and cache of its own): the
   * same legacy session and checks, plus a hit, none and two refusals; every message against the
   * 2025-11-25 schema.
   */
  @Test
  void searchesThroughAPolicyFile() throws IOException, InterruptedException {
    Interop.Searchable served = Interop.Searchable.in(Files.createDirectory(dir.resolve("search")));
    ClientReport search =
        new ClientReport(
            Interop.runNodeClient(dir.resolve("logs-search"), "ts-v1-client.mjs", served));
    search.assertSearchSession("legacy", "2025-11-25", SchemaCheck.LEGACY);
    assertThat(search.methods()).startsWith("initialize", "notifications/initialized");
    assertThat(Interop.listing(served.workspace())).containsExactly("notes.txt", "project.txt");
  }
}

package notesmcp.app.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import notesmcp.mcp.SchemaCheck;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The official TypeScript SDK v2 client ({@code @modelcontextprotocol/client}), unmodified, with
 * {@code versionNegotiation: {mode: 'auto'}}, against our real executable: {@code node
 * peers/interop/ts-v2-client.mjs ./notes-mcp -serve -root WS}. It must find a modern (2026-07-28)
 * server through server/discover and then use it statelessly: no initialize, _meta on every
 * request.
 */
class TsV2ClientIT {
  @TempDir static Path dir;
  static Path workspace;
  static ClientReport report;

  @BeforeAll
  static void runClient() throws IOException, InterruptedException {
    workspace = Interop.workspace(dir);
    report = new ClientReport(Interop.run(dir.resolve("logs"), command("auto")));
  }

  static List<String> command(String negotiation) {
    return List.of(
        Interop.node().toString(),
        Interop.script("ts-v2-client.mjs").toString(),
        "--negotiation=" + negotiation,
        Interop.launcher().toString(),
        "-serve",
        "-root",
        workspace.toString());
  }

  /**
   * The same client in the posture {@code negotiation} against our server with a policy file that
   * offers search_notes ({@link Interop.Searchable}, a workspace, policy and cache of its own).
   */
  static ClientReport searchReport(String negotiation) throws IOException, InterruptedException {
    Interop.Searchable served =
        Interop.Searchable.in(Files.createDirectory(dir.resolve("search-" + negotiation)));
    ClientReport report =
        new ClientReport(
            Interop.runNodeClient(
                dir.resolve("logs-search-" + negotiation),
                "ts-v2-client.mjs",
                served,
                "--negotiation=" + negotiation));
    assertThat(Interop.listing(served.workspace()))
        .as("nothing written to the searched workspace")
        .containsExactly("notes.txt", "project.txt");
    return report;
  }

  @Test
  void negotiatesTheModernEra() {
    report.assertEra("modern", "2026-07-28");
    report.assertWireMatchesSchema(SchemaCheck.MODERN);
    JsonNode discover = report.json().path("discover");
    assertThat(discover.path("supportedVersions").toString()).isEqualTo("[\"2026-07-28\"]");
    assertThat(report.json().path("serverCapabilities").has("tools")).isTrue();
  }

  @Test
  void speaksStatelesslyWithMetaOnEveryRequest() {
    assertThat(report.methods())
        .as("the session's requests after the probe\n%s", report.run())
        .doesNotContain("initialize", "notifications/initialized")
        .startsWith("tools/list");
    for (JsonNode request : report.requests()) {
      JsonNode meta = request.path("params").path("_meta");
      assertThat(meta.path("io.modelcontextprotocol/protocolVersion").asString())
          .as("_meta of %s", request)
          .isEqualTo("2026-07-28");
      assertThat(meta.path("io.modelcontextprotocol/clientCapabilities").isObject())
          .as("_meta of %s", request)
          .isTrue();
    }
  }

  @Test
  void listsExactlyTheThreeTools() {
    report.assertThreeTools();
    JsonNode list = report.json().path("listResult");
    assertThat(list.path("ttlMs").isNumber()).as("tools/list ttlMs\n%s", report.run()).isTrue();
    assertThat(list.path("cacheScope").asString()).isIn("private", "public");
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
   * Resources in 2026-07-28: listed, read, a refusal, a path completed, and a subscriptions/listen
   * stream told of notes.txt rewritten on disk.
   */
  @Test
  void listsReadsCompletesAndIsToldOfAnEditedNote() {
    report.assertResources();
    assertThat(report.json().path("serverCapabilities").path("resources").toString())
        .isEqualTo("{\"subscribe\":true,\"listChanged\":true}");
    assertThat(report.methods()).contains("subscriptions/listen");
  }

  @Test
  void writesNothingToTheWorkspace() throws IOException {
    assertThat(Interop.listing(workspace)).containsExactly("notes.txt", "project.txt");
  }

  /**
   * With a policy file: the modern session as above (discovery, stateless, every check) plus
   * search_notes, a hit, none and two refusals; every message against the 2026-07-28 schema.
   */
  @Test
  void searchesThroughAPolicyFile() throws IOException, InterruptedException {
    ClientReport search = searchReport("auto");
    search.assertSearchSession("modern", "2026-07-28", SchemaCheck.MODERN);
    assertThat(search.methods())
        .doesNotContain("initialize", "notifications/initialized")
        .contains("subscriptions/listen");
  }

  /** The SDK's default posture (no negotiation): a plain 2025-11-25 initialize, still served. */
  @Test
  void defaultLegacyPostureGetsTheLegacyEra() throws IOException, InterruptedException {
    ClientReport legacy =
        new ClientReport(Interop.run(dir.resolve("logs-legacy"), command("legacy")));
    legacy
        .assertEra("legacy", "2025-11-25")
        .assertWireMatchesSchema(SchemaCheck.LEGACY)
        .assertThreeTools()
        .assertReadNote()
        .assertRefusedRead()
        .assertUnknownToolIsInvalidParams()
        .assertResources();
    assertThat(legacy.methods()).startsWith("initialize", "notifications/initialized");
    assertThat(legacy.methods())
        .contains("resources/subscribe")
        .doesNotContain("subscriptions/listen");
  }

  /** The legacy posture with a policy file: search_notes too, against the 2025-11-25 schema. */
  @Test
  void legacyPostureSearchesThroughAPolicyFile() throws IOException, InterruptedException {
    ClientReport search = searchReport("legacy");
    search.assertSearchSession("legacy", "2025-11-25", SchemaCheck.LEGACY);
    assertThat(search.methods()).startsWith("initialize", "notifications/initialized");
  }
}

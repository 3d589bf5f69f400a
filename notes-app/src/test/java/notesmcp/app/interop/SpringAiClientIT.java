package notesmcp.app.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import notesmcp.mcp.SchemaCheck;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Spring AI 1.1's MCP client on Spring Boot 3 (the official MCP Java SDK 0.17 underneath),
 * unmodified and auto-configured from {@code spring.ai.mcp.client.stdio.connections.*}, against our
 * real executable. It lives in its own module, {@code peers/interop/spring-ai} (its own parent and
 * classpath: the SDK 0.17 it brings must not meet the 2.1.0 SDK on this module's test classpath),
 * and runs here in a child JVM from the classpath that module writes. On stdio it asks for
 * 2024-11-05 only (docs/testing.md, "Interoperability": before that version was served it failed
 * with "Unsupported protocol version"). The server is started through peers/interop/wire-tap.mjs so
 * the report has the wire.
 */
class SpringAiClientIT {
  @TempDir static Path dir;
  static Path workspace;
  static ClientReport report;

  @BeforeAll
  static void runClient() throws IOException, InterruptedException {
    workspace = Interop.workspace(dir);
    Path module = Interop.repo().resolve("peers/interop/spring-ai/target");
    Path classpathFile = module.resolve("classpath.txt");
    Path jar = module.resolve("interop-spring-ai-0.1.0.jar");
    if (!Files.isRegularFile(classpathFile) || !Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          module
              + " has no classpath.txt or jar: build the peers/interop/spring-ai module first (mvn"
              + " verify from the repository root builds it before notes-app)");
    }
    String classpath = Files.readString(classpathFile, StandardCharsets.UTF_8).trim() + ":" + jar;
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            classpath,
            "notesmcp.interop.springai.SpringAiClient",
            dir.resolve("wire.jsonl").toString(),
            Interop.script("wire-tap.mjs").toString(),
            Interop.launcher().toString(),
            "-serve",
            "-root",
            workspace.toString());
    report = new ClientReport(Interop.run(dir.resolve("logs"), command));
  }

  @Test
  void negotiates2024_11_05() {
    report.assertEra("legacy", "2024-11-05");
    report.assertWireMatchesSchema(SchemaCheck.LEGACY_2024);
    JsonNode initialize = report.requests().get(0);
    assertThat(initialize.path("method").asString()).isEqualTo("initialize");
    assertThat(initialize.path("params").path("protocolVersion").asString())
        .isEqualTo("2024-11-05");
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

  /** What a Spring AI chat host hands its model: a ToolCallback per tool, which calls through. */
  @Test
  void theHostsToolCallbacksReadAndSurfaceTheRefusal() {
    JsonNode host = report.json().path("hostTools");
    List<String> names = List.copyOf(host.propertyNames());
    assertThat(names).containsExactly("list_notes", "read_note", "propose_note");
    assertThat(host.path("read_note").asString()).contains("\"enum\":[\"notes.txt\"");
    assertThat(report.json().path("hostRead").asString()).contains("Interop fixture: notes.txt");
    assertThat(report.json().path("hostRefusal").asString())
        .contains("ToolExecutionException")
        .contains("../secret.txt")
        .doesNotContain(Interop.SECRET_TEXT);
  }

  @Test
  void writesNothingToTheWorkspace() throws IOException {
    assertThat(Interop.listing(workspace)).containsExactly("notes.txt", "project.txt");
  }
}

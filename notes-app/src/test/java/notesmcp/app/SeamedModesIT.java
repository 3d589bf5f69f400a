package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The tests' own main ({@link TestMain}) runs every mode the way the launcher does, through the
 * same seams-taking path in {@code Main}: a test that needs a seam in one mode gets the real
 * program in all the others.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SeamedModesIT {
  @TempDir Path dir;

  record Run(int exit, String out, String err) {}

  private Run run(String... args) throws IOException, InterruptedException {
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    Process process =
        new ProcessBuilder(TestMain.command(args))
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.toHandle().destroyForcibly();
      throw new AssertionError("TestMain did not exit within 60 s");
    }
    return new Run(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  @Test
  void serveFindsTheNativeLibraryBesideTheJar() throws Exception {
    Path root = Fixtures.workspace(dir);
    Path input =
        Files.writeString(
            dir.resolve("in.jsonl"),
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"_meta\":"
                + "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}},"
                + "\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}}\n");
    Path out = dir.resolve("serve.out");
    Process process =
        new ProcessBuilder(
                TestMain.command("--hold-calls", "1", "-serve", "-root", root.toString()))
            .redirectInput(input.toFile())
            .redirectOutput(out.toFile())
            .redirectError(dir.resolve("serve.err").toFile())
            .start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(process.exitValue())
        .as(Files.readString(dir.resolve("serve.err"), StandardCharsets.UTF_8))
        .isZero();
    JsonNode reply = WireServer.JSON.readTree(Files.readString(out, StandardCharsets.UTF_8));
    assertThat(reply.at("/result/content/0/text").asString()).contains("Monday");
  }

  @Test
  void configNamesTheLauncherAsTheLauncherDoes() throws Exception {
    Path root = Fixtures.workspace(dir);

    Run run = run("config", "-root", root.toString());

    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode server = WireServer.JSON.readTree(run.out()).path("mcpServers").path("notes");
    assertThat(server.path("command").asString())
        .isEqualTo(WireServer.launcher().toRealPath().toString());
    assertThat(server.path("args").toString())
        .isEqualTo("[\"-serve\",\"-root\",\"" + root.toRealPath() + "\"]");
  }

  @Test
  void chatGoesToTheChatModuleNotToTheOptions() throws Exception {
    Run run = run("chat", "--help");

    // Built or not (notes-chat is built after this module's tests), "chat" reached ChatModule:
    // its help (0) or its "not built" message (4), never an unknown-flag usage error (2).
    assertThat(run.err()).doesNotContain("Run 'notes-mcp --help'");
    if (run.exit() == 0) {
      assertThat(run.out()).contains("chat");
    } else {
      assertThat(run.exit()).as(run.err()).isEqualTo(4);
      assertThat(run.err()).contains("the chat mode is not built");
    }
  }
}

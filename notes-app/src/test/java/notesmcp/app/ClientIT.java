package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** The one-shot client modes of the real executable: what they print and how they exit. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ClientIT {
  @TempDir Path dir;
  private Path root;

  @BeforeEach
  void workspace() throws IOException {
    root = Fixtures.workspace(dir);
  }

  /** One run of the launcher: exit code, stdout, stderr. */
  record Run(int exit, String out, String err) {
    JsonNode json() {
      return WireServer.JSON.readTree(out);
    }
  }

  static Run run(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(WireServer.launcher().toString()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile("client-out", ".txt");
    Path err = Files.createTempFile("client-err", ".txt");
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .redirectInput(ProcessBuilder.Redirect.PIPE)
              .start();
      process.getOutputStream().close();
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("client finishes").isTrue();
      return new Run(
          process.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  @Test
  void listModePrintsTheThreeToolDefinitions() throws Exception {
    Run run = run("-root", root.toString());
    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode tools = run.json();
    assertThat(tools.findValuesAsString("name"))
        .containsExactly("list_notes", "read_note", "propose_note");
    assertThat(tools.get(1).at("/inputSchema/properties/path/enum").toString())
        .isEqualTo("[\"notes.txt\",\"project.txt\",\"draft.txt\"]");
    assertThat(tools.get(1).at("/inputSchema/additionalProperties").asBoolean(true)).isFalse();
    assertThat(tools.get(1).has("description")).isTrue();
    for (JsonNode tool : tools) {
      // docs/behaviour.md, "Command line": "print its tool definitions (name, description,
      // inputSchema)".
      assertThat(tool.propertyNames()).containsExactly("name", "description", "inputSchema");
    }
    assertThat(run.err()).contains("modern era, protocol 2026-07-28");
  }

  @Test
  void aSuccessfulCallPrintsTheResultAndExitsZero() throws Exception {
    Run run =
        run(
            "--root",
            root.toString(),
            "--tool",
            "read_note",
            "--args",
            "{\"path\": \"notes.txt\"}");
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.json().path("isError").asBoolean()).isFalse();
    JsonNode note = WireServer.JSON.readTree(run.json().at("/content/0/text").asString());
    assertThat(note.path("content").asString()).isEqualTo(Fixtures.NOTES);
  }

  @Test
  void aRefusalExitsOneAndStillPrintsTheResult() throws Exception {
    Run run =
        run(
            "-root",
            root.toString(),
            "-tool",
            "read_note",
            "-args",
            "{\"path\":\"../secret.txt\"}");
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.json().path("isError").asBoolean()).isTrue();
    assertThat(run.json().at("/content/0/text").asString()).contains("../secret.txt");
  }

  @Test
  void duplicateKeysInArgsReachTheServerAsWritten() throws Exception {
    Run run =
        run(
            "-root",
            root.toString(),
            "-tool",
            "read_note",
            "-args",
            "{\"path\":\"notes.txt\",\n \"path\":\"project.txt\"}");
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.json().at("/content/0/text").asString()).startsWith("duplicate argument");
  }

  /**
   * An escaped unpaired surrogate in -args is JSON the server must see and refuse (content that is
   * not valid Unicode). The client wrote its compacted text as a raw value, which a UTF-8 line
   * cannot hold: it failed with "StreamWriteException: Incomplete surrogate pair" and exit 4 (found
   * by LineCodecFuzzTest). The codec now writes such a character as its escape.
   */
  @Test
  void anEscapedUnpairedSurrogateInArgsReachesTheServerAsItsEscape() throws Exception {
    Run run =
        run(
            "-root",
            root.toString(),
            "-tool",
            "propose_note",
            "-args",
            "{\"path\":\"draft.txt\",\"content\":\"a\\ud800\"}");
    assertThat(run.exit()).as(run.toString()).isEqualTo(1);
    assertThat(run.json().path("isError").asBoolean()).isTrue();
    assertThat(run.json().at("/content/0/text").asString()).contains("unpaired surrogate \\ud800");
  }

  @Test
  void anUnknownToolIsAProtocolError() throws Exception {
    Run run = run("-root", root.toString(), "-tool", "save_note", "-args", "{}");
    assertThat(run.exit()).isEqualTo(3);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("-32602").contains("Unknown tool: save_note");
  }

  @Test
  void theClientDoesNotEchoItsServersBannerUnlessAskedWithV() throws Exception {
    Run quiet =
        run("-root", root.toString(), "-tool", "read_note", "-args", "{\"path\":\"notes.txt\"}");
    assertThat(quiet.exit()).as(quiet.err()).isZero();
    assertThat(quiet.err())
        .doesNotContain(": serving ")
        .contains("notes-mcp: modern era, protocol 2026-07-28");

    for (String flag : List.of("-v", "--verbose")) {
      Run verbose = run(flag, "-root", root.toString());
      assertThat(verbose.exit()).as(verbose.err()).isZero();
      assertThat(verbose.err()).contains(": serving ").contains("modern era");
    }
  }

  @Test
  void aServerThatFailsStillShowsWhyEvenWhenQuiet() throws Exception {
    Path script =
        Files.writeString(
            dir.resolve("broken.sh"),
            "printf 'lots of start-up chatter\\n%.0s' $(seq 1 2000) >&2\n"
                + "echo 'broken-server: cannot open its settings' >&2\nexit 7\n");

    Run run = run("-server-command", "sh " + script, "-tool", "t");

    assertThat(run.exit()).isEqualTo(4);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("exited with status 7").contains("cannot open its settings");
    assertThat(run.err().length()).as("only the end of the server's stderr").isLessThan(16 * 1024);

    Run ownServer = run("-root", dir.resolve("absent").toString(), "-tool", "list_notes");
    assertThat(ownServer.exit()).isEqualTo(4);
    assertThat(ownServer.err()).contains("-root").contains("not a usable folder");
  }

  @Test
  void usageErrorsExitTwo() throws Exception {
    assertThat(run("-root", root.toString(), "-tool", "read_note", "-args", "[1]").exit())
        .isEqualTo(2);
    assertThat(run("-root", root.toString(), "-tool", "read_note", "-args", "{nope").exit())
        .isEqualTo(2);
    assertThat(run("-root", root.toString(), "-args", "{}").exit()).isEqualTo(2);
    assertThat(run("-root", root.toString(), "-bogus").exit()).isEqualTo(2);
    assertThat(run("-serve").exit()).isEqualTo(2);
    assertThat(run("-root", root.toString(), "-timeout", "soon").exit()).isEqualTo(2);
  }

  @Test
  void aServerThatCannotStartFailsLoudlyNeverAsAnEmptyList() throws Exception {
    Run missing = run("-server-command", dir.resolve("no-such-server").toString());
    assertThat(missing.exit()).isEqualTo(4);
    assertThat(missing.out()).isEmpty();
    assertThat(missing.err()).contains("could not start");

    Path notExecutable = Files.writeString(dir.resolve("server.sh"), "#!/bin/sh\n");
    Run denied = run("-server-command", notExecutable.toString());
    assertThat(denied.exit()).isEqualTo(4);
    assertThat(denied.out()).isEmpty();

    Run exits = run("-server-command", "true");
    assertThat(exits.exit()).isEqualTo(4);
    assertThat(exits.out()).isEmpty();
  }

  @Test
  void aSilentServerMissesTheDeadline() throws Exception {
    Run run = run("-server-command", "sleep 30", "-timeout", "500ms");
    assertThat(run.exit()).isEqualTo(4);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("did not answer");
  }

  @Test
  void serveRefusesABadRootOrPolicyFileAtStartUp() throws Exception {
    Run noRoot = run("-serve", "-root", dir.resolve("absent").toString());
    assertThat(noRoot.exit()).isEqualTo(2);
    assertThat(noRoot.out()).isEmpty();
    assertThat(noRoot.err()).contains("-root");

    Path policy =
        Files.writeString(dir.resolve("policy.json"), "{\"readable\":[\"../etc/passwd\"]}");
    Run badPolicy = run("-serve", "-root", root.toString(), "-policy", policy.toString());
    assertThat(badPolicy.exit()).isEqualTo(2);
    assertThat(badPolicy.out()).isEmpty();
    assertThat(badPolicy.err()).contains("policy file").contains("../etc/passwd");
  }

  @Test
  void helpAndVersionPrintToStdoutAndExitZero() throws Exception {
    Run help = run("--help");
    assertThat(help.exit()).isZero();
    assertThat(help.out()).contains("-serve").contains("Exit codes");
    Run version = run("--version");
    assertThat(version.exit()).isZero();
    assertThat(version.out()).startsWith("notes-mcp ");
  }

  @Test
  void theLauncherOnlyEverWritesProtocolToStdoutWhenServing() throws Exception {
    Path input =
        Files.writeString(
            dir.resolve("in.jsonl"),
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{"
                + WireServer.META
                + "}}\nnot json\n");
    Process process =
        new ProcessBuilder(WireServer.launcher().toString(), "-serve", "-root", root.toString())
            .redirectInput(input.toFile())
            .start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isZero();
    List<String> lines = out.lines().toList();
    assertThat(lines).hasSize(2);
    for (String line : lines) {
      assertThat(WireServer.JSON.readTree(line).path("jsonrpc").asString()).isEqualTo("2.0");
    }
  }
}

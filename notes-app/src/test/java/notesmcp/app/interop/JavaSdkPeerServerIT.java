package notesmcp.app.interop;

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
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The reverse direction: our client ({@code notes-mcp -server-command ...}, the real launcher)
 * against {@link JavaSdkPeerServer}, a server built with the official Java SDK. The SDK's server
 * speaks only the legacy handshake, so our client's {@code server/discover} probe must fall back to
 * {@code initialize}, and say so on stderr.
 *
 * <p>Which of the transport's two fallbacks our client takes depends on how fast the peer's JVM
 * starts: it answers the probe with -32601 when it is up within the client's 3 s probe, and is
 * silent until then otherwise (a loaded machine: a CI run met it). Both are the documented
 * backward-compatible behaviour, so the end-to-end tests accept either, word for word, and then
 * require the legacy handshake. What each fallback depends on is checked where no timing enters:
 * {@link #thePeerAnswersTheProbeWithMethodNotFound} waits as long as the peer needs for its answer
 * to the probe, and mcp-stdio's SessionTest checks the exact line for that answer, and for silence,
 * against a canned server.
 */
class JavaSdkPeerServerIT {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path tmp;
  private Path workspace;

  /** What one run of our client printed, and how it ended. */
  private record Run(int exitCode, String stdout, String stderr) {
    JsonNode json() {
      return JSON.readTree(stdout);
    }
  }

  @BeforeEach
  void createWorkspace() throws IOException {
    workspace = Fixture.workspace(Files.createDirectory(tmp.resolve("workspace")));
  }

  @Test
  void readNoteThroughOurClientAnswersTheNote() throws Exception {
    Run run = client("-tool", "read_note", "-args", "{\"path\":\"notes.txt\"}");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    JsonNode result = run.json();
    assertThat(result.get("isError").asBoolean()).isFalse();
    assertThat(result.get("content")).hasSize(1);
    assertThat(result.get("content").get(0).get("type").asString()).isEqualTo("text");
    assertThat(result.get("content").get(0).get("text").asString())
        .isEqualTo(Fixture.notesReadResult());
    assertFellBackToLegacy(run);
  }

  @Test
  void listModePrintsThePeersThreeTools() throws Exception {
    Run run = client();

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    JsonNode tools = run.json();
    List<String> names = new ArrayList<>();
    tools.forEach(tool -> names.add(tool.get("name").asString()));
    assertThat(names).containsExactly("list_notes", "read_note", "propose_note");
    JsonNode read = tools.get(1).get("inputSchema");
    assertThat(read.get("required").toString()).isEqualTo("[\"path\"]");
    assertThat(read.get("additionalProperties").asBoolean(true)).isFalse();
    assertThat(read.get("properties").get("path").get("enum").toString())
        .isEqualTo("[\"notes.txt\",\"project.txt\",\"draft.txt\"]");
    assertFellBackToLegacy(run);
  }

  @Test
  void listNotesAnswersTheNotesThatExist() throws Exception {
    Run run = client("-tool", "list_notes");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.json().get("content").get(0).get("text").asString())
        .isEqualTo("{\"notes\":[\"notes.txt\",\"project.txt\"]}");
  }

  @Test
  void refusedReadExitsOneWithTheReason() throws Exception {
    Run run = client("-tool", "read_note", "-args", "{\"path\":\"../secret.txt\"}");

    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(1);
    JsonNode result = run.json();
    assertThat(result.get("isError").asBoolean()).isTrue();
    assertThat(result.get("content").get(0).get("text").asString())
        .isEqualTo(
            "path \"../secret.txt\" is not allowed: it must be exactly one of notes.txt,"
                + " project.txt, draft.txt");
  }

  @Test
  void proposeNoteIsPendingAndWritesNothing() throws Exception {
    Run run =
        client("-tool", "propose_note", "-args", "{\"path\":\"draft.txt\",\"content\":\"Hi.\"}");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.json().get("content").get(0).get("text").asString())
        .matches(
            "\\{\"status\":\"pending_approval\",\"proposal_id\":\"[0-9a-f-]{36}\","
                + "\"path\":\"draft.txt\"}");
    assertThat(workspace.resolve("draft.txt")).doesNotExist();
  }

  @Test
  void unknownToolIsAProtocolErrorExitThree() throws Exception {
    Run run = client("-tool", "save_note", "-args", "{\"path\":\"draft.txt\"}");

    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(3);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr()).contains("protocol error: -32602");
  }

  /** The SDK's answer to the probe, however long its JVM takes to start: -32601, nothing else. */
  @Test
  void thePeerAnswersTheProbeWithMethodNotFound() throws Exception {
    Process peer =
        new ProcessBuilder(peerWords()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      try (var stdin = peer.getOutputStream()) {
        stdin.write(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{}}\n"
                .getBytes(StandardCharsets.UTF_8));
        stdin.flush();
        java.io.BufferedReader stdout =
            new java.io.BufferedReader(
                new java.io.InputStreamReader(peer.getInputStream(), StandardCharsets.UTF_8));
        assertThat(stdout.readLine())
            .isEqualTo(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,"
                    + "\"message\":\"Method not found: server/discover\"}}");
      }
      assertThat(peer.waitFor(60, TimeUnit.SECONDS))
          .as("the peer exits when stdin closes")
          .isTrue();
    } finally {
      peer.destroyForcibly();
    }
  }

  /**
   * One of the stdio transport's two fallbacks, word for word (the peer's answer to the probe, or
   * silence through the probe's 3 s), then the legacy handshake.
   */
  private static void assertFellBackToLegacy(Run run) {
    String answered =
        "notes-mcp: server/discover answered -32601 Method not found: server/discover; falling back"
            + " to the initialize handshake\n";
    String silent =
        "notes-mcp: no answer to server/discover within 3000 ms; falling back to the initialize"
            + " handshake\n";
    String stderr = run.stderr();
    assertThat(stderr.contains(answered) != stderr.contains(silent))
        .as("exactly one of the two fallbacks in:%n%s", stderr)
        .isTrue();
    int fallback = Math.max(stderr.indexOf(answered), stderr.indexOf(silent));
    assertThat(stderr.substring(fallback))
        .contains("notes-mcp: legacy era, protocol 2025-11-25, server java-sdk-peer 2.1.0\n");
  }

  /**
   * Runs our client (the real launcher) against the peer server over {@link #workspace}, with a
   * deadline of a minute for the whole exchange: these tests are about what the two say to each
   * other, not about the client's default 10 s deadline (ClientIT's), which a peer JVM starting on
   * a machine loaded by a whole verify can use up before it answers {@code initialize}.
   */
  private Run client(String... flags) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Fixture.launcher().toString());
    command.add("-timeout");
    command.add("60s");
    command.add("-server-command");
    command.add(peerCommand());
    command.addAll(List.of(flags));
    Path out = tmp.resolve("stdout");
    Path err = tmp.resolve("stderr");
    Process process =
        new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!process.waitFor(90, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("our client did not finish within 90 s: " + command);
    }
    return new Run(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  /**
   * {@code <java> -cp <test classpath> JavaSdkPeerServer <workspace>}, quoted for -server-command,
   * with the start-up tuning our launcher gives our own server (C1 only, serial GC).
   */
  private String peerCommand() {
    List<String> quoted = new ArrayList<>();
    for (String word : peerWords()) {
      quoted.add(quote(word));
    }
    return String.join(" ", quoted);
  }

  private List<String> peerWords() {
    return List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC",
        "-cp",
        System.getProperty("java.class.path"),
        JavaSdkPeerServer.class.getName(),
        workspace.toString());
  }

  /** Single-quotes a word the way -server-command splits it (POSIX shell rules). */
  private static String quote(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }
}

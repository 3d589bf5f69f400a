package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * What the JVM itself prints never reaches the server's stdout, which carries protocol messages
 * only (docs/packaging.md, "When the JVM crashes"): a thread dump asked for with SIGQUIT goes to
 * stderr and the server keeps serving; a crash (SIGSEGV, sent as a test's stand-in for one: the JVM
 * handles it as its own) ends the process with SIGABRT, after nothing but the replies already made,
 * and leaves no {@code hs_err_pid*.log} in the working directory or anywhere else.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CrashOutputIT {
  @TempDir Path dir;
  Path root;

  @BeforeEach
  void setUp() throws Exception {
    root = Fixtures.workspace(dir).toRealPath();
  }

  @Test
  void aThreadDumpOnSigquitGoesToStderrAndTheServerKeepsServing() throws Exception {
    try (WireServer server = serve()) {
      assertThat(WireServer.text(server.call("read_note", "{\"path\":\"notes.txt\"}")))
          .contains("Monday");

      signal("QUIT", server.process().pid());
      server.awaitStderr("Full thread dump");

      assertThat(WireServer.text(server.call("read_note", "{\"path\":\"project.txt\"}")))
          .contains("Project: notes-mcp");
      assertThat(server.closeInputAndWait()).isZero();
    }
  }

  @Test
  void aCrashWritesNothingToStdoutAndLeavesNoCrashFile() throws Exception {
    long pid;
    int exit;
    List<JsonNode> after;
    try (WireServer server = serve()) {
      pid = server.process().pid();
      assertThat(WireServer.text(server.call("read_note", "{\"path\":\"notes.txt\"}")))
          .contains("Monday");

      signal("SEGV", pid);
      assertThat(server.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
      exit = server.process().exitValue();
      after = server.drain(java.time.Duration.ofMillis(200));
    }

    assertThat(exit).as("SIGABRT").isEqualTo(134);
    assertThat(after).as("stdout after the crash").isEmpty();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).containsExactly(dir.resolve("workspace"));
    }
    assertThat(Path.of("/tmp/hs_err_pid" + pid + ".log")).doesNotExist();
    assertThat(Path.of(System.getProperty("notesmcp.repo"), "hs_err_pid" + pid + ".log"))
        .doesNotExist();
  }

  private WireServer serve() throws Exception {
    return WireServer.start(
        List.of(WireServer.launcher().toString(), "-serve", "-root", root.toString()), dir);
  }

  private static void signal(String name, long pid) throws Exception {
    LocalUsers.sh("kill -\"$1\" \"$2\"", name, Long.toString(pid));
  }
}

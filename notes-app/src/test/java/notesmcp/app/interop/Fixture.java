package notesmcp.app.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the interoperability tests share: the real {@code notes-mcp} launcher (system property
 * {@code notesmcp.launcher}, set by failsafe), a workspace with the two fixture notes, and a way to
 * find the server process an SDK started, so a test can check that closing the SDK ends it.
 */
final class Fixture {
  /** Content with a quote, a newline and non-ASCII text, so JSON escaping is exercised too. */
  static final String NOTES_TEXT = "Buy milk.\nCall Ada about the \"MCP\" demo at the café.\n";

  static final String PROJECT_TEXT = "Project: notes over MCP.\n";

  /** The names the default policy reads, in its order. */
  static final List<String> READABLE = List.of("notes.txt", "project.txt", "draft.txt");

  private Fixture() {}

  /** The {@code ./notes-mcp} launcher at the repository root: the real executable under test. */
  static Path launcher() {
    String launcher = System.getProperty("notesmcp.launcher");
    assertThat(launcher).as("system property notesmcp.launcher (set by failsafe)").isNotNull();
    Path path = Path.of(launcher);
    assertThat(path).isExecutable();
    return path;
  }

  /** Fills {@code dir} with notes.txt and project.txt and returns it. */
  static Path workspace(Path dir) throws IOException {
    Files.writeString(dir.resolve("notes.txt"), NOTES_TEXT, StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("project.txt"), PROJECT_TEXT, StandardCharsets.UTF_8);
    return dir;
  }

  /** The text {@code read_note} answers for notes.txt, exactly. */
  static String notesReadResult() {
    return "{\"path\":\"notes.txt\",\"content\":"
        + "\"Buy milk.\\nCall Ada about the \\\"MCP\\\" demo at the café.\\n\"}";
  }

  /**
   * The child of this JVM whose command line mentions {@code workspace}: the server an SDK started
   * and has already talked to (the launcher execs java, so the child is the server JVM itself).
   */
  static ProcessHandle serverChild(Path workspace) {
    String marker = workspace.toString();
    List<ProcessHandle> children =
        ProcessHandle.current()
            .children()
            .filter(p -> p.info().commandLine().map(c -> c.contains(marker)).orElse(false))
            .toList();
    assertThat(children).as("child processes serving " + workspace).hasSize(1);
    return children.get(0);
  }

  /** Waits for {@code process} to end; fails if it is still running after {@code timeout}. */
  static void assertExits(ProcessHandle process, Duration timeout) throws Exception {
    try {
      process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      process.destroyForcibly();
      throw new AssertionError(
          "server process " + process.pid() + " still running " + timeout + " after close");
    }
  }
}

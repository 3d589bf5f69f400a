package notesmcp.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import notesmcp.chat.ScriptedModel.Reply;
import notesmcp.chat.ScriptedModel.Wire;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chat's paths as the rest of the program takes them (docs/behaviour.md, "Command line"): a
 * workspace and proposals folder named outside ASCII work with no environment at all or in an
 * ASCII-only locale, through the chat's own server child; an empty path, and a path whose bytes are
 * not UTF-8, are usage errors (exit 2) naming the flag, before any model server is asked.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ChatPathsIT {
  @TempDir Path dir;
  private Path root;

  @BeforeEach
  void setUp() throws Exception {
    Path cafe = Files.createDirectory(dir.resolve("caf\u00e9"));
    root = Workspace.create(cafe, Workspace.NOTES);
  }

  /** With no environment at all (the C locale); notes-app's PathArgumentsIT tries the others. */
  @Test
  void aTurnReadsANoteFromANonAsciiWorkspaceWithNoEnvironmentAtAll() throws Exception {
    Map<String, String> env = Map.of();
    try (ScriptedModel model =
        ScriptedModel.start(
            Wire.OLLAMA,
            request -> Reply.call("read_note", "{\"path\":\"notes.txt\"}"),
            request -> Reply.text("Your note: " + request.lastToolResult()))) {
      List<String> args = new ArrayList<>(model.flags());
      args.addAll(
          List.of("-root", root.toString(), "-proposals", dir.resolve("propos\u00e9s").toString()));

      ChatProcess.Result run = chat(env, "What does my notes file say?\n", args);

      assertThat(run.exit()).as(run.stderr()).isZero();
      assertThat(run.stdout()).startsWith("Your note: ").contains("Monday: ship the preview.");
      assertThat(run.stderr()).doesNotContain("Exception");
    }
  }

  @Test
  void anEmptyPathOrOneWhoseBytesAreNotUtf8IsAUsageErrorNamingTheFlag() throws Exception {
    ChatProcess.Result empty =
        chat(Map.of(), "", List.of("-root", root.toString(), "-proposals", "", "-model", "m"));
    // Bytes that are not UTF-8 cannot be written in a Java string: bash makes \xe9 a byte.
    List<String> command =
        List.of(
            "setsid",
            "-w",
            "bash",
            "-c",
            "exec \"$1\" chat -root \"$(printf %b \"$2\")\" -model m",
            "bash",
            ChatProcess.launcher().toString(),
            dir.resolve("caf") + "\\xe9");
    ChatProcess.Result bad = run(Map.of(), "", command);

    assertThat(empty.exit()).as(empty.stderr()).isEqualTo(2);
    assertThat(empty.stderr())
        .startsWith(
            "notes-mcp chat: -proposals needs a path, not an empty word (the working directory"
                + " is \".\")\n");
    assertThat(bad.exit()).as(bad.stderr()).isEqualTo(2);
    assertThat(bad.stderr())
        .startsWith(
            "notes-mcp chat: -root \""
                + dir.resolve("caf")
                + "?\": its bytes are not valid UTF-8, this JVM's file-name encoding")
        .doesNotContain("Exception");
  }

  private ChatProcess.Result chat(Map<String, String> env, String typed, List<String> args)
      throws Exception {
    List<String> command = new ArrayList<>(List.of("setsid", "-w"));
    command.addAll(ChatProcess.chat(args));
    return run(env, typed, command);
  }

  /** Runs {@code command} in {@code dir} with only {@code env}; {@code typed} is all its stdin. */
  private ChatProcess.Result run(Map<String, String> env, String typed, List<String> command)
      throws Exception {
    Path in = Files.writeString(Files.createTempFile(dir, "in", ".txt"), typed);
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectInput(in.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().clear();
    builder.environment().putAll(env);
    Process process = builder.start();
    if (!process.waitFor(ChatProcess.WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("no exit; stderr:\n" + Files.readString(err));
    }
    return new ChatProcess.Result(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}

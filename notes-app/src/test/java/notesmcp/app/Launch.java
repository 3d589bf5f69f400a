package notesmcp.app;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * One run of the real executable that is not an MCP session: {@code review}, or a server that must
 * refuse to start. Output goes to files, so a test can watch stderr while the process runs.
 *
 * <p>{@link #withoutTerminal} runs the command under {@code setsid}, in a new session with no
 * controlling terminal whatever terminal the build itself has; {@link #inTerminal} gives it a
 * pseudo-terminal with {@code script}. Both are util-linux/bsdutils programs, part of every Debian
 * system (Essential: yes).
 */
final class Launch {
  private static final Duration WAIT = Duration.ofSeconds(30);

  /** How a run ended. */
  record Result(int exit, String stdout, String stderr) {}

  private final Process process;
  private final Path stdout;
  private final Path stderr;

  private Launch(Process process, Path stdout, Path stderr) {
    this.process = process;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  /** {@code notes-mcp review -root root -proposals proposals more...}. */
  static List<String> review(Path root, Path proposals, String... more) {
    List<String> command =
        new ArrayList<>(
            List.of(
                WireServer.launcher().toString(),
                "review",
                "-root",
                root.toString(),
                "-proposals",
                proposals.toString()));
    command.addAll(List.of(more));
    return command;
  }

  static List<String> withoutTerminal(List<String> command) {
    List<String> wrapped = new ArrayList<>(List.of("setsid", "-w"));
    wrapped.addAll(command);
    return wrapped;
  }

  /** Runs {@code command} on a pseudo-terminal; what is "typed" is the run's stdin. */
  static List<String> inTerminal(List<String> command) {
    StringBuilder shell = new StringBuilder("exec");
    for (String word : command) {
      shell.append(" '").append(word.replace("'", "'\\''")).append('\'');
    }
    return List.of("script", "-qec", shell.toString(), "/dev/null");
  }

  static Launch start(Path scratch, Map<String, String> env, String typed, List<String> command)
      throws IOException {
    String name = UUID.randomUUID().toString();
    Path in = Files.writeString(scratch.resolve(name + ".in"), typed, StandardCharsets.UTF_8);
    Path out = scratch.resolve(name + ".out");
    Path err = scratch.resolve(name + ".err");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectInput(in.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().putAll(env);
    return new Launch(builder.start(), out, err);
  }

  static Result run(Path scratch, Map<String, String> env, String typed, List<String> command)
      throws IOException, InterruptedException {
    return start(scratch, env, typed, command).await();
  }

  static Result run(Path scratch, List<String> command) throws IOException, InterruptedException {
    return run(scratch, Map.of(), "", command);
  }

  Result await() throws IOException, InterruptedException {
    if (!process.waitFor(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("no exit within " + WAIT + "; stderr:\n" + stderr());
    }
    return new Result(process.exitValue(), Files.readString(stdout), stderr());
  }

  String stderr() throws IOException {
    return Files.exists(stderr) ? Files.readString(stderr) : "";
  }

  /** Waits until stderr contains {@code text}. */
  void awaitStderr(String text) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!stderr().contains(text)) {
      if (System.nanoTime() > deadline || !process.isAlive() && !stderr().contains(text)) {
        throw new AssertionError("stderr never said \"" + text + "\":\n" + stderr());
      }
      Thread.sleep(10);
    }
  }
}

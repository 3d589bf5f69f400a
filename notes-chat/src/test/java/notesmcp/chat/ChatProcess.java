package notesmcp.chat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The real executable, {@code ./notes-mcp chat ...}, as a child process: either without a
 * controlling terminal ({@code setsid -w}, stdin from a file), or on a pseudo-terminal made by
 * {@code script} (util-linux, Essential on Debian) that the test types into and reads, as a person
 * at a terminal would.
 */
final class ChatProcess {
  static final Duration WAIT = Duration.ofSeconds(60);

  /** How a run ended. */
  record Result(int exit, String stdout, String stderr) {}

  private ChatProcess() {}

  static Path launcher() {
    return Path.of(System.getProperty("notesmcp.launcher", "notes-mcp")).toAbsolutePath();
  }

  /** {@code notes-mcp chat args...}. */
  static List<String> chat(List<String> args) {
    List<String> command = new ArrayList<>(List.of(launcher().toString(), "chat"));
    command.addAll(args);
    return command;
  }

  /** Runs the chat with no controlling terminal; {@code typed} is all of its stdin. */
  static Result run(Path scratch, String typed, List<String> args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("setsid", "-w"));
    command.addAll(chat(args));
    return run(scratch, typed, command, WAIT);
  }

  /** Runs any command, stdin empty. */
  static Result runCommand(Path scratch, List<String> command)
      throws IOException, InterruptedException {
    return run(scratch, "", command, WAIT);
  }

  static Result run(Path scratch, String typed, List<String> command, Duration wait)
      throws IOException, InterruptedException {
    String name = UUID.randomUUID().toString();
    Path in = Files.writeString(scratch.resolve(name + ".in"), typed, StandardCharsets.UTF_8);
    Path out = scratch.resolve(name + ".out");
    Path err = scratch.resolve(name + ".err");
    Process process =
        new ProcessBuilder(command)
            .redirectInput(in.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!process.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("no exit within " + wait + "; stderr:\n" + Files.readString(err));
    }
    return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
  }

  /** Starts the chat on a pseudo-terminal: its stdin, stdout, stderr and /dev/tty are all it. */
  static Terminal inTerminal(List<String> args) throws IOException {
    StringBuilder shell = new StringBuilder("exec");
    for (String word : chat(args)) {
      shell.append(" '").append(word.replace("'", "'\\''")).append('\'');
    }
    Process process =
        new ProcessBuilder("script", "-qec", shell.toString(), "/dev/null")
            .redirectErrorStream(true)
            .start();
    return new Terminal(process);
  }

  /** A chat on a pseudo-terminal: what is typed, and what the terminal shows (CR LF as LF). */
  static final class Terminal {
    private final Process process;
    private final StringBuffer screen = new StringBuffer();

    private Terminal(Process process) {
      this.process = process;
      Thread reader = new Thread(this::read, "test terminal reader");
      reader.setDaemon(true);
      reader.start();
    }

    private void read() {
      byte[] buffer = new byte[4096];
      try (InputStream in = process.getInputStream()) {
        int n;
        while ((n = in.read(buffer)) > 0) {
          screen.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
        }
      } catch (IOException e) {
        // the terminal closed
      }
    }

    /** Types {@code text} (a line ends with "\n"; Ctrl-D is "\u0004"). */
    void type(String text) throws IOException {
      OutputStream in = process.getOutputStream();
      in.write(text.getBytes(StandardCharsets.UTF_8));
      in.flush();
    }

    String screen() {
      return screen.toString().replace("\r\n", "\n");
    }

    /** Waits until the screen shows {@code text} {@code times} times in all. */
    void await(String text, int times) throws InterruptedException {
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (count(screen(), text) < times) {
        if (System.nanoTime() > deadline || !process.isAlive() && count(screen(), text) < times) {
          throw new AssertionError(
              "the terminal never showed \"" + text + "\" " + times + " times:\n" + screen());
        }
        Thread.sleep(20);
      }
    }

    private static int count(String haystack, String needle) {
      int count = 0;
      for (int at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
        count++;
      }
      return count;
    }

    /** Ends input (Ctrl-D) and waits for the exit status. */
    int end() throws IOException, InterruptedException {
      type("\u0004");
      process.getOutputStream().close();
      if (!process.waitFor(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("no exit within " + WAIT + ":\n" + screen());
      }
      Thread.sleep(100); // the reader drains what is left
      return process.exitValue();
    }
  }
}

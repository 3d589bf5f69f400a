package notesmcp.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A one-shot client run end to end, as a user types it: the client starts, spawns its server, calls
 * {@code read_note} once, prints the result and both exit. Two processes (two JVMs for ours, two
 * Node processes for the TypeScript reference), so start-up counts twice.
 */
final class OneShotClient {
  private OneShotClient() {}

  /** Wall time from spawn to exit, in nanoseconds; the printed result is checked. */
  static long run(String name, List<String> command, ReplyCheck check, Path scratch) {
    Path out = scratch.resolve(name + "-oneshot.out");
    Path err = scratch.resolve(name + "-oneshot.err");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    Programs.environment(builder, name);
    try {
      long start = System.nanoTime();
      Process process = builder.start();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new BenchFailure(name + " one-shot client: no exit within 60 s");
      }
      long elapsed = System.nanoTime() - start;
      String printed = Files.readString(out, StandardCharsets.UTF_8);
      if (process.exitValue() != 0) {
        throw new BenchFailure(
            name
                + " one-shot client exited with code "
                + process.exitValue()
                + "\nstdout: "
                + printed
                + "\nstderr: "
                + Files.readString(err, StandardCharsets.UTF_8));
      }
      check.printedResult(printed);
      return elapsed;
    } catch (IOException e) {
      throw new BenchFailure(name + " one-shot client: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BenchFailure(name + " one-shot client: interrupted", e);
    }
  }
}

package notesmcp.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** The external programs the harness runs, resolved once, and small helpers to run them. */
final class Programs {
  private static String python;

  private Programs() {}

  /** This JVM's own java: every Java server runs on the same JDK (JAVA_HOME is set to it). */
  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * The real python3 executable: a version manager's shim (pyenv) is a shell script that would add
   * its own start-up to the floor's.
   */
  static synchronized String python() {
    if (python == null) {
      String found = output(List.of("python3", "-c", "import sys; print(sys.executable)")).trim();
      python = found.isEmpty() ? "python3" : found;
    }
    return python;
  }

  /** stdout and stderr of a short command, or a note of why it could not run. */
  static String output(List<String> command) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      process.getOutputStream().close();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      process.waitFor();
      return out;
    } catch (IOException e) {
      return "(" + String.join(" ", command) + ": " + e.getMessage() + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "(interrupted)";
    }
  }
}

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
   * The environment of a server or client process: {@code JAVA_HOME} is this JVM's, so our launcher
   * and any earlier build of it run on the harness's JDK; the app image gets no {@code JAVA_HOME}
   * at all, so it runs on the runtime it bundles, as installed.
   */
  static void environment(ProcessBuilder builder, String server) {
    if (server.equals(ServerCatalog.APP_IMAGE)) {
      builder.environment().remove("JAVA_HOME");
    } else {
      builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    }
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

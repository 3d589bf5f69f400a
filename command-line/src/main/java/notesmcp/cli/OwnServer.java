package notesmcp.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line that starts this program's own server ({@code -serve}) the way this JVM was
 * started: {@code <java.home>/bin/java [launcher flags] -cp <java.class.path> notesmcp.app.Main
 * -serve ...}, with no PATH lookup (docs/design.md, "The command line"). Used by the one-shot
 * client and by the chat mode.
 */
public final class OwnServer {
  /** The program's entry point, which the child runs with {@code -serve}. */
  static final String MAIN = "notesmcp.app.Main";

  /** Flags the launcher wants the child JVM to get as well (start-up tuning only). */
  static final String JVM_FLAGS_ENV = "NOTES_MCP_JVM_FLAGS";

  private OwnServer() {}

  /**
   * {@code -serve -root root}, with {@code -policy}, {@code -max-calls} and {@code -proposals} when
   * given (null when not).
   */
  public static List<String> command(Path root, Path policyFile, Integer maxCalls, Path proposals) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    String flags = System.getenv(JVM_FLAGS_ENV);
    if (flags != null && !flags.isBlank()) {
      command.addAll(CommandLine.split(flags));
    }
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(MAIN);
    command.add("-serve");
    command.add("-root");
    command.add(root.toString());
    if (policyFile != null) {
      command.add("-policy");
      command.add(policyFile.toString());
    }
    if (maxCalls != null) {
      command.add("-max-calls");
      command.add(maxCalls.toString());
    }
    if (proposals != null) {
      command.add("-proposals");
      command.add(proposals.toString());
    }
    return command;
  }
}

package notesmcp.app;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import notesmcp.cli.ExitCode;
import notesmcp.policy.Workspace;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code notes-mcp config -root W [-host NAME]}: prints, on stdout, the entry a host needs to start
 * this program as its stdio server for workspace W (issue 10, "Host set-up in one command"): an
 * {@code mcpServers} object for Claude Desktop and Cursor, a {@code .vscode/mcp.json} {@code
 * servers} object for VS Code, and the {@code claude mcp add} command line for Claude Code.
 *
 * <p>Both paths in the entry are absolute: hosts start servers from a working directory of their
 * own. The executable is the one the user ran, as its launcher names it in the system property
 * {@value #EXECUTABLE_PROPERTY} (the {@code ./notes-mcp} script and the installed package's
 * launcher both set it); run some other way, the entry names this JVM and its class path instead.
 */
final class ConfigCommand {
  /** Set by the launchers to the absolute path of the executable the user ran. */
  static final String EXECUTABLE_PROPERTY = "notesmcp.executable";

  static final String DEFAULT_HOST = "claude-desktop";
  static final List<String> HOSTS = List.of("claude-desktop", "cursor", "vscode", "claude-code");

  /** The name the entry gives the server in the host's list. */
  static final String SERVER_NAME = "notes";

  private ConfigCommand() {}

  static ExitCode run(Options options, String executable, PrintStream out, PrintStream err) {
    Path root;
    try {
      root = Workspace.at(options.root()).root();
      if (!Files.isReadable(root) || !Files.isExecutable(root)) {
        throw new IOException(root + " cannot be read");
      }
    } catch (IOException e) {
      err.println(
          "notes-mcp: -root "
              + options.root()
              + ": not a usable folder ("
              + ServeCommand.problem(e)
              + ")");
      return ExitCode.USAGE;
    }
    List<String> command = command(executable, root);
    out.println(entry(options.host(), command));
    return ExitCode.OK;
  }

  /** The server's command line: the executable, then {@code -serve -root W}. */
  static List<String> command(String executable, Path root) {
    List<String> command = new ArrayList<>();
    Path self = executable == null || executable.isBlank() ? null : Path.of(executable);
    if (self != null && Files.isExecutable(self)) {
      command.add(self.toAbsolutePath().normalize().toString());
    } else {
      // Not started by a launcher (java -jar, a test): name this JVM and its class path.
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.add("-cp");
      command.add(Path.of(System.getProperty("java.class.path")).toAbsolutePath().toString());
      command.add(Main.class.getName());
    }
    command.add("-serve");
    command.add("-root");
    command.add(root.toString());
    return command;
  }

  static String entry(String host, List<String> command) {
    switch (host) {
      case "claude-desktop":
      case "cursor":
        return json(servers("mcpServers", null, command));
      case "vscode":
        return json(servers("servers", "stdio", command));
      case "claude-code":
        return claudeCode(command);
      default:
        throw new AssertionError(host);
    }
  }

  /** {@code {"<key>": {"notes": {["type": type,] "command": ..., "args": [...]}}}}. */
  private static ObjectNode servers(String key, String type, List<String> command) {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    ObjectNode server = root.putObject(key).putObject(SERVER_NAME);
    if (type != null) {
      server.put("type", type);
    }
    server.put("command", command.get(0));
    ArrayNode args = server.putArray("args");
    for (String arg : command.subList(1, command.size())) {
      args.add(arg);
    }
    return root;
  }

  private static String json(ObjectNode node) {
    return JsonMapper.builder()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .build()
        .writeValueAsString(node);
  }

  /** {@code claude mcp add --transport stdio notes -- CMD ARGS...}, each word shell-quoted. */
  private static String claudeCode(List<String> command) {
    StringBuilder line = new StringBuilder("claude mcp add --transport stdio ");
    line.append(SERVER_NAME).append(" --");
    for (String word : command) {
      line.append(' ').append(shellQuote(word));
    }
    return line.toString();
  }

  /**
   * A word as a POSIX shell reads it back unchanged: left bare when it holds only characters no
   * shell treats specially, else in single quotes (a quote inside becomes {@code '\''}).
   */
  static String shellQuote(String word) {
    if (!word.isEmpty() && word.matches("[A-Za-z0-9_./:@%+,-]+")) {
      return word;
    }
    return "'" + word.replace("'", "'\\''") + "'";
  }
}

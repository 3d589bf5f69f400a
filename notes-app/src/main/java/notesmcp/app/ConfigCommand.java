package notesmcp.app;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import notesmcp.cli.ExitCode;
import notesmcp.cli.UsageException;
import notesmcp.files.ChangeRule;
import notesmcp.policy.vault.Workspace;

/**
 * {@code notes-mcp config -root W [-host H] [-policy FILE] [-proposals DIR] [--name N] [--install
 * [--replace]]}: the entry a host needs to start this program as its stdio server for workspace W.
 * Without {@code --install} it is printed on stdout in the host's own format ({@link Hosts#print});
 * with it, it is written into the host's user-level configuration ({@link Hosts#edits}), merged
 * with what is there, and stdout stays empty: what was written, and where, goes to stderr. Two
 * other forms take the same {@code --name}, {@code --install} and {@code --replace}: {@code config
 * -url URL -token-env VAR [-host H]}, a host's entry for a server that runs elsewhere over HTTP,
 * whose token the host reads from the variable VAR (no file is ever given the token); and {@code
 * config -host systemd -root W ... -http HOST:PORT -tokens FILE}, the systemd user unit that keeps
 * {@code -serve -http} running ({@link SystemdUnit}).
 *
 * <p>Every path in the entry is absolute: hosts start servers from a working directory of their
 * own. W, FILE and DIR are checked as {@code -serve} checks them (so a folder DIR is made, {@code
 * 0700}, as the server's first start would), and named by their real paths. The executable is the
 * one the person ran, as its launcher names it in the system property {@value #EXECUTABLE_PROPERTY}
 * (the {@code ./notes-mcp} script and the installed package's launcher both set it); run some other
 * way, the entry names this JVM and its class path instead.
 */
final class ConfigCommand {
  /** Set by the launchers to the absolute path of the executable the user ran. */
  static final String EXECUTABLE_PROPERTY = "notesmcp.executable";

  static final String DEFAULT_HOST = Hosts.DEFAULT;
  static final List<String> HOSTS = Hosts.NAMES;

  /**
   * {@code -host systemd}: not a host but the service manager that keeps an HTTP server running.
   */
  static final String SYSTEMD = "systemd";

  /** The hosts {@code -url} writes for: those whose files take a URL and a header. */
  static final List<String> REMOTE_HOSTS = Hosts.REMOTE;

  /** The name the entry gives the server in the host's list, unless {@code --name}. */
  static final String SERVER_NAME = "notes";

  /** What {@code --name} takes: a name every host keeps as it is in its tools' names. */
  static final String NAME_RULE = "[A-Za-z0-9_-]{1,64}";

  private static final Map<String, String> TITLES =
      Map.of(
          "claude-desktop",
          "Claude Desktop",
          "cursor",
          "Cursor",
          "vscode",
          "VS Code",
          "claude-code",
          "Claude Code",
          "codex",
          "Codex",
          "gemini",
          "Gemini CLI",
          "qwen",
          "Qwen Code",
          SYSTEMD,
          "systemd");

  private ConfigCommand() {}

  static ExitCode run(Options options, String executable, PrintStream out, PrintStream err) {
    return run(options, executable, System.getenv(), out, err);
  }

  /** The policy file's real path, as the host's entry names it; else says why not (exit 2). */
  private static Path realPathOf(Path policyFile, PrintStream err) throws StartUp.Failed {
    try {
      return policyFile.toRealPath();
    } catch (IOException e) {
      err.println("notes-mcp: -policy " + policyFile + ": " + StartUp.problem(e));
      throw StartUp.failed(ExitCode.USAGE);
    }
  }

  static ExitCode run(
      Options options,
      String executable,
      Map<String, String> env,
      PrintStream out,
      PrintStream err) {
    if (options.remote() != null) {
      return remote(options, env, out, err);
    }
    StartUp start = StartUp.of(err);
    Path root;
    List<String> args;
    try {
      Workspace workspace = start.workspace(options.root(), ChangeRule.ofSystem());
      root = workspace.root();
      if (!Files.isReadable(root) || !Files.isExecutable(root)) {
        throw start.notUsable(options.root(), new IOException(root + " cannot be read"));
      }
      args = new ArrayList<>(List.of("-serve", "-root", root.toString()));
      if (options.policyFile() != null) {
        start.policy(options.policyFile());
        args.add("-policy");
        args.add(realPathOf(options.policyFile(), err).toString());
      }
      if (options.proposals() != null) {
        args.add("-proposals");
        args.add(start.proposals(options.proposals(), workspace).path().toString());
      }
      if (options.http() != null) {
        return SystemdUnit.run(options, command(executable, args), env, out, err);
      }
    } catch (StartUp.Failed failed) {
      return failed.code();
    }
    String name = options.name() == null ? SERVER_NAME : options.name();
    List<String> command = command(executable, args);
    Hosts.Server server =
        new Hosts.Server(name, command.get(0), List.copyOf(command.subList(1, command.size())));
    if (!options.install()) {
      out.println(Hosts.print(options.host(), server));
      return ExitCode.OK;
    }
    return install(options.host(), server, options.replace(), env, err);
  }

  /**
   * {@code config -url URL -token-env VAR}: the entry for a server that runs elsewhere (the URL was
   * checked with the options). The variable is only named: when it is not set here, a line on
   * stderr says that the host reads it from its own environment.
   */
  private static ExitCode remote(
      Options options, Map<String, String> env, PrintStream out, PrintStream err) {
    String name = options.name() == null ? SERVER_NAME : options.name();
    Hosts.Remote remote =
        new Hosts.Remote(name, options.remote().url(), options.remote().tokenEnv());
    String variable = remote.tokenEnv();
    if (!env.containsKey(variable)) {
      err.println(
          "notes-mcp: "
              + variable
              + " is not set here; "
              + TITLES.get(options.host())
              + " reads it from its own environment when it connects, so set it where "
              + TITLES.get(options.host())
              + " is started (a token from 'notes-mcp token add NAME -tokens FILE' on the"
              + " server's machine)");
    }
    if (!options.install()) {
      out.println(Hosts.print(options.host(), remote));
      return ExitCode.OK;
    }
    return install(
        options.host(), Hosts.edits(options.host(), remote, env), options.replace(), err);
  }

  /**
   * {@code -url}'s value: an absolute {@code https} URL, or {@code http} to a loopback address only
   * (a bearer token sent in clear beyond this machine could be read on the way); no user name or
   * password, query or fragment (the token goes in a header, never in the URL).
   */
  static void checkUrl(String url) throws UsageException {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new UsageException(
          "-url takes an absolute URL such as https://notes.example.org/mcp, not \""
              + url
              + "\" ("
              + e.getReason()
              + ")");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!uri.isAbsolute()
        || !(scheme.equals("https") || scheme.equals("http"))
        || uri.getHost() == null
        || uri.getRawPath() == null) {
      throw new UsageException(
          "-url takes an absolute http or https URL with a host, such as"
              + " https://notes.example.org/mcp, not \""
              + url
              + "\"");
    }
    if (uri.getRawUserInfo() != null) {
      throw new UsageException(
          "-url must not hold a user name or password: the token goes in the Authorization"
              + " header, from -token-env");
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
      throw new UsageException(
          "-url takes no query or fragment (the server reads none; a token is never sent in a"
              + " URL), not \""
              + url
              + "\"");
    }
    String host = uri.getHost();
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    if (scheme.equals("http") && !Options.Http.isLoopback(host)) {
      throw new UsageException(
          "-url "
              + url
              + ": over plain http the token would cross the network readable by anyone on the"
              + " way; use https (a reverse proxy or tunnel in front of the server, docs/http.md,"
              + " \"Reaching it from other devices\"), or http to a loopback address only");
    }
  }

  /**
   * Writes the host's entry: every file's new text is made (and every refusal found) before the
   * first is written, the server's own file last.
   */
  static ExitCode install(
      String host, Hosts.Server server, boolean replace, Map<String, String> env, PrintStream err) {
    return install(host, Hosts.edits(host, server, env), replace, err);
  }

  /**
   * Makes {@code edits}: every file's new text is made (and every refusal found) before the first
   * is written, in the order given.
   */
  static ExitCode install(String host, List<Hosts.Edit> edits, boolean replace, PrintStream err) {
    Map<Path, ConfigFile> files = new LinkedHashMap<>();
    Map<Path, String> before = new LinkedHashMap<>();
    Map<Path, String> after = new LinkedHashMap<>();
    Map<Path, List<String>> said = new LinkedHashMap<>();
    for (Hosts.Edit edit : edits) {
      Path path = edit.file();
      try {
        if (!files.containsKey(path)) {
          ConfigFile file = new ConfigFile(path);
          files.put(path, file);
          String text = file.read();
          before.put(path, text);
          after.put(path, text);
          said.put(path, new ArrayList<>());
        }
        String text = after.get(path);
        String edited = apply(edit, text, replace);
        if (!edited.equals(text)) {
          said.get(path).add(describe(edit));
        }
        after.put(path, edited);
      } catch (ConfigFile.Unusable e) {
        err.println("notes-mcp: " + e.getMessage());
        return ExitCode.USAGE;
      } catch (JsonSplice.Refused e) {
        err.println("notes-mcp: " + path + " " + e.getMessage() + "; nothing was written");
        if (e.exists) {
          err.println(
              "notes-mcp: add --replace to overwrite it, or --name NAME to add this one beside it");
        }
        return ExitCode.USAGE;
      }
    }
    List<Path> written = new ArrayList<>();
    for (Map.Entry<Path, ConfigFile> entry : files.entrySet()) {
      Path path = entry.getKey();
      String text = after.get(path);
      if (text.equals(before.get(path))) {
        continue;
      }
      Path backup;
      try {
        backup = entry.getValue().write(text);
      } catch (ConfigFile.Unusable e) {
        err.println("notes-mcp: " + e.getMessage());
        if (written.isEmpty()) {
          return ExitCode.USAGE;
        }
        err.println("notes-mcp: written before that: " + written + "; run config again");
        return ExitCode.IO_FAILURE;
      }
      written.add(path);
      err.println(
          "notes-mcp: wrote "
              + String.join("; ", said.get(path))
              + " in "
              + path
              + (backup == null ? " (a new file)" : "; the previous file is kept as " + backup));
    }
    if (written.isEmpty()) {
      err.println("notes-mcp: nothing to change: the entry is there already");
    }
    if (host.equals(SYSTEMD)) {
      SystemdUnit.sayWhatNext(edits.get(edits.size() - 1).file(), err);
    } else {
      err.println("notes-mcp: restart " + TITLES.get(host) + " to load it");
    }
    return ExitCode.OK;
  }

  private static String apply(Hosts.Edit edit, String text, boolean replace)
      throws JsonSplice.Refused {
    switch (edit.kind()) {
      case SERVER:
        return JsonSplice.put(text, edit.flavor(), edit.path(), edit.key(), edit.value(), replace);
      case LIST:
        {
          @SuppressWarnings("unchecked")
          List<String> values = (List<String>) edit.value();
          List<String> path = new ArrayList<>(edit.path());
          path.add(edit.key());
          return JsonSplice.addStrings(text, edit.flavor(), path, values);
        }
      case OWN:
        {
          String own = (String) edit.value();
          if (text == null || text.isBlank() || text.equals(own) || replace) {
            return own;
          }
          throw new JsonSplice.Refused(
              "exists and differs from " + edit.says() + " that config would write", true);
        }
      case TOML:
        {
          @SuppressWarnings("unchecked")
          Map<String, Object> value = (Map<String, Object>) edit.value();
          return TomlTables.put(text, edit.key(), value, replace);
        }
      default:
        throw new AssertionError(edit.kind());
    }
  }

  private static String describe(Hosts.Edit edit) {
    switch (edit.kind()) {
      case LIST:
        {
          @SuppressWarnings("unchecked")
          List<String> values = (List<String>) edit.value();
          return String.join(", ", values)
              + " "
              + edit.says()
              + " ("
              + edit.path().get(0)
              + "."
              + edit.key()
              + ")";
        }
      case OWN:
        return edit.says();
      default:
        return "the MCP server \"" + edit.key() + "\" (" + edit.says() + ")";
    }
  }

  /** The server's command line: the executable, then {@code args}. */
  static List<String> command(String executable, List<String> args) {
    List<String> command = new ArrayList<>();
    Path self = null;
    try {
      self = executable == null || executable.isBlank() ? null : Path.of(executable);
    } catch (InvalidPathException e) {
      // A name this JVM cannot encode: fall back to naming the JVM, whose paths it can.
    }
    if (self != null && Files.isExecutable(self)) {
      command.add(self.toAbsolutePath().normalize().toString());
    } else {
      // Not started by a launcher (java -jar, a test): name this JVM and its class path.
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.add("-cp");
      command.add(Path.of(System.getProperty("java.class.path")).toAbsolutePath().toString());
      command.add(Main.class.getName());
    }
    command.addAll(args);
    return command;
  }

  /**
   * The server's command line for workspace {@code root}: the executable, {@code -serve -root W}.
   */
  static List<String> command(String executable, Path root) {
    return command(executable, List.of("-serve", "-root", root.toString()));
  }

  static String shellQuote(String word) {
    return Hosts.shellQuote(word);
  }
}

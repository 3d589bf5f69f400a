package notesmcp.app.interop;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the interoperability tests share: where the real executable and the Node fixtures are, a
 * workspace to serve, and running one child process to its end with its output kept.
 *
 * <p>The Node packages are installed by {@code npm ci} in Maven's pre-integration-test phase. A
 * test that finds them missing fails (it never skips): a green build must mean the official SDKs
 * were actually talked to.
 */
final class Interop {
  /**
   * What one whole client run may take: JVM and Node start-ups plus a few round trips (a Spring
   * Boot start, or four Inspector CLI runs, on a loaded 2-core machine). A liveness bound only.
   */
  static final Duration TIMEOUT = Duration.ofSeconds(90);

  static final String NOTES_TEXT =
      "Interop fixture: notes.txt, read through an official SDK.\n"
          + "Non-ASCII survives the pipes: caf\u00e9, \u2014, \u00fc.\n";
  static final String PROJECT_TEXT = "Interop fixture: project.txt.\n";

  /** Beside the workspace, reachable only by {@code ../secret.txt}: it must never be read. */
  static final String SECRET_TEXT = "TOP-SECRET-outside-the-workspace";

  /**
   * A word of {@link #NOTES_TEXT} that no other fixture note holds (nor any note's name): a search
   * for it finds notes.txt only. peers/interop/report.mjs ({@code SEARCHES}) asks for the same
   * word.
   */
  static final String SEARCH_WORD = "pipes";

  /** A word no fixture note holds: a search for it finds nothing. */
  static final String NO_HIT_WORD = "zorblax";

  private static final ObjectMapper JSON = JsonMapper.builder().build();

  private Interop() {}

  /** The repository root (failsafe's {@code notesmcp.repo}). */
  static Path repo() {
    return Path.of(property("notesmcp.repo"));
  }

  /** The {@code ./notes-mcp} launcher (failsafe's {@code notesmcp.launcher}). */
  static Path launcher() {
    Path launcher = Path.of(property("notesmcp.launcher"));
    if (!Files.isExecutable(launcher)) {
      throw new IllegalStateException("the launcher " + launcher + " is not executable");
    }
    return launcher;
  }

  /** A fixture script in {@code peers/interop/}, after checking that its packages are installed. */
  static Path script(String name) {
    Path interop = repo().resolve("peers/interop");
    for (String pkg :
        List.of(
            "node_modules/@modelcontextprotocol/client",
            "node_modules/@modelcontextprotocol/server",
            "node_modules/@modelcontextprotocol/sdk",
            "node_modules/@modelcontextprotocol/inspector",
            "node_modules/@ai-sdk/mcp",
            "vercel-ai-4/node_modules/ai")) {
      if (!Files.isRegularFile(interop.resolve(pkg).resolve("package.json"))) {
        throw new IllegalStateException(
            "peers/interop/"
                + pkg
                + " is missing: the interop clients are not installed. Run `npm ci` in "
                + interop
                + " (mvn verify does it in the pre-integration-test phase unless tests are"
                + " skipped).");
      }
    }
    Path script = interop.resolve(name);
    if (!Files.isRegularFile(script)) {
      throw new IllegalStateException("missing fixture script " + script);
    }
    return script;
  }

  /** The {@code node} executable found on PATH. */
  static Path node() {
    String path = System.getenv("PATH");
    if (path != null) {
      for (String dir : path.split(File.pathSeparator)) {
        if (dir.isEmpty()) {
          continue;
        }
        Path candidate = Path.of(dir, "node");
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return candidate;
        }
      }
    }
    throw new IllegalStateException(
        "`node` is not on PATH (" + path + "): the interop tests need Node.js 20 or later");
  }

  /**
   * Makes {@code dir/workspace} holding notes.txt and project.txt, and {@code dir/secret.txt}
   * beside it, where only a path escape could reach it.
   */
  static Path workspace(Path dir) throws IOException {
    Path workspace = Files.createDirectory(dir.resolve("workspace"));
    Files.writeString(workspace.resolve("notes.txt"), NOTES_TEXT, UTF_8);
    Files.writeString(workspace.resolve("project.txt"), PROJECT_TEXT, UTF_8);
    Files.writeString(dir.resolve("secret.txt"), SECRET_TEXT, UTF_8);
    return workspace;
  }

  /**
   * A workspace served with a policy file, so {@code search_notes} is offered: {@code
   * dir/workspace} as {@link #workspace} makes it; {@code dir/policy.json}, the default's three
   * names and proposable draft.txt (so the other tools are the default's) plus {@code "search":
   * true}, and a call budget no session here spends, written as the server trusts a policy file
   * (ours, mode 0600, in folders nobody else may write); and {@code dir/cache}, the server's
   * XDG_CACHE_HOME, so the index it builds goes there, never to the home's cache.
   */
  record Searchable(Path workspace, Path policy, Path cache) {
    static Searchable in(Path dir) throws IOException {
      Path workspace = Interop.workspace(dir);
      Path policy =
          Files.writeString(
              dir.resolve("policy.json"),
              "{\"readable\":[\"notes.txt\",\"project.txt\",\"draft.txt\"],"
                  + "\"proposable\":[\"draft.txt\"],\"maxNoteBytes\":2048,\"maxCalls\":100,"
                  + "\"search\":true}",
              UTF_8);
      Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-------"));
      return new Searchable(workspace, policy, Files.createDirectory(dir.resolve("cache")));
    }

    /** The server's arguments: {@code -serve -root WS -policy FILE}. */
    List<String> serverArgs() {
      return List.of("-serve", "-root", workspace.toString(), "-policy", policy.toString());
    }

    /** What the server's environment must add: its own XDG_CACHE_HOME. */
    Map<String, String> env() {
      return Map.of("XDG_CACHE_HOME", cache.toString());
    }
  }

  /** The names in {@code dir}, sorted: to check that nothing was written there. */
  static List<String> listing(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** A word quoted for {@code -server-command}, which splits words as a POSIX shell would. */
  static String shellQuote(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }

  static JsonNode parse(String json) {
    return JSON.readTree(json);
  }

  /** One finished child process. */
  record Run(List<String> command, int exit, String stdout, String stderr) {
    /** stdout as one JSON document. */
    JsonNode json() {
      try {
        return parse(stdout);
      } catch (RuntimeException e) {
        throw new AssertionError(
            "stdout is not one JSON document: " + e.getMessage() + "\n" + this);
      }
    }

    @Override
    public String toString() {
      return "command: "
          + String.join(" ", command)
          + "\nexit: "
          + exit
          + "\n--- stdout ---\n"
          + stdout
          + "\n--- stderr ---\n"
          + stderr;
    }
  }

  /**
   * Runs {@code command} from the repository root with no input, to its end or {@link #TIMEOUT};
   * its stdout and stderr go to files under {@code logs} (no pipe of ours can fill and stall it).
   */
  static Run run(Path logs, List<String> command) throws IOException, InterruptedException {
    return run(logs, command, Map.of());
  }

  /**
   * Runs the Node client {@code script} (in peers/interop/, with its own {@code flags} first)
   * against our real executable serving {@code workspace}: {@code node SCRIPT FLAGS ./notes-mcp
   * -serve -root WS}, its logs under {@code dir/logs}.
   */
  static Run runNodeClient(Path dir, String script, Path workspace, String... flags)
      throws IOException, InterruptedException {
    return run(
        dir.resolve("logs"),
        nodeClient(script, List.of(flags), List.of("-serve", "-root", workspace.toString())));
  }

  /**
   * The same against our executable serving {@code served} with its policy file: {@code node SCRIPT
   * FLAGS ./notes-mcp -serve -root WS -policy FILE}, with the server's XDG_CACHE_HOME in the
   * environment (the client scripts pass it on), its logs under {@code logs}.
   */
  static Run runNodeClient(Path logs, String script, Searchable served, String... flags)
      throws IOException, InterruptedException {
    return run(logs, nodeClient(script, List.of(flags), served.serverArgs()), served.env());
  }

  /** {@code node SCRIPT FLAGS ./notes-mcp SERVER_ARGS}. */
  static List<String> nodeClient(String script, List<String> flags, List<String> serverArgs) {
    List<String> command = new ArrayList<>();
    command.add(node().toString());
    command.add(script(script).toString());
    command.addAll(flags);
    command.add(launcher().toString());
    command.addAll(serverArgs);
    return command;
  }

  /** {@link #run(Path, List)} with {@code env} added to the inherited environment. */
  static Run run(Path logs, List<String> command, Map<String, String> env)
      throws IOException, InterruptedException {
    Files.createDirectories(logs);
    Path out = Files.createTempFile(logs, "stdout", ".txt");
    Path err = Files.createTempFile(logs, "stderr", ".txt");
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(env);
    Process process =
        builder
            .directory(repo().toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
      List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
      tree.forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor();
      throw new AssertionError(
          "timed out after "
              + TIMEOUT.toSeconds()
              + " s\n"
              + new Run(command, -1, Files.readString(out, UTF_8), Files.readString(err, UTF_8)));
    }
    return new Run(
        List.copyOf(command),
        process.exitValue(),
        Files.readString(out, UTF_8),
        Files.readString(err, UTF_8));
  }

  private static String property(String name) {
    String value = System.getProperty(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException(
          "system property "
              + name
              + " is not set: run the interop tests through failsafe (mvn verify), which sets it");
    }
    return value;
  }
}

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * {@code notes-mcp config --install} with the real hosts, as installed from the lockfile in {@code
 * peers/hosts/} (Claude Code, Codex CLI, Gemini CLI, Qwen Code): each in a HOME of its own, the
 * host's own {@code mcp list} / {@code mcp get} then reports the server connected (configured, for
 * Codex, whose list does not connect), a server that was there already is still listed, and a file
 * that does not parse is left as it was. Then each host runs headless against a scripted model API
 * on loopback ({@code peers/hosts/scripted-model.mjs}) that asks for {@code list_notes}, {@code
 * read_note} and {@code propose_note}: the two reads run without a prompt, and the proposal is the
 * host's to ask about, which a headless run cannot, so the host refuses it and no proposal is made.
 * Over HTTP, the same for Claude Code, Codex CLI and Gemini CLI with the entry {@code config -url
 * URL -token-env VAR --install} writes for a real {@code -serve -http} server: the host connects
 * with the token it reads from the environment (and fails without it), reads headless, and no file
 * the host wrote holds the token. Run by the {@code hosts} profile ({@code mvn -Phosts verify},
 * which {@code .ci/run} runs), not by a plain {@code mvn verify}: the hosts are large.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class HostsIT {
  @TempDir Path dir;
  private Path home;
  private Path workspace;
  private Path project;

  private static final Path HOSTS = Path.of(System.getProperty("notesmcp.repo"), "peers", "hosts");
  private static final Path BIN = HOSTS.resolve("node_modules/.bin");

  record Result(int exit, String out, String err) {
    String all() {
      return out + err;
    }
  }

  @BeforeEach
  void home() throws IOException {
    home = Files.createDirectories(dir.resolve("home"));
    workspace = Fixtures.workspace(dir).toRealPath();
    project = Files.createDirectories(dir.resolve("project"));
  }

  /** The environment every host runs in: this HOME, no telemetry, the host on PATH. */
  private Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    env.put("HOME", home.toString());
    env.put("PATH", BIN + ":" + System.getenv("PATH"));
    env.put("DISABLE_TELEMETRY", "1");
    env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    env.put("GEMINI_CLI_TRUST_WORKSPACE", "true");
    env.put("NO_COLOR", "1");
    return env;
  }

  private Result exec(List<String> command, Map<String, String> extra) throws Exception {
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(project.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().clear();
    builder.environment().putAll(env());
    builder.environment().putAll(extra);
    Process process = builder.start();
    if (!process.waitFor(240, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(command + " did not finish; stderr:\n" + Files.readString(err));
    }
    return new Result(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private Result install(String host) throws Exception {
    return exec(
        List.of(
            WireServer.launcher().toString(),
            "config",
            "-root",
            workspace.toString(),
            "-host",
            host,
            "--install"),
        Map.of());
  }

  /** The file {@code --install} writes the server into, for {@code host}. */
  private Path serverFile(String host) {
    switch (host) {
      case "claude-code":
        return home.resolve(".claude.json");
      case "codex":
        return home.resolve(".codex/config.toml");
      case "gemini":
        return home.resolve(".gemini/settings.json");
      case "qwen":
        return home.resolve(".qwen/settings.json");
      default:
        throw new AssertionError(host);
    }
  }

  /** A server of another name, there before the install, in the host's own format. */
  private void otherServerFirst(String host) throws IOException {
    Path file = serverFile(host);
    Files.createDirectories(file.getParent());
    String other = WireServer.launcher().toString();
    if (host.equals("codex")) {
      Files.writeString(
          file,
          "[mcp_servers.other]\ncommand = \""
              + other
              + "\"\nargs = [\"-serve\", \"-root\", \""
              + workspace
              + "\"]\n");
    } else {
      Files.writeString(
          file,
          "{\"mcpServers\": {\"other\": {\"command\": \""
              + other
              + "\", \"args\": [\"-serve\", \"-root\", \""
              + workspace
              + "\"]}}}\n");
    }
  }

  private Result list(String host) throws Exception {
    switch (host) {
      case "claude-code":
        return exec(List.of(BIN.resolve("claude").toString(), "mcp", "list"), Map.of());
      case "codex":
        return exec(List.of(BIN.resolve("codex").toString(), "mcp", "list"), Map.of());
      case "gemini":
        return exec(List.of(BIN.resolve("gemini").toString(), "mcp", "list"), Map.of());
      case "qwen":
        return exec(List.of(BIN.resolve("qwen").toString(), "mcp", "list"), Map.of());
      default:
        throw new AssertionError(host);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"claude-code", "codex", "gemini", "qwen"})
  void theHostListsTheInstalledServerConnectedBesideTheOneThatWasThere(String host)
      throws Exception {
    otherServerFirst(host);

    Result install = install(host);
    assertThat(install.exit()).as(install.err()).isZero();
    assertThat(install.out()).isEmpty();

    Result list = list(host);
    String command = WireServer.launcher().toRealPath() + " -serve -root " + workspace;
    if (host.equals("codex")) {
      // Codex's list shows what is configured; it does not start the servers.
      assertThat(list.out())
          .containsPattern(
              "(?m)^notes\\s+\\Q"
                  + WireServer.launcher().toRealPath()
                  + "\\E\\s+-serve -root \\Q"
                  + workspace
                  + "\\E\\s+-\\s+-\\s+enabled");
      assertThat(list.out()).containsPattern("(?m)^other\\s");
      Result get = exec(List.of(BIN.resolve("codex").toString(), "mcp", "get", "notes"), Map.of());
      assertThat(get.out()).contains("enabled: true").contains("transport: stdio");
    } else {
      assertThat(list.all())
          .as(list.all())
          .containsPattern("notes: \\Q" + command + "\\E.*Connected");
      assertThat(list.all()).contains("other: ");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"claude-code", "codex", "gemini", "qwen"})
  void aFileThatDoesNotParseIsLeftAsItWas(String host) throws Exception {
    Path file = serverFile(host);
    Files.createDirectories(file.getParent());
    String broken =
        host.equals("codex") ? "[mcp_servers.other\ncommand = 1\n" : "{\"mcpServers\": {\n";
    Files.writeString(file, broken);

    Result install = install(host);

    assertThat(install.exit()).isEqualTo(2);
    assertThat(install.out()).isEmpty();
    assertThat(install.err()).startsWith("notes-mcp: " + file + " does not parse as ");
    assertThat(Files.readString(file)).isEqualTo(broken);
    try (var files = Files.list(file.getParent())) {
      assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.contains(".bak-"));
    }
  }

  /**
   * What a person is asked, measured: the host runs headless against a scripted model that asks for
   * the two reads and a proposal. The reads come back with the notes; the proposal comes back as
   * the host's refusal, since it needs the person's confirmation, and no proposal is made.
   */
  @ParameterizedTest
  @ValueSource(strings = {"claude-code", "codex", "gemini", "qwen"})
  void readsRunWithoutAskingAndAProposalIsLeftToThePerson(String host) throws Exception {
    if (host.equals("gemini")) {
      // The scripted model has no Google account; Gemini CLI takes an API key when told so.
      Path settings = home.resolve(".gemini/settings.json");
      Files.createDirectories(settings.getParent());
      Files.writeString(
          settings, "{\"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}}}\n");
    }
    assertThat(install(host).exit()).isZero();
    List<JsonNode> log = drive(host);

    assertThat(log)
        .extracting(entry -> entry.path("tool").asString())
        .containsExactly("list_notes", "read_note", "propose_note");
    assertThat(log.get(0).path("result").asString())
        .contains("\"notes\":[\"notes.txt\",\"project.txt\"]");
    assertThat(log.get(1).path("result").asString()).contains("Monday: ship the preview.");
    String refusal = log.get(2).path("result").asString();
    assertThat(refusal).doesNotContain("pending_approval");
    assertThat(refusal)
        .containsAnyOf(
            "haven't granted it yet",
            "requires approval, but approval policy is never",
            "requires user confirmation, which is not supported in non-interactive mode",
            "non-interactive mode cannot prompt for confirmation");
  }

  /** Runs the host headless against the scripted model; returns the tool results it logged. */
  private List<JsonNode> drive(String host) throws Exception {
    return drive(host, Map.of());
  }

  /** As {@link #drive(String)}, with {@code env} added to the host's environment. */
  private List<JsonNode> drive(String host, Map<String, String> env) throws Exception {
    Path port = dir.resolve("port");
    Path log = dir.resolve("model.log");
    Files.deleteIfExists(port);
    Files.deleteIfExists(log);
    Process model =
        new ProcessBuilder(
                "node",
                HOSTS.resolve("scripted-model.mjs").toString(),
                port.toString(),
                log.toString(),
                "list_notes:{}",
                "read_note:{\"path\":\"notes.txt\"}",
                "propose_note:{\"path\":\"draft.txt\",\"content\":\"A draft.\"}")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("model.out").toFile())
            .start();
    try {
      for (int i = 0; i < 200 && !Files.exists(port); i++) {
        Thread.sleep(50);
      }
      String url = "http://127.0.0.1:" + Files.readString(port).strip();
      Result run;
      switch (host) {
        case "claude-code":
          run =
              exec(
                  List.of(
                      BIN.resolve("claude").toString(),
                      "-p",
                      "Read my notes.",
                      "--model",
                      "claude-sonnet-4-5"),
                  with(
                      env,
                      "ANTHROPIC_BASE_URL",
                      url,
                      "ANTHROPIC_API_KEY",
                      "scripted",
                      "ENABLE_TOOL_SEARCH",
                      "false"));
          break;
        case "codex":
          run =
              exec(
                  List.of(
                      BIN.resolve("codex").toString(),
                      "exec",
                      "--skip-git-repo-check",
                      "-c",
                      "model_provider=scripted",
                      "-c",
                      "model_providers.scripted={name=\"scripted\",base_url=\""
                          + url
                          + "/v1\",wire_api=\"responses\",env_key=\"SCRIPTED_KEY\"}",
                      "-c",
                      "model=scripted",
                      "Read my notes."),
                  with(env, "SCRIPTED_KEY", "scripted"));
          break;
        case "gemini":
          run =
              exec(
                  List.of(
                      BIN.resolve("gemini").toString(),
                      "-p",
                      "Read my notes.",
                      "-m",
                      "gemini-2.5-flash"),
                  with(env, "GEMINI_API_KEY", "scripted", "GOOGLE_GEMINI_BASE_URL", url));
          break;
        case "qwen":
          run =
              exec(
                  List.of(
                      BIN.resolve("qwen").toString(),
                      "-p",
                      "Read my notes.",
                      "--auth-type",
                      "openai"),
                  with(
                      env,
                      "OPENAI_API_KEY",
                      "scripted",
                      "OPENAI_BASE_URL",
                      url + "/v1",
                      "OPENAI_MODEL",
                      "scripted"));
          break;
        default:
          throw new AssertionError(host);
      }
      assertThat(run.exit()).as(run.all()).isZero();
      List<JsonNode> entries = new ArrayList<>();
      for (String line : Files.readAllLines(log)) {
        JsonNode entry = WireServer.JSON.readTree(line);
        JsonNode result = entry.path("result");
        // Hosts send a result as text, or as text blocks, or wrapped in JSON of their own: keep
        // the text, unescaped once, so that the server's own JSON reads as it wrote it.
        String text = result.isString() ? result.asString() : result.toString();
        ((tools.jackson.databind.node.ObjectNode) entry).put("result", text.replace("\\\"", "\""));
        entries.add(entry);
      }
      return entries;
    } finally {
      model.destroy();
      model.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** {@code env} and the pairs {@code more} (name, value, ...). */
  private static Map<String, String> with(Map<String, String> env, String... more) {
    Map<String, String> all = new HashMap<>(env);
    for (int i = 0; i < more.length; i += 2) {
      all.put(more[i], more[i + 1]);
    }
    return all;
  }

  /** The variable every HTTP entry here names. */
  private static final String TOKEN_ENV = "NOTES_MCP_TOKEN";

  private Result installRemote(String host, String url) throws Exception {
    return exec(
        List.of(
            WireServer.launcher().toString(),
            "config",
            "-url",
            url,
            "-token-env",
            TOKEN_ENV,
            "-host",
            host,
            "--install"),
        Map.of());
  }

  /** The files under HOME that hold {@code secret}, as bytes (a host may write binary caches). */
  private List<Path> holding(String secret) throws IOException {
    byte[] wanted = secret.getBytes(StandardCharsets.US_ASCII);
    List<Path> found = new ArrayList<>();
    try (var files = Files.walk(home)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)
            && Files.size(file) < 64L * 1024 * 1024
            && indexOf(Files.readAllBytes(file), wanted) >= 0) {
          found.add(file);
        }
      }
    }
    return found;
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /**
   * Over HTTP: {@code config -url URL -token-env VAR --install} for a real {@code -serve -http}
   * server with tokens; the host, given the token in VAR, reports the server connected over HTTP
   * (Codex, whose list does not connect, lists its URL and bearer variable), reads headless against
   * the scripted model and leaves the proposal to the person; the server saw no request without the
   * token until then; without VAR the host does not connect; and no file under HOME holds the
   * token, whatever the host wrote while it ran.
   */
  @ParameterizedTest
  @ValueSource(strings = {"claude-code", "codex", "gemini"})
  void overHttpTheHostConnectsWithTheTokenFromItsEnvironmentAndReadsHeadless(String host)
      throws Exception {
    Path tokens = HttpWire.tokensFile(dir);
    String token = HttpWire.addToken(tokens, "laptop", "propose");
    try (HttpWire server = HttpWire.start(workspace, "-tokens", tokens.toString())) {
      String url = server.uri.toString();
      if (host.equals("gemini")) {
        Path settings = home.resolve(".gemini/settings.json");
        Files.createDirectories(settings.getParent());
        Files.writeString(
            settings, "{\"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}}}\n");
      }
      Result install = installRemote(host, url);
      assertThat(install.exit()).as(install.err()).isZero();
      assertThat(install.out()).isEmpty();
      Map<String, String> withToken = Map.of(TOKEN_ENV, token);

      Result list = exec(List.of(BIN.resolve(command(host)).toString(), "mcp", "list"), withToken);
      if (host.equals("codex")) {
        assertThat(list.out())
            .containsPattern("(?m)^notes\\s+\\Q" + url + "\\E\\s+" + TOKEN_ENV + "\\s+enabled");
        Result get =
            exec(List.of(BIN.resolve("codex").toString(), "mcp", "get", "notes"), withToken);
        assertThat(get.out())
            .contains("transport: streamable_http")
            .contains("bearer_token_env_var: " + TOKEN_ENV);
      } else {
        assertThat(list.all())
            .as(list.all())
            .containsPattern("notes: \\Q" + url + "\\E \\((HTTP|http)\\).*Connected");
      }

      List<JsonNode> log = drive(host, withToken);
      assertThat(log)
          .extracting(entry -> entry.path("tool").asString())
          .containsExactly("list_notes", "read_note", "propose_note");
      assertThat(log.get(0).path("result").asString())
          .contains("\"notes\":[\"notes.txt\",\"project.txt\"]");
      assertThat(log.get(1).path("result").asString()).contains("Monday: ship the preview.");
      assertThat(log.get(2).path("result").asString()).doesNotContain("pending_approval");
      assertThat(server.stderr()).doesNotContain(" 401 ").doesNotContain(" 403 ");

      if (!host.equals("codex")) {
        Result without =
            exec(List.of(BIN.resolve(command(host)).toString(), "mcp", "list"), Map.of());
        assertThat(without.all()).as(without.all()).doesNotContainPattern("notes: .*Connected");
        assertThat(server.stderr()).contains("notes-mcp: 401 for 127.0.0.1");
      }
      assertThat(holding(token)).as("files under HOME that hold the token").isEmpty();
      assertThat(server.stderr()).doesNotContain(token);
    }
  }

  /**
   * The line {@code config -url ... -host claude-code} prints, run by a shell where the variable is
   * set: Claude Code keeps the reference, not the token (the header is in single quotes), and
   * connects with the token from the environment.
   */
  @org.junit.jupiter.api.Test
  void thePrintedClaudeCodeLineKeepsTheReferenceAndConnects() throws Exception {
    Path tokens = HttpWire.tokensFile(dir);
    String token = HttpWire.addToken(tokens, "laptop", "read");
    try (HttpWire server = HttpWire.start(workspace, "-tokens", tokens.toString())) {
      Result printed =
          exec(
              List.of(
                  WireServer.launcher().toString(),
                  "config",
                  "-url",
                  server.uri.toString(),
                  "-token-env",
                  TOKEN_ENV,
                  "-host",
                  "claude-code"),
              Map.of(TOKEN_ENV, token));
      assertThat(printed.exit()).as(printed.err()).isZero();
      assertThat(printed.out()).doesNotContain(token);

      Result added = exec(List.of("bash", "-c", printed.out().strip()), Map.of(TOKEN_ENV, token));
      assertThat(added.exit()).as(added.all()).isZero();
      assertThat(
              WireServer.JSON
                  .readTree(home.resolve(".claude.json").toFile())
                  .at("/mcpServers/notes/headers/Authorization")
                  .asString())
          .isEqualTo("Bearer ${" + TOKEN_ENV + "}");
      Result list =
          exec(List.of(BIN.resolve("claude").toString(), "mcp", "list"), Map.of(TOKEN_ENV, token));
      assertThat(list.all()).containsPattern("notes: .*\\(HTTP\\).*Connected");
      assertThat(holding(token)).isEmpty();
    }
  }

  private static String command(String host) {
    return host.equals("claude-code") ? "claude" : host;
  }
}

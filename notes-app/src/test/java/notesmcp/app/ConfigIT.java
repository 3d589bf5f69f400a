package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * {@code notes-mcp config -root W [-host NAME]} through the real launcher (docs/hosts.md, "One
 * host"): for each host a valid entry naming the executable that ran and W, both absolute and
 * existing, in a folder whose name has spaces and quotes; the entry actually starts a working
 * server; {@code -policy} and {@code -proposals} are checked as {@code -serve} checks them and
 * named by their real paths; {@code --install} writes the host's file and nothing on stdout; bad
 * input is a usage error with nothing on stdout.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConfigIT {
  @TempDir Path dir;
  private Path workspace;

  @BeforeEach
  void workspace() throws IOException {
    Path parent = Files.createDirectories(dir.resolve("my \"notes\" it's here"));
    workspace = Fixtures.workspace(parent);
  }

  private static Path executable() throws IOException {
    return WireServer.launcher().toRealPath();
  }

  @ParameterizedTest
  @ValueSource(strings = {"claude-desktop", "cursor"})
  void mcpServersEntryNamesTheExecutableAndTheWorkspace(String host) throws Exception {
    ClientIT.Run run = ClientIT.run("config", "-root", workspace.toString(), "-host", host);

    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode server = run.json().path("mcpServers").path("notes");
    assertThat(run.json().size()).isEqualTo(1);
    assertCommand(server);
    assertThat(server.has("type")).isFalse();
  }

  @Test
  void claudeDesktopIsTheDefault() throws Exception {
    ClientIT.Run plain = ClientIT.run("config", "-root", workspace.toString());
    ClientIT.Run named = ClientIT.run("config", "--root=" + workspace, "--host", "claude-desktop");

    assertThat(plain.exit()).isZero();
    assertThat(plain.out()).isEqualTo(named.out());
  }

  @Test
  void vscodeEntryIsAStdioServerOfMcpJson() throws Exception {
    ClientIT.Run run = ClientIT.run("config", "-root", workspace.toString(), "-host", "vscode");

    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode server = run.json().path("servers").path("notes");
    assertThat(server.path("type").asString()).isEqualTo("stdio");
    assertCommand(server);
  }

  @Test
  void claudeCodeLineIsAShellCommandLineThatKeepsEveryWord() throws Exception {
    ClientIT.Run run =
        ClientIT.run("config", "-root", workspace.toString(), "-host", "claude-code");

    assertThat(run.exit()).as(run.err()).isZero();
    String line = run.out().strip();
    assertThat(line).doesNotContain("\n").startsWith("claude mcp add ");
    List<String> words = shellWords(line);
    assertThat(words)
        .containsExactly(
            "claude",
            "mcp",
            "add",
            "--scope",
            "user",
            "--transport",
            "stdio",
            "notes",
            "--",
            executable().toString(),
            "-serve",
            "-root",
            workspace.toRealPath().toString());
  }

  /** The entry is not only well-formed: the command it names serves MCP on W. */
  @Test
  void theEntrysCommandServesTheWorkspace() throws Exception {
    JsonNode server =
        ClientIT.run("config", "-root", workspace.toString())
            .json()
            .path("mcpServers")
            .path("notes");
    List<String> command = new ArrayList<>(List.of(server.path("command").asString()));
    server.path("args").forEach(a -> command.add(a.asString()));
    // A host starts it from a working directory of its own.
    Process process =
        new ProcessBuilder(command)
            .directory(Files.createDirectory(dir.resolve("elsewhere")).toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try (OutputStream in = process.getOutputStream()) {
      in.write(
          ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                  + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
                  + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":"
                  + "\"list_notes\"}}\n")
              .getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isZero();
    assertThat(out).contains("{\\\"notes\\\":[\\\"notes.txt\\\",\\\"project.txt\\\"]}");
  }

  @ParameterizedTest
  @ValueSource(strings = {"zed", "Claude-Desktop", ""})
  void anUnknownHostIsAUsageError(String host) throws Exception {
    ClientIT.Run run = ClientIT.run("config", "-root", workspace.toString(), "-host", host);

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .contains("unknown host \"" + host + "\"")
        .contains("claude-desktop, cursor, vscode, claude-code");
  }

  @Test
  void aRootThatIsNotAUsableFolderIsAUsageError() throws Exception {
    Path file = Files.writeString(dir.resolve("a file"), "x");
    for (Path root : List.of(file, dir.resolve("missing"))) {
      ClientIT.Run run = ClientIT.run("config", "-root", root.toString());

      assertThat(run.exit()).as(root.toString()).isEqualTo(2);
      assertThat(run.out()).isEmpty();
      assertThat(run.err()).contains("not a usable folder");
    }
    ClientIT.Run none = ClientIT.run("config");
    assertThat(none.exit()).isEqualTo(2);
    assertThat(none.err()).contains("config needs -root PATH");
  }

  @Test
  void codexEntryIsTomlTablesWithEveryToolButTheReadsAsked() throws Exception {
    ClientIT.Run run = ClientIT.run("config", "-root", workspace.toString(), "-host", "codex");

    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode server =
        new tools.jackson.dataformat.toml.TomlMapper()
            .readTree(run.out())
            .path("mcp_servers")
            .path("notes");
    assertCommand(server);
    assertThat(server.path("default_tools_approval_mode").asString()).isEqualTo("prompt");
    for (String tool : HostTools.READ_ONLY) {
      assertThat(server.at("/tools/" + tool + "/approval_mode").asString()).isEqualTo("approve");
    }
    assertThat(server.path("tools").size()).isEqualTo(HostTools.READ_ONLY.size());
  }

  @ParameterizedTest
  @ValueSource(strings = {"gemini", "qwen"})
  void geminiAndQwenEntriesAreUntrusted(String host) throws Exception {
    ClientIT.Run run = ClientIT.run("config", "-root", workspace.toString(), "-host", host);

    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode server = run.json().path("mcpServers").path("notes");
    assertCommand(server);
    assertThat(server.path("trust").isBoolean()).isTrue();
    assertThat(server.path("trust").asBoolean()).isFalse();
  }

  @Test
  void thePolicyAndTheProposalsFolderGoIntoTheEntryByTheirRealPaths() throws Exception {
    Path policy = Files.writeString(dir.resolve("policy.json"), "{\"readable\": [\"notes.txt\"]}");
    Path proposals = dir.resolve("new/proposals");
    ClientIT.Run run =
        ClientIT.run(
            "config",
            "-root",
            workspace.toString(),
            "-policy",
            policy.toString(),
            "-proposals",
            proposals.toString());

    assertThat(run.exit()).as(run.err()).isZero();
    List<String> args = new ArrayList<>();
    run.json().at("/mcpServers/notes/args").forEach(a -> args.add(a.asString()));
    assertThat(args)
        .containsExactly(
            "-serve",
            "-root",
            workspace.toRealPath().toString(),
            "-policy",
            policy.toRealPath().toString(),
            "-proposals",
            proposals.toRealPath().toString());
    // Made as the server's first start would make it: owner-only.
    assertThat(
            java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(proposals)))
        .isEqualTo("rwx------");
  }

  @Test
  void aBadPolicyOrAProposalsFolderInsideTheWorkspaceIsAUsageError() throws Exception {
    Path policy = Files.writeString(dir.resolve("bad.json"), "{\"readable\": 3}");
    ClientIT.Run badPolicy =
        ClientIT.run("config", "-root", workspace.toString(), "-policy", policy.toString());
    assertThat(badPolicy.exit()).isEqualTo(2);
    assertThat(badPolicy.out()).isEmpty();
    assertThat(badPolicy.err())
        .isEqualTo(
            "notes-mcp: policy file "
                + policy
                + ": \"readable\" must be an array of note names and patterns\n");

    Path inside = workspace.resolve("proposals");
    ClientIT.Run badFolder =
        ClientIT.run("config", "-root", workspace.toString(), "-proposals", inside.toString());
    assertThat(badFolder.exit()).isEqualTo(2);
    assertThat(badFolder.out()).isEmpty();
    assertThat(badFolder.err()).contains("is inside the workspace");
    assertThat(inside).doesNotExist();
  }

  @Test
  void installWritesTheHostsFileAndNothingOnStdout() throws Exception {
    Path home = Files.createDirectories(dir.resolve("home"));
    ProcessBuilder builder =
        new ProcessBuilder(
            WireServer.launcher().toString(),
            "config",
            "-root",
            workspace.toString(),
            "-host",
            "vscode",
            "--install");
    builder.environment().put("HOME", home.toString());
    builder.environment().remove("XDG_CONFIG_HOME");
    Process vscode = builder.start();
    vscode.getOutputStream().close();
    String vsOut = new String(vscode.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String vsErr = new String(vscode.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(vscode.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(vscode.exitValue()).as(vsErr).isZero();
    assertThat(vsOut).isEmpty();
    Path mcp = home.resolve(".config/Code/User/mcp.json");
    assertThat(vsErr)
        .isEqualTo(
            "notes-mcp: wrote the MCP server \"notes\" (servers.notes) in "
                + mcp
                + " (a new file)\nnotes-mcp: restart VS Code to load it\n");
    JsonNode server = WireServer.JSON.readTree(Files.readString(mcp)).path("servers").path("notes");
    assertCommand(server);
  }

  private void assertCommand(JsonNode server) throws IOException {
    Path command = Path.of(server.path("command").asString());
    assertThat(command).isAbsolute().isEqualTo(executable());
    assertThat(Files.isExecutable(command)).isTrue();
    List<String> args = new ArrayList<>();
    server.path("args").forEach(a -> args.add(a.asString()));
    assertThat(args).containsExactly("-serve", "-root", workspace.toRealPath().toString());
    assertThat(Path.of(args.get(2))).isAbsolute().isDirectory();
  }

  /** The words a POSIX shell (bash) makes of {@code line}, without running it. */
  private static List<String> shellWords(String line) throws Exception {
    Process bash =
        new ProcessBuilder("bash", "-c", "eval \"set -- $1\" && printf '%s\\0' \"$@\"", "_", line)
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(bash.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(bash.exitValue()).isZero();
    return List.of(out.split("\0"));
  }

  /**
   * {@code config -host systemd --install} into a fresh HOME, for a workspace whose name holds
   * spaces and quotes: the unit is owner-only, holds no token, {@code systemd-analyze verify} takes
   * it without a word (where the machine has it), and its command line, read back by systemd's
   * quoting rules (systemd.syntax: double quotes, {@code \\} escapes, {@code %%} and {@code $$}),
   * with its {@code JAVA_HOME}, starts the server it describes: it listens, reads a note for the
   * token, and stops on SIGTERM with exit 0.
   */
  @Test
  void theSystemdUnitInAFreshHomeStartsTheServerItDescribes() throws Exception {
    Path home = Files.createDirectories(dir.resolve("home"));
    Path tokens = HttpWire.tokensFile(dir);
    String token = HttpWire.addToken(tokens, "laptop", "read");

    Launch.Result install =
        Launch.run(
            dir,
            java.util.Map.of("HOME", home.toString(), "XDG_CONFIG_HOME", ""),
            "",
            List.of(
                WireServer.launcher().toString(),
                "config",
                "-host",
                "systemd",
                "-root",
                workspace.toString(),
                "-http",
                "127.0.0.1:0",
                "-tokens",
                tokens.toString(),
                "--install"));

    assertThat(install.exit()).as(install.stderr()).isZero();
    assertThat(install.stdout()).isEmpty();
    Path unit = home.resolve(".config/systemd/user/notes-mcp.service");
    assertThat(install.stderr())
        .contains("wrote the systemd user unit notes-mcp.service in " + unit + " (a new file)")
        .contains("systemctl --user enable --now notes-mcp.service");
    assertThat(LocalUsers.ownerAndMode(unit)).endsWith(" 600");
    String text = Files.readString(unit);
    assertThat(text).doesNotContain(token).doesNotContain(token.substring(5, 20));
    if (onPath("systemd-analyze")) {
      Process verify =
          new ProcessBuilder("systemd-analyze", "verify", unit.toString())
              .redirectErrorStream(true)
              .start();
      String said = new String(verify.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(verify.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(verify.exitValue()).as(said).isZero();
      assertThat(said).as("systemd-analyze verify").doesNotContain("notes-mcp.service");
    }
    List<String> command = systemdWords(line(text, "ExecStart="));
    assertThat(command.get(0)).isEqualTo(executable().toString());
    assertThat(command.subList(1, command.size()))
        .containsExactly(
            "-serve",
            "-root",
            workspace.toRealPath().toString(),
            "-http",
            "127.0.0.1:0",
            "-tokens",
            tokens.toRealPath().toString());
    List<String> environment = systemdWords(line(text, "Environment="));
    assertThat(environment).hasSize(1);
    assertThat(environment.get(0)).startsWith("JAVA_HOME=");

    ProcessBuilder started = new ProcessBuilder(command);
    started.environment().put("JAVA_HOME", environment.get(0).substring("JAVA_HOME=".length()));
    try (HttpWire server = HttpWire.of(started)) {
      HttpWire.Reply read = server.call(token, "read_note", "{\"path\":\"notes.txt\"}");
      assertThat(read.status()).isEqualTo(200);
      assertThat(read.body()).contains("Monday: ship the preview.");
      assertThat(server.terminate()).isZero();
      assertThat(server.violations()).isEmpty();
    }
  }

  private static boolean onPath(String program) {
    for (String folder : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, program))) {
        return true;
      }
    }
    return false;
  }

  /** The value of the unit's one line that starts with {@code key}. */
  private static String line(String text, String key) {
    List<String> found =
        text.lines().filter(l -> l.startsWith(key)).map(l -> l.substring(key.length())).toList();
    assertThat(found).as(key).hasSize(1);
    return found.get(0);
  }

  /**
   * Words as systemd reads a command line or an assignment list: separated by spaces, a word in
   * double quotes may hold spaces, {@code \\x} is {@code x} inside quotes (the escapes written are
   * {@code \\\\} and {@code \\"} only), {@code %%} is {@code %} and {@code $$} is {@code $}.
   */
  private static List<String> systemdWords(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (!quoted && c == ' ') {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
        continue;
      }
      if (word == null) {
        word = new StringBuilder();
      }
      if (c == '"') {
        quoted = !quoted;
      } else if (c == '\\' && quoted) {
        word.append(line.charAt(++i));
      } else if ((c == '%' || c == '$') && i + 1 < line.length() && line.charAt(i + 1) == c) {
        word.append(c);
        i++;
      } else {
        word.append(c);
      }
    }
    assertThat(quoted).as("balanced quotes in " + line).isFalse();
    if (word != null) {
      words.add(word.toString());
    }
    return words;
  }
}

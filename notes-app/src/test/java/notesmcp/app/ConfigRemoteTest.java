package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import notesmcp.cli.ExitCode;
import notesmcp.cli.UsageException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * {@code config -url URL -token-env VAR}: the entry of each host that takes a URL and a header, its
 * flags and refusals, and that a token never reaches a file, whatever the environment holds; and
 * the systemd unit's words. The real hosts read these entries in {@code HostsIT}; a unit installed
 * and started is {@code ConfigIT}'s.
 */
class ConfigRemoteTest {
  @TempDir Path home;

  /** What the variable holds where config runs: it must never be written. */
  private static final String TOKEN = "nmcp_" + "A".repeat(43);

  private static final Hosts.Remote REMOTE =
      new Hosts.Remote("notes", "https://notes.example.org/mcp", "NOTES_MCP_TOKEN");

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private ExitCode config(String... args) throws UsageException {
    out.reset();
    err.reset();
    return ConfigCommand.run(
        Options.parse(List.of(args)),
        null,
        Map.of("HOME", home.toString(), "NOTES_MCP_TOKEN", TOKEN),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void eachHostGetsTheUrlAndAReferenceToTheVariableInItsOwnSyntax() {
    assertThat(Hosts.print("cursor", REMOTE))
        .isEqualTo(
            """
            {
              "mcpServers" : {
                "notes" : {
                  "url" : "https://notes.example.org/mcp",
                  "headers" : {
                    "Authorization" : "Bearer ${env:NOTES_MCP_TOKEN}"
                  }
                }
              }
            }""");
    assertThat(Hosts.print("vscode", REMOTE))
        .isEqualTo(
            """
            {
              "servers" : {
                "notes" : {
                  "type" : "http",
                  "url" : "https://notes.example.org/mcp",
                  "headers" : {
                    "Authorization" : "Bearer ${env:NOTES_MCP_TOKEN}"
                  }
                }
              }
            }""");
    assertThat(Hosts.print("claude-code", REMOTE))
        .isEqualTo(
            "claude mcp add --scope user --transport http notes https://notes.example.org/mcp"
                + " --header 'Authorization: Bearer ${NOTES_MCP_TOKEN}'");
    assertThat(Hosts.print("gemini", REMOTE))
        .isEqualTo(
            """
            {
              "mcpServers" : {
                "notes" : {
                  "httpUrl" : "https://notes.example.org/mcp",
                  "headers" : {
                    "Authorization" : "Bearer ${NOTES_MCP_TOKEN}"
                  },
                  "trust" : false
                }
              }
            }""");
    assertThat(Hosts.print("qwen", REMOTE))
        .startsWith(
            """
            {
              "mcpServers" : {
                "notes" : {
                  "httpUrl" : "https://notes.example.org/mcp",
                  "headers" : {
                    "Authorization" : "Bearer ${NOTES_MCP_TOKEN}"
                  },
                  "trust" : false
                }
              },
              "permissions" : {""");
    assertThat(Hosts.print("codex", REMOTE))
        .startsWith(
            """
            [mcp_servers.notes]
            url = "https://notes.example.org/mcp"
            bearer_token_env_var = "NOTES_MCP_TOKEN"
            default_tools_approval_mode = "prompt"

            [mcp_servers.notes.tools.list_notes]
            approval_mode = "approve"
            """);
  }

  /** Every host's files, installed into an empty HOME: the entry, and never the token. */
  @ParameterizedTest
  @ValueSource(strings = {"cursor", "vscode", "claude-code", "codex", "gemini", "qwen"})
  void anInstalledEntryHoldsTheVariablesNameAndNeverItsValue(String host) throws Exception {
    assertThat(
            config(
                "config",
                "-url",
                "https://notes.example.org/mcp",
                "-token-env",
                "NOTES_MCP_TOKEN",
                "-host",
                host,
                "--install"))
        .as(err())
        .isEqualTo(ExitCode.OK);

    assertThat(out()).isEmpty();
    assertThat(err()).doesNotContain(TOKEN).doesNotContain("is not set here");
    List<Path> files;
    try (Stream<Path> walk = Files.walk(home)) {
      files = walk.filter(Files::isRegularFile).toList();
    }
    assertThat(files).isNotEmpty();
    StringBuilder all = new StringBuilder();
    for (Path file : files) {
      all.append(Files.readString(file));
    }
    assertThat(all.toString())
        .doesNotContain(TOKEN)
        .contains("https://notes.example.org/mcp")
        .contains("NOTES_MCP_TOKEN");
    if (host.equals("claude-code")) {
      JsonNode entry =
          WireServer.JSON.readTree(home.resolve(".claude.json").toFile()).at("/mcpServers/notes");
      assertThat(entry.toString())
          .isEqualTo(
              "{\"type\":\"http\",\"url\":\"https://notes.example.org/mcp\",\"headers\":"
                  + "{\"Authorization\":\"Bearer ${NOTES_MCP_TOKEN}\"}}");
      assertThat(Files.readString(home.resolve(".claude/settings.json")))
          .contains("mcp__notes__read_note")
          .contains("mcp__notes__propose_note");
    }
    if (host.equals("gemini")) {
      assertThat(Files.readString(home.resolve(".gemini/policies/notes-mcp-notes.toml")))
          .contains("decision = \"ask_user\"");
    }
  }

  @Test
  void aVariableThatIsNotSetHereIsNamedOnStderrAndTheEntryIsStillPrinted() throws Exception {
    out.reset();
    err.reset();
    ExitCode code =
        ConfigCommand.run(
            Options.parse(
                List.of(
                    "config",
                    "-url",
                    "http://127.0.0.1:8765/mcp",
                    "-token-env",
                    "T",
                    "-host",
                    "codex")),
            null,
            Map.of("HOME", home.toString()),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));

    assertThat(code).isEqualTo(ExitCode.OK);
    assertThat(out()).contains("url = \"http://127.0.0.1:8765/mcp\"");
    assertThat(err())
        .startsWith("notes-mcp: T is not set here; Codex reads it from its own environment");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "http://notes.example.org/mcp|over plain http the token would cross the network",
        "http://192.168.1.2:8765/mcp|over plain http the token would cross the network",
        "https://me:secret@notes.example.org/mcp|must not hold a user name or password",
        "https://notes.example.org/mcp?token=x|takes no query or fragment",
        "https://notes.example.org/mcp#x|takes no query or fragment",
        "ftp://notes.example.org/mcp|takes an absolute http or https URL",
        "notes.example.org/mcp|takes an absolute http or https URL",
        "https://|takes an absolute URL",
        "https://no spaces/mcp|takes an absolute URL",
      })
  void aUrlThatWouldExposeTheTokenOrIsNoUrlIsRefused(String url, String words) {
    assertThatThrownBy(
            () ->
                Options.parse(List.of("config", "-url", url, "-token-env", "T", "-host", "cursor")))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining(words);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://127.0.0.1:8765/mcp",
        "http://localhost:8765/mcp",
        "http://[::1]:8765/mcp",
        "https://notes.example.org/mcp",
        "https://notes.example.org:8443/notes/mcp"
      })
  void httpsAnywhereAndHttpToLoopbackAreTaken(String url) throws UsageException {
    Options options =
        Options.parse(List.of("config", "-url", url, "-token-env", "T", "-host", "cursor"));

    assertThat(options.remote().url()).isEqualTo(url);
  }

  @Test
  void theRemoteFormsFlagsAreCheckedTogether() {
    String url = "https://notes.example.org/mcp";
    assertThatThrownBy(() -> Options.parse(List.of("config", "-url", url, "-host", "cursor")))
        .hasMessageStartingWith("-url needs -token-env VAR");
    assertThatThrownBy(() -> Options.parse(List.of("config", "-token-env", "T", "-root", "w")))
        .hasMessageStartingWith("config -url writes a host's entry for a server that runs");
    assertThatThrownBy(() -> Options.parse(List.of("config", "-token-env", "T")))
        .hasMessage("-token-env goes with -url URL");
    assertThatThrownBy(
            () -> Options.parse(List.of("config", "-url", url, "-token-env", "T", "-root", "w")))
        .hasMessageStartingWith("config -url writes a host's entry for a server that runs");
    for (String variable : List.of("1X", "A-B", "$T", "${T}", "", "A".repeat(65))) {
      assertThatThrownBy(
              () -> Options.parse(List.of("config", "-url", url, "-token-env", variable)))
          .hasMessageStartingWith("-token-env takes an environment variable's name");
    }
    assertThatThrownBy(() -> Options.parse(List.of("config", "-url", url, "-token-env", "T")))
        .hasMessageStartingWith("Claude Desktop takes a remote server as a connector")
        .hasMessageContaining("docs/oauth.md");
    assertThatThrownBy(
            () ->
                Options.parse(
                    List.of("config", "-url", url, "-token-env", "T", "-host", "systemd")))
        .hasMessageStartingWith("-host systemd writes the unit of the server itself");
    assertThatThrownBy(() -> Options.parse(List.of("-root", "w", "-url", url)))
        .hasMessage("-url and -token-env go with the config command only");
  }

  @Test
  void aRemoteEntryIsMergedAndRefusedAsAStdioOneIs() throws Exception {
    Path file = home.resolve(".cursor/mcp.json");
    Files.createDirectories(file.getParent());
    String before = "{\"mcpServers\": {\"notes\": {\"command\": \"x\"}}}\n";
    Files.writeString(file, before);
    String[] args = {
      "config",
      "-url",
      "https://notes.example.org/mcp",
      "-token-env",
      "NOTES_MCP_TOKEN",
      "-host",
      "cursor",
      "--install"
    };

    assertThat(config(args)).isEqualTo(ExitCode.USAGE);
    assertThat(err()).contains("already has an MCP server named \"notes\"");
    assertThat(Files.readString(file)).isEqualTo(before);

    String[] replacing = java.util.Arrays.copyOf(args, args.length + 1);
    replacing[args.length] = "--replace";
    assertThat(config(replacing)).isEqualTo(ExitCode.OK);
    assertThat(WireServer.JSON.readTree(file.toFile()).at("/mcpServers/notes/url").asString())
        .isEqualTo("https://notes.example.org/mcp");
    assertThat(config(replacing)).isEqualTo(ExitCode.OK);
    assertThat(err()).contains("nothing to change: the entry is there already");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "/opt/notes-mcp/bin/notes-mcp|/opt/notes-mcp/bin/notes-mcp",
        "127.0.0.1:8765|127.0.0.1:8765",
        "/home/me/my notes|\"/home/me/my notes\"",
        "/home/me/50%|\"/home/me/50%%\"",
        "/home/me/$HOME|\"/home/me/$$HOME\"",
        "/home/me/a\"b|\"/home/me/a\\\"b\"",
        "/home/me/a\\b|\"/home/me/a\\\\b\"",
        "/home/me/it's|\"/home/me/it's\"",
        "a;b|\"a;b\"",
        "[::1]:8765|\"[::1]:8765\"",
      })
  void aCommandWordIsWrittenAsSystemdReadsItBack(String word, String written) {
    assertThat(SystemdUnit.word(word, true)).isEqualTo(written);
  }

  @Test
  void anEnvironmentAssignmentDoublesPercentButNotDollar() {
    assertThat(SystemdUnit.word("JAVA_HOME=/opt/jdk $1 50%", false))
        .isEqualTo("\"JAVA_HOME=/opt/jdk $1 50%%\"");
    assertThat(SystemdUnit.word("JAVA_HOME=/usr/lib/jvm/java-17", false))
        .isEqualTo("JAVA_HOME=/usr/lib/jvm/java-17");
  }

  @Test
  void aControlCharacterCannotBeWrittenIntoAUnit() {
    assertThatThrownBy(() -> SystemdUnit.word("/home/me/a\nb", true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("\"/home/me/a?b\" holds a control character, which a unit file cannot carry");
  }

  @Test
  void theUnitRunsTheCommandAndHoldsNoTokenFlag() {
    String text =
        SystemdUnit.text(
            List.of(
                "/opt/notes-mcp/bin/notes-mcp",
                "-serve",
                "-root",
                "/home/me/my notes",
                "-http",
                "127.0.0.1:8765",
                "-tokens",
                "/home/me/.config/notes-mcp/tokens.json"),
            Path.of("/opt/notes-mcp/lib/runtime"),
            "127.0.0.1:8765");

    assertThat(text)
        .contains(
            "\nExecStart=/opt/notes-mcp/bin/notes-mcp -serve -root \"/home/me/my notes\" -http"
                + " 127.0.0.1:8765 -tokens /home/me/.config/notes-mcp/tokens.json\n")
        .contains("\nEnvironment=JAVA_HOME=/opt/notes-mcp/lib/runtime\n")
        .contains("\n[Install]\nWantedBy=default.target\n")
        .contains("\nRestartPreventExitStatus=2\n");
  }

  @Test
  void systemdTakesTheHttpFlagsAndNeedsThem() throws UsageException {
    Options options =
        Options.parse(
            List.of(
                "config",
                "-host",
                "systemd",
                "-root",
                "w",
                "-http",
                "127.0.0.1:8765",
                "-tokens",
                "t.json",
                "-max-calls",
                "500"));
    assertThat(options.http().port()).isEqualTo(8765);
    assertThat(options.maxCalls()).isEqualTo(500);
    assertThatThrownBy(() -> Options.parse(List.of("config", "-host", "systemd", "-root", "w")))
        .hasMessageStartingWith("-host systemd writes a unit that keeps -serve -http running");
    assertThatThrownBy(
            () ->
                Options.parse(
                    List.of("config", "-host", "cursor", "-root", "w", "-http", "127.0.0.1:1")))
        .hasMessageContaining("go with -serve only (or with config -host systemd");
    assertThatThrownBy(
            () ->
                Options.parse(
                    List.of(
                        "config",
                        "-host",
                        "systemd",
                        "-root",
                        "w",
                        "-http",
                        "0.0.0.0:8765",
                        "-tokens",
                        "t.json")))
        .hasMessageContaining("needs TLS");
  }

  @Test
  void theUnitOfAnInstalledServerIsWrittenOnceAndRefusedWhenItDiffers() throws IOException {
    Path unit = home.resolve(".config/systemd/user/notes-mcp.service");
    List<Hosts.Edit> edits =
        List.of(
            new Hosts.Edit(
                unit, Hosts.Kind.OWN, null, List.of(), "u", "[Unit]\n", "the systemd user unit"));
    PrintStream errs = new PrintStream(err, true, StandardCharsets.UTF_8);

    assertThat(ConfigCommand.install("systemd", edits, false, errs)).isEqualTo(ExitCode.OK);
    assertThat(Files.readString(unit)).isEqualTo("[Unit]\n");
    assertThat(err())
        .contains(
            "systemctl --user daemon-reload && systemctl --user enable --now notes-mcp.service");
    Files.writeString(unit, "[Unit]\nDescription=mine\n");
    err.reset();
    assertThat(ConfigCommand.install("systemd", edits, false, errs)).isEqualTo(ExitCode.USAGE);
    assertThat(err()).contains("exists and differs from the systemd user unit");
    assertThat(Files.readString(unit)).isEqualTo("[Unit]\nDescription=mine\n");
  }
}

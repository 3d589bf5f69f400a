package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import notesmcp.cli.ExitCode;
import notesmcp.cli.UsageException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigCommandTest {
  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "/opt/notes-mcp/bin/notes-mcp|/opt/notes-mcp/bin/notes-mcp",
        "-serve|-serve",
        "/home/me/my notes|'/home/me/my notes'",
        "it's|'it'\\''s'",
        "a\"b|'a\"b'",
        "$HOME|'$HOME'",
        "=cmd|'=cmd'",
        "~/x|'~/x'",
      })
  void shellQuoteLeavesPlainWordsAndQuotesTheRest(String word, String quoted) {
    assertThat(ConfigCommand.shellQuote(word)).isEqualTo(quoted);
  }

  @Test
  void shellQuoteOfAnEmptyWordIsTwoQuotes() {
    assertThat(ConfigCommand.shellQuote("")).isEqualTo("''");
  }

  @Test
  void withoutALauncherTheCommandIsThisJvmAndItsClassPath() {
    List<String> command = ConfigCommand.command(null, dir);

    assertThat(command.get(0)).endsWith("/bin/java");
    assertThat(command.subList(1, 3)).first().isEqualTo("-cp");
    assertThat(Path.of(command.get(2))).isAbsolute();
    assertThat(command.subList(3, command.size()))
        .containsExactly(Main.class.getName(), "-serve", "-root", dir.toString());
  }

  @Test
  void aMissingExecutableIsNotWrittenIntoTheEntry() {
    List<String> command = ConfigCommand.command(dir.resolve("no-such").toString(), dir);

    assertThat(command.get(0)).endsWith("/bin/java");
  }

  @Test
  void configTakesOnlyItsOwnFlags() {
    for (List<String> args :
        List.of(
            List.of("config", "-root", "w", "-tool", "read_note"),
            List.of("config", "-root", "w", "-serve"),
            List.of("config", "-root", "w", "-max-calls", "3"),
            List.of("config", "-root", "w", "config"))) {
      assertThatThrownBy(() -> Options.parse(args)).isInstanceOf(UsageException.class);
    }
    assertThatThrownBy(() -> Options.parse(List.of("config", "-root", "w", "-serve")))
        .hasMessage(
            "config takes only -root PATH, -host NAME, -policy FILE, -proposals DIR, --name NAME,"
                + " --install and --replace; or -url URL -token-env VAR for a server that runs"
                + " elsewhere; or, with -host systemd, the flags of -serve -http");
    for (String flag : List.of("-host", "--name")) {
      assertThatThrownBy(() -> Options.parse(List.of("-root", "w", flag, "cursor")))
          .hasMessage("-host, --install, --replace and --name go with the config command only");
    }
    assertThatThrownBy(() -> Options.parse(List.of("-root", "w", "--install")))
        .hasMessage("-host, --install, --replace and --name go with the config command only");
  }

  @Test
  void configTakesThePolicyAndTheProposalsFolderForTheEntry() throws UsageException {
    Options options =
        Options.parse(
            List.of("config", "-root", "w", "-policy", "p.json", "-proposals", "d", "--install"));

    assertThat(options.policyFile()).isEqualTo(Path.of("p.json"));
    assertThat(options.proposals()).isEqualTo(Path.of("d"));
    assertThat(options.install()).isTrue();
    assertThat(options.replace()).isFalse();
  }

  @Test
  void replaceWithoutInstallAndABadNameAreUsageErrors() {
    assertThatThrownBy(() -> Options.parse(List.of("config", "-root", "w", "--replace")))
        .hasMessage("--replace goes with --install");
    for (String name : List.of("", "my notes", "a.b", "x".repeat(65), "ü")) {
      assertThatThrownBy(() -> Options.parse(List.of("config", "-root", "w", "--name", name)))
          .hasMessage("--name takes 1 to 64 letters, digits, '-' or '_', not \"" + name + "\"");
    }
  }

  @Test
  void runPrintsNothingOnStdoutForAFileRoot() throws Exception {
    Path file = java.nio.file.Files.writeString(dir.resolve("f"), "x");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Options options = Options.parse(List.of("config", "-root", file.toString()));

    ExitCode code =
        ConfigCommand.run(
            options,
            null,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));

    assertThat(code).isEqualTo(ExitCode.USAGE);
    assertThat(out.size()).isZero();
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("not a usable folder");
  }

  @Test
  void aMissingRootIsSaidInWordsWithoutJavaClassNames() throws Exception {
    Path missing = dir.resolve("missing");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Options options = Options.parse(List.of("config", "-root", missing.toString()));

    ExitCode code =
        ConfigCommand.run(
            options,
            null,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));

    assertThat(code).isEqualTo(ExitCode.USAGE);
    assertThat(out.size()).isZero();
    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "notes-mcp: -root " + missing + ": not a usable folder (no such file or folder)\n");
  }
}

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import notesmcp.mcp.SchemaCheck;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * The paths a person gives on the command line (docs/behaviour.md, "Command line"), run as a person
 * or a host would run them: a workspace, proposals folder and policy file under a name with a
 * character outside ASCII work in every mode whatever the locale, an empty environment included
 * (the launcher gives the JVM a UTF-8 one when the locale has only ASCII); a path whose bytes are
 * not UTF-8, which this program cannot name, is a usage error (exit 2) that names the flag, with no
 * stack trace and nothing created, and so is a link to such a folder, however much a folder with
 * the look-alike name exists; and an empty path is a usage error, never the working directory.
 *
 * <p>Bytes that are not UTF-8 cannot be written in a Java string, so those command lines go through
 * bash, which turns each {@code \xHH} into its byte ({@code printf %b}).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PathArgumentsIT {
  static final String CAFE = "caf\u00e9";

  @TempDir Path dir;
  Path root;
  Path policy;
  Path proposals;

  @BeforeEach
  void setUp() throws Exception {
    Path folder = Files.createDirectory(dir.resolve(CAFE));
    root = Fixtures.workspace(folder);
    policy =
        Files.writeString(
            folder.resolve("polic\u00e9.json"),
            "{\"readable\":[\"notes.txt\"],\"proposable\":[\"draft.txt\"]}",
            StandardCharsets.UTF_8);
    proposals = folder.resolve("propos\u00e9s");
  }

  static Stream<Arguments> asciiOnlyLocales() {
    return Stream.of(
        Arguments.of("LANG=C", Map.of("LANG", "C")),
        Arguments.of("LC_ALL=C over a UTF-8 LANG", Map.of("LC_ALL", "C", "LANG", "C.UTF-8")),
        Arguments.of("LC_ALL=POSIX", Map.of("LC_ALL", "POSIX")),
        Arguments.of("a UTF-8 locale that is not installed", Map.of("LANG", "xx_YY.UTF-8")));
  }

  /** The one-shot client, and through it its server child, reads a note from the café folder. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("asciiOnlyLocales")
  void aNonAsciiWorkspacePolicyAndProposalsFolderWorkInALocaleWithOnlyAscii(
      String how, Map<String, String> locale) throws Exception {
    Run call =
        run(
            locale,
            launcher(),
            "-root",
            root.toString(),
            "-policy",
            policy.toString(),
            "-proposals",
            proposals.toString(),
            "-tool",
            "read_note",
            "-args",
            "{\"path\":\"notes.txt\"}");

    assertThat(call.exit()).as(call.err()).isZero();
    assertThat(WireServer.text(WireServer.JSON.readTree("{\"result\":" + call.out() + "}")))
        .contains("Monday: ship the preview.");
    assertThat(call.err()).doesNotContain("Exception").doesNotContain("\tat ");
    assertThat(proposals).isDirectory();
  }

  /** With no environment at all: serve, review and config, each with the café paths. */
  @Test
  void withNoEnvironmentAtAllServeReviewAndConfigTakeNonAsciiPaths() throws Exception {
    String request =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{"
            + WireServer.META
            + ",\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}}\n";
    Run serve =
        run(
            Map.of(),
            request,
            List.of(
                launcher(),
                "-serve",
                "-root",
                root.toString(),
                "-policy",
                policy.toString(),
                "-proposals",
                proposals.toString()));
    Run review =
        run(
            Map.of(),
            launcher(),
            "review",
            "-root",
            root.toString(),
            "-proposals",
            proposals.toString());
    Run config = run(Map.of(), launcher(), "config", "-root", root.toString());

    assertThat(serve.exit()).as(serve.err()).isZero();
    JsonNode reply = WireServer.JSON.readTree(serve.out());
    assertThat(SchemaCheck.violations(SchemaCheck.MODERN, "CallToolResultResponse", reply))
        .isEmpty();
    assertThat(WireServer.text(reply)).contains("Monday: ship the preview.");
    assertThat(serve.err()).contains("serving " + root.toRealPath() + " on stdio");
    assertThat(review.exit()).as(review.err()).isZero();
    assertThat(review.err()).contains("no pending proposals in " + proposals);
    assertThat(config.exit()).as(config.err()).isZero();
    JsonNode args = WireServer.JSON.readTree(config.out()).at("/mcpServers/notes/args");
    assertThat(args.get(2).asString()).isEqualTo(root.toRealPath().toString());
  }

  /** The JVM run without the launchers, in an ASCII-only locale, says what to change. */
  @Test
  void withoutTheLaunchersAJvmInAnAsciiOnlyLocaleSaysWhichFlagAndWhatToChange() throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(LauncherFlags.read());
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("notesmcp.jar"),
            Main.class.getName(),
            "-serve",
            "-root",
            root.toString()));

    Run serve = run(Map.of("LANG", "C"), "", command);

    assertThat(serve.exit()).isEqualTo(2);
    assertThat(serve.out()).isEmpty();
    assertThat(serve.err())
        .startsWith(
            "notes-mcp: -root \""
                + root.toString().replace("\u00e9", "??")
                + "\": its bytes are not valid US-ASCII, this JVM's file-name encoding (from the"
                + " locale: LC_ALL, LC_CTYPE or LANG); run notes-mcp in a UTF-8 locale")
        .doesNotContain("Exception");
  }

  static Stream<Arguments> pathsThatAreNotUtf8() {
    return Stream.of(
        Arguments.of("-root", List.of("-serve", "-root", "BAD")),
        Arguments.of("-root", List.of("config", "-root", "BAD")),
        Arguments.of("-root", List.of("--root=BAD", "-tool", "list_notes")),
        Arguments.of("-proposals", List.of("-serve", "-root", "ROOT", "-proposals", "BAD/new")),
        Arguments.of("-proposals", List.of("review", "-root", "ROOT", "-proposals", "BAD/new")),
        Arguments.of("-policy", List.of("-serve", "-root", "ROOT", "-policy", "BAD/p.json")),
        Arguments.of("-server-command", List.of("-server-command", "BAD/server -x", "-tool", "t")));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("pathsThatAreNotUtf8")
  void aPathWhoseBytesAreNotUtf8IsAUsageErrorNamingTheFlagAndCreatesNothing(
      String flag, List<String> args) throws Exception {
    Path bad = badFolder();
    String badText = dir.resolve("caf").toString() + "\\xe9";
    List<String> command = new ArrayList<>(List.of(launcher()));
    for (String arg : args) {
      command.add(arg.replace("BAD", badText).replace("ROOT", root.toString()));
    }
    List<String> before = everything();

    Run run = bytes(command);

    assertThat(run.exit()).as(run.err()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .startsWith("notes-mcp: " + flag + " \"" + dir.resolve("caf") + "?")
        .contains(": its bytes are not valid UTF-8, this JVM's file-name encoding")
        .doesNotContain("Exception")
        .doesNotContain("\tat ");
    assertThat(everything()).as("what is on disk after the refusal").isEqualTo(before);
    assertThat(bad).exists();
  }

  /** U+FFFD written as its own UTF-8 bytes is a name like any other, and is served. */
  @Test
  void aFolderNamedWithTheReplacementCharacterItselfIsServed() throws Exception {
    Path replacement = Fixtures.workspace(Files.createDirectory(dir.resolve("caf\uFFFD")));
    String request =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{"
            + WireServer.META
            + ",\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}}\n";

    Run serve =
        run(Map.of(), request, List.of(launcher(), "-serve", "-root", replacement.toString()));

    assertThat(serve.exit()).as(serve.err()).isZero();
    assertThat(WireServer.text(WireServer.JSON.readTree(serve.out())))
        .contains("Monday: ship the preview.");
  }

  /**
   * {@code -root LINK}, where LINK leads to {@code caf\xe9} and a folder {@code caf\uFFFD} holds
   * other notes: that folder is never served (the JVM's text for the real path, encoded again, is
   * its name), nor is a proposals folder made behind such a link.
   */
  @Test
  void aLinkToAFolderWhoseNameIsNotUtf8IsRefusedAndTheLookAlikeIsNeverServed() throws Exception {
    Path bad = badFolder();
    Path lookAlike = Files.createDirectory(dir.resolve("caf\uFFFD"));
    Files.writeString(lookAlike.resolve("notes.txt"), "look-alike\n", StandardCharsets.UTF_8);
    Path link = Files.createSymbolicLink(dir.resolve("link"), bad);
    String request =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{"
            + WireServer.META
            + ",\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}}\n";

    Run serve = run(Map.of(), request, List.of(launcher(), "-serve", "-root", link.toString()));
    Run review =
        run(
            Map.of(),
            launcher(),
            "review",
            "-root",
            root.toString(),
            "-proposals",
            link.resolve("proposals").toString());

    assertThat(serve.exit()).as(serve.err()).isEqualTo(2);
    assertThat(serve.out()).isEmpty();
    assertThat(serve.err())
        .isEqualTo(
            "notes-mcp: -root "
                + link
                + ": not a usable folder (its real path is not valid UTF-8, this JVM's file-name"
                + " encoding)\n");
    assertThat(review.exit()).as(review.err()).isEqualTo(2);
    assertThat(review.err())
        .isEqualTo(
            "notes-mcp: -proposals "
                + link.resolve("proposals")
                + ": cannot be used (its real path is not valid UTF-8, this JVM's file-name"
                + " encoding)\n");
    assertThat(LocalUsers.sh("ls -A \"$(printf %b \"$1\")\"", dir.resolve("caf") + "\\xe9"))
        .as("nothing made behind the link")
        .isEqualTo("notes.txt\nproject.txt\n");
  }

  @Test
  void aRelativePathInAWorkingDirectoryWhoseNameIsNotUtf8IsAUsageError() throws Exception {
    badFolder();
    List<String> command =
        List.of(
            "bash",
            "-c",
            "cd \"$(printf %b \"$1\")\" && shift && exec \"$@\"",
            "bash",
            dir.resolve("caf").toString() + "\\xe9",
            launcher(),
            "-serve",
            "-root",
            ".");

    Run serve = run(Map.of(), "", command);

    assertThat(serve.exit()).as(serve.err()).isEqualTo(2);
    assertThat(serve.err())
        .startsWith(
            "notes-mcp: -root \".\": the working directory's name is not valid UTF-8, this JVM's"
                + " file-name encoding, so a relative path cannot be resolved; give an absolute"
                + " path");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "-serve -root ''",
        "-root '' -tool list_notes",
        "config -root ''",
        "review -root ROOT -proposals ''",
        "-serve -root ROOT --policy=",
      })
  void anEmptyPathIsAUsageErrorAndNeverTheWorkingDirectory(String line) throws Exception {
    List<String> command = new ArrayList<>(List.of(launcher()));
    for (String word : line.split(" ")) {
      command.add(word.equals("''") ? "" : word.replace("ROOT", root.toString()));
    }
    String flag =
        line.contains("proposals") ? "-proposals" : line.contains("policy") ? "-policy" : "-root";

    // The working directory is a workspace: an empty -root must not serve it.
    Run run = run(Map.of(), "", command, root);

    assertThat(run.exit()).as(run.err()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .startsWith(
            "notes-mcp: "
                + flag
                + " needs a path, not an empty word (the working directory is \".\")\n");
  }

  record Run(int exit, String out, String err) {}

  private static String launcher() {
    return WireServer.launcher().toString();
  }

  /** {@code caf\xe9} (Latin-1's é: not UTF-8) in {@code dir}, with the sample notes. */
  private Path badFolder() throws Exception {
    LocalUsers.sh(
        "d=\"$(printf %b \"$1\")\" && mkdir -p \"$d\" && cp \"$2\"/*.txt \"$d/\"",
        dir.resolve("caf").toString() + "\\xe9", root.toString());
    try (Stream<Path> entries = Files.list(dir)) {
      return entries
          .filter(p -> p.getFileName().toString().equals("caf\uFFFD"))
          .filter(p -> Files.isRegularFile(p.resolve("project.txt")))
          .findFirst()
          .orElseThrow();
    }
  }

  /** Runs {@code command} through bash, each argument's {@code \xHH} turned into its byte. */
  private Run bytes(List<String> command) throws Exception {
    List<String> wrapped =
        new ArrayList<>(
            List.of(
                "bash",
                "-c",
                "a=(); for w; do a+=(\"$(printf %b \"$w\")\"); done; exec \"${a[@]}\"",
                "bash"));
    wrapped.addAll(command);
    return run(Map.of(), "", wrapped);
  }

  private Run run(Map<String, String> env, String... command) throws Exception {
    return run(env, "", List.of(command));
  }

  private Run run(Map<String, String> env, String stdin, List<String> command) throws Exception {
    return run(env, stdin, command, dir);
  }

  /** Runs {@code command} in {@code directory} with only {@code env}, no terminal. */
  private Run run(Map<String, String> env, String stdin, List<String> command, Path directory)
      throws Exception {
    List<String> detached = new ArrayList<>(List.of("setsid", "-w"));
    detached.addAll(command);
    Path in = Files.writeString(Files.createTempFile("path-args", ".in"), stdin);
    Path out = Files.createTempFile("path-args", ".out");
    Path err = Files.createTempFile("path-args", ".err");
    try {
      ProcessBuilder builder =
          new ProcessBuilder(detached)
              .directory(directory.toFile())
              .redirectInput(in.toFile())
              .redirectOutput(out.toFile())
              .redirectError(err.toFile());
      builder.environment().clear();
      builder.environment().putAll(env);
      Process process = builder.start();
      assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("%s exits", command).isTrue();
      return new Run(
          process.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.delete(in);
      Files.delete(out);
      Files.delete(err);
    }
  }

  /** Every path under {@code dir}, by its raw name, sorted. */
  private List<String> everything() throws Exception {
    return List.of(LocalUsers.sh("cd \"$1\" && find . | sort", dir.toString()).split("\n"));
  }
}

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What {@code -serve} and {@code review} check before they start, run as a person would run them:
 * options are fully checked before anything is created on disk, so a -proposals DIR that is, or
 * would resolve to, a place inside the workspace is refused without creating any folder, however
 * DIR is spelled ({@code docs/behaviour.md}, "Limits"); and an executable that cannot start fails
 * loudly ({@code docs/behaviour.md}, "Command line"): without its native library, or with a damaged
 * one, the program refuses to serve or review, exit 4, and never crashes the JVM.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StartUpChecksIT {
  @TempDir Path dir;
  private Path root;

  @BeforeEach
  void setUp() throws Exception {
    root = Fixtures.workspace(dir).toRealPath();
    Files.createSymbolicLink(dir.resolve("link-to-workspace"), root);
    Files.createDirectory(dir.resolve("elsewhere"));
  }

  /** How DIR is spelled, relative to {@code dir} (the working directory of the run). */
  static Stream<Arguments> insideTheWorkspace() {
    return Stream.of(
        Arguments.of("absolute, two new levels", "ABS/workspace/new/sub"),
        Arguments.of("relative", "workspace/new/sub"),
        Arguments.of("through a link to the workspace", "link-to-workspace/new/sub"),
        Arguments.of("through a link, absolute", "ABS/link-to-workspace/new"),
        Arguments.of("'..' out of an existing folder", "elsewhere/../workspace/new"),
        Arguments.of("'..' out of a missing folder", "missing/../workspace/new/sub"),
        Arguments.of("'.' and '..' mixed", "./elsewhere/./../link-to-workspace/./new"),
        Arguments.of("the workspace itself, missing child and back", "workspace/new/.."));
  }

  @ParameterizedTest(name = "serve: {0}")
  @MethodSource("insideTheWorkspace")
  void serveRefusesAProposalsFolderInsideTheWorkspaceAndCreatesNothing(String how, String spelled)
      throws Exception {
    assertRefusedCreatingNothing(
        List.of("-serve", "-root", root.toString(), "-proposals"), spelled);
  }

  @ParameterizedTest(name = "review: {0}")
  @MethodSource("insideTheWorkspace")
  void reviewRefusesAProposalsFolderInsideTheWorkspaceAndCreatesNothing(String how, String spelled)
      throws Exception {
    assertRefusedCreatingNothing(
        List.of("review", "-root", root.toString(), "-proposals"), spelled);
  }

  private void assertRefusedCreatingNothing(List<String> args, String spelled) throws Exception {
    String proposals = spelled.replace("ABS", dir.toString());
    List<String> before = everything();
    List<String> command = new ArrayList<>(List.of(WireServer.launcher().toString()));
    command.addAll(args);
    command.add(proposals);

    Launch.Result result = run(command);

    assertThat(result.exit()).as(result.stderr()).isEqualTo(2);
    assertThat(result.stderr())
        .contains("notes-mcp: -proposals " + proposals + ": is inside the workspace " + root)
        .contains("; keep proposals outside it");
    assertThat(result.stdout()).isEmpty();
    assertThat(everything()).as("files and folders after the refusal").isEqualTo(before);
  }

  @Test
  void aProposalsFolderOutsideIsStillCreatedWithItsParents() throws Exception {
    Path proposals = dir.resolve("state/notes-mcp/proposals");

    Launch.Result result =
        run(
            List.of(
                WireServer.launcher().toString(),
                "review",
                "-root",
                "workspace",
                "-proposals",
                "missing/../state/notes-mcp/proposals"));

    assertThat(result.exit()).as(result.stderr()).isZero();
    assertThat(proposals).isDirectory();
    assertThat(dir.resolve("missing")).doesNotExist();
  }

  @Test
  void withoutItsNativeLibraryTheProgramRefusesToServeReviewOrCall() throws Exception {
    // The jar alone, without native/libnotesmcp.so beside it.
    Path lonely = Files.createDirectory(dir.resolve("lonely"));
    Path jar = Files.copy(Path.of(System.getProperty("notesmcp.jar")), lonely.resolve("notes.jar"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String missing = lonely.resolve("native/libnotesmcp.so").toString();

    Launch.Result serve =
        run(List.of(java, "-jar", jar.toString(), "-serve", "-root", root.toString()));
    Launch.Result review =
        run(
            List.of(
                java,
                "-jar",
                jar.toString(),
                "review",
                "-root",
                root.toString(),
                "-proposals",
                dir.resolve("proposals").toString()));
    Launch.Result call =
        run(List.of(java, "-jar", jar.toString(), "-root", root.toString(), "-tool", "list_notes"));
    Path policy = Files.writeString(dir.resolve("policy.json"), "{\"readable\":[\"notes.txt\"]}");
    Launch.Result config =
        run(
            List.of(
                java,
                "-jar",
                jar.toString(),
                "config",
                "-root",
                root.toString(),
                "-policy",
                policy.toString()));

    for (Launch.Result result : List.of(serve, review, config)) {
      assertThat(result.exit()).as(result.stderr()).isEqualTo(4);
      assertThat(result.stdout()).isEmpty();
      assertThat(result.stderr())
          .startsWith("notes-mcp: cannot start: the native library " + missing + " could not be")
          .contains("must sit in native/ beside the jar");
    }
    assertThat(dir.resolve("proposals")).doesNotExist();
    assertThat(call.exit()).as(call.stderr()).isEqualTo(4);
    assertThat(call.stdout()).isEmpty();
    assertThat(call.stderr()).contains("the native library " + missing + " could not be loaded");
  }

  @Test
  void aTruncatedNativeLibraryIsRefusedNamingItWithNoCrashAndNothingOnStdout() throws Exception {
    // A copy of the built tree (the launcher, the jar, native/) whose library is cut in half: a
    // JVM that maps it dies of SIGBUS, prints its crash banner on stdout and leaves hs_err files.
    Path tree = Files.createDirectory(dir.resolve("tree"));
    Path target = Files.createDirectories(tree.resolve("notes-app/target/native")).getParent();
    Files.copy(WireServer.launcher(), tree.resolve("notes-mcp"));
    Path built = Path.of(System.getProperty("notesmcp.jar"));
    Files.copy(built, target.resolve("notes-mcp.jar"));
    byte[] library = Files.readAllBytes(built.resolveSibling("native/libnotesmcp.so"));
    Path truncated =
        Files.write(
            target.resolve("native/libnotesmcp.so"),
            java.util.Arrays.copyOf(library, library.length / 2));
    String launcher = tree.resolve("notes-mcp").toString();

    List<Launch.Result> results =
        List.of(
            run(
                List.of(
                    "env", "NOTES_MCP_NO_CACHE=1", launcher, "-serve", "-root", root.toString())),
            run(
                List.of(
                    "env",
                    "NOTES_MCP_NO_CACHE=1",
                    launcher,
                    "review",
                    "-root",
                    root.toString(),
                    "-proposals",
                    dir.resolve("proposals").toString())),
            run(
                List.of(
                    "env",
                    "NOTES_MCP_NO_CACHE=1",
                    launcher,
                    "-root",
                    root.toString(),
                    "-tool",
                    "list_notes")));

    for (Launch.Result result : results) {
      assertThat(result.exit()).as(result.stderr()).isEqualTo(4);
      assertThat(result.stdout()).isEmpty();
      assertThat(result.stderr())
          .contains(
              "the native library "
                  + truncated
                  + " could not be loaded (it is damaged or not the one built with this program:"
                  + " CRC-32 and size ")
          .contains(" " + library.length / 2 + ", the build recorded ")
          .doesNotContain("fatal error")
          .doesNotContain("SIGBUS");
    }
    try (Stream<Path> all = Files.walk(dir)) {
      assertThat(all.map(p -> p.getFileName().toString()))
          .as("no JVM crash file anywhere")
          .noneMatch(name -> name.startsWith("hs_err"));
    }
    assertThat(dir.resolve("proposals")).doesNotExist();
  }

  /** Runs {@code command} in {@code dir}, with no terminal and nothing on stdin. */
  private Launch.Result run(List<String> command) throws Exception {
    List<String> detached = new ArrayList<>(List.of("setsid", "-w"));
    detached.addAll(command);
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    Process process =
        new ProcessBuilder(detached)
            .directory(dir.toFile())
            .redirectInput(new File("/dev/null"))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("exited").isTrue();
    Launch.Result result =
        new Launch.Result(
            process.exitValue(),
            Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
    Files.delete(out);
    Files.delete(err);
    return result;
  }

  /** Every path under {@code dir}, sorted, the runs' own output files aside. */
  private List<String> everything() throws Exception {
    try (Stream<Path> all = Files.walk(dir)) {
      return all.map(p -> dir.relativize(p).toString()).sorted().toList();
    }
  }
}

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a new user meets first (issue 10, part 5): {@code ./notes-mcp} in a checkout with no {@code
 * target/} builds the program and says so on stderr, in plain text (no terminal escape codes from
 * Maven); and a built checkout that is copied ({@code cp -a}) or moved starts without a single
 * start-up-cache warning from the JVM (the launcher sees that its cache was made for the jar at
 * another path and makes a new one).
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class FirstUseIT {
  @TempDir static Path dir;
  static Path checkout;
  static ClientIT.Run firstUse;

  /** A checkout's sources, without any build output, then its first use. */
  @BeforeAll
  static void firstUse() throws Exception {
    Path repo = Path.of(System.getProperty("notesmcp.repo"));
    checkout = dir.resolve("checkout");
    for (String path :
        List.of(
            "pom.xml",
            "notes-mcp",
            "examples",
            "notes-policy/pom.xml",
            "notes-policy/src",
            "mcp-stdio/pom.xml",
            "mcp-stdio/src",
            "notes-app/pom.xml",
            "notes-app/src/main",
            // The reactor reads every module's pom, even of modules the launcher does not build.
            "interop/spring-ai/pom.xml",
            "notes-chat/pom.xml",
            "notes-bench/pom.xml")) {
      copyTree(repo.resolve(path), checkout.resolve(path));
    }
    firstUse = run(checkout.resolve("notes-mcp"), "--version");
  }

  @Test
  void theFirstUseBuildSaysWhatItDoesInPlainText() {
    assertThat(firstUse.exit()).as(firstUse.err()).isZero();
    assertThat(firstUse.out()).isEqualTo("notes-mcp " + Version.VALUE + "\n");
    assertThat(firstUse.err()).contains("first run, building").doesNotContain("\u001b");
    assertThat(checkout.resolve("notes-app/target/notes-mcp.jar")).isRegularFile();
  }

  @Test
  void aCopiedOrMovedCheckoutStartsWithoutStartUpCacheWarnings() throws Exception {
    assertThat(firstUse.exit()).as(firstUse.err()).isZero();
    Path copy = dir.resolve("copy of checkout");
    exec("cp", "-a", checkout.toString(), copy.toString());
    assertStartsCleanly(copy);
    Path moved = dir.resolve("moved");
    exec("mv", copy.toString(), moved.toString());
    assertStartsCleanly(moved);
  }

  /** Two one-shot calls: the first may remake the cache (and say so), neither warns. */
  private static void assertStartsCleanly(Path checkout) throws Exception {
    for (int time = 1; time <= 2; time++) {
      ClientIT.Run run =
          run(
              checkout.resolve("notes-mcp"),
              "-root",
              checkout.resolve("examples/workspace").toString(),
              "-tool",
              "read_note",
              "-args",
              "{\"path\":\"notes.txt\"}");
      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.err())
          .as("start %d in %s", time, checkout)
          .doesNotContainIgnoringCase("warning")
          .doesNotContain("shared archive")
          .doesNotContain("[cds")
          .doesNotContain("\u001b");
      if (time == 2) {
        assertThat(run.err()).doesNotContain("preparing the JVM start-up cache");
      }
    }
  }

  private static ClientIT.Run run(Path launcher, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(launcher.toString()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    Process process =
        new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    assertThat(process.waitFor(480, TimeUnit.SECONDS)).as("%s finishes", command).isTrue();
    return new ClientIT.Run(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private static void exec(String... command) throws Exception {
    Process process = new ProcessBuilder(command).inheritIO().start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(String.join(" ", command)).isZero();
  }

  /** Copies a file or a folder (without any target/ inside it), keeping the executable bit. */
  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        Path relative = from.relativize(path);
        if (relative.toString().equals("target") || relative.startsWith("target")) {
          continue;
        }
        Path target = relative.toString().isEmpty() ? to : to.resolve(relative.toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          Files.copy(path, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }
}

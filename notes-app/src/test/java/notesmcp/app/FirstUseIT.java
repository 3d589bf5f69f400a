package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import notesmcp.cli.Version;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a new user meets first (README, "Install" and "Tests"): {@code ./notes-mcp} in a checkout
 * with no {@code target/} builds the program and says so on stderr, in plain text (no terminal
 * escape codes from Maven); and a built checkout that is copied ({@code cp -a}) or moved starts
 * without a single start-up-cache warning from the JVM (the launcher sees that its cache was made
 * for the jar at another path and makes a new one).
 *
 * <p>The first-use builds ({@code --version}: notes-app; {@code chat}: notes-chat) run as on a
 * fresh machine: in a copy of the sources without the test fixtures (no {@code interop/}: a reactor
 * that still named {@code interop/spring-ai}, with its Spring Boot parent, would stop at once on
 * the missing module), and with a local Maven repository that holds everything but this project's
 * own artifacts (so nothing an earlier {@code mvn install} left there can stand in for what the
 * build must make itself, such as notes-app's test jar that notes-chat's build reads).
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class FirstUseIT {
  @TempDir static Path dir;
  static Path checkout;
  static Path repository;
  static ClientIT.Run firstUse;
  static ClientIT.Run chatFirstUse;

  /** A checkout's sources, without any build output or test fixture, then its first uses. */
  @BeforeAll
  static void firstUse() throws Exception {
    Path repo = Path.of(System.getProperty("notesmcp.repo"));
    checkout = dir.resolve("checkout");
    for (String path :
        List.of(
            "pom.xml",
            // Maven's own settings for this project (its JVM flags), as a clone has them.
            ".mvn",
            "notes-mcp",
            "examples",
            "untrusted-text/pom.xml",
            "untrusted-text/src",
            "notes-cli/pom.xml",
            "notes-cli/src",
            "notes-policy/pom.xml",
            "notes-policy/src",
            "mcp-stdio/pom.xml",
            "mcp-stdio/src",
            "notes-app/pom.xml",
            "notes-app/src/main",
            // search_notes' engine is built with the program (the launcher's first build).
            "notes-search/pom.xml",
            "notes-search/src/main",
            "notes-chat/pom.xml",
            "notes-chat/src/main",
            // The reactor reads every module's pom, even of modules the launcher does not build.
            "notes-dist/pom.xml",
            "notes-markdown/pom.xml",
            "notes-bench/pom.xml")) {
      copyTree(repo.resolve(path), checkout.resolve(path));
    }
    repository = withoutOwnArtifacts(Path.of(System.getProperty("notesmcp.m2")));
    firstUse = run(checkout.resolve("notes-mcp"), "--version");
    chatFirstUse = run(checkout.resolve("notes-mcp"), "chat", "--help");
  }

  /**
   * A local repository of links to every group folder of {@code m2}, less {@code
   * io/github/notesmcp}. What a build downloads into it lands in {@code m2}'s folders, as usual.
   */
  private static Path withoutOwnArtifacts(Path m2) throws IOException {
    Path own = Path.of("io", "github", "notesmcp");
    Path farm = dir.resolve("m2");
    link(m2, farm, own, 0);
    return farm;
  }

  private static void link(Path from, Path to, Path skip, int depth) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> entries = Files.list(from)) {
      for (Path entry : (Iterable<Path>) entries::iterator) {
        Path name = entry.getFileName();
        if (depth < skip.getNameCount() && name.equals(skip.getName(depth))) {
          if (depth + 1 < skip.getNameCount()) {
            link(entry, to.resolve(name.toString()), skip, depth + 1);
          }
        } else {
          Files.createSymbolicLink(to.resolve(name.toString()), entry);
        }
      }
    }
  }

  @Test
  void theFirstUseBuildSaysWhatItDoesInPlainText() {
    assertThat(firstUse.exit()).as(firstUse.err()).isZero();
    assertThat(firstUse.out()).isEqualTo("notes-mcp " + Version.VALUE + "\n");
    assertThat(firstUse.err()).contains("first run, building").doesNotContain("\u001b");
    assertThat(checkout.resolve("notes-app/target/notes-mcp.jar")).isRegularFile();
    assertThat(checkout.resolve("interop")).doesNotExist();
  }

  /**
   * Under umask 000, the first-use builds, the start-up cache and their locks leave nothing that
   * another user could change: the jar is code this user runs (docs/packaging.md, "The start-up
   * cache").
   */
  @Test
  void underUmask000TheFirstUseBuildLeavesNothingThatOthersCanWrite() throws Exception {
    assertThat(firstUse.exit()).as(firstUse.err()).isZero();
    assertThat(chatFirstUse.exit()).as(chatFirstUse.err()).isZero();
    assertThat(LocalUsers.ownerAndMode(checkout.resolve(".build.lock"))).endsWith(" 600");
    Map<String, String> built = LocalUsers.ownersAndModes(checkout.resolve("notes-app/target"));
    assertThat(built).containsKey("jvm-cache").containsKey("notes-mcp.jar");
    Map<String, String> chat = LocalUsers.ownersAndModes(checkout.resolve("notes-chat/target"));
    assertThat(chat).containsKey("chat");
    Map<String, String> search = LocalUsers.ownersAndModes(checkout.resolve("notes-search/target"));
    assertThat(search).containsKey("search");
    for (String module : List.of("notes-app", "notes-chat", "notes-search")) {
      Path target = checkout.resolve(module).resolve("target");
      for (Map.Entry<String, String> entry : LocalUsers.ownersAndModes(target).entrySet()) {
        if (!Files.isSymbolicLink(target.resolve(entry.getKey()))) {
          assertThat(entry.getValue())
              .as(module + "/target/" + entry.getKey())
              .matches("\\d+ [0-7]?[0-7][0145][0145]");
        }
      }
    }
  }

  /**
   * A clone holds the test sources too (the copy has them for untrusted-text, notes-cli,
   * notes-policy and mcp-stdio); the first-use builds compile none of them, which the program never
   * needs (docs/packaging.md, "Where in the build").
   */
  @Test
  void theFirstUseBuildsCompileNoTestSources() {
    assertThat(firstUse.exit()).as(firstUse.err()).isZero();
    assertThat(chatFirstUse.exit()).as(chatFirstUse.err()).isZero();
    for (String module : List.of("untrusted-text", "notes-cli", "notes-policy", "mcp-stdio")) {
      assertThat(checkout.resolve(module + "/src/test/java")).isDirectory();
      assertThat(checkout.resolve(module + "/target/classes")).isDirectory();
      assertThat(checkout.resolve(module + "/target/test-classes")).doesNotExist();
    }
  }

  @Test
  void theChatModesFirstUseBuildsItFromTheSourcesAlone() {
    assertThat(chatFirstUse.exit()).as(chatFirstUse.err()).isZero();
    assertThat(chatFirstUse.out()).startsWith("notes-mcp chat: ");
    assertThat(chatFirstUse.err())
        .contains("first run, building the chat mode")
        .doesNotContain("\u001b");
    assertThat(checkout.resolve("notes-chat/target/chat/notes-chat-" + Version.VALUE + ".jar"))
        .isRegularFile();
    assertThat(repository.resolve("io/github/notesmcp")).doesNotExist();
  }

  @Test
  void aCopiedOrMovedCheckoutInAFolderWhoseNameHoldsANewlineMakesItsCacheOnceWithoutWarnings()
      throws Exception {
    assertThat(firstUse.exit()).as(firstUse.err()).isZero();
    // A newline in the name: the launcher's record of where its cache was made is read whole.
    Path copy = dir.resolve("copy of\ncheckout");
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

  /** Runs the launcher under umask 000: what it and its build make must not depend on it. */
  private static ClientIT.Run run(Path launcher, String... args) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of("bash", "-c", "umask 000 && exec \"$@\"", "bash", launcher.toString()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    // The launcher keeps what MAVEN_OPTS holds and adds its own.
    builder.environment().put("MAVEN_OPTS", "-Dmaven.repo.local=" + repository);
    Process process = builder.start();
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

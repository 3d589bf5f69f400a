package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The files the checkout launcher keeps for itself in {@code notes-app/target/jvm-cache}
 * (docs/packaging.md, "The start-up cache"): the remembered JVM ({@code java/NAME}), a cache's lock
 * and the cache's own files. Another process of the same user that puts a FIFO, a link or a folder
 * in place of one makes the launcher neither wait (a shell's redirection from or to a FIFO waits
 * for ever for the other end) nor follow it: it starts, makes again what it needs, and answers.
 *
 * <p>The checkout is a copy of this one's program (the jar, its native library, the training input
 * and workspace, the launcher); each test leaves it with a complete cache.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class LauncherFilesIT {
  @TempDir static Path dir;
  static Path checkout;
  static Path caches;

  @BeforeAll
  static void copyTheProgramAndRunItOnce() throws Exception {
    Path repo = Path.of(System.getProperty("notesmcp.repo"));
    checkout = dir.resolve("checkout");
    for (String path :
        List.of(
            "notes-mcp",
            "notes-app/target/notes-mcp.jar",
            "notes-app/target/native/libnotesmcp.so",
            "notes-app/src/main/jvm-cache/training.jsonl",
            "examples/workspace/notes.txt",
            "examples/workspace/project.txt")) {
      Path to = checkout.resolve(path);
      Files.createDirectories(to.getParent());
      Files.copy(repo.resolve(path), to, StandardCopyOption.COPY_ATTRIBUTES);
    }
    caches = checkout.resolve("notes-app/target/jvm-cache");
    ClientIT.Run first = run();
    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(first.err()).contains("preparing the JVM start-up cache");
  }

  /** The one cache folder (one JVM runs the tests). */
  private static Path cache() throws Exception {
    try (Stream<Path> folders = Files.list(caches)) {
      return folders
          .filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
          .filter(p -> !p.endsWith("java"))
          .findFirst()
          .orElseThrow();
    }
  }

  /**
   * The remembered JVM's file; written by a start again when a test before emptied jvm-cache (as
   * the launcher does when it finds there what it does not trust).
   */
  private static Path remembered() throws Exception {
    if (!Files.isDirectory(caches.resolve("java"))) {
      assertThat(run().exit()).isZero();
    }
    try (Stream<Path> files = Files.list(caches.resolve("java"))) {
      return files.findFirst().orElseThrow();
    }
  }

  private static void replace(Path path, String kind) throws Exception {
    if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
      try (Stream<Path> all = Files.walk(path)) {
        for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    } else {
      Files.deleteIfExists(path);
    }
    switch (kind) {
      case "fifo" ->
          assertThat(new ProcessBuilder("mkfifo", path.toString()).start().waitFor()).isZero();
      case "link" ->
          Files.createSymbolicLink(
              path, Files.writeString(dir.resolve("elsewhere-" + path.getFileName()), "kept\n"));
      case "folder" -> Files.createDirectory(path);
      default -> {
        // removed only
      }
    }
  }

  /**
   * The remembered JVM's file replaced: read only when it is a regular file (a FIFO would make
   * every start wait for ever), it is resolved again and written anew.
   */
  @ParameterizedTest
  @ValueSource(strings = {"fifo", "link", "folder"})
  void aFifoALinkOrAFolderInPlaceOfTheRememberedJvmIsNeitherReadNorFollowed(String kind)
      throws Exception {
    Path remembered = remembered();
    replace(remembered, kind);

    ClientIT.Run run = run();

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).startsWith("notes-mcp ");
    assertThat(run.err()).doesNotContainIgnoringCase("warning");
    assertThat(remembered).isRegularFile();
    assertThat(Files.isSymbolicLink(remembered)).isFalse();
    if (kind.equals("link")) {
      assertThat(dir.resolve("elsewhere-" + remembered.getFileName())).hasContent("kept");
    }
  }

  /**
   * A cache's lock replaced while the cache must be made again: removed and made anew (a FIFO's
   * open for writing would wait for ever for a reader), never written or chmod'ed through a link.
   */
  @ParameterizedTest
  @ValueSource(strings = {"fifo", "link", "folder"})
  void aFifoALinkOrAFolderInPlaceOfTheCachesLockIsRemovedAndTheCacheMade(String kind)
      throws Exception {
    Path cache = cache();
    Path lock = cache.resolveSibling(cache.getFileName() + ".lock");
    replace(cache.resolve("made-for"), "none");
    replace(lock, kind);

    ClientIT.Run run = run();

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.err())
        .contains("preparing the JVM start-up cache")
        .doesNotContain("running without");
    assertThat(lock).isRegularFile();
    assertThat(cache.resolve("made-for")).isRegularFile();
    if (kind.equals("link")) {
      Path elsewhere = dir.resolve("elsewhere-" + lock.getFileName());
      assertThat(elsewhere).hasContent("kept");
    }
  }

  /** A FIFO in place of one of the cache's archives: the cache is made again, nothing waits. */
  @Test
  void aFifoInPlaceOfAnArchiveMakesTheCacheAgain() throws Exception {
    Path archive;
    try (Stream<Path> files = Files.list(cache())) {
      archive =
          files.filter(f -> f.getFileName().toString().startsWith("server.")).findFirst().get();
    }
    replace(archive, "fifo");

    ClientIT.Run run = run();

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.err()).contains("preparing the JVM start-up cache");
    assertThat(archive).isRegularFile();
  }

  /** {@code notes-mcp --version} in the copy; killed when it does not end within two minutes. */
  private static ClientIT.Run run() throws Exception {
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    List<String> command = new ArrayList<>(List.of(checkout.resolve("notes-mcp").toString()));
    command.add("--version");
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    process.getOutputStream().close();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      throw new AssertionError(command + " did not end; stderr:\n" + Files.readString(err));
    }
    return new ClientIT.Run(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}

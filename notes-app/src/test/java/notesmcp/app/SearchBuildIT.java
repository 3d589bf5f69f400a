package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code search_notes}' index built before anyone asks, against the real executable
 * (docs/behaviour.md, "search_notes"): a server under a policy that offers search and finds no kept
 * index starts {@code notes-mcp index} at a low priority as it starts; a search before the build
 * ends is answered by its deadline, with a scan's hits or with how far along the build is; a
 * one-shot client neither waits for the build nor stops it; a restart answers from the kept index;
 * {@code notes-mcp index} shows its progress on a terminal only. Every reply is checked against the
 * official schema ({@link WireServer}).
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class SearchBuildIT {
  /** Notes of the large vault: enough text that a build lasts seconds at a low priority. */
  private static final int NOTES = 2000;

  @TempDir static Path shared;
  private static Path big;
  private static Path bigPolicy;

  @TempDir Path dir;

  @BeforeAll
  static void largeVault() throws IOException {
    big = Files.createDirectory(shared.resolve("big"));
    Random random = new Random(7);
    String[] words = {"kite", "paper", "wind", "river", "stone", "garden", "lamp", "north"};
    for (int n = 0; n < NOTES; n++) {
      StringBuilder text = new StringBuilder(n == 1234 ? "the quixotic plan\n" : "");
      while (text.length() < 12_000) {
        text.append(words[random.nextInt(words.length)]).append(random.nextInt(1000)).append(' ');
      }
      Files.writeString(big.resolve("n" + n + ".md"), text);
    }
    bigPolicy = shared.resolve("big-policy.json");
    Files.writeString(
        bigPolicy, "{\"readable\":[\"*.md\"],\"maxNoteBytes\":65536,\"maxCalls\":100000}");
  }

  private Path cache(String name) throws IOException {
    return Files.createDirectory(dir.resolve(name));
  }

  /** The builder a server starts: {@code notes-mcp index -root ROOT} (not the scan child). */
  private static List<ProcessHandle> builders(Path root) throws IOException {
    String part = " index -root " + root.toRealPath();
    return ProcessHandle.allProcesses()
        .filter(p -> p.isAlive() && p.info().commandLine().map(c -> c.contains(part)).orElse(false))
        .toList();
  }

  /**
   * How long a build may take here: it runs at a low priority, so on a machine busy with other work
   * it gets little of the cores.
   */
  private static final Duration BUILD = Duration.ofSeconds(400);

  private static void awaitNoBuilder(Path root) throws Exception {
    long deadline = System.nanoTime() + BUILD.toNanos();
    while (!builders(root).isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(builders(root)).as("builds left running after " + BUILD).isEmpty();
  }

  /** The one index folder under {@code cache}, once a build has made it; null before. */
  private static Path indexFolder(Path cache) throws IOException {
    Path search = cache.resolve("notes-mcp").resolve("search");
    if (!Files.isDirectory(search)) {
      return null;
    }
    try (var folders = Files.list(search)) {
      return folders.findFirst().orElse(null);
    }
  }

  private static boolean hasSegments(Path cache) throws IOException {
    Path folder = indexFolder(cache);
    if (folder == null) {
      return false;
    }
    try (var files = Files.list(folder)) {
      return files.anyMatch(f -> f.getFileName().toString().startsWith("segments_"));
    }
  }

  /** A server of {@code root} under {@code policy}, its index kept in {@code cache}. */
  private static WireServer server(Path root, Path policy, Path cache) throws IOException {
    return WireServer.start(
            root, Map.of("XDG_CACHE_HOME", cache.toString()), "-policy", policy.toString())
        .patient(Duration.ofSeconds(120));
  }

  @Test
  void aServerUnderAPolicyKeepsAnIndexSecondsAfterItStartsWithoutAnySearch() throws Exception {
    Path root = Files.createDirectory(dir.resolve("workspace"));
    for (int i = 0; i < 30; i++) {
      Files.writeString(root.resolve("note-" + i + ".md"), "note " + i + " about zorblax\n");
    }
    Path policy =
        Files.writeString(
            dir.resolve("policy.json"), "{\"readable\":[\"*.md\"],\"maxCalls\":100000}");
    Path cache = cache("cache");
    try (WireServer server = server(root, policy, cache)) {
      // No request at all: the build starts as the server starts.
      long deadline = System.nanoTime() + BUILD.toNanos();
      while (!hasSegments(cache) && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(hasSegments(cache)).as("a kept index, with no tool call made").isTrue();
      server.patient(BUILD).awaitStderr("notes-mcp: search: index built by a child process in");
      assertThat(SearchNotesIT.paths(SearchNotesIT.hits(server, "{\"query\":\"zorblax\"}")))
          .hasSize(10);
      server.closeInputAndWait();
      assertThat(server.stderr())
          .contains("up to date: 30 notes read and indexed in")
          .doesNotContain("ranked by a scan");
    }
  }

  /**
   * A search made while the index is built, with a deadline shorter than any scan of this vault
   * ({@code TestMain --search-within 1}: the tool's own is 5 s), is answered at once with how far
   * along the build is; the scan that search started goes on, and the same search made again gets
   * its hits; once the build ends, the index answers; a restart answers from the kept index without
   * a build or a scan. The builder runs at niceness 10.
   */
  @Test
  void aSearchWhileTheIndexIsBuiltIsAnsweredByItsDeadlineWithHowFarAlongTheBuildIs()
      throws Exception {
    Path cache = cache("cache");
    List<String> command =
        TestMain.command(
            "--search-within",
            "1",
            "-serve",
            "-root",
            big.toString(),
            "-policy",
            bigPolicy.toString());
    ProcessBuilder start = new ProcessBuilder(command);
    start.environment().put("XDG_CACHE_HOME", cache.toString());
    start
        .environment()
        .put(
            SearchModule.FOLDER_ENV,
            WireServer.launcher().getParent().resolve("notes-search/target/search").toString());
    try (WireServer server = WireServer.startProcess(start).patient(Duration.ofSeconds(120))) {
      // The builder, started as the server started, at niceness 10.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (builders(big).isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      List<ProcessHandle> running = builders(big);
      assertThat(running).as("the builder").hasSize(1);
      if (Files.isExecutable(Path.of("/usr/bin/nice"))) {
        assertThat(niceness(running.get(0).pid())).as("the builder's niceness").isEqualTo(10);
      }

      JsonNode reply = server.call("search_notes", "{\"query\":\"quixotic\"}");
      assertThat(WireServer.isError(reply)).as(reply.toString()).isTrue();
      assertThat(WireServer.text(reply))
          .matches(
              "the search index is still being built: (it is starting|[0-9,]+ of 2,000 notes"
                  + " indexed(, about [0-9]+ (s|min) left|, the index being written)?);"
                  + " search again shortly");

      server.awaitStderr("notes-mcp: search: a search ranked by a scan in ");
      assertThat(SearchNotesIT.paths(SearchNotesIT.hits(server, "{\"query\":\"quixotic\"}")))
          .as("the same search again: the scan it started")
          .containsExactly("n1234.md");

      server.patient(BUILD).awaitStderr("notes-mcp: search: index built by a child process in");
      assertThat(SearchNotesIT.paths(SearchNotesIT.hits(server, "{\"query\":\"quixotic\"}")))
          .containsExactly("n1234.md");
      server.closeInputAndWait();
    }
    try (WireServer server = server(big, bigPolicy, cache)) {
      JsonNode reply = server.call("search_notes", "{\"query\":\"quixotic\"}");
      assertThat(WireServer.isError(reply)).as(reply.toString()).isFalse();
      assertThat(SearchNotesIT.paths(WireServer.JSON.readTree(WireServer.text(reply)).get("hits")))
          .containsExactly("n1234.md");
      server.closeInputAndWait();
      assertThat(server.stderr())
          .doesNotContain("child process")
          .doesNotContain("ranked by a scan")
          .doesNotContain("indexed");
    }
  }

  /** The nice value of process {@code pid}, from /proc/PID/stat (its 19th field). */
  private static int niceness(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.US_ASCII);
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Integer.parseInt(fields[16]);
  }

  /**
   * A one-shot client's read is answered (its server may exit before it has begun a build, which a
   * server that exits at once never waits for); a one-shot search is answered within the client's
   * deadline, with hits or with how far along the build is, and the build it started goes on after
   * the client has exited and keeps the index: the next one-shot search is answered from it.
   */
  @Test
  void oneShotClientsAreAnsweredAndTheBuildGoesOnAfterThem() throws Exception {
    Path cache = cache("cache");
    Run read =
        launcher(
            cache,
            "-root",
            big.toString(),
            "-policy",
            bigPolicy.toString(),
            "-tool",
            "read_note",
            "-args",
            "{\"path\":\"n7.md\"}");
    assertThat(read.exit()).as(read.err()).isZero();
    assertThat(WireServer.JSON.readTree(read.out()).at("/content/0/text").asString())
        .contains(Files.readString(big.resolve("n7.md")).substring(0, 100));
    awaitNoBuilder(big);

    Path fresh = cache("fresh");
    Run search = search(fresh);
    assertThat(search.exit()).as(search.err()).isIn(0, 1);
    String text = WireServer.JSON.readTree(search.out()).at("/content/0/text").asString();
    if (search.exit() == 1) {
      assertThat(text).startsWith(SearchNotesIT.STILL_BUILDING);
    } else {
      assertThat(text).contains("n1234.md");
    }
    awaitNoBuilder(big);
    assertThat(hasSegments(fresh)).as("the index the build kept").isTrue();
    Run again = search(fresh);
    assertThat(again.exit()).as(again.err()).isZero();
    assertThat(again.out()).contains("n1234.md");
    assertThat(builders(big)).as("no build: the index is kept").isEmpty();
  }

  private Run search(Path cache) throws Exception {
    return launcher(
        cache,
        "-root",
        big.toString(),
        "-policy",
        bigPolicy.toString(),
        "-tool",
        "search_notes",
        "-args",
        "{\"query\":\"quixotic\"}");
  }

  /**
   * {@code notes-mcp index}: on a terminal (a pseudo-terminal made by {@code script}), its progress
   * line rewritten in place and its final line; piped, the final line only.
   */
  @Test
  void theIndexModeShowsItsProgressOnATerminalOnly() throws Exception {
    Run piped =
        launcher(cache("piped"), "index", "-root", big.toString(), "-policy", bigPolicy.toString());
    assertThat(piped.exit()).as(piped.err()).isZero();
    assertThat(piped.out()).isEmpty();
    assertThat(piped.err())
        .doesNotContain("\r")
        .doesNotContain("notes-mcp: indexing")
        .contains("up to date: " + NOTES + " notes read and indexed in");

    Path cache = cache("terminal");
    String inner =
        String.join(
            " ",
            quoted(WireServer.launcher().toString()),
            "index",
            "-root",
            quoted(big.toString()),
            "-policy",
            quoted(bigPolicy.toString()));
    ProcessBuilder script = new ProcessBuilder("script", "-qfc", inner, "/dev/null");
    script.environment().put("XDG_CACHE_HOME", cache.toString());
    Path out = dir.resolve("terminal.txt");
    Process process =
        script
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectErrorStream(true)
            .start();
    assertThat(process.waitFor(300, TimeUnit.SECONDS)).isTrue();
    String shown = Files.readString(out, StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as(shown).isZero();
    assertThat(shown)
        .contains("notes-mcp: indexing: ")
        .containsPattern("notes-mcp: indexing: [0-9,]+ of 2,000 notes[^\r\n]*\r")
        .contains("up to date: " + NOTES + " notes read and indexed in");
    // The progress line is cleared (blanks over it) before the final line is written over it.
    assertThat(shown).containsPattern(" +\rnotes-mcp: search index of ");
  }

  private static String quoted(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }

  /** One run of the launcher, with its index kept in {@code cache}. */
  private record Run(int exit, String out, String err) {}

  private Run launcher(Path cache, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(WireServer.launcher().toString()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    builder.environment().put("XDG_CACHE_HOME", cache.toString());
    Process process = builder.start();
    assertThat(process.waitFor(300, TimeUnit.SECONDS)).as("it finishes").isTrue();
    return new Run(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}

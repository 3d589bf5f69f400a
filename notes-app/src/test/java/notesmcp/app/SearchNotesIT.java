package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code search_notes} against the real executable (docs/behaviour.md, "search_notes"): every reply
 * checked against the official schema by {@link WireServer}. The engine's module (notes-search) is
 * built before notes-app, so the launcher finds it.
 */
class SearchNotesIT {
  private static final int NOTES = 30;

  @TempDir Path dir;
  private Path root;
  private Path cache;
  private Path policy;

  @BeforeEach
  void vault() throws IOException {
    root = Files.createDirectory(dir.resolve("workspace"));
    cache = Files.createDirectory(dir.resolve("cache"));
    for (int i = 0; i < NOTES; i++) {
      String name = String.format("note-%02d.md", i);
      Files.writeString(
          root.resolve(name), "# Note " + i + "\n\nOrdinary words about gardens and kites.\n");
    }
    write("note-00.md", "# Trip\n\nWe met at the Café Crème in Zürich; zorblax was on the menu.\n");
    write("note-01.md", "Shopping: paper kite, string, glue.\nAlso zorblax.\n");
    write("note-02.md", "The kite paper was torn; no phrase here.\n");
    write("note-03.md", "ZORBLAX in capitals, and a naïve résumé.\n");
    // Readable by the file system, not by the policy: never a hit.
    Files.writeString(root.resolve("secret.md"), "zorblax secret note outside the policy\n");
    writePolicy(true);
  }

  private void write(String name, String text) throws IOException {
    Files.writeString(root.resolve(name), text, StandardCharsets.UTF_8);
  }

  /** The policy file, with {@code "search": search}, or without the key when it is null. */
  private void writePolicy(Boolean search) throws IOException {
    // A pattern, as a vault's policy file has: the notes' structure is known (docs/knowledge.md).
    policy = dir.resolve("policy.json");
    Files.writeString(
        policy,
        "{\"readable\":[\"note-*.md\""
            + "],\"proposable\":[],\"maxNoteBytes\":65536,\"maxCalls\":100000"
            + (search == null ? "" : ",\"search\":" + search)
            + "}");
  }

  private WireServer server() throws IOException {
    // The first search loads the engine's module and builds the index: on a busy machine that
    // takes longer than the usual wait for a response.
    return WireServer.start(
            root, Map.of("XDG_CACHE_HOME", cache.toString()), "-policy", policy.toString())
        .patient(java.time.Duration.ofSeconds(120));
  }

  /** What a search answers while the index is built and no scan could answer it in time. */
  static final String STILL_BUILDING = "the search index is still being built: ";

  /**
   * The hits of a search, searched again while the answer is that the index is still being built
   * (as that answer asks: a server that found no index answers within 5 s either way).
   */
  static JsonNode hits(WireServer server, String arguments) {
    JsonNode reply = server.call("search_notes", arguments);
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
    while (WireServer.isError(reply)
        && WireServer.text(reply).startsWith(STILL_BUILDING)
        && System.nanoTime() < deadline) {
      reply = server.call("search_notes", arguments);
    }
    assertThat(WireServer.isError(reply)).as(reply.toString()).isFalse();
    JsonNode result = WireServer.JSON.readTree(WireServer.text(reply));
    assertThat(result.propertyNames()).containsExactly("hits");
    return result.get("hits");
  }

  static List<String> paths(JsonNode hits) {
    List<String> paths = new ArrayList<>();
    for (JsonNode hit : hits) {
      assertThat(hit.propertyNames())
          .containsExactly("path", "score", "snippet", "title", "aliases");
      assertThat(hit.get("score").isNumber()).isTrue();
      String snippet = hit.get("snippet").asString();
      assertThat(snippet.codePointCount(0, snippet.length())).isLessThanOrEqualTo(200);
      paths.add(hit.get("path").asString());
    }
    return paths;
  }

  private static String refusal(WireServer server, String arguments) {
    JsonNode reply = server.call("search_notes", arguments);
    assertThat(WireServer.isError(reply)).as(reply.toString()).isTrue();
    return WireServer.text(reply);
  }

  @Test
  void theToolIsOfferedReadOnlyWithATitleForEveryPolicyFileUnlessItSaysFalse() throws Exception {
    writePolicy(null);
    try (WireServer server = server()) {
      JsonNode tools = server.modern("tools/list", "", "ListToolsResult").at("/result/tools");
      List<String> names = new ArrayList<>();
      for (JsonNode tool : tools) {
        names.add(tool.get("name").asString());
      }
      assertThat(names)
          .containsExactly(
              "list_notes",
              "read_note",
              "search_notes",
              "note_links",
              "backlinks",
              "list_tags",
              "find_notes");
      JsonNode search = tools.get(2);
      assertThat(search.at("/annotations/readOnlyHint").asBoolean()).isTrue();
      assertThat(search.at("/annotations/openWorldHint").isBoolean()).isTrue();
      assertThat(search.at("/annotations/openWorldHint").asBoolean()).isFalse();
      assertThat(search.at("/annotations/title").asString()).isEqualTo("Search notes");
      assertThat(search.at("/inputSchema/required").toString()).isEqualTo("[\"query\"]");
      assertThat(search.at("/inputSchema/properties/limit/maximum").asInt()).isEqualTo(50);
    }
    writePolicy(false);
    try (WireServer server = server()) {
      JsonNode tools = server.modern("tools/list", "", "ListToolsResult").at("/result/tools");
      assertThat(tools.size()).isEqualTo(6);
      JsonNode reply = server.call("search_notes", "{\"query\":\"zorblax\"}");
      assertThat(reply.at("/error/code").asInt()).isEqualTo(-32602);
    }
  }

  /** {@code notes-mcp index ARGS} with this test's cache folder: exit code, stdout, stderr. */
  private ClientIT.Run index(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(WireServer.launcher().toString(), "index"));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("XDG_CACHE_HOME", cache.toString());
    Path out = dir.resolve("index-out.txt");
    Path err = dir.resolve("index-err.txt");
    Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    process.getOutputStream().close();
    assertThat(process.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    return new ClientIT.Run(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  /**
   * Searches made before the index is built are ranked by the scan child with the hits the index
   * then gives, byte for byte. The build is held back by this test holding the kept index's write
   * lock, as another process building it would: the server's child waits for it, so every search
   * until the lock is let go is answered from the scan (or, when it is the build's turn, that the
   * index is still being built, and searched again).
   */
  @Test
  void searchesBeforeTheBuildAreRankedByAScanWithTheHitsTheIndexGives() throws Exception {
    String[] queries = {
      "{\"query\":\"zorblax\"}",
      "{\"query\":\"\\\"paper kite\\\"\"}",
      "{\"query\":\"cafe zurich\"}",
      "{\"query\":\"gardens\",\"limit\":50}",
      "{\"query\":\"kites\",\"folder\":\"nowhere\"}"
    };
    // The kept index's folder, made by a build, then emptied of the index.
    ClientIT.Run built = index("-root", root.toString(), "-policy", policy.toString());
    assertThat(built.exit()).as(built.err()).isZero();
    Path folder;
    try (var folders = Files.list(cache.resolve("notes-mcp").resolve("search"))) {
      folder = folders.findFirst().orElseThrow();
    }
    try (var files = Files.list(folder)) {
      for (Path file : files.toList()) {
        String name = file.getFileName().toString();
        if (!name.equals("root") && !name.equals("used")) {
          Files.delete(file);
        }
      }
    }
    List<String> scanned = new ArrayList<>();
    try (WireServer server = server()) {
      try (java.nio.channels.FileChannel channel =
              java.nio.channels.FileChannel.open(
                  folder.resolve("write.lock"),
                  java.nio.file.StandardOpenOption.CREATE,
                  java.nio.file.StandardOpenOption.WRITE);
          java.nio.channels.FileLock held = channel.lock()) {
        assertThat(held.isValid()).isTrue();
        for (String query : queries) {
          scanned.add(answer(server, query));
        }
        server.awaitStderr("another notes-mcp process is building the index in " + folder);
        // Each query scanned once (a query asked again meanwhile gets the ranking kept for it).
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (scans(server) < queries.length && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        assertThat(scans(server)).isEqualTo(queries.length);
        assertThat(server.stderr()).doesNotContain("index built by a child process");
      }
      server.awaitStderr("notes-mcp: search: index built by a child process in");
      for (int i = 0; i < queries.length; i++) {
        assertThat(answer(server, queries[i])).as(queries[i]).isEqualTo(scanned.get(i));
      }
      assertThat(scanned.get(0)).contains("\"path\"");
      server.closeInputAndWait();
      assertThat(server.stderr())
          .contains("up to date: " + NOTES + " notes read and indexed in")
          .doesNotContain("building in this server");
    }
  }

  private static int scans(WireServer server) {
    return server.stderr().split("notes-mcp: search: a search ranked by a scan in ", -1).length - 1;
  }

  /** The text of a search's answer, searched again while the index is still being built. */
  static String answer(WireServer server, String arguments) {
    JsonNode reply = server.call("search_notes", arguments);
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
    while (WireServer.isError(reply)
        && WireServer.text(reply).startsWith(STILL_BUILDING)
        && System.nanoTime() < deadline) {
      reply = server.call("search_notes", arguments);
    }
    assertThat(WireServer.isError(reply)).as(reply.toString()).isFalse();
    return WireServer.text(reply);
  }

  /**
   * The cache folder the index would be kept under, inside the workspace, is refused at start (exit
   * 2) by a server and by {@code notes-mcp index} under a policy that offers search, whether named
   * by {@code XDG_CACHE_HOME}, reached through a link, or {@code ~/.cache} with the workspace as
   * home; nothing is made in the workspace. The default policy, which offers no search, starts.
   */
  @Test
  void aCacheFolderInsideTheWorkspaceIsRefusedAtStart() throws Exception {
    Path link = Files.createSymbolicLink(dir.resolve("cache-link"), root);
    List<Map<String, String>> inside =
        List.of(
            Map.of("XDG_CACHE_HOME", root.resolve("cache").toString()),
            Map.of("XDG_CACHE_HOME", link.resolve("deeper/cache").toString()),
            Map.of("XDG_CACHE_HOME", "", "HOME", root.toString()));
    List<String> before;
    try (var files = Files.list(root)) {
      before = files.map(Path::toString).sorted().toList();
    }
    for (Map<String, String> environment : inside) {
      for (List<String> mode :
          List.of(
              List.of("-serve", "-root", root.toString(), "-policy", policy.toString()),
              List.of("index", "-root", root.toString(), "-policy", policy.toString()))) {
        ClientIT.Run run = launch(environment, mode);
        assertThat(run.exit()).as(environment + " " + mode + ": " + run.err()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
            .as(environment.toString())
            .contains("notes-mcp: the search index's cache folder ")
            .contains(" is inside the workspace " + root.toRealPath())
            .contains("set XDG_CACHE_HOME to a folder outside it");
      }
    }
    try (var files = Files.list(root)) {
      assertThat(files.map(Path::toString).sorted().toList())
          .as("made in the workspace")
          .isEqualTo(before);
    }
    ClientIT.Run plain = launch(inside.get(0), List.of("-serve", "-root", root.toString()));
    assertThat(plain.exit()).as(plain.err()).isZero();
    assertThat(plain.err()).doesNotContain("cache folder");
  }

  /**
   * The launcher run with {@code args}, its environment changed by {@code environment} (an empty
   * value removes the variable), its stdin empty.
   */
  private ClientIT.Run launch(Map<String, String> environment, List<String> args) throws Exception {
    List<String> command = new ArrayList<>(List.of(WireServer.launcher().toString()));
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command);
    environment.forEach(
        (name, value) -> {
          if (value.isEmpty()) {
            builder.environment().remove(name);
          } else {
            builder.environment().put(name, value);
          }
        });
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    Process process =
        builder
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    assertThat(process.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    return new ClientIT.Run(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  @Test
  void aServerThatExitsWhileItsChildStillBuildsLeavesItToKeepTheIndexAndEndByItself()
      throws Exception {
    // Enough text that the build outlasts the first answer: 2,000 notes of about 24 KiB.
    Path big = Files.createDirectory(dir.resolve("big"));
    java.util.Random random = new java.util.Random(7);
    String[] words = {"kite", "paper", "wind", "river", "stone", "garden", "lamp", "north"};
    for (int n = 0; n < 2000; n++) {
      StringBuilder text = new StringBuilder(n == 1234 ? "the quixotic plan\n" : "");
      while (text.length() < 24_000) {
        text.append(words[random.nextInt(words.length)]).append(random.nextInt(1000)).append(' ');
      }
      Files.writeString(big.resolve("n" + n + ".md"), text);
    }
    Path bigPolicy = dir.resolve("big-policy.json");
    Files.writeString(bigPolicy, "{\"readable\":[\"*.md\"],\"maxNoteBytes\":65536}");
    // The builder the server starts as it starts (not the scan child, "index -scan").
    String child = " index -root " + big.toRealPath();
    try (WireServer server =
        WireServer.start(
                big, Map.of("XDG_CACHE_HOME", cache.toString()), "-policy", bigPolicy.toString())
            .patient(java.time.Duration.ofSeconds(120))) {
      assertThat(paths(hits(server, "{\"query\":\"quixotic\"}"))).containsExactly("n1234.md");
      assertThat(children(child)).as("the child building the index").isNotEmpty();
      server.closeInputAndWait();
      assertThat(server.stderr()).doesNotContain("index built by a child process");
    }
    // At a low priority on a busy machine, the build may take minutes.
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(300);
    while (!children(child).isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(children(child)).as("index builds left running after five minutes").isEmpty();
    assertThat(hasSegments(cache.resolve("notes-mcp").resolve("search"))).isTrue();
    try (WireServer server =
        WireServer.start(
                big, Map.of("XDG_CACHE_HOME", cache.toString()), "-policy", bigPolicy.toString())
            .patient(java.time.Duration.ofSeconds(120))) {
      assertThat(paths(hits(server, "{\"query\":\"quixotic\"}"))).containsExactly("n1234.md");
      server.closeInputAndWait();
      assertThat(server.stderr()).doesNotContain("indexed").doesNotContain("child process");
    }
  }

  /** The live processes whose command line holds {@code part}. */
  private static List<ProcessHandle> children(String part) {
    return ProcessHandle.allProcesses()
        .filter(p -> p.isAlive() && p.info().commandLine().map(c -> c.contains(part)).orElse(false))
        .toList();
  }

  @Test
  void theIndexModeBuildsTheKeptIndexSoTheServerReadsNothingAgain() throws Exception {
    ClientIT.Run run = index("-root", root.toString(), "-policy", policy.toString());
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .startsWith("notes-mcp: search index of ")
        .contains(" up to date: " + NOTES + " notes read and indexed in");
    // Again: nothing changed, nothing read.
    run = index("-root", root.toString(), "-policy", policy.toString());
    assertThat(run.err()).contains(" up to date: 0 notes read and indexed in");
    try (WireServer server = server()) {
      assertThat(paths(hits(server, "{\"query\":\"zorblax\"}"))).hasSize(3);
      server.closeInputAndWait();
      assertThat(server.stderr()).doesNotContain("indexed").doesNotContain("child process");
    }
  }

  @Test
  void theIndexModeRefusesWhatHasNoSearchToIndexFor() throws Exception {
    ClientIT.Run run = index("-root", root.toString());
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err())
        .startsWith(
            "notes-mcp: index needs -policy FILE: without a policy file there is no search_notes"
                + " to index for\n");
    writePolicy(false);
    run = index("-root", root.toString(), "-policy", policy.toString());
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo("notes-mcp: policy file " + policy + " says \"search\": false: no index\n");
    assertThat(run.out()).isEmpty();
    try (java.util.stream.Stream<Path> made = Files.list(cache)) {
      assertThat(made).isEmpty();
    }
  }

  @Test
  void withoutAPolicyFileTheToolsStayTheDefaultThree() throws Exception {
    try (WireServer server = WireServer.start(root, Map.of("XDG_CACHE_HOME", cache.toString()))) {
      JsonNode tools = server.modern("tools/list", "", "ListToolsResult").at("/result/tools");
      List<String> names = new ArrayList<>();
      for (JsonNode tool : tools) {
        names.add(tool.get("name").asString());
      }
      assertThat(names).containsExactly("list_notes", "read_note", "propose_note");
      JsonNode discover = server.modern("server/discover", "", "DiscoverResult").get("result");
      assertThat(discover.get("instructions").stringValue()).doesNotContain("search_notes");
      JsonNode reply = server.call("search_notes", "{\"query\":\"zorblax\"}");
      assertThat(reply.at("/error/code").asInt()).isEqualTo(-32602);
    }
    try (java.util.stream.Stream<Path> made = Files.list(cache)) {
      assertThat(made).as("nothing indexed without search").isEmpty();
    }
  }

  @Test
  void everyPlantedNoteIsFoundWhateverTheCaseAndOnlyAllowedNotesAre() throws Exception {
    try (WireServer server = server()) {
      assertThat(paths(hits(server, "{\"query\":\"zorblax\"}")))
          .containsExactlyInAnyOrder("note-00.md", "note-01.md", "note-03.md");
      assertThat(paths(hits(server, "{\"query\":\"ZorBlax\"}")))
          .containsExactlyInAnyOrder("note-00.md", "note-01.md", "note-03.md");
      assertThat(paths(hits(server, "{\"query\":\"secret\"}"))).isEmpty();
    }
  }

  @Test
  void accentsAreFoldedBothWays() throws Exception {
    try (WireServer server = server()) {
      assertThat(paths(hits(server, "{\"query\":\"cafe creme zurich\"}")))
          .containsExactly("note-00.md");
      assertThat(paths(hits(server, "{\"query\":\"CAFÉ\"}"))).containsExactly("note-00.md");
      assertThat(paths(hits(server, "{\"query\":\"naive resume\"}"))).containsExactly("note-03.md");
    }
  }

  @Test
  void aPhraseMatchesItsWordsInOrderOnly() throws Exception {
    try (WireServer server = server()) {
      assertThat(paths(hits(server, "{\"query\":\"\\\"paper kite\\\"\"}")))
          .containsExactly("note-01.md");
      assertThat(paths(hits(server, "{\"query\":\"\\\"kite paper\\\"\"}")))
          .containsExactly("note-02.md");
      assertThat(paths(hits(server, "{\"query\":\"paper kite\"}")))
          .containsExactlyInAnyOrder("note-01.md", "note-02.md");
    }
  }

  @Test
  void hitsAreOrderedByScoreThenPathWithSnippetsAroundTheFirstMatch() throws Exception {
    try (WireServer server = server()) {
      JsonNode hits = hits(server, "{\"query\":\"gardens\",\"limit\":50}");
      assertThat(hits.size()).isEqualTo(NOTES - 4);
      for (int i = 1; i < hits.size(); i++) {
        double before = hits.get(i - 1).get("score").asDouble();
        double now = hits.get(i).get("score").asDouble();
        assertThat(before).isGreaterThanOrEqualTo(now);
        if (before == now) {
          assertThat(hits.get(i - 1).get("path").asString())
              .isLessThan(hits.get(i).get("path").asString());
        }
      }
      JsonNode cafe = hits(server, "{\"query\":\"zorblax\",\"limit\":1}");
      assertThat(cafe.size()).isEqualTo(1);
      JsonNode trip = hits(server, "{\"query\":\"menu\"}").get(0);
      assertThat(trip.get("snippet").asString())
          .isEqualTo("\u2026We met at the Café Crème in Zürich; zorblax was on the menu.");
      // Within 60 characters of the start, the snippet starts with the note.
      assertThat(hits(server, "{\"query\":\"trip\"}").get(0).get("snippet").asString())
          .isEqualTo("# Trip We met at the Café Crème in Zürich; zorblax was on the menu.");
      // The same query twice: the same answer, byte for byte.
      String once = answer(server, "{\"query\":\"kites\"}");
      String twice = answer(server, "{\"query\":\"kites\"}");
      assertThat(twice).isEqualTo(once);
    }
  }

  @Test
  void theLimitIsFromOneToFiftyAndAnIntegerOnly() throws Exception {
    try (WireServer server = server()) {
      assertThat(hits(server, "{\"query\":\"kites\"}").size()).isEqualTo(10);
      assertThat(hits(server, "{\"query\":\"kites\",\"limit\":1}").size()).isEqualTo(1);
      assertThat(hits(server, "{\"query\":\"kites\",\"limit\":50}").size()).isEqualTo(NOTES - 4);
      assertThat(refusal(server, "{\"query\":\"kites\",\"limit\":0}"))
          .isEqualTo("limit must be from 1 to 50, not 0");
      assertThat(refusal(server, "{\"query\":\"kites\",\"limit\":51}"))
          .isEqualTo("limit must be from 1 to 50, not 51");
      assertThat(refusal(server, "{\"query\":\"kites\",\"limit\":99999999999999999999}"))
          .as("the limit as the client sent it, beyond any 64-bit integer")
          .isEqualTo("limit must be from 1 to 50, not 99999999999999999999");
      assertThat(refusal(server, "{\"query\":\"kites\",\"limit\":2.5}"))
          .isEqualTo(
              "argument \"limit\" must be an integer, not a number with a fraction or exponent");
      assertThat(refusal(server, "{\"query\":\"kites\",\"limit\":\"10\"}"))
          .isEqualTo("argument \"limit\" must be an integer, not string");
      assertThat(refusal(server, "{\"query\":\"kites\",\"approved\":true}"))
          .isEqualTo(
              "unknown argument \"approved\": search_notes accepts only \"folder\", \"limit\","
                  + " \"property\", \"query\", \"tag\"");
      assertThat(refusal(server, "{}")).isEqualTo("missing required argument \"query\"");
    }
  }

  @Test
  void aFolderLimitsTheHitsToNotesBelowItAndExcludedOrHiddenNotesNeverSurface() throws Exception {
    Path vault = Files.createDirectory(dir.resolve("vault"));
    for (String[] note :
        new String[][] {
          {"Inbox.md", "zorblax in the inbox"},
          {"Projects/Paper Kite.md", "zorblax for the kite"},
          {"Projects/Drafts/Café ideas.md", "zorblax at the café"},
          {"Private/Diary.md", "zorblax, private"},
          {".trash/Old.md", "zorblax, deleted"},
          {".obsidian/notes.md", "zorblax, settings"},
          {"Projects/notes.txt", "zorblax, not markdown"}
        }) {
      Path file = vault.resolve(note[0]);
      Files.createDirectories(file.getParent());
      Files.writeString(file, note[1] + "\n", StandardCharsets.UTF_8);
    }
    Path patterns = dir.resolve("vault-policy.json");
    Files.writeString(
        patterns,
        "{\"readable\":[\"**/*.md\"],\"exclude\":[\"Private/**\"],\"maxCalls\":1000,"
            + "\"search\":true}");
    try (WireServer server =
        WireServer.start(
                vault, Map.of("XDG_CACHE_HOME", cache.toString()), "-policy", patterns.toString())
            .patient(java.time.Duration.ofSeconds(120))) {
      assertThat(paths(hits(server, "{\"query\":\"zorblax\"}")))
          .containsExactly("Inbox.md", "Projects/Drafts/Café ideas.md", "Projects/Paper Kite.md");
      assertThat(paths(hits(server, "{\"query\":\"zorblax\",\"folder\":\"Projects\"}")))
          .containsExactly("Projects/Drafts/Café ideas.md", "Projects/Paper Kite.md");
      assertThat(paths(hits(server, "{\"query\":\"zorblax\",\"folder\":\"Projects/Drafts\"}")))
          .containsExactly("Projects/Drafts/Café ideas.md");
      assertThat(paths(hits(server, "{\"query\":\"zorblax\",\"folder\":\"Private\"}"))).isEmpty();
      for (String word : List.of("private", "deleted", "settings", "markdown")) {
        assertThat(paths(hits(server, "{\"query\":\"" + word + "\"}"))).as(word).isEmpty();
      }
    }
  }

  @Test
  void hostileQueriesAreRefusedWithTheirReasonAndTheServerKeepsServing() throws Exception {
    try (WireServer server = server()) {
      String tenThousandWords = "word ".repeat(10_000).trim();
      assertThat(refusal(server, "{\"query\":\"" + tenThousandWords + "\"}"))
          .isEqualTo("arguments are 50011 bytes; the limit is 16384 bytes");
      String punctuation = "!?.,;:-".repeat(2341).substring(0, 16 * 1024);
      assertThat(refusal(server, "{\"query\":\"" + punctuation + "\"}"))
          .isEqualTo("arguments are 16396 bytes; the limit is 16384 bytes");
      assertThat(refusal(server, "{\"query\":\"" + punctuation.substring(0, 2000) + "\"}"))
          .isEqualTo("query is 2000 characters; the limit is 1024");
      assertThat(refusal(server, "{\"query\":\"" + "!?.,;:-".repeat(140) + "\"}"))
          .isEqualTo(
              "query holds no word to search for: words are letters and digits, and everything"
                  + " else only separates them");
      assertThat(refusal(server, "{\"query\":\"" + "a ".repeat(33).trim() + "\"}"))
          .isEqualTo("query has more than 32 words; the limit is 32");
      assertThat(refusal(server, "{\"query\":\"kites \\\"paper\"}"))
          .isEqualTo(
              "query has an unmatched double quote at character 6: a phrase is written between"
                  + " two double quotes");
      assertThat(refusal(server, "{\"query\":\"\"}"))
          .isEqualTo("query is empty: give at least one word to search for");
      assertThat(paths(hits(server, "{\"query\":\"zorblax\"}"))).hasSize(3);
    }
  }

  @Test
  void aDeletedReplacedOrUnlinkableNoteNeverSurfacesAfterItWasIndexed() throws Exception {
    Path outside = Files.writeString(dir.resolve("outside.md"), "zorblax from outside\n");
    try (WireServer server = server()) {
      assertThat(paths(hits(server, "{\"query\":\"zorblax\"}")))
          .containsExactlyInAnyOrder("note-00.md", "note-01.md", "note-03.md");
      // Between the index and the query: one deleted, one replaced by a rename, one a symlink
      // to a file outside, and a fourth hard-linked (two links: read_note refuses it).
      Files.delete(root.resolve("note-00.md"));
      Path replacement = Files.writeString(dir.resolve("new.md"), "nothing to find here\n");
      Files.move(replacement, root.resolve("note-01.md"), StandardCopyOption.REPLACE_EXISTING);
      Files.delete(root.resolve("note-03.md"));
      Files.createSymbolicLink(root.resolve("note-03.md"), outside);
      write("note-04.md", "zorblax added after the index\n");
      Files.createLink(dir.resolve("second-link"), root.resolve("note-04.md"));
      JsonNode after = hits(server, "{\"query\":\"zorblax\"}");
      assertThat(paths(after)).isEmpty();
      assertThat(after.toString()).doesNotContain("outside");
    }
  }

  @Test
  void aNoteSwappedWithALinkToAnOutsideFileWhileSearchesRunNeverShowsTheOutsideText()
      throws Exception {
    Path outside = Files.writeString(dir.resolve("outside.md"), "zorblax OUTSIDE-SECRET\n");
    Path note = root.resolve("note-05.md");
    write("note-05.md", "zorblax inside\n");
    Path link = dir.resolve("link");
    Files.createSymbolicLink(link, outside);
    Path regular = dir.resolve("regular");
    AtomicBoolean stop = new AtomicBoolean();
    try (WireServer server = server()) {
      Thread swapper =
          new Thread(
              () -> {
                try {
                  while (!stop.get()) {
                    Files.copy(
                        link, dir.resolve("link.tmp"), java.nio.file.LinkOption.NOFOLLOW_LINKS);
                    Files.move(dir.resolve("link.tmp"), note, StandardCopyOption.REPLACE_EXISTING);
                    Files.writeString(regular, "zorblax inside\n");
                    Files.move(regular, note, StandardCopyOption.REPLACE_EXISTING);
                  }
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      swapper.setDaemon(true);
      // The swapper changes dir, the policy file's folder, without a pause: a server still
      // starting would find that folder changing at every look and refuse its policy file. The
      // first answer says it has read it (and built the index).
      assertThat(paths(hits(server, "{\"query\":\"zorblax\"}"))).contains("note-05.md");
      swapper.start();
      for (int i = 0; i < 2000; i++) {
        JsonNode hits = hits(server, "{\"query\":\"zorblax\"}");
        assertThat(hits.toString()).doesNotContain("OUTSIDE-SECRET");
      }
      stop.set(true);
      swapper.join();
      // Left a regular file: once the next look at the workspace is due, it is found again.
      write("note-05.md", "zorblax inside\n");
      Thread.sleep(2500);
      assertThat(paths(hits(server, "{\"query\":\"zorblax\"}"))).contains("note-05.md");
    }
  }

  @Test
  void theKeptIndexServesTheNextServerAndLivesInPrivateFolders() throws Exception {
    try (WireServer server = server()) {
      assertThat(paths(hits(server, "{\"query\":\"zorblax\"}"))).hasSize(3);
    }
    Path search = cache.resolve("notes-mcp").resolve("search");
    // The build is the server's child at a low priority, which outlives it to keep the index: wait
    // for its commit to be on disk, as long as a loaded machine may make a niced build take.
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (System.nanoTime() < deadline && !hasSegments(search)) {
      Thread.sleep(50);
    }
    assertThat(hasSegments(search)).isTrue();
    for (Path folder : List.of(cache.resolve("notes-mcp"), search)) {
      assertThat(Files.getPosixFilePermissions(folder))
          .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    }
    try (WireServer server = server()) {
      assertThat(paths(hits(server, "{\"query\":\"zorblax\"}"))).hasSize(3);
      server.closeInputAndWait();
      assertThat(server.stderr()).doesNotContain("indexed");
    }
  }

  @Test
  void aCacheFolderWritableByOthersIsNeverUsed() throws Exception {
    Files.setPosixFilePermissions(
        cache, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
    try (WireServer server = server()) {
      assertThat(paths(hits(server, "{\"query\":\"zorblax\"}"))).hasSize(3);
      server.closeInputAndWait();
      assertThat(server.stderr())
          .contains(
              "notes-mcp: search index kept in memory: " + cache + " is writable by other users");
    }
    assertThat(Files.exists(cache.resolve("notes-mcp"))).isFalse();
  }

  /**
   * A file of the kept index replaced, while no server runs, by what no index is made of: a FIFO
   * (whose plain open waits for ever for a writer: the search, every later one and the server's
   * exit with them), a link, a folder, or another user's file. The next server keeps its index in
   * memory for itself and says why, answers the search within the usual wait, and exits when its
   * input ends; put back, the kept index serves again.
   */
  @Test
  void aKeptIndexFileReplacedByAFifoALinkOrAFolderIsRefusedAndNeverWaitedOn() throws Exception {
    ClientIT.Run built = index("-root", root.toString(), "-policy", policy.toString());
    assertThat(built.exit()).as(built.err()).isZero();
    Path folder;
    try (var folders = Files.list(cache.resolve("notes-mcp").resolve("search"))) {
      folder = folders.findFirst().orElseThrow();
    }
    List<String[]> replacements = new ArrayList<>();
    replacements.add(new String[] {"FIFO", named(folder, "segments_"), "a FIFO"});
    replacements.add(new String[] {"FIFO", "write.lock", "a FIFO"});
    replacements.add(new String[] {"link", named(folder, ".si"), "a symbolic link"});
    replacements.add(new String[] {"folder", named(folder, ".fdt"), "a directory"});
    if (LocalUsers.areAvailable()) {
      replacements.add(
          new String[] {
            "other",
            named(folder, ".tim"),
            "owned by uid " + LocalUsers.OTHER + ", not by this user"
          });
    }
    for (String[] replacement : replacements) {
      Path file = folder.resolve(replacement[1]);
      byte[] kept = Files.readAllBytes(file);
      switch (replacement[0]) {
        case "FIFO" -> {
          Files.delete(file);
          Process mkfifo = new ProcessBuilder("mkfifo", file.toString()).inheritIO().start();
          assertThat(mkfifo.waitFor()).isZero();
        }
        case "link" -> {
          Path copy = Files.write(dir.resolve("copy-of-" + replacement[1]), kept);
          Files.delete(file);
          Files.createSymbolicLink(file, copy);
        }
        case "folder" -> {
          Files.delete(file);
          Files.createDirectory(file);
        }
        default -> LocalUsers.chown(file, LocalUsers.OTHER);
      }
      try (WireServer server = server().patient(java.time.Duration.ofSeconds(30))) {
        assertThat(paths(hits(server, "{\"query\":\"zorblax\"}")))
            .as(replacement[1] + " replaced by a " + replacement[0])
            .hasSize(3);
        assertThat(server.closeInputAndWait()).isZero();
        assertThat(server.stderr())
            .contains(
                "notes-mcp: search index kept in memory: "
                    + folder
                    + " holds what no index there is made of ("
                    + replacement[1]
                    + " is "
                    + replacement[2]);
      }
      if (replacement[0].equals("other")) {
        Files.setOwner(file, Files.getOwner(folder));
      } else {
        Files.delete(file);
        Files.write(file, kept);
      }
    }
    try (WireServer server = server()) {
      assertThat(paths(hits(server, "{\"query\":\"zorblax\"}"))).hasSize(3);
      server.closeInputAndWait();
      assertThat(server.stderr()).doesNotContain("kept in memory").doesNotContain("indexed");
    }
  }

  /** The name of the first file in {@code folder} whose name holds {@code part}. */
  private static String named(Path folder, String part) throws IOException {
    try (var files = Files.list(folder)) {
      return files
          .map(f -> f.getFileName().toString())
          .filter(name -> name.contains(part))
          .sorted()
          .findFirst()
          .orElseThrow(() -> new AssertionError("no file named *" + part + "* in " + folder));
    }
  }

  private static boolean hasSegments(Path search) throws IOException {
    if (!Files.isDirectory(search)) {
      return false;
    }
    try (var folders = Files.list(search)) {
      for (Path folder : (Iterable<Path>) folders::iterator) {
        try (var files = Files.list(folder)) {
          if (files.anyMatch(f -> f.getFileName().toString().startsWith("segments_"))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * docs/knowledge.md, "search_notes": a hit carries the note's title and aliases, its snippet
   * skips the front matter, and tag and property keep only the hits that have them, among the
   * query's best; each filter as find_notes takes it, over the readable notes only.
   */
  @Test
  void hitsCarryTitlesAndAliasesSkipFrontMatterAndAreFilteredByTagsAndProperties()
      throws Exception {
    write(
        "note-04.md",
        "---\naliases: [Kite plan, \"Zorblax list\"]\ntags: [project]\nstatus: open\n---\n"
            + "The zorblax kite plan.\n");
    write("note-05.md", "---\ntags: [zorblax]\nstatus: done\n---\nNothing in the body. #project\n");
    write("note-06.md", "A zorblax note with #project/kite inline.\n");
    try (WireServer server = server()) {
      Map<String, JsonNode> byPath = new java.util.TreeMap<>();
      for (JsonNode hit : hits(server, "{\"query\":\"zorblax\",\"limit\":50}")) {
        byPath.put(hit.get("path").asString(), hit);
      }
      assertThat(byPath).containsKeys("note-04.md", "note-05.md", "note-06.md");
      assertThat(byPath.get("note-04.md").get("title").asString()).isEqualTo("note-04");
      assertThat(byPath.get("note-04.md").get("aliases").toString())
          .isEqualTo("[\"Kite plan\",\"Zorblax list\"]");
      assertThat(byPath.get("note-04.md").get("snippet").asString())
          .isEqualTo("The zorblax kite plan.");
      // Found only in the front matter: a hit, whose snippet is the body's beginning.
      assertThat(byPath.get("note-05.md").get("snippet").asString())
          .isEqualTo("Nothing in the body. #project");
      assertThat(byPath.get("note-06.md").get("aliases").toString()).isEqualTo("[]");
      assertThat(paths(hits(server, "{\"query\":\"zorblax\",\"tag\":\"#project\"}")))
          .containsExactlyInAnyOrder("note-04.md", "note-05.md", "note-06.md");
      assertThat(
              paths(
                  hits(
                      server,
                      "{\"query\":\"zorblax\",\"tag\":\"project\","
                          + "\"property\":{\"name\":\"status\",\"equals\":\"open\"}}")))
          .containsExactly("note-04.md");
      assertThat(paths(hits(server, "{\"query\":\"zorblax\",\"limit\":1,\"tag\":\"project\"}")))
          .hasSize(1);
      // A note outside the policy is no hit, filtered or not.
      write("secret.md", "---\ntags: [project]\n---\nzorblax secret\n");
      assertThat(paths(hits(server, "{\"query\":\"secret\",\"tag\":\"project\"}"))).isEmpty();
      assertThat(refusal(server, "{\"query\":\"zorblax\",\"property\":{\"equals\":\"x\"}}"))
          .isEqualTo("argument \"property\" is missing its key \"name\"");
    }
  }
}

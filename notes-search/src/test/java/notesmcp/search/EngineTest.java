package notesmcp.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import notesmcp.policy.tools.NoteSearch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineTest {
  @TempDir Path dir;
  private Path root;
  private Path cache;
  private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
  private final PrintStream log = new PrintStream(logged, true, StandardCharsets.UTF_8);
  private Engine engine;

  @BeforeEach
  void vault() throws IOException {
    root = Files.createDirectory(dir.resolve("vault"));
    cache = Files.createDirectory(dir.resolve("cache"));
    write("Inbox.md", "Buy a paper kite.\n");
    write("Projects/Paper Kite.md", "# Paper Kite\n\nThe kite needs string.\n");
    write("Projects/Drafts/Café ideas.md", "Crème brûlée at the café, tête-à-tête.\n");
    write("Journal/2026-12-01.md", "Wrote about the kite festival on 2026-12-01.\n");
    write(".trash/Old kite.md", "kite in the trash\n");
  }

  @AfterEach
  void close() throws IOException {
    if (engine != null) {
      engine.close();
    }
  }

  private void write(String path, String text) throws IOException {
    Path file = root.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  private Engine engine() throws NoteSearch.Refused {
    engine =
        Engine.open(new FolderCorpus(root, 65536), Map.of("XDG_CACHE_HOME", cache.toString()), log);
    return engine;
  }

  private static List<String> paths(List<NoteSearch.Hit> hits) {
    List<String> paths = new ArrayList<>();
    for (NoteSearch.Hit hit : hits) {
      paths.add(hit.path());
    }
    return paths;
  }

  @Test
  void aFolderLimitsHitsToThatFolderAndItsSubfolders() throws Exception {
    Engine engine = engine();
    assertThat(paths(engine.search("kite", null, 10)))
        .containsExactlyInAnyOrder("Inbox.md", "Projects/Paper Kite.md", "Journal/2026-12-01.md");
    assertThat(paths(engine.search("kite", "Projects", 10)))
        .containsExactly("Projects/Paper Kite.md");
    assertThat(paths(engine.search("cafe", "Projects", 10)))
        .containsExactly("Projects/Drafts/Café ideas.md");
    assertThat(paths(engine.search("cafe", "Projects/Drafts", 10)))
        .containsExactly("Projects/Drafts/Café ideas.md");
    assertThat(engine.search("kite", "Proj", 10)).isEmpty();
    assertThat(engine.search("kite", "Projects/", 10)).isEmpty();
  }

  @Test
  void aWordThatFoldsToSeveralIsAPhraseAndADateToo() throws Exception {
    Engine engine = engine();
    assertThat(paths(engine.search("tete-a-tete", null, 10)))
        .containsExactly("Projects/Drafts/Café ideas.md");
    assertThat(paths(engine.search("2026-12-01", null, 10)))
        .containsExactly("Journal/2026-12-01.md");
    assertThat(paths(engine.search("creme brulee", null, 10)))
        .containsExactly("Projects/Drafts/Café ideas.md");
  }

  @Test
  void aWordInTheNameAloneFindsTheNoteWithItsBeginningAsSnippet() throws Exception {
    write("Projects/Zebra.md", "Nothing else here.\n");
    Engine engine = engine();
    List<NoteSearch.Hit> hits = engine.search("zebra", null, 10);
    assertThat(paths(hits)).containsExactly("Projects/Zebra.md");
    assertThat(hits.get(0).snippet()).isEqualTo("Nothing else here.");
  }

  @Test
  void aNoteAddedChangedOrDeletedIsSeenOnceTheNextLookIsDue() throws Exception {
    Engine engine = engine();
    assertThat(engine.search("festival", null, 10)).hasSize(1);
    write("Inbox 2.md", "Another festival.\n");
    Files.delete(root.resolve("Journal/2026-12-01.md"));
    // Deleted: never a hit, at once (every candidate is read again).
    assertThat(paths(engine.search("festival", null, 10))).doesNotContain("Journal/2026-12-01.md");
    Thread.sleep(Engine.SWEEP_INTERVAL_NANOS / 1_000_000 + 200);
    assertThat(paths(engine.search("festival", null, 10))).containsExactly("Inbox 2.md");
  }

  @Test
  void theIndexIsKeptAndTheNextEngineReadsNothingUnchanged() throws Exception {
    Engine first = engine();
    assertThat(first.search("kite", null, 10)).hasSize(3);
    first.awaitCommitted();
    first.close();
    engine = null;
    logged.reset();
    Engine second = engine();
    assertThat(second.where()).startsWith(cache.toString());
    assertThat(second.search("kite", null, 10)).hasSize(3);
    assertThat(logged.toString(StandardCharsets.UTF_8)).doesNotContain("indexed");
  }

  @Test
  void aCacheOfAnotherRootIsPrunedWhenThatRootIsGone() throws Exception {
    Path other = Files.createDirectory(dir.resolve("other"));
    Files.writeString(other.resolve("a.md"), "kite\n");
    Engine elsewhere =
        Engine.open(
            new FolderCorpus(other, 65536), Map.of("XDG_CACHE_HOME", cache.toString()), log);
    elsewhere.search("kite", null, 10);
    elsewhere.awaitCommitted();
    String folder = elsewhere.where();
    elsewhere.close();
    Files.delete(other.resolve("a.md"));
    Files.delete(other);
    engine();
    assertThat(Files.exists(Path.of(folder))).isFalse();
    assertThat(logged.toString(StandardCharsets.UTF_8))
        .contains("(its workspace is gone or is another folder now)");
  }

  @Test
  void queriesBeyondTheBoundsAreRefusedWithTheirReason() throws Exception {
    Engine engine = engine();
    assertThatThrownBy(() -> engine.search("a ".repeat(33), null, 10))
        .hasMessage("query has more than 32 words; the limit is 32");
    assertThatThrownBy(() -> engine.search("...!!!", null, 10))
        .hasMessageStartingWith("query holds no word to search for");
    assertThatThrownBy(() -> engine.search("\"kite", null, 10))
        .hasMessageStartingWith("query has an unmatched double quote at character 0");
    assertThat(paths(engine.search("a ".repeat(32), null, 10)))
        .containsExactlyInAnyOrder("Inbox.md", "Projects/Drafts/Café ideas.md");
  }
}

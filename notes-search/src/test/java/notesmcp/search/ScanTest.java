package notesmcp.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import notesmcp.policy.tools.NoteSearch;
import notesmcp.policy.tools.NoteSearch.Ranked;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopFieldDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.NIOFSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scan ranks as the index of the same notes does: the same notes, in the same order, with the
 * same scores to the last bit, whatever the query (words in the text or the name, phrases, accents,
 * a folder); and it gives up, rather than hold them all, when too many notes match.
 */
class ScanTest {
  private static final String[] WORDS = {
    "kite", "paper", "string", "wind", "café", "Crème", "brûlée", "TÊTE", "festival", "river",
    "stone", "garden", "lamp", "the", "a", "of", "2026", "ideas", "draft", "north"
  };

  @TempDir Path dir;
  private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
  private final PrintStream log = new PrintStream(logged, true, StandardCharsets.UTF_8);
  private Engine engine;

  @AfterEach
  void close() throws IOException {
    if (engine != null) {
      engine.close();
    }
  }

  /** Notes of 0 to 400 words drawn unevenly from {@link #WORDS}, some names sharing words. */
  private Path vault(int notes, long seed) throws IOException {
    Random random = new Random(seed);
    Path root = Files.createDirectories(dir.resolve("vault"));
    String[] folders = {"", "Projects/", "Projects/Drafts/", "Journal/", "Café/"};
    for (int n = 0; n < notes; n++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(10) == 0 ? 0 : random.nextInt(400);
      for (int w = 0; w < length; w++) {
        // Skewed: the first words are common, the last rare.
        int word = (int) (WORDS.length * Math.pow(random.nextDouble(), 2.5));
        text.append(WORDS[word]).append(random.nextInt(8) == 0 ? ".\n" : " ");
      }
      String name =
          folders[random.nextInt(folders.length)]
              + (random.nextBoolean() ? WORDS[random.nextInt(WORDS.length)] + " " : "")
              + "note "
              + n
              + ".md";
      Path file = root.resolve(name);
      Files.createDirectories(file.getParent());
      Files.writeString(file, text, StandardCharsets.UTF_8);
    }
    return root;
  }

  @Test
  void aScanRanksTheSameNotesWithTheSameScoresAsTheIndexOfThoseNotes() throws Exception {
    Path root = vault(600, 20261202L);
    FolderCorpus corpus = new FolderCorpus(root, 65536);
    Path cache = Files.createDirectories(dir.resolve("cache"));
    engine = Engine.open(corpus, Map.of("XDG_CACHE_HOME", cache.toString()), log);
    engine.refresh();
    Path folder =
        Files.list(cache.resolve("notes-mcp").resolve("search")).findFirst().orElseThrow();
    String[][] queries = {
      {"kite", null},
      {"the", null},
      {"a of the", null},
      {"\"the a\" kite", null},
      {"cafe", null},
      {"CAFÉ string", null},
      {"creme brulee", null},
      {"\"paper kite\"", null},
      {"\"the kite\" wind", null},
      {"tete", "Projects"},
      {"kite", "Projects/Drafts"},
      {"north", null},
      {"note", null},
      {"ideas draft", "Journal"},
      {"2026", "Café"},
      {"\"of the\"", null},
      {"river stone garden lamp", null},
      {"nowhere", null},
      {"kite nowhere", null},
    };
    int compared = 0;
    try (Directory directory = NIOFSDirectory.open(folder);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      IndexSearcher whole = new IndexSearcher(reader);
      for (String[] q : queries) {
        SearchQuery query = SearchQuery.parse(q[0]);
        List<Ranked> scanned = Scan.rank(corpus, query, q[1], 50);
        List<Ranked> indexed = top(whole, query, q[1], 50);
        assertThat(scanned).as("query %s in %s", q[0], q[1]).isEqualTo(indexed);
        // And the hits a server makes of them are the index's hits.
        assertThat(Engine.verified(corpus, query, scanned, 10))
            .as("hits of %s in %s", q[0], q[1])
            .isEqualTo(engine.search(q[0], q[1], 10));
        compared += scanned.size();
      }
    }
    assertThat(compared).as("notes compared over all queries").isGreaterThan(300);
  }

  @Test
  void aScanRanksAWordEveryNoteHoldsAndGivesUpOnlyPastItsBoundOnPositions() throws Exception {
    Path root = Files.createDirectories(dir.resolve("many"));
    for (int n = 0; n < 300; n++) {
      Files.writeString(root.resolve("kite " + n + ".md"), "a kite, the wind; ".repeat(1 + n % 7));
    }
    FolderCorpus corpus = new FolderCorpus(root, 65536);
    // Every note holds "the" (1 to 7 times) and "kite" in its name.
    List<Ranked> the = Scan.rank(corpus, SearchQuery.parse("the"), null, 30);
    assertThat(the).hasSize(30);
    for (int i = 1; i < the.size(); i++) {
      assertThat(the.get(i).score()).isLessThanOrEqualTo(the.get(i - 1).score());
    }
    assertThat(Scan.rank(corpus, SearchQuery.parse("the kite"), null, 30)).hasSize(30);
    // 1,197 positions of "the" in all: kept under a bound of 1,197, not under one of 1,196.
    assertThat(Scan.rank(corpus, SearchQuery.parse("the"), null, 30, 1197)).hasSize(30);
    assertThat(Scan.rank(corpus, SearchQuery.parse("the"), null, 30, 1196)).isNull();
  }

  @Test
  void theRankingCrossesToTheServerExactly() throws Exception {
    List<Ranked> ranked =
        List.of(new Ranked("Café/ideas 1.md", 1.2345678f), new Ranked("a b.md", Float.MIN_VALUE));
    String text = NoteSearch.Exchange.write(ranked);
    assertThat(
            NoteSearch.Exchange.read(new java.io.BufferedReader(new java.io.StringReader(text)), 2))
        .isEqualTo(ranked);
    assertThat(
            NoteSearch.Exchange.read(
                new java.io.BufferedReader(new java.io.StringReader("many\n")), 2))
        .isNull();
    String query = "a \"b\nc\" é%+=";
    assertThat(NoteSearch.Exchange.decode(NoteSearch.Exchange.encode(query))).isEqualTo(query);
    assertThat(NoteSearch.Exchange.encode(query)).doesNotContain("\n");
    for (NoteSearch.Exchange.Query sent :
        List.of(
            new NoteSearch.Exchange.Query(query, null, 70),
            new NoteSearch.Exchange.Query(query, "Café/2026", 999))) {
      String lines = NoteSearch.Exchange.writeQuery(sent);
      assertThat(lines.split("\n", -1)).hasSize(4);
      assertThat(
              NoteSearch.Exchange.readQuery(
                  new java.io.BufferedReader(new java.io.StringReader(lines))))
          .isEqualTo(sent);
    }
  }

  private static List<Ranked> top(IndexSearcher searcher, SearchQuery query, String folder, int n)
      throws IOException {
    Sort order = new Sort(SortField.FIELD_SCORE, new SortField(Engine.PATH, SortField.Type.STRING));
    TopFieldDocs top =
        searcher.search(
            query.toLucene(folder == null ? null : new TermQuery(new Term(Engine.FOLDER, folder))),
            n,
            order,
            true);
    List<Ranked> ranked = new ArrayList<>();
    for (ScoreDoc doc : top.scoreDocs) {
      ranked.add(
          new Ranked(
              searcher.storedFields().document(doc.doc).get(Engine.PATH), ((FieldDoc) doc).score));
    }
    return ranked;
  }
}

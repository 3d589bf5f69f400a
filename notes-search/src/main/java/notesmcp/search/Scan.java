package notesmcp.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import notesmcp.policy.NoteSearch;
import notesmcp.policy.NoteSearch.Note;
import notesmcp.policy.NoteSearch.Ranked;
import org.apache.lucene.analysis.CharArrayMap;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.TopFieldDocs;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * One query answered by reading every note once, without an index: what a first-ever search answers
 * with while its index is still being built (docs/behaviour.md, "search_notes"). Each note is read
 * through the corpus (the careful read) and split into words by the index's own analyzer; the scan
 * counts what the index's scoring needs (per field: the notes with words, all words; per query
 * word: the notes holding it, its occurrences) and keeps the notes that match. Those alone are put
 * in an index in memory, and searched with the counts of the whole corpus in place of the small
 * index's own: so each score is the score the index of every note would give (BM25 needs only those
 * counts and the note's own length, which Lucene keeps per note). {@code ScanTest} compares the two
 * on generated corpora.
 *
 * <p>Bounded: at most {@link #MAX_MATCHES} matching notes and {@link #MAX_MATCHED_CHARS} of their
 * text are kept; beyond either the scan gives up (null) and the caller waits for the index.
 */
final class Scan {
  /** The most matching notes a scan ranks; a query matching more waits for the index. */
  static final int MAX_MATCHES = 2_000;

  /** The most characters of matching notes a scan holds in memory (two bytes each). */
  static final long MAX_MATCHED_CHARS = 32L << 20;

  private static final String[] FIELDS = {Engine.TEXT, Engine.NAME};

  private final NoteSearch.Corpus corpus;
  private final SearchQuery query;
  private final String folder;

  /** Each distinct word of the query, numbered in the order first seen. */
  private final Map<String, Integer> words = new LinkedHashMap<>();

  /** The same, looked up by a word's characters without making a string of them. */
  private final CharArrayMap<Integer> wordIds;

  private Scan(NoteSearch.Corpus corpus, SearchQuery query, String folder) {
    this.corpus = corpus;
    this.query = query;
    this.folder = folder;
    for (List<String> clause : query.clauses()) {
      for (String word : clause) {
        words.putIfAbsent(word, words.size());
      }
    }
    wordIds = new CharArrayMap<>(words.size(), false);
    words.forEach(wordIds::put);
  }

  /** The best {@code count} notes, by score then path; null when too many match. */
  static List<Ranked> rank(NoteSearch.Corpus corpus, SearchQuery query, String folder, int count)
      throws IOException {
    return new Scan(corpus, query, folder).rank(count);
  }

  private List<Ranked> rank(int count) throws IOException {
    Tally all = tallyAll(corpus.notes());
    if (all.tooMany) {
      return null;
    }
    if (all.matches.isEmpty()) {
      return List.of();
    }
    try (ByteBuffersDirectory directory = new ByteBuffersDirectory();
        IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(Folding.ANALYZER))) {
      for (Map.Entry<String, Note> match : all.matches.entrySet()) {
        writer.addDocument(Engine.document(match.getKey(), match.getValue()));
      }
      writer.commit();
      try (DirectoryReader reader = DirectoryReader.open(directory)) {
        IndexSearcher searcher = new WholeCorpus(reader, all);
        searcher.setQueryCache(null);
        Sort order =
            new Sort(SortField.FIELD_SCORE, new SortField(Engine.PATH, SortField.Type.STRING));
        TopFieldDocs top =
            searcher.search(
                query.toLucene(
                    folder == null ? null : new TermQuery(new Term(Engine.FOLDER, folder))),
                count,
                order,
                true);
        List<Ranked> ranked = new ArrayList<>(top.scoreDocs.length);
        for (ScoreDoc doc : top.scoreDocs) {
          String path = searcher.storedFields().document(doc.doc).get(Engine.PATH);
          ranked.add(new Ranked(path, ((FieldDoc) doc).score));
        }
        return ranked;
      }
    }
  }

  /** The counts over {@code notes}, on two threads when there are many. */
  private Tally tallyAll(List<String> notes) throws IOException {
    int threads = notes.size() < 64 ? 1 : Math.min(2, Runtime.getRuntime().availableProcessors());
    if (threads == 1) {
      Tally tally = new Tally(words.size());
      for (String path : notes) {
        if (!add(tally, path)) {
          break;
        }
      }
      return tally;
    }
    ExecutorService pool =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread thread = new Thread(r, "notes-mcp search scan");
              thread.setDaemon(true);
              return thread;
            });
    try {
      List<Future<Tally>> parts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        parts.add(
            pool.submit(
                () -> {
                  Tally tally = new Tally(words.size());
                  for (int i = first; i < notes.size(); i += threads) {
                    if (!add(tally, notes.get(i))) {
                      break;
                    }
                  }
                  return tally;
                }));
      }
      Tally all = new Tally(words.size());
      for (Future<Tally> part : parts) {
        all.merge(part.get());
      }
      return all;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while scanning");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException
          ? (IOException) e.getCause()
          : new IOException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  /** Counts one note; false once the tally holds too many matches to go on. */
  private boolean add(Tally tally, String path) throws IOException {
    Note note = corpus.read(path);
    if (note == null) {
      return true; // not a note the index would hold either
    }
    tally.notes++;
    String name = Engine.nameOf(path);
    int[] inText = tally.count(0, note.text(), wordIds);
    int[] inName = tally.count(1, name, wordIds);
    for (List<String> clause : query.clauses()) {
      if (!holdsAll(inText, clause) && !holdsAll(inName, clause)) {
        return true; // a clause's word is missing: no match, and nothing more to count
      }
    }
    if (folder != null && !path.startsWith(folder + "/")) {
      return true;
    }
    if (query.matchIn(note.text(), name) == null) {
      return true;
    }
    tally.matchedChars += note.text().length();
    if (tally.matches.size() >= MAX_MATCHES || tally.matchedChars > MAX_MATCHED_CHARS) {
      tally.tooMany = true;
      return false;
    }
    tally.matches.put(path, note);
    return true;
  }

  private boolean holdsAll(int[] counts, List<String> clause) {
    for (String word : clause) {
      if (counts[words.get(word)] == 0) {
        return false;
      }
    }
    return true;
  }

  /** What one thread counted; merged at the end. */
  private static final class Tally {
    long notes;
    final long[] withWords = new long[FIELDS.length];
    final long[] length = new long[FIELDS.length];
    final long[][] docFreq;
    final long[][] totalFreq;
    final Map<String, Note> matches = new LinkedHashMap<>();
    long matchedChars;
    boolean tooMany;
    private final int[][] counts;

    Tally(int words) {
      docFreq = new long[FIELDS.length][words];
      totalFreq = new long[FIELDS.length][words];
      counts = new int[FIELDS.length][words];
    }

    /**
     * Counts {@code text}'s words for field {@code f}; returns how often each query word occurs in
     * it (the field's array, reused for the next note).
     */
    int[] count(int f, String text, CharArrayMap<Integer> words) throws IOException {
      int[] counts = this.counts[f];
      Arrays.fill(counts, 0);
      long n = 0;
      try (TokenStream stream = Folding.ANALYZER.tokenStream(FIELDS[f], text)) {
        CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
        stream.reset();
        while (stream.incrementToken()) {
          n++;
          Integer id = words.get(term.buffer(), 0, term.length());
          if (id != null) {
            counts[id]++;
          }
        }
        stream.end();
      }
      if (n > 0) {
        withWords[f]++;
        length[f] += n;
      }
      for (int w = 0; w < counts.length; w++) {
        if (counts[w] > 0) {
          docFreq[f][w]++;
          totalFreq[f][w] += counts[w];
        }
      }
      return counts;
    }

    void merge(Tally other) {
      notes += other.notes;
      for (int f = 0; f < FIELDS.length; f++) {
        withWords[f] += other.withWords[f];
        length[f] += other.length[f];
        for (int w = 0; w < docFreq[f].length; w++) {
          docFreq[f][w] += other.docFreq[f][w];
          totalFreq[f][w] += other.totalFreq[f][w];
        }
      }
      matches.putAll(other.matches);
      matchedChars += other.matchedChars;
      tooMany |= other.tooMany || matches.size() > MAX_MATCHES || matchedChars > MAX_MATCHED_CHARS;
    }
  }

  /**
   * A searcher over the matching notes that scores with the whole corpus's counts: what BM25 reads
   * of the collection (notes with words in the field, all its words) and of each term (notes
   * holding it, its occurrences). Lucene asks for these only here.
   */
  private final class WholeCorpus extends IndexSearcher {
    private final Tally all;

    WholeCorpus(DirectoryReader reader, Tally all) {
      super(reader);
      this.all = all;
    }

    @Override
    public CollectionStatistics collectionStatistics(String field) throws IOException {
      int f = fieldIndex(field);
      if (f < 0) {
        return super.collectionStatistics(field);
      }
      long withWords = all.withWords[f];
      if (withWords == 0) {
        return null;
      }
      // BM25 reads the note count and the word count; the sum of per-note distinct words is not
      // read, and is given as its lowest possible value.
      return new CollectionStatistics(field, all.notes, withWords, all.length[f], withWords);
    }

    @Override
    public TermStatistics termStatistics(Term term, int docFreq, long totalTermFreq)
        throws IOException {
      int f = fieldIndex(term.field());
      Integer w = f < 0 ? null : words.get(term.text());
      if (w == null || all.docFreq[f][w] == 0) {
        return super.termStatistics(term, docFreq, totalTermFreq);
      }
      return new TermStatistics(term.bytes(), all.docFreq[f][w], all.totalFreq[f][w]);
    }
  }

  private static int fieldIndex(String field) {
    for (int f = 0; f < FIELDS.length; f++) {
      if (FIELDS[f].equals(field)) {
        return f;
      }
    }
    return -1;
  }
}

package notesmcp.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import notesmcp.policy.tools.NoteSearch;
import notesmcp.policy.tools.NoteSearch.Note;
import notesmcp.policy.tools.NoteSearch.Ranked;
import org.apache.lucene.analysis.CharArrayMap;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInvertState;
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
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.SmallFloat;

/**
 * One query answered by reading every note once, without an index: what a first-ever search answers
 * with while its index is still being built (docs/behaviour.md, "search_notes"). Each note is read
 * through the corpus (the careful read) and split into words by the index's own analyzer; the scan
 * counts what the index's scoring needs (per field: the notes with words, all their words; per
 * query word: the notes holding it, its occurrences) and keeps, of each matching note, its length
 * in words and where the query's words stand in it. Those notes alone are put in an index in
 * memory, each holding only the query's words at their own positions and the length of its whole
 * text (the norm), and searched with the counts of the whole corpus in place of the small index's
 * own: BM25 reads nothing else, so each score is the one the index of every note gives. {@code
 * ScanTest} compares the two to the last bit on generated corpora.
 *
 * <p>Bounded: the notes are read one at a time per thread (two threads), and at most {@link
 * #MAX_POSITIONS} positions of query words are kept over all matching notes; beyond that the scan
 * gives up (null) and the caller waits for the index.
 */
final class Scan {
  /**
   * The most positions of query words a scan keeps over all its matching notes (eight bytes each):
   * a query of common words in a large vault waits for the index beyond this.
   */
  static final int MAX_POSITIONS = 4 << 20;

  private static final String[] FIELDS = {Engine.TEXT, Engine.NAME};

  private final NoteSearch.Corpus corpus;
  private final SearchQuery query;
  private final String folder;

  /** Each distinct word of the query, numbered in the order first seen. */
  private final List<String> wordList;

  /** Each one's number, looked up by a word's characters without making a string of them. */
  private final CharArrayMap<Integer> wordIds;

  private final int maxPositions;

  private Scan(NoteSearch.Corpus corpus, SearchQuery query, String folder, int maxPositions) {
    this.corpus = corpus;
    this.maxPositions = maxPositions;
    this.query = query;
    this.folder = folder;
    Set<String> distinct = new LinkedHashSet<>();
    for (List<String> clause : query.clauses()) {
      distinct.addAll(clause);
    }
    wordList = List.copyOf(distinct);
    wordIds = new CharArrayMap<>(wordList.size(), false);
    for (int w = 0; w < wordList.size(); w++) {
      wordIds.put(wordList.get(w), w);
    }
  }

  /** The best {@code count} notes, by score then path; null when too many match. */
  static List<Ranked> rank(NoteSearch.Corpus corpus, SearchQuery query, String folder, int count)
      throws IOException {
    return rank(corpus, query, folder, count, MAX_POSITIONS);
  }

  /** As above, keeping at most {@code maxPositions} positions (tests). */
  static List<Ranked> rank(
      NoteSearch.Corpus corpus, SearchQuery query, String folder, int count, int maxPositions)
      throws IOException {
    return new Scan(corpus, query, folder, maxPositions).rank(count);
  }

  private List<Ranked> rank(int count) throws IOException {
    Tally all = tallyAll(corpus.notes());
    if (all.tooMany) {
      return null;
    }
    if (all.matches.isEmpty()) {
      return List.of();
    }
    KnownLength lengths = new KnownLength();
    IndexWriterConfig config = new IndexWriterConfig(Folding.ANALYZER).setSimilarity(lengths);
    try (ByteBuffersDirectory directory = new ByteBuffersDirectory();
        IndexWriter writer = new IndexWriter(directory, config)) {
      for (Match match : all.matches) {
        lengths.text = match.textLength;
        writer.addDocument(document(match));
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

  /**
   * A matching note as the index would hold it for this query: its path, folders and name as the
   * index writes them ({@link Engine#named}), and a text of only the query's words at their
   * positions.
   */
  private Document document(Match match) {
    Document doc = Engine.named(match.path);
    if (match.positions.length > 0) {
      doc.add(new Field(Engine.TEXT, new QueryWords(match.positions), TextField.TYPE_NOT_STORED));
    }
    return doc;
  }

  /** The counts over {@code notes}, on two threads when there are many. */
  private Tally tallyAll(List<String> notes) throws IOException {
    List<Tally> parts =
        Split.run(
            Split.threadsFor(notes.size()),
            "notes-mcp search scan",
            (first, step) -> {
              Tally tally = new Tally(wordList.size());
              for (int i = first; i < notes.size(); i += step) {
                if (!add(tally, notes.get(i))) {
                  break;
                }
              }
              return tally;
            });
    Tally all = parts.get(0);
    for (Tally part : parts.subList(1, parts.size())) {
      all.merge(part);
    }
    return all;
  }

  /** Counts one note; false once the tally holds too many matches to go on. */
  private boolean add(Tally tally, String path) throws IOException {
    Note note = corpus.read(path);
    if (note == null) {
      return true; // not a note the index would hold either
    }
    tally.notes++;
    String name = Engine.nameOf(path);
    int[] inText = tally.count(0, note.text());
    int[] inName = tally.count(1, name);
    for (List<String> clause : query.clauses()) {
      if (!holdsAll(inText, clause) && !holdsAll(inName, clause)) {
        return true; // a clause's word is missing: no match, and nothing more to count
      }
    }
    if (folder != null && !path.startsWith(folder + "/")) {
      return true;
    }
    // Whether its phrases stand in order is the small index's to say, as the whole one's would.
    tally.kept += tally.found;
    if (tally.kept > maxPositions) {
      tally.tooMany = true;
      return false;
    }
    tally.matches.add(
        new Match(path, tally.textLength, Arrays.copyOf(tally.positions, tally.found * 2)));
    return true;
  }

  private boolean holdsAll(int[] counts, List<String> clause) {
    for (String word : clause) {
      if (counts[wordIds.get(word)] == 0) {
        return false;
      }
    }
    return true;
  }

  /** A matching note: its path, its text's length in words, and (word, position) pairs. */
  private record Match(String path, int textLength, int[] positions) {}

  /** What one thread counted; merged at the end. */
  private final class Tally {
    long notes;
    final long[] withWords = new long[FIELDS.length];
    final long[] length = new long[FIELDS.length];
    final long[][] docFreq;
    final long[][] totalFreq;
    final List<Match> matches = new ArrayList<>();
    long kept;
    boolean tooMany;
    private final int[][] counts;

    /** The last text counted: its length in words, its query words' (word, position) pairs. */
    int textLength;

    int[] positions = new int[64];
    int found;

    Tally(int words) {
      docFreq = new long[FIELDS.length][words];
      totalFreq = new long[FIELDS.length][words];
      counts = new int[FIELDS.length][words];
    }

    /**
     * Counts {@code text}'s words for field {@code f}; returns how often each query word occurs in
     * it (the field's array, reused for the next note). For the text, also where they stand.
     */
    int[] count(int f, String text) throws IOException {
      int[] counts = this.counts[f];
      Arrays.fill(counts, 0);
      boolean isText = f == 0;
      if (isText) {
        found = 0;
      }
      int n = 0;
      try (TokenStream stream = Folding.ANALYZER.tokenStream(FIELDS[f], text)) {
        CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
        stream.reset();
        while (stream.incrementToken()) {
          Integer id = wordIds.get(term.buffer(), 0, term.length());
          if (id != null) {
            counts[id]++;
            if (isText) {
              if (found * 2 == positions.length) {
                positions = Arrays.copyOf(positions, positions.length * 2);
              }
              positions[found * 2] = id;
              positions[found * 2 + 1] = n;
              found++;
            }
          }
          n++;
        }
        stream.end();
      }
      if (isText) {
        textLength = n;
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
      matches.addAll(other.matches);
      kept += other.kept;
      tooMany |= other.tooMany || kept > maxPositions;
    }
  }

  /**
   * A note's text as only the query's words, each at its position in the whole text: what the
   * index's postings hold of that note for this query (frequencies, and positions for phrases).
   */
  private final class QueryWords extends TokenStream {
    private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
    private final PositionIncrementAttribute increment =
        addAttribute(PositionIncrementAttribute.class);
    private final int[] positions;
    private int next;
    private int last = -1;

    QueryWords(int[] positions) {
      this.positions = positions;
    }

    @Override
    public boolean incrementToken() {
      if (next * 2 >= positions.length) {
        return false;
      }
      clearAttributes();
      int position = positions[next * 2 + 1];
      term.setEmpty().append(wordList.get(positions[next * 2]));
      increment.setPositionIncrement(position - last);
      last = position;
      next++;
      return true;
    }

    @Override
    public void reset() throws IOException {
      super.reset();
      next = 0;
      last = -1;
    }
  }

  /**
   * BM25's norms, with the text's taken from the whole text's length ({@link #text}, set before
   * each note is added) rather than from the query's words that stand for it: Lucene's own norm of
   * a field of that many words (no word of the analyzer ever shares a position).
   */
  private static final class KnownLength extends Similarity {
    private final BM25Similarity bm25 = new BM25Similarity();
    int text;

    @Override
    public long computeNorm(FieldInvertState state) {
      return state.getName().equals(Engine.TEXT)
          ? SmallFloat.intToByte4(text)
          : bm25.computeNorm(state);
    }

    @Override
    public SimScorer scorer(
        float boost, CollectionStatistics collectionStats, TermStatistics... termStats) {
      return bm25.scorer(boost, collectionStats, termStats);
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
      Integer w = f < 0 ? null : wordIds.get(term.text());
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

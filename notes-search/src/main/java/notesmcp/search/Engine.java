package notesmcp.search;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import notesmcp.policy.tools.NoteSearch;
import notesmcp.text.CodePoints;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexNotFoundException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopFieldDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.Lock;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * The search engine behind {@code search_notes} (docs/behaviour.md, "search_notes"): a Lucene index
 * of the notes the corpus lets {@code read_note} return, kept on disk in the user's cache folder
 * ({@link IndexFolder}) or, when that is not safe, in memory. Until it is built a server searches
 * through {@link FirstSearch}; {@code notes-mcp index} builds it through {@link IndexBuild}.
 *
 * <p>Freshness: before a search, at most every {@link #SWEEP_INTERVAL_NANOS}, the corpus's notes
 * are looked at (identity: device, inode, size, change time) and every new or changed one read and
 * indexed again, every gone one deleted. Trust: the index only proposes candidates; each one is
 * read again through the corpus (the careful read, the policy as it is now) and the query matched
 * on the text that read returned; only then is it a hit, with its snippet from that text. A note
 * that is gone, refused, or no longer matching is dropped and indexed again; so a deleted, replaced
 * or excluded note never appears, whatever the index held.
 *
 * <p>Threads: any thread may search; sweeps and index changes are serialized by {@link #lock};
 * readers come from a {@link SearcherManager}. Commits run on one background thread of its own.
 */
public final class Engine implements NoteSearch {
  static final String PATH = "path";
  static final String FOLDER = "folder";
  static final String NAME = "name";
  static final String TEXT = "text";
  private static final String DEVICE = "device";
  private static final String INODE = "inode";
  private static final String SIZE = "size";
  private static final String CHANGED = "changed";

  /**
   * How often a search looks for changed notes (a note changed since may be missed, never wrong).
   */
  static final long SWEEP_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(2);

  /** Candidates read again beyond the limit, at most, when some are dropped: bounds every query. */
  static final int EXTRA_CANDIDATES = 20;

  private static final double ROUNDING = 1000.0;
  private static final double BUFFER_MB = 64;
  private static final Comparator<String> CODE_POINTS = CodePoints.ORDER;

  private final NoteSearch.Corpus corpus;
  private final PrintStream log;
  private final Directory directory;
  private final Path folder;
  private final IndexWriter writer;
  private final SearcherManager searchers;
  private final Object lock = new Object();
  private final ExecutorService committer;
  private final AtomicBoolean commitPending = new AtomicBoolean();
  private final TieredMergePolicy mergePolicy = new TieredMergePolicy();
  private final String where;

  /** The identity each note had when it was indexed; read by searches, changed by sweeps too. */
  private final Map<String, Identity> indexed = new ConcurrentHashMap<>();

  /**
   * Whether {@link #indexed} holds the kept index's identities: false while the first look after
   * opening a kept index runs in the background; searches meanwhile neither sweep nor re-index.
   */
  private volatile boolean loaded;

  /**
   * Whether the index was empty when this engine opened it: then every document in it was added by
   * this engine, and {@link #indexed} names each one (a note it never indexed needs no delete).
   */
  private volatile boolean built;

  private final CountDownLatch firstLook = new CountDownLatch(1);
  private final AtomicBoolean lookStarted = new AtomicBoolean();

  // Guarded by lock.
  private long lastSweep;
  private boolean swept;

  /** How far along the sweep under way is: notes to read, notes read, when it began to read. */
  private volatile int toIndex;

  private final AtomicInteger indexedSoFar = new AtomicInteger();
  private volatile long indexingSince;

  /** How often {@link #refresh} tells its listener how far along it is, and writes it down. */
  static final long PROGRESS_EVERY_MILLIS = 250;

  private static final long PROGRESS_FILE_EVERY_MILLIS = 1000;

  /**
   * @param folder where the index is kept, or null in memory
   */
  private Engine(NoteSearch.Corpus corpus, PrintStream log, Directory directory, Path folder)
      throws IOException {
    this.corpus = corpus;
    this.log = log;
    this.directory = directory;
    this.folder = folder;
    this.where = folder == null ? "memory" : folder.toString();
    IndexWriterConfig config = new IndexWriterConfig(Folding.ANALYZER);
    config.setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND);
    config.setRAMBufferSizeMB(BUFFER_MB);
    config.setCommitOnClose(false);
    config.setUseCompoundFile(false);
    ConcurrentMergeScheduler merges = new ConcurrentMergeScheduler();
    merges.setMaxMergesAndThreads(2, 1);
    config.setMergeScheduler(merges);
    mergePolicy.setForceMergeDeletesPctAllowed(0.0);
    config.setMergePolicy(mergePolicy);
    this.writer = new IndexWriter(directory, config);
    this.searchers = new SearcherManager(writer, null);
    this.committer =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread thread = new Thread(r, "notes-mcp search commit");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** This engine, ready for its first search. */
  private Engine begun() {
    if (writer.getDocStats().numDocs == 0) {
      // Nothing kept: the index is built before it answers (FirstSearch, IndexBuild).
      built = writer.getDocStats().maxDoc == 0;
      lookStarted.set(true);
      loaded = true;
      firstLook.countDown();
    }
    return this;
  }

  /**
   * Whether the index was empty when this engine opened it: it has to be built before it can answer
   * (a new index in memory, or one made anew in place of an unusable kept one).
   */
  boolean isEmpty() {
    return built;
  }

  /**
   * A kept index answers its first search at once (every hit is read again anyway); what changed
   * while no server ran is looked for in the background: seconds after a server starts ({@link
   * #prepare}), or half a second after the first answer if that comes sooner.
   */
  void beginFirstLook() {
    if (lookStarted.compareAndSet(false, true)) {
      Thread look = new Thread(this::firstLook, "notes-mcp search first look");
      look.setDaemon(true);
      look.start();
    }
  }

  /**
   * The kept identities read, then one sweep: in the background, right after opening. Searches
   * meanwhile neither sweep nor wait for it: {@link #loaded} is set only once it is done.
   */
  private void firstLook() {
    try {
      synchronized (lock) {
        loadIdentities();
        int changed = sweep();
        lastSweep = System.nanoTime();
        swept = true;
        loaded = true;
        if (changed != 0) {
          searchers.maybeRefreshBlocking();
          scheduleCommit();
        }
      }
    } catch (IOException | RuntimeException e) {
      log.println(
          "notes-mcp: search: the look for notes changed since the index was kept failed: " + e);
    } finally {
      loaded = true;
      firstLook.countDown();
    }
  }

  /**
   * The factory the program calls (by reflection, from its own class loader), as a server starts or
   * on its first search, or in {@code notes-mcp index}.
   *
   * @param server whether for a server; else for {@code notes-mcp index} ({@link IndexBuild})
   * @param builder the command that builds a first-ever kept index in a child process ({@code
   *     notes-mcp index} with the same root and policy, at a low priority), or null to build in the
   *     server
   * @param scanner the command of the child that ranks searches by a scan while the index is built
   *     ({@code notes-mcp index -scan}), or null for none
   */
  public static NoteSearch.Factory factory(
      PrintStream log, boolean server, List<String> builder, List<String> scanner) {
    if (!server) {
      return corpus -> new IndexBuild(corpus, System.getenv(), log);
    }
    return corpus -> open(corpus, System.getenv(), log, builder, scanner);
  }

  /** A server's engine over the kept index, or in memory (tests). */
  static Engine open(NoteSearch.Corpus corpus, Map<String, String> environment, PrintStream log)
      throws Refused {
    return openAt(chooseFolder(corpus, environment, log), corpus, log);
  }

  /** Where the index of {@code corpus} is kept, or null (in memory): {@link IndexFolder#choose}. */
  static Path chooseFolder(
      NoteSearch.Corpus corpus, Map<String, String> environment, PrintStream log) {
    return IndexFolder.choose(
        environment, corpus.key(), corpus.root(), IndexFolder.identityOf(corpus.root()), log);
  }

  /**
   * A server's engine: over the kept index when there is one, else a {@link FirstSearch} that has
   * the index built (by a child {@code builder} when it can be kept, else in this process) and
   * answers searches meanwhile.
   */
  static NoteSearch open(
      NoteSearch.Corpus corpus,
      Map<String, String> environment,
      PrintStream log,
      List<String> builder,
      List<String> scanner) {
    Path folder = chooseFolder(corpus, environment, log);
    Scanner scans = new Scanner(scanner, log, corpus);
    if (folder != null && builder != null && !hasIndex(folder)) {
      return FirstSearch.byChild(
          corpus, log, folder, builder, scans, () -> openAt(folder, corpus, log));
    }
    Engine engine;
    try {
      engine = openAt(folder, corpus, log);
    } catch (Refused refused) {
      return FirstSearch.failed(refused);
    }
    return engine.isEmpty() ? FirstSearch.inProcess(corpus, log, engine, scans) : engine;
  }

  /**
   * The engine over the index kept in {@code folder}, made anew there when the kept one is
   * unusable.
   *
   * @throws LockObtainFailedException when another process holds it
   */
  static Engine openKept(Path folder, NoteSearch.Corpus corpus, PrintStream log)
      throws IOException {
    try {
      return new Engine(corpus, log, new KeptDirectory(folder), folder).begun();
    } catch (LockObtainFailedException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      log.println(
          "notes-mcp: search: the kept index in "
              + folder
              + " is unusable ("
              + e
              + "); building a new one");
      Directory fresh = new KeptDirectory(folder);
      for (String file : fresh.listAll()) {
        if (!file.equals("root") && !file.equals("used") && !file.equals("write.lock")) {
          fresh.deleteFile(file);
        }
      }
      return new Engine(corpus, log, fresh, folder).begun();
    }
  }

  /** The engine over the index kept in {@code folder}, or in memory when it is null or unusable. */
  private static Engine openAt(Path folder, NoteSearch.Corpus corpus, PrintStream log)
      throws Refused {
    if (folder != null) {
      try {
        return openKept(folder, corpus, log);
      } catch (LockObtainFailedException e) {
        log.println(
            "notes-mcp: search index kept in memory: another server uses the one in " + folder);
      } catch (IOException | RuntimeException again) {
        log.println("notes-mcp: search index kept in memory (" + again + ")");
      }
    }
    try {
      return new Engine(corpus, log, new ByteBuffersDirectory(), null).begun();
    } catch (IOException e) {
      throw new Refused("search is unavailable: the index could not be made");
    }
  }

  /** Whether {@code folder} holds a committed index. */
  static boolean hasIndex(Path folder) {
    try (Directory directory = new KeptDirectory(folder)) {
      return DirectoryReader.indexExists(directory);
    } catch (IOException e) {
      return false;
    }
  }

  /** Whether another process holds the index in {@code folder} (for pruning). */
  static boolean isLocked(Path folder) {
    try (Directory directory = new KeptDirectory(folder)) {
      Lock held = directory.obtainLock(IndexWriter.WRITE_LOCK_NAME);
      held.close();
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  /** Where the index is: a folder, or "memory". */
  String where() {
    return where;
  }

  private void loadIdentities() throws IOException {
    try (DirectoryReader reader = DirectoryReader.open(writer)) {
      for (LeafReaderContext leaf : reader.leaves()) {
        LeafReader leafReader = leaf.reader();
        Bits live = leafReader.getLiveDocs();
        StoredFields stored = leafReader.storedFields();
        for (int doc = 0; doc < leafReader.maxDoc(); doc++) {
          if (live != null && !live.get(doc)) {
            continue;
          }
          Document d = stored.document(doc);
          // A search may have indexed the note again meanwhile: its identity is the newer.
          indexed.putIfAbsent(
              d.get(PATH),
              new Identity(
                  d.getField(DEVICE).numericValue().longValue(),
                  d.getField(INODE).numericValue().longValue(),
                  d.getField(SIZE).numericValue().longValue(),
                  d.getField(CHANGED).numericValue().longValue()));
        }
      }
    } catch (IndexNotFoundException e) {
      // a new index: nothing kept yet
    }
  }

  /**
   * How long after its warm-up a server's engine waits before its first look, unless a search's
   * answer begins it sooner: a client that searches as soon as it has connected gets the cores for
   * that search, not the look (BENCHMARKS.md, "Vault and search").
   */
  static final long LOOK_AFTER_MILLIS = 3000;

  /**
   * How long after a search has its hits the first look begins, when it has not: the tool still has
   * to read each hit's structure and write the answer, and the look (every note's identity looked
   * at again, under the lock) would share the cores with that.
   */
  static final long LOOK_AFTER_ANSWER_MILLIS = 500;

  private final AtomicBoolean lookSoon = new AtomicBoolean();

  /** Begins the first look {@link #LOOK_AFTER_ANSWER_MILLIS} from now, once. */
  private void beginFirstLookSoon() {
    if (!lookStarted.get() && lookSoon.compareAndSet(false, true)) {
      beginFirstLookIn(LOOK_AFTER_ANSWER_MILLIS, "notes-mcp search look soon");
    }
  }

  /** Begins the first look {@code millis} from now, unless it has begun, on a daemon thread. */
  private void beginFirstLookIn(long millis, String name) {
    Thread later =
        new Thread(
            () -> {
              try {
                Thread.sleep(millis);
              } catch (InterruptedException e) {
                return;
              }
              beginFirstLook();
            },
            name);
    later.setDaemon(true);
    later.start();
  }

  /**
   * The search that warms this engine up, in the background as a server starts, then its first look
   * {@link #LOOK_AFTER_MILLIS} later (or half a second after the first answer, if that comes
   * sooner): so that the first search after a restart pays neither Lucene's classes nor the look.
   */
  @Override
  public void prepare() {
    warmUp();
    beginFirstLookIn(LOOK_AFTER_MILLIS, "notes-mcp search look later");
  }

  /**
   * One search for a word the index holds in few notes, its hit read again and matched as any
   * search's is: the classes and code of a search (Lucene's queries, scoring and stored fields, the
   * careful read, the snippet) loaded and linked before a client's first search needs them.
   */
  void warmUp() {
    try {
      String word = rareWord();
      if (word != null) {
        collect(SearchQuery.parse(word), SearchQuery.parse(word).toLucene(null), 1);
      }
    } catch (IOException | RuntimeException | Refused e) {
      log.println("notes-mcp: search: the first search made in advance failed: " + e);
    }
  }

  /** A word of the text that at most three notes hold, among the index's first 10,000; or null. */
  private String rareWord() throws IOException {
    IndexSearcher searcher = searchers.acquire();
    try {
      int looked = 0;
      for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
        Terms terms = leaf.reader().terms(TEXT);
        if (terms == null) {
          continue;
        }
        TermsEnum words = terms.iterator();
        for (BytesRef word = words.next(); word != null; word = words.next()) {
          if (words.docFreq() <= 3) {
            return word.utf8ToString();
          }
          if (++looked == 10_000) {
            return null;
          }
        }
      }
      return null;
    } finally {
      searchers.release(searcher);
    }
  }

  @Override
  public int refresh() throws Refused {
    return refresh(null);
  }

  @Override
  public int refresh(Progress progress) throws Refused {
    toIndex = 0;
    indexedSoFar.set(0);
    Thread ticker = progress == null && folder == null ? null : ticker(progress);
    try {
      beginFirstLook();
      firstLook.await();
      int read;
      synchronized (lock) {
        read = sweep();
        lastSweep = System.nanoTime();
        swept = true;
        searchers.maybeRefreshBlocking();
      }
      if (!(directory instanceof ByteBuffersDirectory)) {
        synchronized (committer) {
          if (writer.hasDeletions()) {
            writer.forceMergeDeletes(true);
          }
          writer.commit();
        }
      }
      return Math.max(read, 0);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Refused("interrupted");
    } catch (IOException | RuntimeException e) {
      log.println("notes-mcp: search: the index could not be brought up to date: " + e);
      throw new Refused("the index could not be brought up to date");
    } finally {
      if (ticker != null) {
        ticker.interrupt();
        try {
          ticker.join();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      if (folder != null) {
        IndexFolder.clearProgress(folder);
      }
    }
  }

  /**
   * The thread that, while {@link #refresh} works, tells {@code progress} (if any) how far along it
   * is every {@link #PROGRESS_EVERY_MILLIS} and writes it in the kept index's folder every second,
   * for the servers that wait for this build (docs/behaviour.md, "search_notes").
   */
  private Thread ticker(Progress progress) {
    Thread ticker =
        new Thread("notes-mcp search progress") {
          @Override
          public void run() {
            long written = 0;
            while (!isInterrupted()) {
              IndexFolder.Progress now = progress();
              if (progress != null) {
                progress.indexed(now.read(), now.total(), now.millisLeft(), false);
              }
              if (folder != null && now.at() - written >= PROGRESS_FILE_EVERY_MILLIS) {
                written = now.at();
                try {
                  IndexFolder.writeProgress(folder, now);
                } catch (IOException | RuntimeException e) {
                  // the next tick tries again; a reader without it says the build is starting
                }
              }
              try {
                Thread.sleep(PROGRESS_EVERY_MILLIS);
              } catch (InterruptedException e) {
                return;
              }
            }
          }
        };
    ticker.setDaemon(true);
    ticker.start();
    return ticker;
  }

  /** How far along the sweep under way is, with an estimate of the time left from its pace. */
  IndexFolder.Progress progress() {
    int total = toIndex;
    int read = Math.min(indexedSoFar.get(), total);
    long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - indexingSince);
    long left = total == 0 || read == 0 || elapsed < 1000 ? -1 : elapsed * (total - read) / read;
    return new IndexFolder.Progress(read, total, left, System.currentTimeMillis());
  }

  @Override
  public List<Hit> search(String text, String folder, int limit) throws Refused {
    SearchQuery query = SearchQuery.parse(text);
    try {
      sweepIfDue();
      Query lucene =
          query.toLucene(folder == null ? null : new TermQuery(new Term(FOLDER, folder)));
      try {
        return collect(query, lucene, limit);
      } finally {
        beginFirstLookSoon();
      }
    } catch (IOException | RuntimeException e) {
      log.println("notes-mcp: search failed: " + e);
      throw new Refused("search failed: the index could not be read; try again");
    }
  }

  @Override
  public List<Ranked> scan(String text, String folder, int count) throws Refused {
    return scanned(corpus, log, text, folder, count);
  }

  /** {@link NoteSearch#scan}: the ranking of a scan ({@link Scan}), the same for every engine. */
  static List<Ranked> scanned(
      NoteSearch.Corpus corpus, PrintStream log, String text, String folder, int count)
      throws Refused {
    SearchQuery query = SearchQuery.parse(text);
    try {
      return Scan.rank(corpus, query, folder, count);
    } catch (IOException | RuntimeException e) {
      log.println("notes-mcp: search: the scan failed: " + e);
      throw new Refused("search failed: the notes could not be read; try again");
    }
  }

  /**
   * The hits among notes a scan ranked ({@link #scan}, in another process): each read again now and
   * matched, as {@link #collect} does with the index's candidates, within the same budget.
   */
  static List<Hit> verified(
      NoteSearch.Corpus corpus, SearchQuery query, List<Ranked> ranked, int limit) {
    List<Hit> hits = new ArrayList<>();
    int budget = limit + EXTRA_CANDIDATES;
    for (Ranked candidate : ranked) {
      if (budget-- == 0) {
        break;
      }
      double score = Math.round(candidate.score() * ROUNDING) / ROUNDING;
      if (hits.size() >= limit && score < hits.get(limit - 1).score()) {
        break; // past the last score that can still take a place
      }
      Note note = corpus.read(candidate.path());
      SearchQuery.Match match =
          note == null ? null : query.matchIn(note.text(), nameOf(candidate.path()));
      if (match != null) {
        hits.add(new Hit(candidate.path(), score, Snippets.around(note.text(), match)));
      }
    }
    return best(hits, limit);
  }

  private static List<Hit> best(List<Hit> hits, int limit) {
    hits.sort(
        Comparator.comparingDouble(Hit::score).reversed().thenComparing(Hit::path, CODE_POINTS));
    return hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : List.copyOf(hits);
  }

  private List<Hit> collect(SearchQuery query, Query lucene, int limit) throws IOException {
    Sort order = new Sort(SortField.FIELD_SCORE, new SortField(PATH, SortField.Type.STRING));
    List<Hit> hits = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    int budget = limit + EXTRA_CANDIDATES;
    boolean changed = false;
    IndexSearcher searcher = searchers.acquire();
    try {
      ScoreDoc after = null;
      StoredFields stored = searcher.storedFields();
      search:
      while (budget > 0) {
        TopFieldDocs top =
            after == null
                ? searcher.search(lucene, limit + 1, order, true)
                : searcher.searchAfter(after, lucene, limit + 1, order, true);
        if (top.scoreDocs.length == 0) {
          break;
        }
        for (ScoreDoc candidate : top.scoreDocs) {
          after = candidate;
          String path = stored.document(candidate.doc).get(PATH);
          if (!seen.add(path)) {
            continue;
          }
          budget--;
          double score = Math.round(((FieldDoc) candidate).score * ROUNDING) / ROUNDING;
          if (hits.size() >= limit && score < hits.get(limit - 1).score()) {
            break search; // past the last score that can still take a place
          }
          Hit hit = verify(query, path, score);
          if (hit == null) {
            changed = true;
          } else {
            hits.add(hit);
          }
          if (budget == 0) {
            break search;
          }
        }
      }
    } finally {
      searchers.release(searcher);
    }
    if (changed) {
      searchers.maybeRefresh();
      scheduleCommit();
    }
    return best(hits, limit);
  }

  /**
   * The hit for {@code path} if the note, read again now, still matches; else null, with the index
   * brought up to date for it.
   */
  private Hit verify(SearchQuery query, String path, double score) throws IOException {
    Note note = corpus.read(path);
    if (note == null) {
      writer.deleteDocuments(new Term(PATH, path));
      indexed.remove(path);
      return null;
    }
    SearchQuery.Match match = query.matchIn(note.text(), nameOf(path));
    // Until the kept identities are loaded, unknown is not changed: the first look decides.
    if (loaded && !note.identity().equals(indexed.get(path))) {
      writer.updateDocument(new Term(PATH, path), document(path, note));
      indexed.put(path, note.identity());
    }
    if (match == null) {
      return null;
    }
    return new Hit(path, score, Snippets.around(note.text(), match));
  }

  private void sweepIfDue() throws IOException {
    if (!loaded) {
      return; // the first look runs in the background
    }
    synchronized (lock) {
      long now = System.nanoTime();
      if (swept && now - lastSweep < SWEEP_INTERVAL_NANOS) {
        return;
      }
      boolean changed = sweep() != 0;
      lastSweep = System.nanoTime();
      swept = true;
      if (changed) {
        searchers.maybeRefreshBlocking();
        scheduleCommit();
      }
    }
  }

  /**
   * Brings the index to the corpus as it is: under {@link #lock}. Returns how many notes it read
   * and indexed, or -1 when it only deleted some; 0 when nothing changed.
   */
  private int sweep() throws IOException {
    List<String> notes = corpus.notes();
    Set<String> present = new HashSet<>(notes);
    boolean changed = false;
    for (String path : new ArrayList<>(indexed.keySet())) {
      if (!present.contains(path)) {
        writer.deleteDocuments(new Term(PATH, path));
        indexed.remove(path);
        changed = true;
      }
    }
    List<String> stale = new ArrayList<>();
    for (String path : notes) {
      Identity known = indexed.get(path);
      if (known == null || !known.equals(corpus.look(path))) {
        stale.add(path);
      }
    }
    if (stale.isEmpty()) {
      return changed ? -1 : 0;
    }
    long start = System.nanoTime();
    indexedSoFar.set(0);
    indexingSince = start;
    toIndex = stale.size();
    index(stale);
    if (stale.size() > 100) {
      log.println(
          "notes-mcp: search: indexed "
              + stale.size()
              + " notes in "
              + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)
              + " ms (index in "
              + where
              + ")");
    }
    return stale.size();
  }

  /** Reads and indexes {@code paths}, on two threads when there are many. */
  private void index(List<String> paths) throws IOException {
    Split.run(
        Split.threadsFor(paths.size()),
        "notes-mcp search index",
        (first, step) -> {
          for (int i = first; i < paths.size(); i += step) {
            indexOne(paths.get(i));
          }
          if (step > 1) {
            // Each thread writes out a buffered segment as it ends, so that the two buffers are
            // flushed at once, not one after the other by the next reader or commit.
            writer.flushNextBuffer();
          }
          return null;
        });
  }

  private void indexOne(String path) throws IOException {
    indexedSoFar.incrementAndGet();
    Note note = corpus.read(path);
    if (note == null) {
      writer.deleteDocuments(new Term(PATH, path));
      indexed.remove(path);
    } else {
      if (built && !indexed.containsKey(path)) {
        // Never indexed in an index this engine made: nothing to replace, no term to look up.
        writer.addDocument(document(path, note));
      } else {
        writer.updateDocument(new Term(PATH, path), document(path, note));
      }
      indexed.put(path, note.identity());
    }
  }

  private static Document document(String path, Note note) {
    Document doc = named(path);
    doc.add(new TextField(TEXT, note.text(), Field.Store.NO));
    Identity identity = note.identity();
    doc.add(new StoredField(DEVICE, identity.device()));
    doc.add(new StoredField(INODE, identity.inode()));
    doc.add(new StoredField(SIZE, identity.size()));
    doc.add(new StoredField(CHANGED, identity.changed()));
    return doc;
  }

  /** A note's document without its text: its path (stored, and for sorting), folders and name. */
  static Document named(String path) {
    Document doc = new Document();
    doc.add(new StringField(PATH, path, Field.Store.YES));
    doc.add(new SortedDocValuesField(PATH, new BytesRef(path)));
    for (int slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
      doc.add(new StringField(FOLDER, path.substring(0, slash), Field.Store.NO));
    }
    doc.add(new TextField(NAME, nameOf(path), Field.Store.NO));
    return doc;
  }

  /** The note's name without its folders and its extension: what a word may match besides text. */
  static String nameOf(String path) {
    String name = path.substring(path.lastIndexOf('/') + 1);
    int dot = name.lastIndexOf('.');
    return dot > 0 ? name.substring(0, dot) : name;
  }

  /**
   * Commits on the background thread (one at a time; a request while one waits joins it), first
   * rewriting any segment that holds deleted notes, so a note's words leave the disk with it.
   */
  private void scheduleCommit() {
    if (directory instanceof ByteBuffersDirectory || !commitPending.compareAndSet(false, true)) {
      return;
    }
    committer.execute(
        () -> {
          commitPending.set(false);
          try {
            synchronized (committer) {
              if (writer.hasDeletions()) {
                writer.forceMergeDeletes(true);
              }
              writer.commit();
            }
          } catch (IOException | RuntimeException e) {
            log.println("notes-mcp: search: the index could not be kept on disk (" + e + ")");
          }
        });
  }

  /** Waits for a commit under way (tests; the server never waits: a cut commit loses nothing). */
  void awaitCommitted() throws InterruptedException {
    java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
    committer.execute(done::countDown);
    done.await();
  }

  /** Closes the index without committing (tests). */
  void close() throws IOException {
    committer.shutdown();
    try {
      committer.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    searchers.close();
    writer.rollback();
    directory.close();
  }
}

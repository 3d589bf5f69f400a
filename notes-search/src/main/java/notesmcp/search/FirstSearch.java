package notesmcp.search;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import notesmcp.policy.tools.NoteSearch;

/**
 * The engine of a server whose index is not built yet (docs/behaviour.md, "search_notes"). When
 * none is kept for its workspace and policy, {@code notes-mcp index} builds it in a child JVM,
 * started as the server starts ({@link #prepare}), at a low priority and with the optimizing
 * compiler on every core (the server runs C1 only, for its start-up; an index build is most of a
 * minute of C1's code against seconds of the optimizing compiler's: BENCHMARKS.md, "Vault and
 * search"). The child reads the notes through the same policy file and careful read, writes the
 * kept index and says how far along it is in that index's folder ({@link IndexFolder#progress});
 * this server then opens it, warms it up and reads only what changed since. When the index cannot
 * be kept (it is kept in memory), or the child cannot start or fails, this server builds it itself,
 * from its first search on.
 *
 * <p>Searches before the index is ready are answered by their deadline: from the index if it is
 * ready by then, else from a scan of every note by a child of its own ({@link Scanner}: the scores
 * the index will give; this server reads each ranked note again and matches it, as for any search,
 * so the child's answer only proposes candidates), else refused with how far along the build is
 * ({@link #stillBuilding}). Nothing waits past the deadline.
 *
 * <p>The child's stderr is copied into this server's log line by line (never blocking on a stderr
 * nobody reads). If the child outlasts {@link #LIMIT_MINUTES}, the server builds the index itself.
 * A server that exits first leaves the child to finish and keep the index for the next one: it ends
 * by itself once the index is written.
 */
final class FirstSearch implements NoteSearch {
  static final long LIMIT_MINUTES = 30;

  /** How often a search refused a scan for now asks again, while it waits for the build. */
  private static final long RETRY_NANOS = 100_000_000L;

  /** Opens the engine once the child is gone (over the index it kept, or a new one to build). */
  interface Opener {
    Engine open() throws Refused;
  }

  private final Corpus corpus;
  private final PrintStream log;

  /** The child's command, or null: this server builds. */
  private final List<String> builder;

  /** Where the child keeps the index, which says how far along it is; null when it has none. */
  private final Path folder;

  private final Opener opener;

  /** The child that scans, or null. */
  private final Scanner scanner;

  private final AtomicBoolean started = new AtomicBoolean();
  private final CompletableFuture<Engine> ready = new CompletableFuture<>();

  /** How far along this server's own build is; null while none runs. */
  private volatile IndexFolder.Progress own;

  private FirstSearch(
      Corpus corpus,
      PrintStream log,
      List<String> builder,
      Path folder,
      Scanner scanner,
      Opener opener) {
    this.corpus = corpus;
    this.log = log;
    this.builder = builder == null ? null : List.copyOf(builder);
    this.folder = folder;
    this.scanner = scanner;
    this.opener = opener;
  }

  /** The index of {@code folder} built by the child {@code builder}, from {@link #prepare} on. */
  static FirstSearch byChild(
      Corpus corpus,
      PrintStream log,
      Path folder,
      List<String> builder,
      Scanner scanner,
      Opener opener) {
    return new FirstSearch(corpus, log, builder, folder, scanner, opener);
  }

  /**
   * {@code engine}'s empty index built by this server, from the first search on (a build in memory
   * would not outlive a server that exits, so it is not begun before a search needs it).
   */
  static FirstSearch inProcess(Corpus corpus, PrintStream log, Engine engine, Scanner scanner) {
    return new FirstSearch(corpus, log, null, null, scanner, () -> engine);
  }

  /** An engine that could not be made: every search is refused with {@code reason}. */
  static NoteSearch failed(Refused reason) {
    FirstSearch failed = new FirstSearch(null, null, null, null, null, null);
    failed.started.set(true);
    failed.ready.completeExceptionally(reason);
    return failed;
  }

  @Override
  public void prepare() {
    if (builder != null) {
      start();
    }
  }

  @Override
  public List<Hit> search(String text, String folder, int limit) throws Refused {
    return search(text, folder, limit, Long.MAX_VALUE);
  }

  @Override
  public List<Hit> search(String text, String folder, int limit, long answerBy) throws Refused {
    SearchQuery query = SearchQuery.parse(text); // a query refused starts nothing
    start();
    Exchange.Query asked = new Exchange.Query(text, folder, limit + Engine.EXTRA_CANDIDATES);
    CompletableFuture<List<Ranked>> ranking = null;
    boolean ranked = false; // a scan has answered without a ranking: the index answers
    while (true) {
      if (ready.isDone()) {
        return engine().search(text, folder, limit);
      }
      if (ranking == null && !ranked && scanner != null) {
        ranking = scanner.rank(asked);
      }
      if (ranking != null && ranking.isDone()) {
        List<Ranked> candidates = ranking.getNow(null);
        if (candidates != null) {
          return Engine.verified(corpus, query, candidates, limit);
        }
        ranking = null; // too many matches to rank, or the scan failed: the index answers
        ranked = true;
      }
      long left = answerBy - System.nanoTime();
      if (left <= 0) {
        throw new Refused(stillBuilding());
      }
      // Refused a scan for now (another runs, or it is the build's turn): asked again soon.
      boolean retry = ranking == null && !ranked && scanner != null && scanner.mayScanSoon();
      try {
        (ranking == null ? ready : CompletableFuture.anyOf(ready, ranking))
            .get(retry ? Math.min(left, RETRY_NANOS) : left, TimeUnit.NANOSECONDS);
      } catch (TimeoutException | ExecutionException e) {
        // the deadline, or the engine failed: both are looked at above
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Refused("interrupted");
      }
    }
  }

  @Override
  public int refresh() throws Refused {
    start();
    return engine().refresh();
  }

  @Override
  public List<Ranked> scan(String text, String folder, int count) throws Refused {
    return Engine.scanned(corpus, log, text, folder, count);
  }

  /**
   * The refusal of a search that the index is not ready for: how far along the build is, as its
   * progress file or this server's own build says.
   */
  String stillBuilding() {
    IndexFolder.Progress progress = own;
    if (progress == null && folder != null) {
      progress = IndexFolder.progress(folder);
      if (progress != null && !progress.isFresh()) {
        progress = null;
      }
    }
    return stillBuilding(progress);
  }

  /**
   * {@code the search index is still being built: 3,120 of 6,289 notes indexed, about 20 s left;
   * search again shortly}; {@code ...: 6,289 of 6,289 notes indexed, the index being written; ...}
   * at its end; {@code ...: it is starting; ...} before the notes are counted.
   */
  static String stillBuilding(IndexFolder.Progress progress) {
    StringBuilder text = new StringBuilder("the search index is still being built: ");
    if (progress == null || progress.total() == 0) {
      text.append("it is starting");
    } else {
      text.append(
          String.format(
              Locale.ROOT, "%,d of %,d notes indexed", progress.read(), progress.total()));
      if (progress.read() >= progress.total()) {
        text.append(", the index being written");
      } else if (progress.millisLeft() >= 0) {
        text.append(", about ").append(timeLeft(progress.millisLeft())).append(" left");
      }
    }
    return text.append("; search again shortly").toString();
  }

  /** {@code 20 s}, or {@code 3 min} from 90 s on; rounded up, at least 1 s. */
  static String timeLeft(long millis) {
    long seconds = Math.max(1, (millis + 999) / 1000);
    return seconds < 90 ? seconds + " s" : (seconds + 59) / 60 + " min";
  }

  private Engine engine() throws Refused {
    try {
      return ready.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Refused("interrupted");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Refused) {
        throw (Refused) e.getCause();
      }
      log.println("notes-mcp: search: the index could not be opened: " + e.getCause());
      throw new Refused("search is unavailable: the index could not be opened");
    }
  }

  /** Starts the build, once: the child's, or this server's own. */
  private void start() {
    if (!started.compareAndSet(false, true)) {
      return;
    }
    if (builder == null) {
      background("notes-mcp search build", () -> buildHere(null));
      return;
    }
    long start = System.nanoTime();
    Process child;
    try {
      child =
          new ProcessBuilder(builder)
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.PIPE)
              .start();
    } catch (IOException e) {
      log.println("notes-mcp: search: could not start the index build (" + e.getMessage() + ")");
      background("notes-mcp search build", () -> buildHere(null));
      return;
    }
    Thread copier = background("notes-mcp search index log", () -> copyLog(child, log));
    background(
        "notes-mcp search index wait",
        () -> {
          boolean built = await(child, copier);
          Engine engine;
          try {
            engine = opener.open();
          } catch (Refused | RuntimeException e) {
            fail(e);
            return;
          }
          if (built && !engine.isEmpty()) {
            engine.warmUp();
            becomeReady(engine);
            // Said once searches are answered from it (the tests wait for this line).
            log.println(
                "notes-mcp: search: index built by a child process in "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)
                    + " ms");
            engine.beginFirstLook(); // what changed while the child built
          } else {
            buildHere(engine);
          }
        });
  }

  /** Builds the index in this server, in {@code engine} or in the one opened now. */
  private void buildHere(Engine engine) {
    try {
      Engine building = engine == null ? opener.open() : engine;
      own = new IndexFolder.Progress(0, 0, -1, System.currentTimeMillis());
      building.refresh(
          (read, total, millisLeft, other) ->
              own = new IndexFolder.Progress(read, total, millisLeft, System.currentTimeMillis()));
      becomeReady(building);
    } catch (Refused | RuntimeException e) {
      fail(e);
    }
  }

  private void becomeReady(Engine engine) {
    ready.complete(engine);
    if (scanner != null) {
      scanner.close();
    }
  }

  private void fail(Exception e) {
    ready.completeExceptionally(e);
    if (scanner != null) {
      scanner.close();
    }
  }

  private static Thread background(String name, Runnable work) {
    Thread thread = new Thread(work, name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  /** Copies a child's stderr into {@code log}, line by line, until it ends. */
  static void copyLog(Process child, PrintStream log) {
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(child.getErrorStream(), StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        log.println(line);
      }
    } catch (IOException e) {
      // the child is gone: nothing more to copy
    }
  }

  /**
   * Waits for the child, at most {@link #LIMIT_MINUTES}, and says how it ended: true when it built
   * the index (said on the log once the index is open and answers).
   */
  private boolean await(Process child, Thread copier) {
    try {
      if (!child.waitFor(LIMIT_MINUTES, TimeUnit.MINUTES)) {
        child.destroyForcibly();
        log.println("notes-mcp: search: the index build took too long; building in this server");
        return false;
      }
      copier.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      child.destroyForcibly();
      Thread.currentThread().interrupt();
      return false;
    }
    if (child.exitValue() != 0) {
      log.println(
          "notes-mcp: search: the index build exited with "
              + child.exitValue()
              + "; building in this server");
      return false;
    }
    return true;
  }
}

package notesmcp.search;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import notesmcp.policy.tools.NoteSearch;

/**
 * The engine of a server whose first search finds no kept index: the index is built by {@code
 * notes-mcp index -first-search} in a child JVM, with the optimizing compiler on every core (the
 * server runs C1 only, for its start-up; an index build is most of a minute of C1's code against
 * seconds of the optimizing compiler's: BENCHMARKS.md, "Vault and search"). The child reads the
 * notes through the same policy file and careful read and writes the same kept index; the server
 * then opens it ({@link Opener}) and reads only what changed since.
 *
 * <p>The first search does not wait for the whole build: the child is given that query first,
 * answers it by a scan of every note ({@link Scan}: the scores the index will give), and only then
 * builds. This server reads each ranked note again and matches it, as for any search, so the
 * child's answer only proposes candidates. A query that matches more notes than a scan ranks, and
 * every later search, waits for the index.
 *
 * <p>The query and the ranking cross as {@link NoteSearch.Exchange} writes them. The child's stderr
 * is copied into this server's log line by line (never blocking on a stderr nobody reads). If the
 * child fails or outlasts {@link #LIMIT_MINUTES}, the server builds the index itself. A server that
 * exits first leaves the child to finish and keep the index for the next one: it ends by itself
 * once the index is written.
 */
final class FirstSearch implements NoteSearch {
  static final long LIMIT_MINUTES = 30;

  /** Opens the engine once the child is gone (over the index it kept, or a new one to build). */
  interface Opener {
    Engine open() throws Refused;
  }

  private final Corpus corpus;
  private final PrintStream log;
  private final List<String> command;
  private final Opener opener;
  private final AtomicBoolean started = new AtomicBoolean();
  private final CompletableFuture<Engine> engine = new CompletableFuture<>();

  FirstSearch(Corpus corpus, PrintStream log, List<String> command, Opener opener) {
    this.corpus = corpus;
    this.log = log;
    this.command = List.copyOf(command);
    this.opener = opener;
  }

  @Override
  public List<Hit> search(String text, String folder, int limit) throws Refused {
    SearchQuery query = SearchQuery.parse(text); // a query refused starts no build
    if (started.compareAndSet(false, true)) {
      List<Ranked> ranked = begin(text, folder, limit + Engine.EXTRA_CANDIDATES);
      if (ranked != null) {
        return Engine.verified(corpus, query, ranked, limit);
      }
    }
    return engine().search(text, folder, limit);
  }

  @Override
  public int refresh() throws Refused {
    if (started.compareAndSet(false, true)) {
      begin(null, null, 0);
    }
    return engine().refresh();
  }

  @Override
  public List<Ranked> scan(String text, String folder, int count) throws Refused {
    return engine().scan(text, folder, count);
  }

  private Engine engine() throws Refused {
    try {
      return engine.get();
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

  /**
   * Starts the child, gives it the query (if any) and returns its ranking; null when it gives none
   * (no query, too many matches, or it failed). The engine is opened once the child is gone.
   */
  private List<Ranked> begin(String query, String folder, int count) {
    long start = System.nanoTime();
    Process child;
    try {
      child =
          new ProcessBuilder(command)
              .redirectInput(ProcessBuilder.Redirect.PIPE)
              .redirectOutput(ProcessBuilder.Redirect.PIPE)
              .redirectError(ProcessBuilder.Redirect.PIPE)
              .start();
    } catch (IOException e) {
      log.println("notes-mcp: search: could not start the index build (" + e.getMessage() + ")");
      openEngine();
      return null;
    }
    Thread copier = new Thread(() -> copyLog(child), "notes-mcp search index log");
    copier.setDaemon(true);
    copier.start();
    Thread waiter =
        new Thread(
            () -> {
              await(child, copier, start);
              openEngine();
            },
            "notes-mcp search index wait");
    waiter.setDaemon(true);
    waiter.start();
    try (OutputStream in = child.getOutputStream()) {
      if (query != null) {
        in.write(
            Exchange.writeQuery(new Exchange.Query(query, folder, count))
                .getBytes(StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      return null; // the child is gone already: the waiter says how
    }
    if (query == null) {
      return null;
    }
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      List<Ranked> ranked = Exchange.read(out, count);
      if (ranked != null) {
        log.println(
            "notes-mcp: search: the first search ranked by a scan in "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)
                + " ms; the index build goes on");
      }
      return ranked;
    } catch (IOException | RuntimeException e) {
      log.println("notes-mcp: search: the index build's answer is unreadable (" + e + ")");
      return null;
    }
  }

  private void openEngine() {
    try {
      engine.complete(opener.open());
    } catch (Refused | RuntimeException e) {
      engine.completeExceptionally(e);
    }
  }

  private void copyLog(Process child) {
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(child.getErrorStream(), StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        log.println(line);
      }
    } catch (IOException e) {
      // the child is gone: nothing more to copy
    }
  }

  /** Waits for the child, at most {@link #LIMIT_MINUTES}, and says how it ended. */
  private void await(Process child, Thread copier, long start) {
    try {
      if (!child.waitFor(LIMIT_MINUTES, TimeUnit.MINUTES)) {
        child.destroyForcibly();
        log.println("notes-mcp: search: the index build took too long; building in this server");
        return;
      }
      copier.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      child.destroyForcibly();
      Thread.currentThread().interrupt();
      return;
    }
    if (child.exitValue() != 0) {
      log.println(
          "notes-mcp: search: the index build exited with "
              + child.exitValue()
              + "; building in this server");
      return;
    }
    log.println(
        "notes-mcp: search: index built by a child process in "
            + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)
            + " ms");
  }
}

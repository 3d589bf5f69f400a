package notesmcp.search;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import notesmcp.policy.tools.NoteSearch;
import notesmcp.policy.tools.NoteSearch.Exchange;
import notesmcp.policy.tools.NoteSearch.Ranked;

/**
 * What ranks a server's searches by a scan while the index is built ({@link Scan};
 * docs/behaviour.md, "search_notes"): a child process, {@code notes-mcp index -scan}, with the
 * JVM's optimizing compiler and at the priority of the server, not the build's; or, for a vault of
 * at most {@link #HERE_BYTES} (whose scan takes less than such a child's start), this server
 * itself, on a thread of its own. The child is started by the first search that needs it; it takes
 * one query at a time on its stdin and answers each on its stdout ({@link Exchange}); it ends when
 * its stdin closes: when the index is ready ({@link #close}), or when the server exits.
 *
 * <p>Turns: a scan reads every note, and the build, at a lower priority, all but stops while one
 * runs; so a new scan starts only once the build has had, since the last scan ended, as long as
 * that scan took. A search meanwhile waits for the build instead. A ranking is kept for {@link
 * #KEPT_MILLIS}, so a search made again ("search again shortly") gets the scan its first try
 * started, even when that scan came too late for it.
 *
 * <p>Thread-safe: one lock, this object's, never held across a wait for the child (its writes are a
 * few hundred bytes to a pipe the child reads).
 */
final class Scanner {
  /** How long a ranking is kept for the same query asked again. */
  static final long KEPT_MILLIS = 30_000;

  /** Rankings kept at most. */
  private static final int KEPT = 8;

  /** Children started at most: one, and one more if the first fails. */
  private static final int STARTS = 2;

  /** The most bytes of notes this server scans itself; and at most this many notes. */
  static final long HERE_BYTES = 2 << 20;

  private static final int HERE_NOTES = 2000;

  private final List<String> command;
  private final PrintStream log;
  private final NoteSearch.Corpus corpus;

  // Guarded by this.
  private Boolean here;
  private Process child;
  private OutputStream queries;
  private boolean closed;
  private int starts;
  private Pending pending;
  private long lastEnded;
  private long lastTook;
  private final Map<Exchange.Query, Kept> kept = new LinkedHashMap<>();

  /** The query being scanned, when it was sent, and its ranking to come. */
  private static final class Pending {
    final Exchange.Query query;
    final long sent = System.nanoTime();
    final CompletableFuture<List<Ranked>> ranking = new CompletableFuture<>();

    Pending(Exchange.Query query) {
      this.query = query;
    }
  }

  /** A ranking (null: too many matches), and when it came. */
  private static final class Kept {
    final List<Ranked> ranking;
    final long at = System.nanoTime();

    Kept(List<Ranked> ranking) {
      this.ranking = ranking;
    }
  }

  /**
   * @param command the child's, or null to scan in this server whatever the vault's size
   */
  Scanner(List<String> command, PrintStream log, NoteSearch.Corpus corpus) {
    this.command = command == null ? null : List.copyOf(command);
    this.log = log;
    this.corpus = corpus;
  }

  /** Whether this server scans itself: a small vault, or no child to start. */
  private boolean here() {
    if (here == null) {
      here = command == null || isSmall();
    }
    return here;
  }

  private boolean isSmall() {
    List<String> notes = corpus.notes();
    if (notes.size() > HERE_NOTES) {
      return false;
    }
    long bytes = 0;
    for (String path : notes) {
      NoteSearch.Identity identity = corpus.look(path);
      bytes += identity == null ? 0 : identity.size();
      if (bytes > HERE_BYTES) {
        return false;
      }
    }
    return true;
  }

  /**
   * The ranking of {@code query} to come (null in it: too many matches, or the child failed), or
   * null when no scan is made for it now: another query's scan runs, it is the build's turn, or
   * there is no child.
   */
  synchronized CompletableFuture<List<Ranked>> rank(Exchange.Query query) {
    long now = System.nanoTime();
    for (Iterator<Kept> old = kept.values().iterator(); old.hasNext(); ) {
      if (now - old.next().at > TimeUnit.MILLISECONDS.toNanos(KEPT_MILLIS)) {
        old.remove();
      }
    }
    Kept known = kept.get(query);
    if (known != null) {
      return CompletableFuture.completedFuture(known.ranking);
    }
    if (pending != null) {
      return pending.query.equals(query) ? pending.ranking : null;
    }
    if (closed || (lastTook > 0 && now - lastEnded < lastTook)) {
      return null;
    }
    if (here()) {
      Pending scanning = new Pending(query);
      pending = scanning;
      Thread scan = new Thread(() -> scanHere(scanning), "notes-mcp search scan here");
      scan.setDaemon(true);
      scan.start();
      return scanning.ranking;
    }
    if (!running()) {
      return null;
    }
    pending = new Pending(query);
    notifyAll();
    try {
      queries.write(Exchange.writeQuery(query).getBytes(StandardCharsets.UTF_8));
      queries.flush();
    } catch (IOException e) {
      ended(child, "its stdin is closed");
      return null;
    }
    return pending.ranking;
  }

  /** No more scans: the child ends once its stdin is closed (after the scan under way, if any). */
  synchronized void close() {
    closed = true;
    notifyAll();
    if (queries != null) {
      try {
        queries.close();
      } catch (IOException e) {
        // it is gone already
      }
    }
  }

  /**
   * Whether a search refused a scan now may have one later: no scan of another query runs and the
   * build's turn has passed.
   */
  synchronized boolean mayScanSoon() {
    return !closed && (here == null || here || child != null || starts < STARTS);
  }

  /** Scans for {@code scanning} in this server. */
  private void scanHere(Pending scanning) {
    List<Ranked> ranking;
    try {
      ranking =
          Engine.scanned(
              corpus, log, scanning.query.query(), scanning.query.folder(), scanning.query.count());
    } catch (NoteSearch.Refused | RuntimeException e) {
      synchronized (this) {
        pending = null;
        lastEnded = System.nanoTime();
        lastTook = lastEnded - scanning.sent;
      }
      scanning.ranking.complete(null);
      return;
    }
    answered(scanning, ranking);
  }

  /** Whether the child runs, started now if it must be (and may be). */
  private boolean running() {
    if (child != null) {
      return true;
    }
    if (starts == STARTS) {
      return false;
    }
    starts++;
    Process started;
    try {
      started =
          new ProcessBuilder(command)
              .redirectInput(ProcessBuilder.Redirect.PIPE)
              .redirectOutput(ProcessBuilder.Redirect.PIPE)
              .redirectError(ProcessBuilder.Redirect.PIPE)
              .start();
    } catch (IOException e) {
      log.println("notes-mcp: search: could not start the scan (" + e.getMessage() + ")");
      return false;
    }
    child = started;
    queries = started.getOutputStream();
    Thread answers = new Thread(() -> readAnswers(started), "notes-mcp search scan answers");
    answers.setDaemon(true);
    answers.start();
    Thread copier =
        new Thread(() -> FirstSearch.copyLog(started, log), "notes-mcp search scan log");
    copier.setDaemon(true);
    copier.start();
    return true;
  }

  /** Reads the child's rankings, one for each query sent, until it ends. */
  private void readAnswers(Process from) {
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(from.getInputStream(), StandardCharsets.UTF_8))) {
      while (true) {
        Pending waiting;
        synchronized (this) {
          while (pending == null && child == from && !closed) {
            wait();
          }
          waiting = pending;
        }
        if (waiting == null) {
          return; // closed with nothing asked: the child ends by itself
        }
        if (!waitForLine(out)) {
          ended(from, "it exited");
          return;
        }
        List<Ranked> ranking = Exchange.read(out, waiting.query.count());
        answered(waiting, ranking);
      }
    } catch (IOException | RuntimeException e) {
      ended(from, "its answer is unreadable (" + e + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Blocks until a line can be read; false at the end of the stream. */
  private static boolean waitForLine(BufferedReader out) throws IOException {
    out.mark(1);
    int first = out.read();
    if (first < 0) {
      return false;
    }
    out.reset();
    return true;
  }

  private synchronized void answered(Pending waiting, List<Ranked> ranking) {
    long now = System.nanoTime();
    lastEnded = now;
    lastTook = now - waiting.sent;
    pending = null;
    kept.put(waiting.query, new Kept(ranking));
    if (kept.size() > KEPT) {
      kept.remove(kept.keySet().iterator().next());
    }
    log.println(
        "notes-mcp: search: a search ranked by a scan in "
            + TimeUnit.NANOSECONDS.toMillis(lastTook)
            + " ms while the index is built");
    waiting.ranking.complete(ranking);
  }

  /** The child {@code from} is gone or unusable: what it was asked gets no ranking. */
  private synchronized void ended(Process from, String why) {
    if (child != from) {
      return;
    }
    if (!closed) {
      log.println("notes-mcp: search: the scan ended: " + why);
    }
    child = null;
    queries = null;
    from.destroy();
    if (pending != null) {
      pending.ranking.complete(null);
      pending = null;
    }
    notifyAll();
  }
}

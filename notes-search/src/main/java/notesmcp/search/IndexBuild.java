package notesmcp.search;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import notesmcp.policy.tools.NoteSearch;
import org.apache.lucene.store.LockObtainFailedException;

/**
 * The engine of {@code notes-mcp index} (README, "Search"; docs/behaviour.md, "search_notes"): the
 * kept index built or brought up to date in this process ({@link #refresh}), and the scans of
 * {@code notes-mcp index -scan} ({@link #scan}), which open no index at all, so that they never
 * contend with a build for it.
 *
 * <p>Only one process at a time holds a kept index (its write lock). When another holds it, a build
 * waits for it, telling its listener the other build's progress (from {@link
 * IndexFolder#progress}), then opens the index and reads what changed since; but when the holder
 * builds nothing (a server using an index it keeps up to date itself) there is nothing to do. Two
 * servers started together on a workspace without an index thus build it once.
 */
final class IndexBuild implements NoteSearch {
  /** How often a build that waits for another looks again. */
  static final long POLL_MILLIS = 500;

  /** Looks without a fresh progress file after which the holder is taken to be a server. */
  private static final int QUIET_LOOKS = 4;

  private final Corpus corpus;
  private final Map<String, String> environment;
  private final PrintStream log;

  IndexBuild(Corpus corpus, Map<String, String> environment, PrintStream log) {
    this.corpus = corpus;
    this.environment = environment;
    this.log = log;
  }

  @Override
  public List<Hit> search(String query, String folder, int limit) throws Refused {
    throw new Refused("notes-mcp index does not search");
  }

  @Override
  public List<Ranked> scan(String text, String folder, int count) throws Refused {
    return Engine.scanned(corpus, log, text, folder, count);
  }

  @Override
  public int refresh() throws Refused {
    return refresh(null);
  }

  @Override
  public int refresh(Progress progress) throws Refused {
    Path folder = Engine.chooseFolder(corpus, environment, log);
    if (folder == null) {
      throw new Refused("the index cannot be kept (see above), so none was built");
    }
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(FirstSearch.LIMIT_MINUTES);
    int quiet = 0;
    boolean said = false;
    while (true) {
      Engine engine;
      try {
        engine = Engine.openKept(folder, corpus, log);
      } catch (LockObtainFailedException held) {
        IndexFolder.Progress other = IndexFolder.progress(folder);
        if (other != null && other.isFresh()) {
          quiet = 0;
        } else if (++quiet >= QUIET_LOOKS && Engine.hasIndex(folder)) {
          log.println(
              "notes-mcp: search: a notes-mcp server holds the index in "
                  + folder
                  + " and brings it up to date before its searches: nothing to do");
          return HELD_BY_A_SERVER;
        }
        if (!said) {
          log.println(
              "notes-mcp: search: another notes-mcp process is building the index in "
                  + folder
                  + "; waiting for it");
          said = true;
        }
        if (progress != null) {
          if (other != null && other.isFresh()) {
            progress.indexed(other.read(), other.total(), other.millisLeft(), true);
          } else {
            progress.indexed(0, 0, -1, true);
          }
        }
        if (System.nanoTime() > deadline) {
          throw new Refused(
              "another process has held the index in "
                  + folder
                  + " for "
                  + FirstSearch.LIMIT_MINUTES
                  + " minutes");
        }
        try {
          Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new Refused("interrupted");
        }
        continue;
      } catch (IOException | RuntimeException e) {
        log.println("notes-mcp: search: the index in " + folder + " cannot be opened: " + e);
        throw new Refused("the index could not be opened");
      }
      return engine.refresh(progress);
    }
  }
}

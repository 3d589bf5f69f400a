package notesmcp.app;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import notesmcp.cli.ExitCode;
import notesmcp.cli.UsageException;
import notesmcp.files.ChangeRule;
import notesmcp.files.Posix;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.tools.NoteAccess;
import notesmcp.policy.tools.NoteSearch;
import notesmcp.policy.vault.Workspace;

/**
 * {@code notes-mcp index -root W -policy FILE}: builds or brings up to date the kept index of
 * {@code search_notes} for that workspace and policy, and exits (docs/behaviour.md,
 * "search_notes"). The notes are read through the same policy and careful read as {@code
 * read_note}. A server that finds no kept index runs this mode as a child process as it starts, at
 * a low priority, so that the build runs with the JVM's optimizing compiler on every core
 * (docs/behaviour.md, "search_notes"); a person may run it too, to have the first search ready, and
 * sees its progress when stderr is a terminal. Writes nothing on stdout, but with {@link #SCAN}.
 *
 * <p>{@code -scan}: the server's searches while the index is built. Each query comes on stdin and
 * its ranking, by a scan of every note, goes to stdout (as {@link NoteSearch.Exchange} writes
 * them), until stdin ends; no index is opened.
 */
final class IndexCommand {
  /** The first word of the command line that selects this mode. */
  static final String WORD = "index";

  /** The flag of a server's child that ranks its searches by a scan, one query after another. */
  static final String SCAN = "-scan";

  private IndexCommand() {}

  static int run(String[] args, InputStream in, OutputStream out, PrintStream err, Seams seams) {
    List<String> words = new ArrayList<>(List.of("-serve"));
    words.addAll(List.of(args));
    boolean scan = words.remove(SCAN);
    Options options;
    try {
      for (String word : args) {
        if (word.equals("-serve") || word.equals("--serve")) {
          throw new UsageException("index is a mode of its own: notes-mcp index -root W -policy F");
        }
      }
      options = Options.parse(words);
      if (options.mode() != Options.Mode.SERVE) {
        throw new UsageException("index takes -root PATH and -policy FILE only");
      }
      if (options.policyFile() == null) {
        throw new UsageException(
            "index needs -policy FILE: without a policy file there is no search_notes to index"
                + " for");
      }
      if (options.proposals() != null || options.maxCalls() != null) {
        throw new UsageException("index takes -root PATH and -policy FILE only");
      }
    } catch (UsageException e) {
      err.println("notes-mcp: " + e.getMessage());
      err.println("Run 'notes-mcp --help' for the flags.");
      return ExitCode.USAGE.code;
    }
    StartUp startUp = StartUp.of(err);
    Policy policy;
    Workspace workspace;
    try {
      startUp.library();
      policy = startUp.policy(options.policyFile());
      workspace = startUp.workspace(options.root(), seams.readRule(ChangeRule.ofSystem()));
      if (!policy.search()) {
        err.println(
            "notes-mcp: policy file " + options.policyFile() + " says \"search\": false: no index");
        return ExitCode.USAGE.code;
      }
      startUp.searchCacheOutside(workspace, System.getenv());
    } catch (StartUp.Failed failed) {
      return failed.code().code;
    }
    NoteAccess notes =
        new NoteAccess(policy, workspace, Clock.systemUTC(), null, err)
            .withSearch(new SearchModule(err, null));
    if (scan) {
      answerScans(notes, in, out, err);
      return ExitCode.OK.code;
    }
    long start = System.nanoTime();
    OnTerminal shown = Posix.isTerminalDescriptor(2) ? new OnTerminal(err) : null;
    try {
      int indexed = notes.refreshSearchIndex(shown);
      if (shown != null) {
        shown.clear();
      }
      if (indexed == NoteSearch.HELD_BY_A_SERVER) {
        return ExitCode.OK.code;
      }
      err.println(
          "notes-mcp: search index of "
              + workspace.root()
              + " up to date: "
              + indexed
              + " notes read and indexed in "
              + (System.nanoTime() - start) / 1_000_000
              + " ms");
      return ExitCode.OK.code;
    } catch (NoteSearch.Refused e) {
      if (shown != null) {
        shown.clear();
      }
      err.println("notes-mcp: index: " + e.getMessage());
      return ExitCode.SERVER_FAILURE.code;
    }
  }

  /**
   * Reads queries (three lines each: the query, {@code -} or {@code =} and the folder, the count, 1
   * to 999) until stdin ends, and writes each one's ranking by a scan, or {@code many}. A query the
   * scan refuses is answered {@code many}: the server then waits for the index, which refuses it in
   * words.
   */
  private static void answerScans(
      NoteAccess notes, InputStream in, OutputStream out, PrintStream err) {
    BufferedReader queries = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    while (true) {
      String answer;
      try {
        NoteSearch.Exchange.Query query = NoteSearch.Exchange.readQuery(queries);
        if (query == null) {
          return;
        }
        answer =
            NoteSearch.Exchange.write(
                notes.scanForSearch(query.query(), query.folder(), query.count()));
      } catch (NoteSearch.Exchange.Incomplete e) {
        err.println("notes-mcp: index: a query to scan for is incomplete");
        answer = "many\n";
      } catch (IOException e) {
        return; // stdin is gone: so is the server
      } catch (RuntimeException | NoteSearch.Refused e) {
        err.println("notes-mcp: index: a search was not ranked (" + e.getMessage() + ")");
        answer = "many\n";
      }
      try {
        out.write(answer.getBytes(StandardCharsets.UTF_8));
        out.flush();
      } catch (IOException e) {
        return; // the server is gone
      }
    }
  }

  /**
   * The build's progress on a terminal, one line rewritten in place ({@code \r}) at most every
   * {@link #EVERY_NANOS}: the notes read of the total and the time left, or the other process's
   * build this one waits for. Numbers only: nothing of a note reaches the terminal.
   */
  static final class OnTerminal implements NoteSearch.Progress {
    static final long EVERY_NANOS = 250_000_000L;

    private final PrintStream err;

    // Guarded by this.
    private long last;
    private int width;

    OnTerminal(PrintStream err) {
      this.err = err;
    }

    @Override
    public synchronized void indexed(int read, int total, long millisLeft, boolean other) {
      long now = System.nanoTime();
      if (width > 0 && now - last < EVERY_NANOS) {
        return;
      }
      last = now;
      show(line(read, total, millisLeft, other));
    }

    /** {@code notes-mcp: indexing: 3,120 of 6,289 notes, about 20 s left}. */
    static String line(int read, int total, long millisLeft, boolean other) {
      StringBuilder line =
          new StringBuilder(
              other
                  ? "notes-mcp: another notes-mcp process is indexing: "
                  : "notes-mcp: indexing: ");
      if (total == 0) {
        line.append(other ? "waiting for it" : "counting the notes");
      } else {
        line.append(String.format(Locale.ROOT, "%,d of %,d notes", read, total));
        if (read >= total) {
          line.append(", writing the index");
        } else if (millisLeft >= 0) {
          long seconds = Math.max(1, (millisLeft + 999) / 1000);
          line.append(", about ")
              .append(seconds < 90 ? seconds + " s" : (seconds + 59) / 60 + " min")
              .append(" left");
        }
      }
      return line.toString();
    }

    /** Clears the line, for what comes after it. */
    synchronized void clear() {
      if (width > 0) {
        show("");
        width = 0;
      }
    }

    private void show(String line) {
      StringBuilder text = new StringBuilder(line);
      while (text.length() < width) {
        text.append(' ');
      }
      width = line.length();
      err.print(text.append('\r'));
      err.flush();
    }
  }
}

package notesmcp.app;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import notesmcp.files.ChangeRule;
import notesmcp.mcp.Protocol.Implementation;
import notesmcp.mcp.server.Caller;
import notesmcp.mcp.server.Tools;
import notesmcp.mcp.server.Tools.Tool;
import notesmcp.policy.tools.NoteSearch;

/**
 * The real program with what only tests may add, through {@link Seams} (docs/testing.md: the
 * shipped program has no test hooks). Its own flags come first, then the program's command line:
 *
 * <ul>
 *   <li>{@code --hold-calls MILLIS}: every {@code tools/call} waits that long before it reaches the
 *       policy, or until it is cancelled (a slow call);
 *   <li>{@code --halt-at POINT}: {@code review} stops at that checkpoint of the commit at once, as
 *       a crash or {@code kill -9} would: {@code Runtime.halt}, status {@link #HALT_STATUS};
 *   <li>{@code --pause-at POINT --resume-file FILE}: {@code review} waits at that checkpoint,
 *       holding the proposals lock, until FILE exists;
 *   <li>{@code --hard-links-unprotected true}: the workspace is opened as if the kernel did not
 *       protect hard links ({@code fs.protected_hardlinks = 0}), without touching the machine's
 *       setting;
 *   <li>{@code --read-margin MILLIS}: the change rule's margin (bench/race measures others);
 *   <li>{@code --trace-checkpoints true}: {@code review} prints each checkpoint it passes with
 *       {@code System.nanoTime()} to stderr (how docs/approvals.md's edit window was measured);
 *   <li>{@code --search-within MILLIS}: a search is answered that soon at the latest while the
 *       index is built, instead of the tool's own 5 s (what it answers then: docs/behaviour.md,
 *       "search_notes").
 * </ul>
 *
 * Tests start it with {@link #command}: the real jar plus the test classes, and the launcher's JVM
 * flags and executable property, so every mode runs as {@code ./notes-mcp} runs it: {@code -serve},
 * the client, {@code review}, {@code config} (naming the launcher) and {@code chat} (the same
 * dispatch in {@code Main.run}). The jar comes first on the class path, so the program's classes,
 * {@code Posix} among them, load from it and find {@code native/libnotesmcp.so} beside it, and
 * {@code chat/} too.
 */
final class TestMain {
  static final int HALT_STATUS = 86;
  private static final long MAX_PAUSE_MILLIS = 60_000;

  private TestMain() {}

  /** {@code java <the launcher's flags> -cp <jar>:<test classes> notesmcp.app.TestMain args}. */
  static List<String> command(String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(LauncherFlags.read());
    command.add("-D" + ConfigCommand.EXECUTABLE_PROPERTY + "=" + WireServer.launcher());
    command.add("-cp");
    command.add(System.getProperty("notesmcp.jar") + java.io.File.pathSeparator + testClasses());
    command.add(TestMain.class.getName());
    command.addAll(Arrays.asList(args));
    return command;
  }

  private static String testClasses() {
    try {
      return Path.of(TestMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  public static void main(String[] args) {
    List<String> rest = new ArrayList<>(Arrays.asList(args));
    Duration hold = null;
    String haltAt = null;
    String pauseAt = null;
    Path resume = null;
    boolean unprotected = false;
    Duration margin = null;
    boolean trace = false;
    Duration searchWithin = null;
    while (!rest.isEmpty() && rest.get(0).startsWith("--") && rest.size() > 1) {
      String flag = rest.get(0);
      String value = rest.get(1);
      if (flag.equals("--hold-calls")) {
        hold = Duration.ofMillis(Long.parseLong(value));
      } else if (flag.equals("--halt-at")) {
        haltAt = value;
      } else if (flag.equals("--pause-at")) {
        pauseAt = value;
      } else if (flag.equals("--resume-file")) {
        resume = Path.of(value);
      } else if (flag.equals("--hard-links-unprotected")) {
        unprotected = Boolean.parseBoolean(value);
      } else if (flag.equals("--trace-checkpoints")) {
        trace = Boolean.parseBoolean(value);
      } else if (flag.equals("--search-within")) {
        searchWithin = Duration.ofMillis(Long.parseLong(value));
      } else if (flag.equals("--read-margin")) {
        margin = Duration.ofMillis(Long.parseLong(value));
      } else {
        break;
      }
      rest.subList(0, 2).clear();
    }
    Main.main(
        rest.toArray(new String[0]),
        new Hooks(hold, haltAt, pauseAt, resume, unprotected, margin, trace, searchWithin));
  }

  private static final class Hooks extends Seams {
    private final Duration hold;
    private final String haltAt;
    private final String pauseAt;
    private final Path resume;
    private final boolean unprotected;
    private final Duration margin;
    private final boolean trace;
    private final Duration searchWithin;

    Hooks(
        Duration hold,
        String haltAt,
        String pauseAt,
        Path resume,
        boolean unprotected,
        Duration margin,
        boolean trace,
        Duration searchWithin) {
      this.trace = trace;
      this.searchWithin = searchWithin;
      this.hold = hold;
      this.haltAt = haltAt;
      this.pauseAt = pauseAt;
      this.resume = resume;
      this.unprotected = unprotected;
      this.margin = margin;
    }

    @Override
    ChangeRule readRule(ChangeRule system) {
      return new ChangeRule(
          !unprotected && system.hardLinksProtected(), margin == null ? system.margin() : margin);
    }

    @Override
    NoteSearch.Factory search(NoteSearch.Factory real) {
      if (searchWithin == null) {
        return real;
      }
      return new NoteSearch.Factory() {
        @Override
        public NoteSearch open(NoteSearch.Corpus corpus) throws NoteSearch.Refused {
          return new Sooner(real.open(corpus), searchWithin.toNanos());
        }
      };
    }

    @Override
    Tools tools(Tools real) {
      return hold == null ? real : new Holding(real, hold);
    }

    @Override
    Consumer<String> checkpoints(PrintStream log) {
      return point -> {
        if (trace) {
          log.println("notes-mcp: checkpoint " + point + " at " + System.nanoTime() + " (test)");
        }
        if (point.equals(haltAt)) {
          log.println("notes-mcp: halting at " + point + " (test)");
          log.flush();
          System.err.flush();
          Runtime.getRuntime().halt(HALT_STATUS);
        }
        if (point.equals(pauseAt) && resume != null) {
          log.println("notes-mcp: pausing at " + point + " (test)");
          pauseUntil(resume);
        }
      };
    }
  }

  private static void pauseUntil(Path resume) {
    long deadline = System.currentTimeMillis() + MAX_PAUSE_MILLIS;
    try {
      while (!Files.exists(resume) && System.currentTimeMillis() < deadline) {
        Thread.sleep(10);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** An engine whose searches are answered within {@code nanos} at the latest. */
  private static final class Sooner implements NoteSearch {
    private final NoteSearch engine;
    private final long nanos;

    Sooner(NoteSearch engine, long nanos) {
      this.engine = engine;
      this.nanos = nanos;
    }

    @Override
    public List<Hit> search(String query, String folder, int limit) throws Refused {
      return engine.search(query, folder, limit);
    }

    @Override
    public List<Hit> search(String query, String folder, int limit, long answerBy) throws Refused {
      return engine.search(query, folder, limit, Math.min(answerBy, System.nanoTime() + nanos));
    }

    @Override
    public void prepare() {
      engine.prepare();
    }

    @Override
    public int refresh() throws Refused {
      return engine.refresh();
    }

    @Override
    public List<Ranked> scan(String query, String folder, int count) throws Refused {
      return engine.scan(query, folder, count);
    }
  }

  /** Every call waits before the policy until it is cancelled or the hold passes. */
  private static final class Holding implements Tools {
    private final Tools tools;
    private final Duration hold;

    Holding(Tools tools, Duration hold) {
      this.tools = tools;
      this.hold = hold;
    }

    @Override
    public List<Tool> list() {
      return tools.list();
    }

    @Override
    public Tools.Result call(
        String name,
        String rawArguments,
        Implementation client,
        Caller caller,
        BooleanSupplier cancelled) {
      long end = System.nanoTime() + hold.toNanos();
      while (!cancelled.getAsBoolean() && System.nanoTime() < end) {
        try {
          Thread.sleep(1);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      return tools.call(name, rawArguments, client, caller, cancelled);
    }
  }
}

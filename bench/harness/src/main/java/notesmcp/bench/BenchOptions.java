package notesmcp.bench;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import joptsimple.OptionException;
import joptsimple.OptionParser;
import joptsimple.OptionSet;
import joptsimple.OptionSpec;

/**
 * The harness's command line, parsed by jopt-simple (the parser JMH brings): {@code --name value}
 * or {@code --name=value}, lists separated by commas. {@code --quick} shrinks every default; a
 * number given explicitly always wins.
 */
final class BenchOptions {
  static final List<String> PHASES = List.of("cold", "seq", "pipe", "soak", "oneshot");

  /** Whether bench/run was asked for help rather than a run. */
  final boolean help;

  final Path repo;
  final List<String> servers;
  final Set<String> phases;
  final List<String> soakServers;
  final boolean quick;
  final boolean prime;
  final int rounds;
  final int warmup;
  final int seq;
  final int pipelined;
  final int coldStarts;
  final int oneShotRuns;
  final int soak;
  final int soakEvery;

  /** No reply for this long while replies are owed: the reply is lost (or the server hung). */
  final Duration stall;

  final Path out;

  /** {@code --trace DIR}: every recorded sequential call's start and round trip, or null. */
  final Path trace;

  /** {@code bin/notes-mcp} of an extracted app image, or null. */
  final Path appImage;

  /** The launcher ({@code ./notes-mcp}) of a checkout of the program as it was, or null. */
  final Path beforeLauncher;

  final String beforeLabel;

  /** {@code --server NAME=COMMAND}: extra servers, their command lines split at spaces. */
  final Map<String, List<String>> custom;

  /** The arguments as given, for the report (without {@code --repo}). */
  final List<String> userArgs;

  /** Thrown for a bad command line: the message and the usage go to stderr, exit 2. */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  private static final class Parser {
    final OptionParser parser = new OptionParser(false); // no abbreviations: --s is no --seq
    final OptionSpec<Void> help = parser.acceptsAll(List.of("help", "h"), "this text").forHelp();
    final OptionSpec<Integer> rounds =
        count("rounds", "rounds; each starts every server once, order rotated (default 5)");
    final OptionSpec<String> servers =
        list(
            "servers",
            "servers to run, of "
                + String.join(",", ServerCatalog.BUILT_IN)
                + " and any --server (default: all that are available)");
    final OptionSpec<String> metrics =
        list("metrics", "phases, of " + String.join(",", PHASES) + " (default: all)");
    final OptionSpec<Void> quick =
        parser.accepts("quick", "a smoke run of seconds: 1 round, small phases, no priming");
    final OptionSpec<Integer> warmup =
        count("warmup", "unrecorded sequential calls before the recorded ones (500)");
    final OptionSpec<Integer> seq = count("seq", "recorded sequential calls per round (5000)");
    final OptionSpec<Integer> pipelined = count("pipelined", "pipelined calls per round (20000)");
    final OptionSpec<Integer> coldStarts =
        count("cold-starts", "extra start-up-only processes per server per round (2)");
    final OptionSpec<Integer> oneShotRuns =
        count("oneshot-runs", "one-shot client runs per client per round (2)");
    final OptionSpec<Integer> soak =
        count("soak", "calls in the soak, once per server after the rounds (100000)");
    final OptionSpec<Integer> soakEvery =
        count("soak-every", "calls between VmRSS samples in the soak (10000)");
    final OptionSpec<String> soakServers =
        list("soak-servers", "servers to soak (default: the --servers)");
    final OptionSpec<Integer> stall =
        count("stall", "seconds without a reply, replies owed, that count as lost replies (15)");
    final OptionSpec<Void> noPrime =
        parser.accepts("no-prime", "skip the untimed priming start of each server");
    final OptionSpec<String> out =
        text("out", "FILE", "the report file (default bench/results/<UTC time>.md)");
    final OptionSpec<String> trace =
        text(
            "trace",
            "DIR",
            "write each recorded sequential call as 'start_ns round_trip_ns' (start: the"
                + " monotonic clock of System.nanoTime and of -Xlog's 'tn' decorator), one file per"
                + " server process, to line the tail up with a server's own log");
    final OptionSpec<String> appImage =
        text("app-image", "EXE", "bin/notes-mcp of an extracted app image (bench/run finds it)");
    final OptionSpec<String> beforeLauncher =
        text("before-launcher", "EXE", "./notes-mcp of the program as it was (bench/run makes it)");
    final OptionSpec<String> beforeLabel =
        text("before-label", "TEXT", "what the before server is, for the report (its commit)");
    final OptionSpec<String> server =
        text(
            "server",
            "NAME=COMMAND",
            "an extra server, its command split at spaces; {root} is the workspace, {budget} a"
                + " call budget far above any phase; repeatable");
    final OptionSpec<String> repo =
        text("repo", "DIR", "the repository checkout (bench/run passes it)");

    private OptionSpec<Integer> count(String name, String description) {
      return parser
          .accepts(name, description)
          .withRequiredArg()
          .ofType(Integer.class)
          .describedAs("N");
    }

    private OptionSpec<String> list(String name, String description) {
      return parser
          .accepts(name, description)
          .withRequiredArg()
          .withValuesSeparatedBy(',')
          .describedAs("LIST");
    }

    private OptionSpec<String> text(String name, String value, String description) {
      return parser.accepts(name, description).withRequiredArg().describedAs(value);
    }
  }

  private BenchOptions(Parser p, OptionSet set, String[] args) throws UsageException {
    help = set.has(p.help);
    repo = Path.of(set.has(p.repo) ? set.valueOf(p.repo) : "").toAbsolutePath().normalize();
    quick = set.has(p.quick);
    prime = !set.has(p.noPrime) && !quick;
    rounds = positive(set, p.rounds, quick ? 1 : 5);
    warmup = atLeastZero(set, p.warmup, quick ? 100 : 500);
    seq = positive(set, p.seq, quick ? 500 : 5000);
    pipelined = positive(set, p.pipelined, quick ? 2000 : 20000);
    coldStarts = atLeastZero(set, p.coldStarts, quick ? 0 : 2);
    oneShotRuns = positive(set, p.oneShotRuns, quick ? 1 : 2);
    soak = positive(set, p.soak, quick ? 6000 : 100000);
    soakEvery = positive(set, p.soakEvery, quick ? 2000 : 10000);
    stall = Duration.ofSeconds(positive(set, p.stall, 15));
    out = set.has(p.out) ? Path.of(set.valueOf(p.out)) : null;
    trace = set.has(p.trace) ? Path.of(set.valueOf(p.trace)) : null;
    appImage = set.has(p.appImage) ? Path.of(set.valueOf(p.appImage)) : null;
    beforeLauncher = set.has(p.beforeLauncher) ? Path.of(set.valueOf(p.beforeLauncher)) : null;
    beforeLabel = set.has(p.beforeLabel) ? set.valueOf(p.beforeLabel) : "an earlier build";
    custom = custom(set.valuesOf(p.server));
    phases = Set.copyOf(known("--metrics", set.has(p.metrics) ? set.valuesOf(p.metrics) : PHASES));
    List<String> available = available();
    servers = set.has(p.servers) ? known("--servers", set.valuesOf(p.servers)) : available;
    for (String name : servers) {
      if (!available.contains(name)) {
        throw new UsageException(
            "--servers: "
                + name
                + " is not available in this run ("
                + (name.equals(ServerCatalog.APP_IMAGE)
                    ? "no --app-image"
                    : name.equals(ServerCatalog.BEFORE) ? "no --before-launcher" : "unknown")
                + "); available: "
                + String.join(",", available));
      }
    }
    soakServers =
        set.has(p.soakServers) ? known("--soak-servers", set.valuesOf(p.soakServers)) : servers;
    if (soakEvery > soak) {
      throw new UsageException("--soak-every must not exceed --soak");
    }
    if (!set.nonOptionArguments().isEmpty()) {
      throw new UsageException("unexpected argument " + set.nonOptionArguments().get(0));
    }
    List<String> given = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--repo")) {
        i++;
      } else if (!args[i].startsWith("--repo=")) {
        given.add(args[i]);
      }
    }
    userArgs = List.copyOf(given);
  }

  static BenchOptions parse(String... args) throws UsageException {
    Parser p = new Parser();
    try {
      return new BenchOptions(p, p.parser.parse(args), args);
    } catch (OptionException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /** The options as bench/run --help prints them. */
  static String usage() {
    StringWriter text = new StringWriter();
    text.append(
            "usage: bench/run [options]     (bench/run --jmh [JMH options] for the JMH suite)\n")
        .append("  bench/run's own: --no-build, --before REV, --no-before, --no-app-image\n\n");
    try {
      new Parser().parser.printHelpOn(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text.toString();
  }

  /** Whether a phase (cold, seq, pipe, soak, oneshot) runs. */
  boolean runs(String phase) {
    return phases.contains(phase);
  }

  /** The most calls any one server process is asked for: its budget must be higher. */
  long budget() {
    return 10L * Math.max((long) warmup + seq + pipelined, soak) + 1000;
  }

  /** The servers this run can start: the built-in ones it has, then the --server ones. */
  private List<String> available() {
    List<String> names = new ArrayList<>();
    for (String name : ServerCatalog.BUILT_IN) {
      if ((!name.equals(ServerCatalog.APP_IMAGE) || appImage != null)
          && (!name.equals(ServerCatalog.BEFORE) || beforeLauncher != null)) {
        names.add(name);
      }
    }
    names.addAll(custom.keySet());
    return names;
  }

  private List<String> known(String flag, List<String> names) throws UsageException {
    List<String> all = new ArrayList<>(flag.equals("--metrics") ? PHASES : ServerCatalog.BUILT_IN);
    if (!flag.equals("--metrics")) {
      all.addAll(custom.keySet());
    }
    for (String name : names) {
      if (!all.contains(name)) {
        throw new UsageException(flag + ": unknown " + name + "; known: " + String.join(",", all));
      }
    }
    return List.copyOf(new LinkedHashSet<>(names));
  }

  private static Map<String, List<String>> custom(List<String> values) throws UsageException {
    Map<String, List<String>> servers = new LinkedHashMap<>();
    for (String value : values) {
      int equals = value.indexOf('=');
      String name = equals < 0 ? "" : value.substring(0, equals);
      String command = equals < 0 ? "" : value.substring(equals + 1).trim();
      if (!name.matches("[a-z0-9][a-z0-9._-]*") || command.isEmpty()) {
        throw new UsageException(
            "--server needs NAME=COMMAND with a lower-case NAME, not " + value);
      }
      if (ServerCatalog.BUILT_IN.contains(name) || servers.containsKey(name)) {
        throw new UsageException("--server: the name " + name + " is taken");
      }
      servers.put(name, List.of(command.split("\\s+")));
    }
    return servers;
  }

  private static int positive(OptionSet set, OptionSpec<Integer> spec, int fallback)
      throws UsageException {
    int n = atLeastZero(set, spec, fallback);
    if (n == 0) {
      throw new UsageException("--" + spec.options().get(0) + " must be at least 1");
    }
    return n;
  }

  private static int atLeastZero(OptionSet set, OptionSpec<Integer> spec, int fallback)
      throws UsageException {
    int n = set.has(spec) ? set.valueOf(spec) : fallback;
    if (n < 0) {
      throw new UsageException("--" + spec.options().get(0) + " must not be negative");
    }
    return n;
  }
}

package notesmcp.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/** The harness's command line (see {@link #USAGE}); {@code --quick} shrinks every phase. */
final class BenchOptions {
  static final List<String> PHASES = List.of("cold", "seq", "pipe", "soak", "oneshot");

  static final String USAGE =
      String.join(
          "\n",
          "usage: bench/run [options]        (the harness; bench/run --jmh for the JMH suite)",
          "  (bench/run builds first; --no-build skips the Maven build)",
          "",
          "  --rounds N         rounds; each starts every server once, order rotated (default 5)",
          "  --servers LIST     of " + String.join(",", ServerCatalog.ALL) + " (default: all)",
          "  --metrics LIST     phases of " + String.join(",", PHASES) + " (default: all)",
          "  --quick            a short smoke run: 1 round, small phases, no extra cold starts",
          "  --warmup N         unrecorded sequential calls before the measured ones (500)",
          "  --seq N            measured sequential calls per round (2000)",
          "  --pipelined N      pipelined calls per round (20000)",
          "  --cold-starts N    extra start-up-only processes per server per round (2)",
          "  --oneshot-runs N   one-shot client runs per client per round (2)",
          "  --soak N           calls in the soak, once per server after the rounds (100000)",
          "  --soak-every N     calls between VmRSS samples in the soak (10000)",
          "  --soak-servers L   servers to soak (default: the --servers)",
          "  --no-prime         skip the untimed priming start of each server",
          "  --out FILE         the report file (default bench/results/<UTC time>.md)",
          "  --repo DIR         the repository checkout (bench/run passes it)");

  Path repo = Path.of("").toAbsolutePath();
  List<String> servers = ServerCatalog.ALL;
  Set<String> phases = Set.copyOf(PHASES);
  List<String> soakServers;
  boolean quick;
  boolean prime = true;
  Integer rounds;
  Integer warmup;
  Integer seq;
  Integer pipelined;
  Integer coldStarts;
  Integer oneShotRuns;
  Integer soak;
  Integer soakEvery;
  Path out;
  final List<String> userArgs = new ArrayList<>();

  /** Thrown for a bad command line: the message and the usage go to stderr, exit 2. */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  static BenchOptions parse(String[] args) throws UsageException {
    BenchOptions o = new BenchOptions();
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (flag.equals("--repo")) {
        o.repo = Path.of(value(args, ++i, flag)).toAbsolutePath().normalize();
        continue;
      }
      o.userArgs.add(flag);
      switch (flag) {
        case "--quick":
          o.quick = true;
          break;
        case "--no-prime":
          o.prime = false;
          break;
        case "--help":
        case "-h":
          throw new UsageException(null);
        default:
          String value = value(args, ++i, flag);
          o.userArgs.add(value);
          o.set(flag, value);
      }
    }
    o.applyDefaults();
    return o;
  }

  private void set(String flag, String value) throws UsageException {
    switch (flag) {
      case "--rounds":
        rounds = positive(flag, value);
        break;
      case "--servers":
        servers = names(flag, value, ServerCatalog.ALL);
        break;
      case "--soak-servers":
        soakServers = names(flag, value, ServerCatalog.ALL);
        break;
      case "--metrics":
        phases = Set.copyOf(names(flag, value, PHASES));
        break;
      case "--warmup":
        warmup = count(flag, value);
        break;
      case "--seq":
        seq = positive(flag, value);
        break;
      case "--pipelined":
        pipelined = positive(flag, value);
        break;
      case "--cold-starts":
        coldStarts = count(flag, value);
        break;
      case "--oneshot-runs":
        oneShotRuns = positive(flag, value);
        break;
      case "--soak":
        soak = positive(flag, value);
        break;
      case "--soak-every":
        soakEvery = positive(flag, value);
        break;
      case "--out":
        out = Path.of(value);
        break;
      default:
        throw new UsageException("unknown option " + flag);
    }
  }

  private void applyDefaults() throws UsageException {
    rounds = or(rounds, quick ? 1 : 5);
    warmup = or(warmup, quick ? 100 : 500);
    seq = or(seq, quick ? 300 : 2000);
    pipelined = or(pipelined, quick ? 2000 : 20000);
    coldStarts = or(coldStarts, quick ? 0 : 2);
    oneShotRuns = or(oneShotRuns, quick ? 1 : 2);
    soak = or(soak, quick ? 10000 : 100000);
    soakEvery = or(soakEvery, quick ? 2000 : 10000);
    if (soakServers == null) {
      soakServers = servers;
    }
    if (soakEvery > soak) {
      throw new UsageException("--soak-every must not exceed --soak");
    }
  }

  /** Whether a phase (cold, seq, pipe, soak, oneshot) runs. */
  boolean runs(String phase) {
    return phases.contains(phase);
  }

  /** The most calls any one server process is asked for: its budget must be higher. */
  long budget() {
    return 10L * Math.max((long) warmup + seq + pipelined, soak) + 1000;
  }

  private static int or(Integer value, int fallback) {
    return value == null ? fallback : value;
  }

  private static String value(String[] args, int i, String flag) throws UsageException {
    if (i >= args.length) {
      throw new UsageException(flag + " needs a value");
    }
    return args[i];
  }

  private static int count(String flag, String value) throws UsageException {
    try {
      int n = Integer.parseInt(value);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new UsageException(flag + " needs a whole number, not " + value);
  }

  private static int positive(String flag, String value) throws UsageException {
    int n = count(flag, value);
    if (n == 0) {
      throw new UsageException(flag + " must be at least 1");
    }
    return n;
  }

  private static List<String> names(String flag, String value, List<String> known)
      throws UsageException {
    List<String> names = Arrays.asList(value.split(","));
    for (String name : names) {
      if (!known.contains(name)) {
        throw new UsageException(
            flag + ": unknown " + name + "; known: " + String.join(",", known));
      }
    }
    return List.copyOf(names);
  }
}

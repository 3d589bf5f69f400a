package notesmcp.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The process-level benchmark: real server processes over stdio, ours beside the peers, in one run.
 * Each round starts every server (rotating the order, so no server always runs first or last while
 * the machine warms up or other work comes and goes), times its start-up, then sequential and
 * pipelined {@code read_note} calls in that same process, and reads its CPU time and peak memory
 * from {@code /proc}. Extra start-up-only processes and the one-shot clients follow; the soak runs
 * once per server at the end. Every reply is checked; a lost or wrong one stops the run with exit
 * code 1 (the partial report is still written).
 *
 * <p>Run it with {@code bench/run} (see bench/README.md). The report goes to stdout and to a file
 * under bench/results/; progress goes to stderr.
 */
public final class Harness {
  /** Exit codes: all good; the run stopped; a peer other than the reference failed. */
  static final int OK = 0;

  static final int STOPPED = 1;
  static final int PEER_FAILED = 3;

  /** A failure of one of these voids every ratio: the run stops. */
  private static final Set<String> ESSENTIAL =
      Set.of(ServerCatalog.NOTES_MCP, ServerCatalog.TS_SDK_V2);

  private final BenchOptions options;
  private final PrintStream progress = System.err;
  private final Results results = new Results();
  private final Map<String, String> measuredProcess = new LinkedHashMap<>();
  private Path scratch;
  private String note;
  private ServerCatalog catalog;
  private Map<String, ServerSpec> specs;

  private Harness(BenchOptions options) {
    this.options = options;
  }

  public static void main(String[] args) {
    BenchOptions options;
    try {
      options = BenchOptions.parse(args);
    } catch (BenchOptions.UsageException e) {
      if (e.getMessage() != null) {
        System.err.println("notes-bench: " + e.getMessage());
      }
      System.err.println(BenchOptions.USAGE);
      System.exit(e.getMessage() == null ? 0 : 2);
      return;
    }
    System.exit(new Harness(options).run());
  }

  private int run() {
    Machine machine = new Machine(options.repo);
    BenchFailure failure = null;
    try {
      prepare();
      progress.println(
          "notes-bench: "
              + specs.keySet()
              + ", "
              + options.rounds
              + " rounds; load average "
              + machine.loadAtStart
              + "; scratch "
              + scratch);
      if (options.prime) {
        for (ServerSpec spec : specs.values()) {
          guarded(spec.name(), () -> prime(spec));
        }
      }
      for (int round = 0; round < options.rounds; round++) {
        round(round);
      }
      if (options.runs("soak")) {
        for (String name : options.soakServers) {
          guarded(name, () -> soak(catalog.spec(name)));
        }
      }
    } catch (BenchFailure e) {
      failure = e;
    }
    machine.end();
    results.note(
        measuredProcess.isEmpty()
            ? null
            : "Measured processes (the pid's /proc/<pid>/comm after start-up): "
                + measuredProcess
                + ".");
    String report =
        new Report(options, machine, results, specs == null ? Map.of() : specs).render(failure);
    System.out.print(report);
    System.out.flush();
    Path file = write(report, machine);
    if (failure != null) {
      progress.println();
      progress.println("BENCHMARK FAILED: " + failure.getMessage());
      progress.println("server stderr files are kept in " + scratch);
      progress.println("partial report: " + file);
      return STOPPED;
    }
    if (!results.failures().isEmpty()) {
      progress.println();
      results
          .failures()
          .forEach((name, why) -> progress.println("PEER FAILED: " + name + ": " + why));
      progress.println("server stderr files are kept in " + scratch);
      progress.println("report (the other servers are complete): " + file);
      return PEER_FAILED;
    }
    deleteScratch();
    progress.println("notes-bench: report written to " + file);
    return OK;
  }

  /** A private copy of the sample workspace, and the servers' commands for it. */
  private void prepare() {
    try {
      scratch = Files.createTempDirectory("notes-bench-");
      Path workspace = Files.createDirectory(scratch.resolve("workspace"));
      try (Stream<Path> files = Files.list(options.repo.resolve("examples/workspace"))) {
        for (Path file : files.filter(Files::isRegularFile).toList()) {
          Files.copy(file, workspace.resolve(file.getFileName()));
        }
      }
      note = Files.readString(workspace.resolve("notes.txt"), StandardCharsets.UTF_8);
      catalog = new ServerCatalog(options.repo, workspace, options.budget());
    } catch (IOException e) {
      throw new BenchFailure("cannot prepare the workspace: " + e, e);
    }
    specs = new LinkedHashMap<>();
    for (String name : options.servers) {
      specs.put(name, catalog.spec(name));
    }
  }

  /**
   * One untimed start and a few thousand calls per server before round 1: the page cache holds the
   * JDK, node_modules and the jars afterwards, and the harness's own JIT has compiled its reply
   * parsing, so round 1 measures the servers, not the first touch of the disk.
   */
  private void prime(ServerSpec spec) {
    progress.println("  priming " + spec.name() + " (untimed)");
    try (Session session = Session.open(spec, stderrFile(spec.name(), "prime"), note)) {
      measuredProcess.put(spec.name(), ProcFs.command(session.server().pid()));
      SequentialLatency.run(session, 0, options.quick ? 100 : 500);
      PipelinedThroughput.run(session, options.quick ? 1000 : 5000);
      results.note(session.finish());
    }
  }

  private void round(int round) {
    List<String> order = rotate(new ArrayList<>(specs.keySet()), round);
    String load = ProcFs.loadAverage();
    progress.println(
        "round " + (round + 1) + "/" + options.rounds + ": order " + order + ", load " + load);
    for (String name : order) {
      guarded(name, () -> callPhases(round, load.split(" ")[0], specs.get(name)));
    }
    if (options.runs("cold")) {
      for (int i = 0; i < options.coldStarts; i++) {
        for (String name : order) {
          String what = "r" + round + "-cold" + i;
          guarded(
              name,
              () -> {
                ColdStart.Sample sample =
                    ColdStart.measure(specs.get(name), stderrFile(name, what), note);
                results.add(Metric.COLD_START, name, sample.nanos() / 1e6);
                results.note(sample.exitNote());
              });
        }
      }
    }
    if (options.runs("oneshot")) {
      for (int i = 0; i < options.oneShotRuns; i++) {
        for (String name : order) {
          List<String> command = catalog.oneShot(name);
          if (command != null) {
            long nanos = OneShotClient.run(name, command, new ReplyCheck(name, note), scratch);
            results.add(Metric.ONE_SHOT, name, nanos / 1e6);
            progress.printf(Locale.ROOT, "  %-10s one-shot %.0f ms%n", name, nanos / 1e6);
          }
        }
      }
    }
  }

  /** One process: cold start, sequential, pipelined, peak memory; one raw row. */
  private void callPhases(int round, String load, ServerSpec spec) {
    boolean cold = options.runs("cold");
    boolean seq = options.runs("seq");
    boolean pipe = options.runs("pipe");
    if (!cold && !seq && !pipe) {
      return;
    }
    String name = spec.name();
    List<String> cells = new ArrayList<>(List.of(Integer.toString(round + 1), load, name));
    try (Session session = Session.open(spec, stderrFile(name, "r" + round), note)) {
      measure(session, cells);
    } catch (BenchFailure f) {
      cells.add("**FAILED** (see Notes)");
      results.round("| " + String.join(" | ", cells) + " |");
      throw f;
    }
    results.round("| " + String.join(" | ", cells) + " |");
    progress.println("  " + String.join("  ", cells.subList(2, cells.size())));
  }

  /**
   * The phases of one process, in order. Its samples reach the results only when every phase
   * passed: a process that lost replies contributes nothing but its FAILED row.
   */
  private void measure(Session session, List<String> cells) {
    String name = session.server().name();
    Map<Metric, Double> samples = new LinkedHashMap<>();
    double coldMs = session.coldStartNanos() / 1e6;
    if (options.runs("cold")) {
      samples.put(Metric.COLD_START, coldMs);
    }
    cells.add(options.runs("cold") ? format(coldMs) : "");
    if (options.runs("seq")) {
      Stats latency = new Stats(SequentialLatency.run(session, options.warmup, options.seq));
      samples.put(Metric.SEQ_P50, latency.median() / 1e3);
      samples.put(Metric.SEQ_P90, latency.quantile(0.9) / 1e3);
      samples.put(Metric.SEQ_P99, latency.quantile(0.99) / 1e3);
      cells.add(format(latency.median() / 1e3));
      cells.add(format(latency.quantile(0.9) / 1e3));
      cells.add(format(latency.quantile(0.99) / 1e3));
    } else {
      cells.addAll(List.of("", "", ""));
    }
    if (options.runs("pipe")) {
      PipelinedThroughput.Result r = PipelinedThroughput.run(session, options.pipelined);
      double peakMib = ProcFs.statusBytes(session.server().pid(), "VmHWM") / 1024.0 / 1024.0;
      samples.put(Metric.THROUGHPUT, r.callsPerSecond());
      samples.put(Metric.CPU_PER_CALL, r.serverCpuMicrosPerCall());
      samples.put(Metric.CLIENT_CPU_PER_CALL, r.clientCpuMicrosPerCall());
      samples.put(Metric.PEAK_RSS, peakMib);
      results.callsBeforePeak(name, session.calls());
      cells.add(String.format(Locale.ROOT, "%,.0f", r.callsPerSecond()));
      cells.add(format(r.serverCpuMicrosPerCall()));
      cells.add(format(r.clientCpuMicrosPerCall()));
      cells.add(format(peakMib));
    } else {
      cells.addAll(List.of("", "", "", ""));
    }
    samples.forEach((metric, value) -> results.add(metric, name, value));
    results.note(session.finish());
  }

  private void soak(ServerSpec spec) {
    progress.println("soak " + spec.name() + ": " + options.soak + " calls");
    try (Session session = Session.open(spec, stderrFile(spec.name(), "soak"), note)) {
      Soak.Result result = Soak.run(session, options.soak, options.soakEvery);
      results.soak(spec.name(), result);
      results.note(session.finish());
      progress.printf(
          Locale.ROOT,
          "  %s: VmRSS %s → %s MiB, flat %s%n",
          spec.name(),
          Report.mib(result.rssBytes()[0]),
          Report.mib(result.rssBytes()[result.rssBytes().length - 1]),
          result.flat());
    }
  }

  /**
   * Runs one phase of one server, unless that server already failed. A failure of an essential
   * server propagates (the run stops); another peer's is recorded and that peer is dropped.
   */
  private void guarded(String server, Runnable phase) {
    if (results.failed(server)) {
      return;
    }
    try {
      phase.run();
    } catch (BenchFailure f) {
      if (ESSENTIAL.contains(server)) {
        throw f;
      }
      results.fail(server, f.getMessage());
      progress.println("PEER FAILED, dropped from the rest of the run: " + f.getMessage());
    }
  }

  private Path stderrFile(String server, String what) {
    return scratch.resolve(server + "-" + what + ".stderr");
  }

  private static List<String> rotate(List<String> names, int by) {
    List<String> rotated = new ArrayList<>(names);
    java.util.Collections.rotate(rotated, -(by % Math.max(1, names.size())));
    return rotated;
  }

  private static String format(double value) {
    return String.format(Locale.ROOT, value >= 100 ? "%.0f" : "%.1f", value);
  }

  private Path write(String report, Machine machine) {
    Path file =
        options.out != null
            ? options.out
            : options.repo.resolve("bench/results").resolve(machine.stamp() + ".md");
    try {
      if (file.toAbsolutePath().getParent() != null) {
        Files.createDirectories(file.toAbsolutePath().getParent());
      }
      Files.writeString(file, report, StandardCharsets.UTF_8);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the report to " + file, e);
    }
  }

  private void deleteScratch() {
    if (scratch == null) {
      return;
    }
    try (Stream<Path> files = Files.walk(scratch)) {
      for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      progress.println("notes-bench: could not delete " + scratch + ": " + e.getMessage());
    }
  }
}

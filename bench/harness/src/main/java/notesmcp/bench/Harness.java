package notesmcp.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * The process-level benchmark: real server processes over stdio, ours beside the floor and the
 * TypeScript SDK v2 server, in one run. Each round starts every server (rotating the order, so no
 * server always runs first or last while the machine warms up or other work comes and goes), times
 * its start-up, then sequential and pipelined {@code read_note} calls in that same process, and
 * reads its CPU time and peak memory. Extra start-up-only processes and the one-shot clients
 * follow; the soak runs once per server at the end. Every reply is checked; a lost or wrong one
 * from ours or the floor stops the run with exit code 1 (the partial report is still written).
 *
 * <p>Run it with {@code bench/run} (see bench/README.md). The report goes to stdout and to a file
 * under bench/results/; progress goes to stderr.
 */
public final class Harness {
  /** Exit codes: all good; the run stopped; a bad command line; a server other than ours failed. */
  static final int OK = 0;

  static final int STOPPED = 1;
  static final int USAGE = 2;
  static final int PEER_FAILED = 3;

  private final BenchOptions options;
  private final PrintStream progress;
  private final Results results = new Results();
  private final Map<String, String> measuredProcess = new LinkedHashMap<>();
  private final Map<String, ServerSpec> specs = new LinkedHashMap<>();
  private Path scratch;
  private String note;

  private Harness(BenchOptions options, PrintStream progress) {
    this.options = options;
    this.progress = progress;
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** One run: the report on {@code out}, progress on {@code progress}; returns the exit code. */
  static int run(String[] args, PrintStream out, PrintStream progress) {
    BenchOptions options;
    try {
      options = BenchOptions.parse(args);
    } catch (BenchOptions.UsageException e) {
      progress.println("notes-bench: " + e.getMessage());
      progress.print(BenchOptions.usage());
      return USAGE;
    }
    if (options.help) {
      out.print(BenchOptions.usage());
      return OK;
    }
    return new Harness(options, progress).run(out);
  }

  private int run(PrintStream out) {
    Machine machine = new Machine(options.repo);
    BenchFailure failure = null;
    try {
      prepare();
      progress.println(
          "notes-bench: "
              + specs.keySet()
              + ", "
              + options.rounds
              + (options.rounds == 1 ? " round" : " rounds")
              + "; load average "
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
          if (specs.containsKey(name)) {
            guarded(name, () -> soak(specs.get(name)));
          }
        }
      }
    } catch (BenchFailure e) {
      failure = e;
    }
    machine.end();
    results.note(
        measuredProcess.isEmpty()
            ? null
            : "Measured processes (/proc/<pid>/comm after start-up, with any children): "
                + measuredProcess
                + ".");
    String report = new Report(options, machine, results, specs).render(failure);
    out.print(report);
    out.flush();
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
          .forEach((name, why) -> progress.println("SERVER FAILED: " + name + ": " + why));
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
    ServerCatalog catalog;
    try {
      scratch = Files.createTempDirectory("notes-bench-");
      Path workspace = Files.createDirectory(scratch.resolve("workspace"));
      try (Stream<Path> files = Files.list(options.repo.resolve("examples/workspace"))) {
        for (Path file : files.filter(Files::isRegularFile).toList()) {
          Files.copy(file, workspace.resolve(file.getFileName()));
        }
      }
      note = Files.readString(workspace.resolve("notes.txt"), StandardCharsets.UTF_8);
      catalog = new ServerCatalog(options, workspace);
    } catch (IOException e) {
      throw new BenchFailure("cannot prepare the workspace: " + e, e);
    }
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
    try (Session session = open(spec, "prime")) {
      measuredProcess.put(spec.name(), ProcFs.commands(session.server().handle()));
      SequentialLatency.run(session, 0, 500);
      PipelinedThroughput.run(session, 5000);
      finish(session);
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
                    ColdStart.measure(specs.get(name), stderrFile(name, what), note, options.stall);
                results.add(Metric.COLD_START, name, sample.nanos() / 1e6);
                results.checked(name, 1);
                results.note(sample.exitNote());
              });
        }
      }
    }
    if (options.runs("oneshot")) {
      for (int i = 0; i < options.oneShotRuns; i++) {
        for (String name : order) {
          List<String> command = specs.get(name).oneShot();
          if (command != null) {
            guarded(name, () -> oneShot(name, command));
          }
        }
      }
    }
  }

  private void oneShot(String name, List<String> command) {
    long nanos = OneShotClient.run(name, command, new ReplyCheck(name, note), scratch);
    results.add(Metric.ONE_SHOT, name, nanos / 1e6);
    results.checked(name, 1);
    progress.printf(Locale.ROOT, "  %-10s one-shot %.0f ms%n", name, nanos / 1e6);
  }

  /** One process: cold start, sequential, pipelined, peak memory; one raw row. */
  private void callPhases(int round, String load, ServerSpec spec) {
    boolean cold = options.runs("cold");
    if (!cold && !options.runs("seq") && !options.runs("pipe")) {
      return;
    }
    String name = spec.name();
    List<String> cells = new ArrayList<>(List.of(Integer.toString(round + 1), load, name));
    try (Session session = open(spec, "r" + round)) {
      measure(session, cells, "r" + (round + 1));
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
  private void measure(Session session, List<String> cells, String what) {
    String name = session.server().name();
    Map<Metric, Double> samples = new LinkedHashMap<>();
    double coldMs = session.coldStartNanos() / 1e6;
    if (options.runs("cold")) {
      samples.put(Metric.COLD_START, coldMs);
    }
    cells.add(options.runs("cold") ? format(coldMs) : "");
    Histogram latency = null;
    if (options.runs("seq")) {
      latency =
          SequentialLatency.run(
              session,
              options.warmup,
              options.seq,
              traceFile(name, what + "-pid" + session.server().handle().pid()));
      for (double percentile : new double[] {50, 90, 99, 99.9, 100}) {
        cells.add(format(Results.micros(latency, percentile)));
      }
    } else {
      cells.addAll(Collections.nCopies(5, ""));
    }
    if (options.runs("pipe")) {
      PipelinedThroughput.Result r = PipelinedThroughput.run(session, options.pipelined);
      double peakMib = ProcFs.statusBytes(session.server().handle(), "VmHWM") / 1024.0 / 1024.0;
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
      cells.addAll(Collections.nCopies(4, ""));
    }
    finish(session);
    samples.forEach((metric, value) -> results.add(metric, name, value));
    if (latency != null) {
      results.addLatency(name, latency);
    }
  }

  private void soak(ServerSpec spec) {
    progress.println("soak " + spec.name() + ": " + options.soak + " calls");
    try (Session session = open(spec, "soak")) {
      Soak.Result result = Soak.run(session, options.soak, options.soakEvery);
      finish(session);
      results.soak(spec.name(), result);
      progress.printf(
          Locale.ROOT,
          "  %s: VmRSS %s → %s MiB, flat %s%n",
          spec.name(),
          Report.mib(result.rssBytes()[0]),
          Report.mib(result.rssBytes()[result.rssBytes().length - 1]),
          result.flat());
    }
  }

  private Session open(ServerSpec spec, String what) {
    return Session.open(spec, stderrFile(spec.name(), what), note, options.stall);
  }

  /** Closes the session as a host does; every reply it got (and tools/list) was checked. */
  private void finish(Session session) {
    results.checked(session.server().name(), session.calls() + 1);
    results.note(session.finish());
  }

  /**
   * Runs one phase of one server, unless that server already failed. A failure of an essential
   * server propagates (the run stops); another's is recorded and that server is dropped.
   */
  private void guarded(String server, Runnable phase) {
    if (results.failed(server)) {
      return;
    }
    try {
      phase.run();
    } catch (BenchFailure f) {
      if (ServerCatalog.ESSENTIAL.contains(server)) {
        results.fail(server, f.getMessage());
        throw f;
      }
      results.fail(server, f.getMessage());
      progress.println("SERVER FAILED, dropped from the rest of the run: " + f.getMessage());
    }
  }

  /**
   * Where {@code --trace} puts one process's sequential calls, or null without it; the name holds
   * the server's pid, as a JVM log file named with {@code %p} does.
   */
  private Path traceFile(String server, String what) {
    if (options.trace == null) {
      return null;
    }
    try {
      return Files.createDirectories(options.trace).resolve(server + "-" + what + ".calls");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make the trace folder " + options.trace, e);
    }
  }

  private Path stderrFile(String server, String what) {
    return scratch.resolve(server + "-" + what + ".stderr");
  }

  private static List<String> rotate(List<String> names, int by) {
    List<String> rotated = new ArrayList<>(names);
    Collections.rotate(rotated, -(by % Math.max(1, names.size())));
    return rotated;
  }

  private static String format(double value) {
    return String.format(Locale.ROOT, value >= 100 ? "%,.0f" : "%.1f", value);
  }

  /** The report, and beside it each server's latency histogram (HdrHistogram's .hgrm text). */
  private Path write(String report, Machine machine) {
    Path file =
        options.out != null
            ? options.out.toAbsolutePath()
            : options.repo.resolve("bench/results").resolve(machine.stamp() + ".md");
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, report, StandardCharsets.UTF_8);
      Map<String, Histogram> latencies = results.latencies();
      if (!latencies.isEmpty()) {
        String base = file.getFileName().toString().replaceFirst("\\.md$", "");
        Path folder = Files.createDirectories(file.resolveSibling(base + "-latency"));
        for (Map.Entry<String, Histogram> entry : latencies.entrySet()) {
          try (PrintStream hgrm =
              new PrintStream(
                  Files.newOutputStream(folder.resolve(entry.getKey() + ".hgrm")),
                  false,
                  StandardCharsets.UTF_8)) {
            entry.getValue().outputPercentileDistribution(hgrm, 1000.0); // values in µs
          }
        }
      }
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

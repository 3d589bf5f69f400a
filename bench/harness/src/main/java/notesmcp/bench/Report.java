package notesmcp.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The run as Markdown: the machine, the servers and settings, the targets, one table per metric
 * (median, spreads, ratio to the reference measured in the same run), the sequential latency from
 * every call, the soak, the replies checked, the raw per-round rows and anything suspicious.
 */
final class Report {
  private static final double MIB = 1024.0 * 1024.0;

  private final BenchOptions options;
  private final Machine machine;
  private final Results results;
  private final Map<String, ServerSpec> specs;
  private final StringBuilder md = new StringBuilder();

  Report(BenchOptions options, Machine machine, Results results, Map<String, ServerSpec> specs) {
    this.options = options;
    this.machine = machine;
    this.results = results;
    this.specs = specs;
  }

  String render(BenchFailure failure) {
    line("# notes-mcp benchmark, " + machine.started.toLocalDate() + " (UTC)");
    line("");
    if (failure != null) {
      line("> **RUN FAILED**: the numbers below are partial. " + firstLine(failure.getMessage()));
      line("");
    }
    for (Map.Entry<String, String> failed : results.failures().entrySet()) {
      if (failure != null && failed.getValue().equals(failure.getMessage())) {
        continue;
      }
      line(
          "> **SERVER FAILED: "
              + failed.getKey()
              + "**, dropped from the rest of the run: "
              + firstLine(failed.getValue())
              + " (details under Notes)");
      line("");
    }
    line("Command: `bench/run" + join(options.userArgs) + "` at commit " + machine.commit + ".");
    line("");
    machine();
    servers();
    settings();
    targets();
    line("## Results");
    line("");
    line(
        "Median of the samples; spreads: min–max and p25–p75 of the same samples; the last column"
            + " is this server's median ÷ the reference's, measured in the same run.");
    line("");
    for (Metric metric : Metric.values()) {
      if (!metric.isLatency()) {
        metric(metric);
      }
    }
    latency();
    soak();
    replies();
    rounds();
    notes(failure);
    return md.toString();
  }

  private void machine() {
    line("## Machine");
    line("");
    line("| | |");
    line("|---|---|");
    line("| date | " + machine.started + " |");
    line("| `uname -a` | " + machine.uname + " |");
    line("| `nproc` | " + machine.nproc + " (" + machine.cpu + "; " + machine.memory + ") |");
    line("| `java -version` | " + machine.java + " |");
    line("| `node --version` | " + machine.node + " |");
    line("| python (floor) | " + machine.python + " |");
    line("| load average at start (1/5/15 min) | " + machine.loadAtStart + " |");
    line("| load average at end | " + machine.loadAtEnd + " |");
    line("| notes-mcp start-up cache | " + machine.startUpCache + " |");
    line("");
  }

  private void servers() {
    line("## Servers");
    line("");
    line(
        "Every server speaks MCP 2026-07-28 here: `tools/list` and every call carry the"
            + " per-request `_meta`; there is no handshake.");
    line("");
    for (ServerSpec spec : specs.values()) {
      line(
          "- **"
              + spec.name()
              + "**: "
              + spec.description()
              + (spec.oneShot() == null
                  ? ""
                  : "; one-shot client: `" + String.join(" ", spec.oneShot()) + "`"));
    }
    if (options.appImage == null) {
      line(
          "- (no packaged app image in this run: bench/run measures one when target/dist/ holds it)");
    }
    if (options.beforeLauncher == null) {
      line("- (no earlier build in this run: the one-shot client's target is not judged)");
    }
    line("");
  }

  private void settings() {
    line("## Settings");
    line("");
    StringBuilder process = new StringBuilder();
    if (options.runs("cold")) {
      process.append("the cold start");
    }
    if (options.runs("seq")) {
      process
          .append(process.length() == 0 ? "" : ", ")
          .append(options.warmup)
          .append(" unrecorded + ")
          .append(options.seq)
          .append(" recorded sequential `read_note` calls (every round trip recorded in an")
          .append(" HdrHistogram)");
    }
    if (options.runs("pipe")) {
      process
          .append(process.length() == 0 ? "" : ", ")
          .append(options.pipelined)
          .append(" pipelined calls, then VmHWM");
    }
    line(
        "- "
            + plural(options.rounds, "round")
            + "; each round starts every server once (order rotated by one each round)"
            + (process.length() == 0 ? "." : " and runs, in that one process: " + process + "."));
    if (options.runs("cold")) {
      line(
          "- Cold start also from "
              + plural(options.coldStarts, "extra start-up-only process")
              + " per server per round.");
    }
    if (options.runs("oneshot")) {
      line(
          "- One-shot clients: "
              + plural(options.oneShotRuns, "run")
              + " of each per round, spawn to exit, the printed result checked.");
    }
    if (options.runs("soak")) {
      line(
          "- Soak: "
              + options.soak
              + " pipelined calls in one process per server, VmRSS sampled every "
              + options.soakEvery
              + " calls; flat = the second half's highest sample at most 2 MiB or 2 % above the"
              + " first half's.");
    }
    line(
        "- Phases: "
            + String.join(", ", BenchOptions.PHASES.stream().filter(options::runs).toList())
            + "; priming start per server: "
            + (options.prime ? "yes (untimed)" : "no")
            + "; every reply checked (id, no error, `isError` false, the note's exact content);"
            + " a server silent for "
            + options.stall.toSeconds()
            + " s while replies are owed has lost them.");
    line("");
  }

  private static String plural(long n, String what) {
    return n + " " + what + (n == 1 ? "" : what.endsWith("s") ? "es" : "s");
  }

  private void targets() {
    List<Targets.Row> rows = Targets.judge(results, List.copyOf(specs.keySet()), options);
    if (rows.isEmpty()) {
      return;
    }
    line("## Targets (BENCHMARKS.md), ours against the reference in this run");
    line("");
    line(
        "Sequential percentiles are taken over every recorded call of all rounds; the other"
            + " values are medians of the samples.");
    line("");
    line("| metric | server | value | reference | ratio | target | met |");
    line("|---|---|---:|---:|---:|---|---|");
    for (Targets.Row row : rows) {
      line(
          "| "
              + row.what()
              + " | "
              + row.server()
              + " | "
              + row.value()
              + " | "
              + row.reference()
              + " | "
              + row.ratio()
              + " | "
              + row.target()
              + " | "
              + (row.met() == null ? "not judged" : row.met() ? "yes" : "**no**")
              + " |");
    }
    line("");
  }

  private void metric(Metric metric) {
    boolean any = false;
    for (String server : specs.keySet()) {
      any |= !results.get(metric, server).isEmpty();
    }
    if (!any) {
      return;
    }
    String title = metric.title;
    if (metric == Metric.PEAK_RSS && !results.callsBeforePeak().isEmpty()) {
      title += " (" + results.callsBeforePeak().values().iterator().next() + " calls)";
    }
    line("### " + title + ", " + metric.unit);
    line("");
    boolean hasRatio = metric.reference != null;
    line(
        "| server | median | min–max | p25–p75 | n |"
            + (hasRatio ? " × " + metric.reference + " |" : ""));
    line("|---|---:|---:|---:|---:|" + (hasRatio ? "---:|" : ""));
    Double reference = hasRatio ? results.value(metric, metric.reference) : null;
    for (String server : specs.keySet()) {
      List<Double> values = results.get(metric, server);
      if (values.isEmpty()) {
        if (results.failed(server)) {
          line("| " + server + " | FAILED | | | 0 |" + (hasRatio ? " |" : ""));
        }
        continue;
      }
      Stats s = new Stats(values);
      line(
          "| "
              + server
              + " | **"
              + number(metric, s.median())
              + "** | "
              + number(metric, s.min())
              + "–"
              + number(metric, s.max())
              + " | "
              + number(metric, s.quantile(0.25))
              + "–"
              + number(metric, s.quantile(0.75))
              + " | "
              + s.count()
              + " |"
              + (!hasRatio
                  ? ""
                  : " " + (reference == null ? "–" : ratio(s.median() / reference)) + " |"));
    }
    line("");
  }

  /** The sequential latency of every recorded call, all rounds pooled, and the per-round spread. */
  private void latency() {
    Map<String, Histogram> latencies = results.latencies();
    if (latencies.isEmpty()) {
      return;
    }
    line("### Sequential `tools/call read_note` round trip, µs (every recorded call)");
    line("");
    line(
        "Percentiles of all rounds' calls pooled (HdrHistogram, 3 significant digits); × floor"
            + " for p50 / p90 / p99; then the range of the per-round p99s.");
    line("");
    line(
        "| server | calls | p50 | p90 | p99 | p99.9 | max | × floor (p50 / p90 / p99) | p99 per round |");
    line("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (String server : specs.keySet()) {
      Histogram h = latencies.get(server);
      if (h == null) {
        continue;
      }
      StringBuilder row = new StringBuilder("| " + server + " | " + count(h.getTotalCount()));
      for (Metric m :
          List.of(
              Metric.SEQ_P50, Metric.SEQ_P90, Metric.SEQ_P99, Metric.SEQ_P999, Metric.SEQ_MAX)) {
        row.append(" | ").append(number(m, results.value(m, server)));
      }
      StringBuilder ratios = new StringBuilder();
      for (Metric m : List.of(Metric.SEQ_P50, Metric.SEQ_P90, Metric.SEQ_P99)) {
        Double reference = results.value(m, ServerCatalog.FLOOR);
        ratios.append(ratios.length() == 0 ? "" : " / ");
        ratios.append(reference == null ? "–" : ratio(results.value(m, server) / reference));
      }
      Stats p99 = new Stats(results.get(Metric.SEQ_P99, server));
      row.append(" | ").append(ratios);
      row.append(" | ")
          .append(number(Metric.SEQ_P99, p99.min()))
          .append("–")
          .append(number(Metric.SEQ_P99, p99.max()));
      line(row.append(" |").toString());
    }
    line("");
  }

  private void soak() {
    Map<String, Soak.Result> soaks = results.soaks();
    if (soaks.isEmpty()) {
      return;
    }
    line("### Soak: VmRSS over " + options.soak + " calls in one process, MiB");
    line("");
    line(
        "| server | first sample | middle | end | 2nd-half peak growth | flat | VmHWM | × floor"
            + " (VmHWM) | calls/s |");
    line("|---|---:|---:|---:|---:|---|---:|---:|---:|");
    Soak.Result reference = soaks.get(ServerCatalog.FLOOR);
    for (Map.Entry<String, Soak.Result> entry : soaks.entrySet()) {
      Soak.Result r = entry.getValue();
      long[] rss = r.rssBytes();
      line(
          "| "
              + entry.getKey()
              + " | "
              + mib(rss[0])
              + " | "
              + mib(rss[r.middle()])
              + " | "
              + mib(rss[rss.length - 1])
              + " | "
              + mib(r.secondHalfGrowth())
              + " | "
              + (r.flat() ? "yes" : "**no**")
              + " | "
              + mib(r.peakBytes())
              + " | "
              + (reference == null ? "–" : ratio((double) r.peakBytes() / reference.peakBytes()))
              + " | "
              + String.format(Locale.ROOT, "%,.0f", r.callsPerSecond())
              + " |");
    }
    line("");
    for (Map.Entry<String, Soak.Result> entry : soaks.entrySet()) {
      StringBuilder series = new StringBuilder();
      Soak.Result r = entry.getValue();
      for (int i = 0; i < r.rssBytes().length; i++) {
        series.append(i == 0 ? "" : ", ").append(count(r.callsAt()[i])).append(": ");
        series.append(mib(r.rssBytes()[i]));
      }
      line("- " + entry.getKey() + " VmRSS (MiB) after n calls: " + series);
    }
    line("");
  }

  private void replies() {
    line("### Replies checked");
    line("");
    line("| server | replies checked and right | lost or wrong |");
    line("|---|---:|---|");
    for (String server : specs.keySet()) {
      line(
          "| "
              + server
              + " | "
              + count(results.checked(server))
              + " | "
              + (results.failed(server) ? "**yes**: the run's Notes say which" : "none")
              + " |");
    }
    line("");
  }

  private void rounds() {
    List<String> rows = results.rounds();
    if (rows.isEmpty()) {
      return;
    }
    line("## Per round (raw)");
    line("");
    line(
        "| round | load (1 min) | server | cold ms | seq p50 µs | p90 | p99 | p99.9 | max | calls/s"
            + " | server CPU µs/call | harness CPU µs/call | VmHWM MiB |");
    line("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    rows.forEach(this::line);
    line("");
  }

  private void notes(BenchFailure failure) {
    List<String> notes = results.notes();
    Map<String, String> failures = results.failures();
    if (failure == null && notes.isEmpty() && failures.isEmpty()) {
      return;
    }
    line("## Notes");
    line("");
    if (failure != null) {
      line("**The run failed:**");
      line("");
      line("```");
      line(failure.getMessage());
      line("```");
      line("");
    }
    for (Map.Entry<String, String> failed : failures.entrySet()) {
      if (failure != null && failed.getValue().equals(failure.getMessage())) {
        continue; // the failure that stopped the run, shown above
      }
      line("**" + failed.getKey() + " failed** and took no further part in the run:");
      line("");
      line("```");
      line(failed.getValue());
      line("```");
      line("");
    }
    notes.forEach(note -> line("- " + note));
    line("");
  }

  static String number(Metric metric, double value) {
    if (metric == Metric.THROUGHPUT) {
      return String.format(Locale.ROOT, "%,.0f", value);
    }
    return String.format(Locale.ROOT, value >= 100 ? "%,.0f" : "%.1f", value);
  }

  static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / MIB);
  }

  static String ratio(double ratio) {
    return String.format(Locale.ROOT, "%.2f×", ratio);
  }

  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** A bound as written in a target: 1.3, 1.05, 32. */
  static String plain(double value) {
    return value == Math.rint(value)
        ? Long.toString((long) value)
        : String.format(Locale.ROOT, "%s", value);
  }

  private static String join(List<String> args) {
    StringBuilder out = new StringBuilder();
    for (String arg : args) {
      out.append(' ').append(arg.matches("[\\w,./=-]+") ? arg : "'" + arg + "'");
    }
    return out.toString();
  }

  private static String firstLine(String text) {
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }

  private void line(String text) {
    md.append(text).append('\n');
  }
}

package notesmcp.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The run as Markdown: the machine, the settings, one table per metric (median, spreads, ratio to
 * ts-sdk-v2), the targets, the soak, the raw per-round rows and anything suspicious.
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
      line(
          "> **PEER FAILED: "
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
    line("## Results");
    line("");
    line(
        "Median of the samples; spreads: min–max and p25–p75 of the same samples;"
            + " `× ts-sdk-v2` is this server's median ÷ ts-sdk-v2's, measured in the same run.");
    line("");
    for (Metric metric : Metric.values()) {
      metric(metric);
    }
    targets();
    soak();
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
    for (ServerSpec spec : specs.values()) {
      line(
          "- **"
              + spec.name()
              + "**: "
              + spec.description()
              + (spec.era() == ServerSpec.Era.LEGACY
                  ? ". Legacy era: its cold start is `initialize` + `notifications/initialized` +"
                      + " `tools/list`, timed to the `tools/list` reply; calls carry no `_meta`."
                  : ". Modern era: `tools/list` and every call carry 2026-07-28 `_meta`; no"
                      + " handshake."));
    }
    line("");
  }

  private void settings() {
    line("## Settings");
    line("");
    line(
        "- "
            + options.rounds
            + " rounds; each round starts every server once (order rotated by one each round)"
            + " and runs, in that one process: the cold start, "
            + options.warmup
            + " unrecorded + "
            + options.seq
            + " recorded sequential `read_note` calls, "
            + options.pipelined
            + " pipelined calls, then reads VmHWM.");
    line(
        "- Cold start also from "
            + options.coldStarts
            + " extra start-up-only processes per server per round; one-shot clients run "
            + options.oneShotRuns
            + " times each per round.");
    line(
        "- Soak: "
            + options.soak
            + " pipelined calls in one process per server, VmRSS sampled every "
            + options.soakEvery
            + " calls; flat = the second half's highest sample at most 2 MiB or 2 % above the"
            + " first half's.");
    line(
        "- Phases: "
            + String.join(", ", BenchOptions.PHASES.stream().filter(options::runs).toList())
            + "; priming start per server: "
            + (options.prime ? "yes (untimed)" : "no")
            + "; every reply checked (id, no error, `isError` false, the note's exact content).");
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
    line("| server | median | min–max | p25–p75 | n | × ts-sdk-v2 |");
    line("|---|---:|---:|---:|---:|---:|");
    Double reference = median(metric, ServerCatalog.TS_SDK_V2);
    for (String server : specs.keySet()) {
      List<Double> values = results.get(metric, server);
      if (values.isEmpty()) {
        if (results.failed(server)
            && (metric != Metric.ONE_SHOT || ServerCatalog.ONE_SHOT.contains(server))) {
          line("| " + server + " | FAILED | | | 0 | |");
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
              + " | "
              + (reference == null ? "–" : ratio(s.median() / reference))
              + " |");
    }
    line("");
  }

  private void targets() {
    line("### Targets: notes-mcp against ts-sdk-v2 in this run");
    line("");
    line("| metric | notes-mcp | ts-sdk-v2 | ratio | target | met |");
    line("|---|---:|---:|---:|---:|---|");
    for (Metric metric : Metric.values()) {
      if (metric.target == 0) {
        continue;
      }
      Double ours = median(metric, ServerCatalog.NOTES_MCP);
      Double theirs = median(metric, ServerCatalog.TS_SDK_V2);
      if (ours == null || theirs == null || results.failed(ServerCatalog.NOTES_MCP)) {
        continue;
      }
      double ratio = ours / theirs;
      line(
          "| "
              + metric.title
              + " | "
              + number(metric, ours)
              + " "
              + metric.unit
              + " | "
              + number(metric, theirs)
              + " "
              + metric.unit
              + " | "
              + ratio(ratio)
              + " | "
              + metric.targetText
              + " | "
              + (metric.met(ratio) ? "yes" : "**no**")
              + " |");
    }
    Soak.Result soak = results.soaks().get(ServerCatalog.NOTES_MCP);
    if (soak != null) {
      line(
          "| RSS flat over the soak | "
              + mib(soak.secondHalfGrowth())
              + " MiB peak growth in the 2nd half | | | flat | "
              + (soak.flat() ? "yes" : "**no**")
              + " |");
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
        "| server | first sample | middle | end | 2nd-half peak growth | flat | VmHWM | × ts-sdk-v2"
            + " (VmHWM) | calls/s |");
    line("|---|---:|---:|---:|---:|---|---:|---:|---:|");
    Soak.Result reference = soaks.get(ServerCatalog.TS_SDK_V2);
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
        series.append(i == 0 ? "" : ", ").append(r.callsAt()[i] / 1000).append("k: ");
        series.append(mib(r.rssBytes()[i]));
      }
      line("- " + entry.getKey() + " VmRSS (MiB) after n calls: " + series);
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
        "| round | load (1 min) | server | cold ms | seq p50 µs | p90 | p99 | calls/s | server CPU"
            + " µs/call | harness CPU µs/call | VmHWM MiB |");
    line("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|");
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

  private Double median(Metric metric, String server) {
    List<Double> values = results.get(metric, server);
    return values.isEmpty() ? null : new Stats(values).median();
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

  private static String ratio(double ratio) {
    return String.format(Locale.ROOT, "%.2f×", ratio);
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

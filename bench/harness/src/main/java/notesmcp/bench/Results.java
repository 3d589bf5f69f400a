package notesmcp.bench;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** Everything a run measured, as it comes in; the report reads it (also after a failure). */
final class Results {
  private final Map<Metric, Map<String, List<Double>>> samples = new EnumMap<>(Metric.class);
  private final Map<String, Histogram> latency = new LinkedHashMap<>();
  private final Map<String, Soak.Result> soaks = new LinkedHashMap<>();
  private final Map<String, Long> checkedReplies = new LinkedHashMap<>();
  private final List<String> rounds = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private final Map<String, Long> callsBeforePeak = new LinkedHashMap<>();
  private final Map<String, String> failures = new LinkedHashMap<>();

  /** One sample: one round's value, or one process's cold start, or one client run. */
  void add(Metric metric, String server, double value) {
    samples
        .computeIfAbsent(metric, m -> new LinkedHashMap<>())
        .computeIfAbsent(server, s -> new ArrayList<>())
        .add(value);
  }

  /**
   * One process's sequential round trips (nanoseconds): pooled with the server's other rounds, and
   * each latency percentile of this round kept as a sample for the spreads.
   */
  void addLatency(String server, Histogram nanos) {
    latency.computeIfAbsent(server, s -> SequentialLatency.histogram()).add(nanos);
    for (Metric metric : Metric.values()) {
      if (metric.isLatency()) {
        add(metric, server, micros(nanos, metric.percentile()));
      }
    }
  }

  List<Double> get(Metric metric, String server) {
    return samples.getOrDefault(metric, Map.of()).getOrDefault(server, List.of());
  }

  /**
   * The value the report and the targets use: for a latency percentile, that percentile of every
   * recorded call of the server (all rounds pooled); otherwise the median of the samples. Null when
   * nothing was measured.
   */
  Double value(Metric metric, String server) {
    if (metric.isLatency()) {
      Histogram pooled = latency.get(server);
      return pooled == null ? null : micros(pooled, metric.percentile());
    }
    List<Double> values = get(metric, server);
    return values.isEmpty() ? null : new Stats(values).median();
  }

  /** Every recorded sequential round trip of the server, in nanoseconds, or null. */
  Histogram latency(String server) {
    return latency.get(server);
  }

  Map<String, Histogram> latencies() {
    return new LinkedHashMap<>(latency);
  }

  void soak(String server, Soak.Result result) {
    soaks.put(server, result);
  }

  Map<String, Soak.Result> soaks() {
    return new LinkedHashMap<>(soaks);
  }

  /** Replies checked and found right (the id, no error, the exact note) from a server. */
  void checked(String server, long replies) {
    checkedReplies.merge(server, replies, Long::sum);
  }

  long checked(String server) {
    return checkedReplies.getOrDefault(server, 0L);
  }

  /** One line of the per-round raw data (a Markdown table row). */
  void round(String row) {
    rounds.add(row);
  }

  List<String> rounds() {
    return new ArrayList<>(rounds);
  }

  /** Something suspicious that did not stop the run (an unclean exit, ...). */
  void note(String note) {
    if (note != null && !notes.contains(note)) {
      notes.add(note);
    }
  }

  List<String> notes() {
    return new ArrayList<>(notes);
  }

  /** How many calls a server had made when its VmHWM was read. */
  void callsBeforePeak(String server, long calls) {
    callsBeforePeak.put(server, calls);
  }

  Map<String, Long> callsBeforePeak() {
    return new LinkedHashMap<>(callsBeforePeak);
  }

  /** A server that failed (a lost or wrong reply, a crash): it takes no further part in the run. */
  void fail(String server, String why) {
    failures.putIfAbsent(server, why);
  }

  boolean failed(String server) {
    return failures.containsKey(server);
  }

  Map<String, String> failures() {
    return new LinkedHashMap<>(failures);
  }

  /** A percentile (0-100; 100 is the maximum) of a histogram of nanoseconds, in microseconds. */
  static double micros(Histogram nanos, double percentile) {
    long value = percentile >= 100 ? nanos.getMaxValue() : nanos.getValueAtPercentile(percentile);
    return value / 1e3;
  }
}

package notesmcp.bench;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything a run measured, as it comes in; the report reads it (also after a failure). */
final class Results {
  private final Map<Metric, Map<String, List<Double>>> samples = new EnumMap<>(Metric.class);
  private final Map<String, Soak.Result> soaks = new LinkedHashMap<>();
  private final List<String> rounds = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private final Map<String, Long> callsBeforePeak = new LinkedHashMap<>();
  private final Map<String, String> failures = new LinkedHashMap<>();

  synchronized void add(Metric metric, String server, double value) {
    samples
        .computeIfAbsent(metric, m -> new LinkedHashMap<>())
        .computeIfAbsent(server, s -> new ArrayList<>())
        .add(value);
  }

  synchronized List<Double> get(Metric metric, String server) {
    return samples.getOrDefault(metric, Map.of()).getOrDefault(server, List.of());
  }

  synchronized void soak(String server, Soak.Result result) {
    soaks.put(server, result);
  }

  synchronized Map<String, Soak.Result> soaks() {
    return new LinkedHashMap<>(soaks);
  }

  /** One line of the per-round raw data (a Markdown table row). */
  synchronized void round(String row) {
    rounds.add(row);
  }

  synchronized List<String> rounds() {
    return new ArrayList<>(rounds);
  }

  /** Something suspicious that did not stop the run (an unclean exit, ...). */
  synchronized void note(String note) {
    if (note != null && !notes.contains(note)) {
      notes.add(note);
    }
  }

  synchronized List<String> notes() {
    return new ArrayList<>(notes);
  }

  /** How many calls a server had made when its VmHWM was read. */
  synchronized void callsBeforePeak(String server, long calls) {
    callsBeforePeak.put(server, calls);
  }

  synchronized Map<String, Long> callsBeforePeak() {
    return new LinkedHashMap<>(callsBeforePeak);
  }

  /** A peer that failed (a lost or wrong reply, a crash): it takes no further part in the run. */
  synchronized void fail(String server, String why) {
    failures.putIfAbsent(server, why);
  }

  synchronized boolean failed(String server) {
    return failures.containsKey(server);
  }

  synchronized Map<String, String> failures() {
    return new LinkedHashMap<>(failures);
  }
}

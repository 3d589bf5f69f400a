package notesmcp.bench;

/**
 * What the report tabulates, each with its unit, which way is better, the server its ratio column
 * is taken against, and the target for our servers ({@code BENCHMARKS.md}: ratios to the floor
 * server measured in the same run; the one-shot client against the program as it was; peak memory
 * in MiB).
 */
enum Metric {
  COLD_START(
      "Cold start: spawn → first `tools/list` reply",
      "ms",
      Better.LOWER,
      "cold",
      ServerCatalog.FLOOR,
      Target.ratio(1.3)),
  ONE_SHOT(
      "One-shot client end to end (`read_note`; client and server processes)",
      "ms",
      Better.LOWER,
      "oneshot",
      ServerCatalog.BEFORE,
      Target.ratio(1.0)),
  SEQ_P50(
      "Sequential `read_note`, p50",
      "µs",
      Better.LOWER,
      "seq",
      ServerCatalog.FLOOR,
      Target.ratio(1.05)),
  SEQ_P90(
      "Sequential `read_note`, p90",
      "µs",
      Better.LOWER,
      "seq",
      ServerCatalog.FLOOR,
      Target.ratio(1.2)),
  SEQ_P99(
      "Sequential `read_note`, p99",
      "µs",
      Better.LOWER,
      "seq",
      ServerCatalog.FLOOR,
      Target.ratio(1.5)),
  SEQ_P999("Sequential `read_note`, p99.9", "µs", Better.LOWER, "seq", ServerCatalog.FLOOR, null),
  SEQ_MAX("Sequential `read_note`, max", "µs", Better.LOWER, "seq", ServerCatalog.FLOOR, null),
  THROUGHPUT(
      "Pipelined `read_note` throughput",
      "calls/s",
      Better.HIGHER,
      "pipe",
      ServerCatalog.FLOOR,
      Target.ratio(1.2)),
  CPU_PER_CALL(
      "Server CPU per pipelined call (user + system)",
      "µs",
      Better.LOWER,
      "pipe",
      ServerCatalog.FLOOR,
      Target.ratio(0.8)),
  PEAK_RSS(
      "Peak RSS (VmHWM) after the call phases",
      "MiB",
      Better.LOWER,
      "pipe",
      ServerCatalog.FLOOR,
      Target.absolute(32)),
  CLIENT_CPU_PER_CALL(
      "Harness CPU per pipelined call (the client side; a diagnostic)",
      "µs",
      Better.LOWER,
      "pipe",
      null,
      null);

  enum Better {
    LOWER,
    HIGHER
  }

  /**
   * A bound on our value: a ratio to the metric's reference server, or an absolute value in the
   * metric's unit. Lower-is-better metrics must stay at or under it, higher-is-better at or above.
   */
  record Target(boolean isRatio, double bound) {
    static Target ratio(double bound) {
      return new Target(true, bound);
    }

    static Target absolute(double bound) {
      return new Target(false, bound);
    }
  }

  final String title;
  final String unit;
  final Better better;
  final String phase;

  /** The server the ratio column is taken against, or null for none. */
  final String reference;

  final Target target;

  Metric(String title, String unit, Better better, String phase, String reference, Target target) {
    this.title = title;
    this.unit = unit;
    this.better = better;
    this.phase = phase;
    this.reference = reference;
    this.target = target;
  }

  /** Whether the metric is one of the sequential latency percentiles (read from histograms). */
  boolean isLatency() {
    return phase.equals("seq");
  }

  /** The percentile of a latency metric, 0-100; 100 is the maximum. */
  double percentile() {
    switch (this) {
      case SEQ_P50:
        return 50;
      case SEQ_P90:
        return 90;
      case SEQ_P99:
        return 99;
      case SEQ_P999:
        return 99.9;
      case SEQ_MAX:
        return 100;
      default:
        throw new IllegalStateException(name() + " is not a latency percentile");
    }
  }

  /** Whether {@code value} (with the reference's value, for a ratio target) meets the target. */
  boolean met(double value, double referenceValue) {
    double measured = target.isRatio() ? value / referenceValue : value;
    return better == Better.LOWER ? measured <= target.bound() : measured >= target.bound();
  }

  /** The target as the report writes it: "≤ 1.3× floor", "≥ 1.2× floor", "≤ 32 MiB". */
  String targetText() {
    String sign = better == Better.LOWER ? "≤ " : "≥ ";
    return target.isRatio()
        ? sign + Report.plain(target.bound()) + "× " + reference
        : sign + Report.plain(target.bound()) + " " + unit;
  }
}

package notesmcp.bench;

/**
 * What the report tabulates, each with its unit, which way is better, and the target as a
 * ratio of notes-mcp to ts-sdk-v2 measured in the same run.
 */
enum Metric {
  COLD_START(
      "Cold start: spawn → first `tools/list` reply", "ms", Better.LOWER, 0.5, "≤ 0.5×", "cold"),
  ONE_SHOT(
      "One-shot client end to end (`read_note`, client + server process)",
      "ms",
      Better.LOWER,
      1.0,
      "≤ 1.0×",
      "oneshot"),
  SEQ_P50("Sequential `tools/call read_note`, p50", "µs", Better.LOWER, 0.3, "≤ 0.3×", "seq"),
  SEQ_P90("Sequential `tools/call read_note`, p90", "µs", Better.LOWER, 0, null, "seq"),
  SEQ_P99("Sequential `tools/call read_note`, p99", "µs", Better.LOWER, 0, null, "seq"),
  THROUGHPUT("Pipelined `read_note` throughput", "calls/s", Better.HIGHER, 2.0, "≥ 2×", "pipe"),
  CPU_PER_CALL(
      "Server CPU per pipelined call (utime+stime)", "µs", Better.LOWER, 0.3, "≤ 0.3×", "pipe"),
  PEAK_RSS("Peak RSS (VmHWM) after the call phases", "MiB", Better.LOWER, 0.5, "≤ 0.5×", "pipe"),
  CLIENT_CPU_PER_CALL(
      "Harness CPU per pipelined call (the client side; diagnostic)",
      "µs",
      Better.LOWER,
      0,
      null,
      "pipe");

  enum Better {
    LOWER,
    HIGHER
  }

  final String title;
  final String unit;
  final Better better;

  /** The target ratio, or 0 for none. */
  final double target;

  final String targetText;

  /** The {@code --metrics} name of the phase that produces it. */
  final String phase;

  Metric(String title, String unit, Better better, double target, String targetText, String phase) {
    this.title = title;
    this.unit = unit;
    this.better = better;
    this.target = target;
    this.targetText = targetText;
    this.phase = phase;
  }

  boolean met(double ratio) {
    return better == Better.LOWER ? ratio <= target : ratio >= target;
  }
}

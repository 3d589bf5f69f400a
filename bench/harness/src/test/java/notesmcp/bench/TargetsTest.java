package notesmcp.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class TargetsTest {
  private static Histogram nanos(long... values) {
    Histogram h = SequentialLatency.histogram();
    for (long v : values) {
      h.recordValue(v);
    }
    return h;
  }

  /** 100 calls: 98 at {@code fast} µs, then one at {@code slow} and one at {@code slowest}. */
  private static Histogram calls(long fast, long slow, long slowest) {
    long[] values = new long[100];
    for (int i = 0; i < 98; i++) {
      values[i] = fast * 1000;
    }
    values[98] = slow * 1000;
    values[99] = slowest * 1000;
    return nanos(values);
  }

  @Test
  void latencyPercentilesPoolEveryRoundsCalls() {
    Results results = new Results();
    results.addLatency("s", calls(100, 100, 100));
    results.addLatency("s", calls(200, 200, 5000));
    // 200 calls: half at 100 µs, half at 200 µs but one at 5 ms.
    assertThat(results.value(Metric.SEQ_P50, "s")).isCloseTo(100, within(0.1));
    assertThat(results.value(Metric.SEQ_P90, "s")).isCloseTo(200, within(0.2));
    assertThat(results.value(Metric.SEQ_MAX, "s")).isCloseTo(5000, within(5.0));
    assertThat(results.latency("s").getTotalCount()).isEqualTo(200);
    // Each round's percentiles are kept too, for the spreads.
    assertThat(results.get(Metric.SEQ_P50, "s")).hasSize(2);
    assertThat(results.get(Metric.SEQ_MAX, "s").get(1)).isCloseTo(5000, within(5.0));
  }

  @Test
  void theP99OfAHundredCallsIsTheSecondSlowest() {
    Histogram h = calls(100, 700, 900);
    assertThat(Results.micros(h, 99)).isCloseTo(700, within(1.0));
    assertThat(Results.micros(h, 99.9)).isCloseTo(900, within(1.0));
    assertThat(Results.micros(h, 100)).isCloseTo(900, within(1.0));
  }

  @Test
  void otherMetricsAreTheMedianOfTheirSamples() {
    Results results = new Results();
    for (double v : new double[] {90, 100, 300}) {
      results.add(Metric.COLD_START, "s", v);
    }
    assertThat(results.value(Metric.COLD_START, "s")).isEqualTo(100);
    assertThat(results.value(Metric.COLD_START, "nobody")).isNull();
  }

  @Test
  void ratioTargetsAreJudgedAgainstTheReferenceInTheSameRun() {
    assertThat(Metric.COLD_START.met(65, 50)).isTrue(); // 1.3×
    assertThat(Metric.COLD_START.met(66, 50)).isFalse();
    assertThat(Metric.THROUGHPUT.met(24_000, 20_000)).isTrue(); // higher is better: 1.2×
    assertThat(Metric.THROUGHPUT.met(23_000, 20_000)).isFalse();
    assertThat(Metric.CPU_PER_CALL.met(20, 25)).isTrue(); // 0.8×
    assertThat(Metric.PEAK_RSS.met(32, 0)).isTrue(); // absolute: MiB
    assertThat(Metric.PEAK_RSS.met(33, 14)).isFalse();
    assertThat(Metric.SEQ_P99.targetText()).isEqualTo("≤ 1.5× floor");
    assertThat(Metric.THROUGHPUT.targetText()).isEqualTo("≥ 1.2× floor");
    assertThat(Metric.PEAK_RSS.targetText()).isEqualTo("≤ 32 MiB");
    assertThat(Metric.ONE_SHOT.targetText()).isEqualTo("≤ 1× before");
  }

  @Test
  void targetsAreJudgedForOurServersOnly() throws Exception {
    Results results = new Results();
    results.add(Metric.COLD_START, "notes-mcp", 60);
    results.add(Metric.COLD_START, "floor", 50);
    results.add(Metric.COLD_START, "ts-sdk-v2", 300);
    results.add(Metric.PEAK_RSS, "notes-mcp", 40);
    results.add(Metric.THROUGHPUT, "notes-mcp", 30_000);
    results.add(Metric.THROUGHPUT, "floor", 20_000);
    results.add(Metric.CPU_PER_CALL, "notes-mcp", 30);
    results.add(Metric.CPU_PER_CALL, "floor", 25);
    results.addLatency("notes-mcp", calls(110, 1000, 2000));
    results.addLatency("floor", calls(100, 150, 200));
    results.checked("notes-mcp", 1234);
    BenchOptions options =
        BenchOptions.parse("--servers", "notes-mcp,floor,ts-sdk-v2", "--metrics", "cold,seq,pipe");
    List<Targets.Row> rows = Targets.judge(results, options.servers, options);

    assertThat(rows).allMatch(r -> r.server().equals("notes-mcp"));
    assertThat(row(rows, "Cold start").met()).isTrue();
    assertThat(row(rows, "Cold start").ratio()).isEqualTo("1.20×");
    assertThat(row(rows, "Cold start").reference()).isEqualTo("50.0 ms (floor)");
    assertThat(row(rows, "p50").met()).isFalse(); // 110 / 100 = 1.10× > 1.05×
    assertThat(row(rows, "p90").met()).isTrue(); // 1.10× ≤ 1.2×
    assertThat(row(rows, "p99").met()).isFalse(); // 1000 / 150
    assertThat(row(rows, "throughput").met()).isTrue();
    assertThat(row(rows, "CPU").met()).isFalse(); // 1.2× > 0.8×
    assertThat(row(rows, "Peak RSS").met()).isFalse(); // 40 MiB > 32 MiB
    assertThat(row(rows, "Peak RSS").reference()).isEmpty();
    assertThat(row(rows, "Lost").value()).isEqualTo("0 of 1,234");
    assertThat(row(rows, "Lost").met()).isTrue();
    assertThat(rows).noneMatch(r -> r.what().contains("One-shot")); // the phase did not run
    assertThat(rows).noneMatch(r -> r.what().contains("p99.9")); // no target
  }

  @Test
  void aTargetWithoutItsReferenceIsNotJudged() throws Exception {
    Results results = new Results();
    results.add(Metric.ONE_SHOT, "notes-mcp", 200);
    BenchOptions options = BenchOptions.parse("--servers", "notes-mcp", "--metrics", "oneshot");
    Targets.Row row = row(Targets.judge(results, options.servers, options), "One-shot");
    assertThat(row.met()).isNull();
    assertThat(row.reference()).isEqualTo("not in this run");
    assertThat(row.ratio()).isEqualTo("–");
  }

  @Test
  void aFailedServerMissesTheLostRepliesTarget() throws Exception {
    Results results = new Results();
    results.add(Metric.COLD_START, "notes-mcp", 40);
    results.add(Metric.COLD_START, "floor", 50);
    results.fail("notes-mcp", "LOST REPLIES: 3 of 20000");
    BenchOptions options = BenchOptions.parse("--servers", "notes-mcp,floor", "--metrics", "cold");
    List<Targets.Row> rows = Targets.judge(results, options.servers, options);
    assertThat(row(rows, "Lost").met()).isFalse();
    assertThat(row(rows, "Cold start").met()).isNull(); // a failed server's numbers judge nothing
  }

  @Test
  void theSoakIsJudgedForTheServersSoaked() throws Exception {
    Results results = new Results();
    long[] rss = {40L << 20, 40L << 20, 45L << 20, 46L << 20};
    results.soak("notes-mcp", new Soak.Result(new long[] {1, 2, 3, 4}, rss, 46L << 20, 1));
    BenchOptions options = BenchOptions.parse("--servers", "notes-mcp", "--metrics", "soak");
    Targets.Row row = row(Targets.judge(results, options.servers, options), "flat");
    assertThat(row.met()).isFalse();
    assertThat(row.value()).startsWith("+6.0 MiB");
  }

  private static Targets.Row row(List<Targets.Row> rows, String what) {
    return rows.stream().filter(r -> r.what().contains(what)).findFirst().orElseThrow();
  }
}

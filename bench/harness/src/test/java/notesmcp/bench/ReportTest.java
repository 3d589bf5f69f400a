package notesmcp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ReportTest {
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();

  private static Histogram micros(long... values) {
    Histogram h = SequentialLatency.histogram();
    for (long v : values) {
      h.recordValue(v * 1000);
    }
    return h;
  }

  private static String render(Results results, BenchFailure failure, String... args)
      throws Exception {
    BenchOptions options = BenchOptions.parse(args);
    ServerCatalog catalog = new ServerCatalog(options, Path.of("/w"));
    Map<String, ServerSpec> specs = new LinkedHashMap<>();
    for (String name : options.servers) {
      specs.put(name, catalog.spec(name));
    }
    Machine machine = new Machine(REPO);
    machine.end();
    return new Report(options, machine, results, specs).render(failure);
  }

  @Test
  void tablesCarryTheMediansSpreadsAndRatiosToTheFloor() throws Exception {
    Results results = new Results();
    for (double v : new double[] {80, 100, 120}) {
      results.add(Metric.COLD_START, "notes-mcp", v);
    }
    for (double v : new double[] {40, 50, 60}) {
      results.add(Metric.COLD_START, "floor", v);
    }
    results.addLatency("notes-mcp", micros(100, 100, 100, 300));
    results.addLatency("floor", micros(100, 100, 100, 100));
    String md = render(results, null, "--servers", "notes-mcp,floor", "--metrics", "cold,seq");

    assertThat(md).contains("| notes-mcp | **100** | 80.0–120 | 90.0–110 | 3 | 2.00× |");
    assertThat(md).contains("| floor | **50.0** | 40.0–60.0 | 45.0–55.0 | 3 | 1.00× |");
    assertThat(md)
        .contains(
            "| Cold start: spawn → first `tools/list` reply | notes-mcp | 100 ms |"
                + " 50.0 ms (floor) | 2.00× | ≤ 1.3× floor | **no** |");
    assertThat(md).containsPattern("\\| notes-mcp \\| 4 \\| 100 \\| 300 \\| 300 \\|");
    assertThat(md).contains("1.00× / 3.00× / 3.00×");
    assertThat(md).contains("## Machine", "`nproc`", "load average at start");
    assertThat(md).contains("5 rounds; each round starts every server once");
  }

  @Test
  void aFailedRunSaysSoFirstAndKeepsWhatItHas() throws Exception {
    Results results = new Results();
    results.add(Metric.COLD_START, "floor", 50);
    results.fail("notes-mcp", "notes-mcp: LOST REPLIES: 2 of 100\nmore");
    String md =
        render(
            results,
            new BenchFailure("notes-mcp: LOST REPLIES: 2 of 100\nmore"),
            "--servers",
            "notes-mcp,floor",
            "--metrics",
            "cold",
            "--rounds",
            "1");
    assertThat(md).contains("> **RUN FAILED**: the numbers below are partial. notes-mcp: LOST");
    assertThat(md).doesNotContain("SERVER FAILED: notes-mcp"); // said once, above
    assertThat(md).contains("| notes-mcp | FAILED | | | 0 | |");
    assertThat(md)
        .contains(
            "| Lost or wrong replies (every reply checked) | notes-mcp |"
                + " **failed** (see Notes)");
    assertThat(List.of(md.split("\n")))
        .filteredOn(l -> l.equals("notes-mcp: LOST REPLIES: 2 of 100"))
        .hasSize(1);
  }

  @Test
  void aMissingAppImageOrEarlierBuildIsSaid() throws Exception {
    String md = render(new Results(), null, "--metrics", "cold", "--rounds", "2");
    assertThat(md).contains("no packaged app image in this run", "no earlier build in this run");
    assertThat(md).contains("2 rounds;");
  }
}

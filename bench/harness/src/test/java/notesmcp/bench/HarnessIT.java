package notesmcp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness end to end, against real servers over real pipes: our server through ./notes-mcp, the
 * floor, and servers that lose or spoil a reply on purpose (src/test/resources/faulty-server.py,
 * the floor with one fault). Small counts: this checks the instrument, it measures nothing.
 */
class HarnessIT {
  private static final Path REPO =
      Path.of(System.getProperty("notesbench.repo", "..")).toAbsolutePath().normalize();
  private static final String FLOOR = REPO.resolve("bench/floor-server.py").toString();
  private static final String FAULTY =
      REPO.resolve("bench/harness/src/test/resources/faulty-server.py").toString();

  @TempDir Path dir;
  private final ByteArrayOutputStream progress = new ByteArrayOutputStream();
  private Path report;

  private int run(String... args) {
    report = dir.resolve("report.md");
    List<String> all =
        new ArrayList<>(List.of("--repo", REPO.toString(), "--out", report.toString()));
    all.addAll(List.of(args));
    PrintStream stdout = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(progress, true, StandardCharsets.UTF_8);
    return Harness.run(all.toArray(new String[0]), stdout, err);
  }

  /**
   * A failed run keeps the servers' stderr files for a person to read; a test does not need them.
   */
  @AfterEach
  void deleteKeptScratch() throws Exception {
    Matcher kept = Pattern.compile("files are kept in (\\S+)").matcher(progress());
    if (kept.find()) {
      try (Stream<Path> files = Files.walk(Path.of(kept.group(1)))) {
        for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(file);
        }
      }
    }
  }

  private String report() throws Exception {
    return Files.readString(report, StandardCharsets.UTF_8);
  }

  private String progress() {
    return progress.toString(StandardCharsets.UTF_8);
  }

  @Test
  void measuresOurServerBesideTheFloorAndChecksEveryReply() throws Exception {
    int code =
        run(
            "--servers",
            "notes-mcp,floor",
            "--rounds",
            "1",
            "--warmup",
            "20",
            "--seq",
            "200",
            "--pipelined",
            "500",
            "--cold-starts",
            "1",
            "--oneshot-runs",
            "1",
            "--soak",
            "1000",
            "--soak-every",
            "500",
            "--no-prime",
            "--trace",
            dir.resolve("trace").toString());
    assertThat(code).as(progress()).isEqualTo(Harness.OK);
    String md = report();
    assertThat(md).contains("## Targets (BENCHMARKS.md)", "## Machine", "## Per round (raw)");
    // A target row per metric of the list, each with its verdict.
    for (String metric :
        List.of(
            "Cold start",
            "p50",
            "p90",
            "p99",
            "throughput",
            "CPU per",
            "Peak RSS",
            "RSS flat",
            "One-shot",
            "Lost")) {
      assertThat(md.lines())
          .as(metric)
          .anyMatch(l -> l.contains(metric) && l.contains("| notes-mcp |") && l.endsWith(" |"));
    }
    // tools/list + 20 + 200 + 500 in the round's process, one cold start, one one-shot client,
    // tools/list + 1,000 in the soak.
    assertThat(md).contains("| notes-mcp | 1,724 | none |", "| floor | 1,723 | none |");
    assertThat(md)
        .contains("| Lost or wrong replies (every reply checked) | notes-mcp | 0 of 1,724");
    assertThat(dir.resolve("report-latency/notes-mcp.hgrm"))
        .content()
        .contains("Value", "Percentile");
    assertThat(dir.resolve("report-latency/floor.hgrm")).exists();
    // --trace: each process's 200 recorded calls, "start round-trip" in nanoseconds, in order.
    try (Stream<Path> files = Files.list(dir.resolve("trace"))) {
      List<String> names = files.map(f -> f.getFileName().toString()).sorted().toList();
      assertThat(names).hasSize(2).allMatch(n -> n.matches("(floor|notes-mcp)-r1-pid\\d+\\.calls"));
      for (String name : names) {
        List<long[]> calls =
            Files.readAllLines(dir.resolve("trace").resolve(name)).stream()
                .map(l -> Stream.of(l.split(" ")).mapToLong(Long::parseLong).toArray())
                .toList();
        assertThat(calls).hasSize(200).allMatch(c -> c.length == 2 && c[1] > 0);
        for (int i = 1; i < calls.size(); i++) {
          assertThat(calls.get(i)[0])
              .isGreaterThanOrEqualTo(calls.get(i - 1)[0] + calls.get(i - 1)[1]);
        }
      }
    }
  }

  @Test
  void aLostReplyDropsThatServerAndTheOthersFinish() throws Exception {
    int code =
        run(
            "--server",
            "lossy=python3 " + FAULTY + " drop 300 " + FLOOR + " {root}",
            "--servers",
            "floor,lossy",
            "--metrics",
            "seq,pipe",
            "--rounds",
            "2",
            "--warmup",
            "0",
            "--seq",
            "100",
            "--pipelined",
            "500",
            "--stall",
            "1",
            "--no-prime");
    assertThat(code).as(progress()).isEqualTo(Harness.PEER_FAILED);
    assertThat(progress()).contains("SERVER FAILED: lossy", "LOST REPLIES: 1 of 500");
    String md = report();
    assertThat(md).contains("> **SERVER FAILED: lossy**", "no reply for 1 s");
    assertThat(md).containsPattern("\\| lossy \\|.*\\*\\*FAILED\\*\\* \\(see Notes\\) \\|");
    // The floor ran both rounds; the lossy server's failed process left no samples.
    assertThat(md).containsPattern("\\| floor \\| 200 \\|");
    assertThat(md).doesNotContainPattern("\\| lossy \\| \\*\\*"); // no median of its own
  }

  @Test
  void aWrongReplyIsCaught() throws Exception {
    int code =
        run(
            "--server",
            "wrong=python3 " + FAULTY + " wrong 50 " + FLOOR + " {root}",
            "--servers",
            "wrong",
            "--metrics",
            "seq",
            "--rounds",
            "1",
            "--warmup",
            "0",
            "--seq",
            "100",
            "--no-prime");
    assertThat(code).as(progress()).isEqualTo(Harness.PEER_FAILED);
    assertThat(report()).contains("does not hold notes.txt as it is");
  }

  @Test
  void ourServerLosingRepliesStopsTheRun() throws Exception {
    // A stand-in for a broken app image: launcher-style flags, and its stdout ends after 3 calls.
    Path exe = Files.createDirectories(dir.resolve("image/bin")).resolve("notes-mcp");
    Files.writeString(
        exe,
        "#!/bin/sh\n# -serve -root W -max-calls N\nexec python3 '"
            + FAULTY
            + "' exit 3 '"
            + FLOOR
            + "' \"$3\"\n");
    Files.setPosixFilePermissions(exe, PosixFilePermissions.fromString("rwx------"));
    int code =
        run(
            "--app-image",
            exe.toString(),
            "--servers",
            "floor,app-image",
            "--metrics",
            "pipe",
            "--rounds",
            "1",
            "--pipelined",
            "100",
            "--no-prime");
    assertThat(code).as(progress()).isEqualTo(Harness.STOPPED);
    assertThat(progress()).contains("BENCHMARK FAILED", "LOST REPLIES: 97 of 100");
    assertThat(report())
        .contains("> **RUN FAILED**", "its stdout ended")
        .containsPattern("\\| app-image \\|.*\\*\\*FAILED\\*\\* \\(see Notes\\) \\|");
  }

  @Test
  void aBadCommandLineIsAUsageError() {
    assertThat(run("--rounds", "zero")).isEqualTo(Harness.USAGE);
    assertThat(progress()).contains("notes-bench:", "--servers");
  }
}

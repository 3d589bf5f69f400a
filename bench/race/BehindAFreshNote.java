import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * How long reads of a quiet note wait behind a read of a note saved a moment ago
 * (bench/race/README.md, "Behind a fresh note"). Starts `LAUNCHER -serve -root W` on a workspace of its own
 * holding notes.txt (quiet) and draft.txt; each round rewrites draft.txt in place, then at once
 * pipelines, in one write, read_note draft.txt and QUIET reads of notes.txt. The draft read waits
 * out the change margin (docs/behaviour.md, "What holds against other processes"); the quiet reads
 * need not. Prints the median and p90 over ROUNDS of the time from the write to the last quiet
 * reply, and to the draft's reply. Run with `java BehindAFreshNote.java LAUNCHER [ROUNDS] [QUIET]`
 * (no build, no dependency).
 */
public class BehindAFreshNote {
  public static void main(String[] args) throws Exception {
    if (args.length < 1 || args.length > 3) {
      System.err.println("usage: BehindAFreshNote LAUNCHER [ROUNDS] [QUIET]");
      System.exit(2);
    }
    String launcher = args[0];
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    int quiet = args.length > 2 ? Integer.parseInt(args[2]) : 8;
    Path root = Files.createTempDirectory("notes-fresh");
    Path draft = root.resolve("draft.txt");
    try {
      Files.writeString(root.resolve("notes.txt"), "Monday: ship.");
      Files.writeString(draft, "draft 0");
      Thread.sleep(200); // both older than the margin before the first round
      Process server =
          new ProcessBuilder(
                  launcher, "-serve", "-root", root.toString(), "-max-calls", "100000000")
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      OutputStream out = server.getOutputStream();
      BufferedReader in =
          new BufferedReader(
              new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
      long[] quietNanos = new long[rounds];
      long[] draftNanos = new long[rounds];
      long id = 0;
      for (int round = -20; round < rounds; round++) { // 20 rounds of warm-up, not counted
        Files.writeString(draft, "draft " + round); // the same file: its change time is now
        StringBuilder batch = new StringBuilder();
        long draftId = ++id;
        batch.append(read(draftId, "draft.txt"));
        for (int i = 0; i < quiet; i++) {
          batch.append(read(++id, "notes.txt"));
        }
        long start = System.nanoTime();
        out.write(batch.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
        long lastQuiet = 0;
        long draftAt = 0;
        for (int i = 0; i <= quiet; i++) {
          String line = in.readLine();
          long now = System.nanoTime();
          if (line == null || !line.contains("\"isError\":false")) {
            throw new IllegalStateException("not a note: " + line);
          }
          if (line.contains("\"id\":" + draftId + ",")) {
            draftAt = now;
          } else {
            lastQuiet = now;
          }
        }
        if (round >= 0) {
          quietNanos[round] = lastQuiet - start;
          draftNanos[round] = draftAt - start;
        }
        Thread.sleep(60); // notes.txt's folder settles: only draft.txt is fresh next round
      }
      out.close();
      server.waitFor();
      System.out.printf(
          "rounds=%d quiet=%d last_quiet_reply_ms p50=%.2f p90=%.2f draft_reply_ms p50=%.2f"
              + " p90=%.2f%n",
          rounds,
          quiet,
          percentile(quietNanos, 0.5),
          percentile(quietNanos, 0.9),
          percentile(draftNanos, 0.5),
          percentile(draftNanos, 0.9));
    } finally {
      try (Stream<Path> files = Files.walk(root)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static String read(long id, String name) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":\"tools/call\",\"params\":{\"_meta\":{"
        + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}},"
        + "\"name\":\"read_note\",\"arguments\":{\"path\":\""
        + name
        + "\"}}}\n";
  }

  private static double percentile(long[] nanos, double p) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))] / 1e6;
  }
}

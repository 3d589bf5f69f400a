import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The reading side of bench/race/run: starts `LAUNCHER -serve -root ROOT`, pipelines READS
 * read_note calls of NAME (IN_FLIGHT at a time) while other processes change the workspace, and
 * tallies the answers: the note itself, each refusal text, and leaks (an answer holding MARKER,
 * the secret's bytes). Prints one line of counts, then the refusals by text. A leak is also
 * printed in full. Run with `java RaceClient.java ...` (no build, no dependency).
 */
public class RaceClient {
  public static void main(String[] args) throws Exception {
    if (args.length != 6) {
      System.err.println("usage: RaceClient LAUNCHER ROOT NAME READS IN_FLIGHT MARKER");
      System.exit(2);
    }
    String launcher = args[0];
    String root = args[1];
    String name = args[2];
    long reads = Long.parseLong(args[3]);
    int inFlight = Integer.parseInt(args[4]);
    String marker = args[5];
    Process server =
        new ProcessBuilder(launcher, "-serve", "-root", root, "-max-calls", Long.toString(reads + 10))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    OutputStream out = server.getOutputStream();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
    String meta =
        "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    Map<String, Long> refusals = new TreeMap<>();
    long notes = 0;
    long leaks = 0;
    long id = 0;
    long start = System.nanoTime();
    for (long sent = 0; sent < reads; sent += inFlight) {
      StringBuilder batch = new StringBuilder();
      int n = (int) Math.min(inFlight, reads - sent);
      for (int i = 0; i < n; i++) {
        batch
            .append("{\"jsonrpc\":\"2.0\",\"id\":")
            .append(++id)
            .append(",\"method\":\"tools/call\",\"params\":{")
            .append(meta)
            .append(",\"name\":\"read_note\",\"arguments\":{\"path\":\"")
            .append(name)
            .append("\"}}}\n");
      }
      out.write(batch.toString().getBytes(StandardCharsets.UTF_8));
      out.flush();
      for (int i = 0; i < n; i++) {
        String line = in.readLine();
        if (line == null) {
          throw new IOException("the server closed stdout after " + (sent + i) + " replies");
        }
        if (line.contains(marker)) {
          leaks++;
          System.out.println("LEAK: " + line);
        } else if (line.contains("\"isError\":false")) {
          notes++;
        } else {
          int at = line.indexOf("\"text\":\"");
          String text = at < 0 ? line : line.substring(at + 8, line.indexOf('"', at + 8));
          refusals.merge(text, 1L, Long::sum);
        }
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    out.close();
    server.waitFor();
    long refused = 0;
    for (long count : refusals.values()) {
      refused += count;
    }
    System.out.printf(
        "reads=%d notes=%d refused=%d leaks=%d seconds=%.1f leaks_per_100k=%.2f%n",
        reads, notes, refused, leaks, seconds, leaks * 100_000.0 / reads);
    for (Map.Entry<String, Long> refusal : refusals.entrySet()) {
      System.out.printf("  %8d  %s%n", refusal.getValue(), refusal.getKey());
    }
  }
}

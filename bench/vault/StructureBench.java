import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The structure's tools on the 10,000-note vault (BENCHMARKS.md, "The notes' structure on the
 * vault"), over real stdio, side by side with mcpvault's nearest tools in one run:
 *
 * <pre>
 * java bench/vault/StructureBench.java REPO DATA [CALLS] [PEER_CALLS]
 * </pre>
 *
 * For notes-mcp (the benchmark's policy, bench/vault/policy.json): the first two searches on an
 * empty cache folder (today's first index build: the first is answered by a scan, the second waits
 * for the index the child builds; wall time from the first call, and CPU of the server and the
 * child it waited for); in another process on
 * another empty cache folder, the structure's first build (list_tags called at once after
 * initialize and again while it answers "still being read", wall time from the first call, and
 * the server's CPU over it); then CALLS calls each of backlinks (seeded random notes, Paper Kite
 * among them), find_notes (four filters in turn) and list_tags, one at a time, every answer
 * checked to be no error; then the server's RSS and peak RSS. For mcpvault 0.16, which has no
 * backlinks or note finder: search_notes for "[[TITLE" (the nearest to backlinks: a content scan),
 * search_notes over front matter for a tag (the nearest to find_notes by tag) and list_all_tags,
 * PEER_CALLS each. Prints a Markdown table of p50 and p99 in milliseconds.
 */
public final class StructureBench {
  private final Process process;
  private final BufferedReader in;
  private final OutputStream out;
  private int id;

  private StructureBench(List<String> command, Path cache) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
    if (cache != null) {
      builder.environment().put("XDG_CACHE_HOME", cache.toString());
    }
    process = builder.start();
    in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    out = process.getOutputStream();
    call(
        "initialize",
        "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"structure-bench\",\"version\":\"1\"}}");
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
  }

  private void send(String line) throws IOException {
    out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  /** The reply line to a request; notifications before it are skipped. */
  private String call(String method, String params) throws IOException {
    int mine = ++id;
    send("{\"jsonrpc\":\"2.0\",\"id\":" + mine + ",\"method\":\"" + method + "\",\"params\":" + params + "}");
    String prefix = "\"id\":" + mine + ",";
    for (String line; (line = in.readLine()) != null; ) {
      if (line.contains(prefix) || line.startsWith("{\"id\":" + mine) || line.contains("\"id\":" + mine + "}")) {
        return line;
      }
    }
    throw new IOException("the server closed its output");
  }

  private String tool(String name, String arguments) throws IOException {
    return call("tools/call", "{\"name\":\"" + name + "\",\"arguments\":" + arguments + "}");
  }

  private static String searchUntilAnswered(StructureBench server, String query)
      throws IOException, InterruptedException {
    while (true) {
      String reply = server.tool("search_notes", "{\"query\":\"" + query + "\"}");
      if (!reply.contains("the search index is still being built")) {
        return reply;
      }
      Thread.sleep(200);
    }
  }

  private static void check(String reply, String what) {
    if (!reply.contains("\"result\"") || reply.contains("\"isError\":true")) {
      throw new IllegalStateException(what + " failed: " + reply.substring(0, Math.min(400, reply.length())));
    }
  }

  /** Wall times in ms of {@code calls} calls of {@code name} with each of {@code arguments} in turn. */
  private double[] time(String name, List<String> arguments, int calls) throws IOException {
    double[] ms = new double[calls];
    for (int i = 0; i < calls; i++) {
      String args = arguments.get(i % arguments.size());
      long start = System.nanoTime();
      String reply = tool(name, args);
      ms[i] = (System.nanoTime() - start) / 1e6;
      check(reply, name + " " + args);
    }
    return ms;
  }

  private long status(String field) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
      if (line.startsWith(field + ":")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
      }
    }
    return -1;
  }

  /**
   * The process's CPU so far, user and system, with its children's that it waited for (the index
   * built by a child JVM), in ms (clock ticks of 10 ms).
   */
  private long cpuMillis() throws IOException {
    String stat = Files.readString(Path.of("/proc/" + process.pid() + "/stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    long ticks = 0;
    for (int i = 11; i <= 14; i++) {
      ticks += Long.parseLong(f[i]);
    }
    return ticks * 10;
  }

  private void close() throws Exception {
    out.close();
    process.waitFor();
  }

  private static double pct(double[] ms, double p) {
    double[] sorted = ms.clone();
    Arrays.sort(sorted);
    return sorted[(int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  }

  private static String json(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static String row(String server, String tool, double[] ms) {
    return String.format(
        Locale.ROOT, "| %s | `%s` | %d | %.2f | %.2f |", server, tool, ms.length, pct(ms, 0.5), pct(ms, 0.99));
  }

  public static void main(String[] args) throws Exception {
    Path repo = Path.of(args[0]).toAbsolutePath();
    Path data = Path.of(args[1]).toAbsolutePath();
    int calls = args.length > 2 ? Integer.parseInt(args[2]) : 300;
    int peerCalls = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    Path vault = data.resolve("vault");
    List<String> ours =
        List.of(
            repo.resolve("notes-mcp").toString(), "-serve", "-root", vault.toString(), "-policy",
            repo.resolve("bench/vault/policy.json").toString(), "-max-calls", "1000000");
    List<String> rows = new ArrayList<>();

    // Today's first index build: the first search on an empty cache folder.
    Path cacheA = Files.createTempDirectory("structure-bench-search");
    StructureBench search = new StructureBench(ours, cacheA);
    long searchCpu0 = search.cpuMillis();
    long start = System.nanoTime();
    // A search is answered by a scan while the server's child builds the index, or told to come
    // again (docs/behaviour.md, "search_notes"): made again until it is answered.
    check(searchUntilAnswered(search, "kite"), "first search");
    check(searchUntilAnswered(search, "paper"), "second search");
    double firstSearch = (System.nanoTime() - start) / 1e6;
    long searchCpu = search.cpuMillis() - searchCpu0;
    search.close();

    // The structure's first build, in a process of its own.
    Path cacheB = Files.createTempDirectory("structure-bench-structure");
    StructureBench server = new StructureBench(ours, cacheB);
    long cpu0 = server.cpuMillis();
    start = System.nanoTime();
    int waits = 0;
    for (String reply; ; waits++) {
      reply = server.tool("list_tags", "{}");
      if (!reply.contains("still being read")) {
        check(reply, "list_tags");
        break;
      }
    }
    double firstStructure = (System.nanoTime() - start) / 1e6;
    long structureCpu = server.cpuMillis() - cpu0;
    long rssBuilt = server.status("VmRSS");

    List<String> notes = new ArrayList<>();
    for (String line : Files.readAllLines(data.resolve("notes.tsv"))) {
      notes.add(line.substring(0, line.indexOf('\t')));
    }
    Random random = new Random(20261207);
    List<String> targets = new ArrayList<>();
    targets.add("{\"path\":\"Projects/Paper Kite.md\"}");
    for (int i = 0; i < 99; i++) {
      targets.add("{\"path\":" + json(notes.get(random.nextInt(notes.size()))) + "}");
    }
    List<String> filters =
        List.of(
            "{\"tag\":\"project\"}",
            "{\"property\":{\"name\":\"status\",\"equals\":\"open\"}}",
            "{\"tag\":\"project\",\"folder\":\"Projects\"}",
            "{\"property\":{\"name\":\"created\",\"after\":\"2026-06-01\"}}");
    double[] backlinks = server.time("backlinks", targets, calls);
    double[] find = server.time("find_notes", filters, calls);
    double[] tags = server.time("list_tags", List.of("{}"), Math.max(1, calls / 10));
    long rss = server.status("VmRSS");
    long hwm = server.status("VmHWM");
    server.close();
    rows.add(row("notes-mcp", "backlinks", backlinks));
    rows.add(row("notes-mcp", "find_notes", find));
    for (int f = 0; f < filters.size(); f++) {
      double[] one = new double[(calls - f + filters.size() - 1) / filters.size()];
      for (int i = f, k = 0; i < calls; i += filters.size()) {
        one[k++] = find[i];
      }
      rows.add(row("notes-mcp", "find_notes " + filters.get(f), one));
    }
    rows.add(row("notes-mcp", "list_tags", tags));

    String peerRows = "";
    if (peerCalls > 0) {
      List<String> peer =
          List.of("node", repo.resolve("bench/vault/node_modules/.bin/mcpvault").toString(), vault.toString());
      StructureBench vaultServer = new StructureBench(peer, null);
      List<String> titles = new ArrayList<>();
      titles.add("{\"query\":\"[[Paper Kite\",\"limit\":20}");
      for (int i = 1; i < 100; i++) {
        String path = targets.get(i);
        String title = path.substring(path.lastIndexOf('/') + 1, path.length() - 6);
        titles.add("{\"query\":" + json("[[" + title) + ",\"limit\":20}");
      }
      double[] pBacklinks = vaultServer.time("search_notes", titles, peerCalls);
      double[] pFind =
          vaultServer.time(
              "search_notes",
              List.of("{\"query\":\"project\",\"searchContent\":false,\"searchFrontmatter\":true,\"limit\":20}"),
              peerCalls);
      double[] pTags = vaultServer.time("list_all_tags", List.of("{}"), peerCalls);
      long peerHwm = vaultServer.status("VmHWM");
      vaultServer.close();
      rows.add(row("mcpvault", "search_notes \"[[TITLE\" (for backlinks)", pBacklinks));
      rows.add(row("mcpvault", "search_notes front matter \"project\" (for find_notes)", pFind));
      rows.add(row("mcpvault", "list_all_tags", pTags));
      peerRows =
          String.format(
              Locale.ROOT,
              "ratios of p50: backlinks %.4f×, find_notes %.4f×, list_tags %.4f×; mcpvault peak RSS %d MiB%n",
              pct(backlinks, 0.5) / pct(pBacklinks, 0.5),
              pct(find, 0.5) / pct(pFind, 0.5),
              pct(tags, 0.5) / pct(pTags, 0.5),
              peerHwm);
    }
    System.out.println("| server | tool | calls | p50 ms | p99 ms |");
    System.out.println("|---|---|---:|---:|---:|");
    rows.forEach(System.out::println);
    System.out.printf(
        Locale.ROOT,
        "first index build (two searches) %.0f ms, CPU %d ms (the server and its index child); structure"
            + " built %.0f ms from the first call (%d refusals \"still being read\"), CPU %d ms;"
            + " structure ÷ index build: %.2f× wall, %.2f× CPU%n",
        firstSearch,
        searchCpu,
        firstStructure,
        waits,
        structureCpu,
        firstStructure / firstSearch,
        (double) structureCpu / searchCpu);
    System.out.printf(Locale.ROOT, "notes-mcp RSS: %d MiB once built, %d MiB after the calls, peak %d MiB%n", rssBuilt, rss, hwm);
    System.out.print(peerRows);
  }
}

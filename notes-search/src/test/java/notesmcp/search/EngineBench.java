package notesmcp.search;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import notesmcp.policy.tools.NoteSearch;

/**
 * The engine alone on the benchmark vault (bench/README.md, "The vault benchmark"), in a JVM of its
 * own started with the launcher's flags: {@code EngineBench VAULT_DATA CACHE [scan]}. Prints, from
 * the JVM's start: the first search's answer (the index built or loaded), then the 200 queries' p50
 * and p99, recall, and peak RSS. With {@code scan}: the time of a plain scan of every note for one
 * word (read, lower-case, indexOf), the cheapest a scanning search can be.
 */
public final class EngineBench {
  public static void main(String[] args) throws Exception {
    Instant jvmStart = ProcessHandle.current().info().startInstant().orElseThrow();
    Path data = Path.of(args[0]);
    Path vault = data.resolve("vault");
    String truth = Files.readString(data.resolve("truth.json"), StandardCharsets.UTF_8);
    List<String[]> queries = new ArrayList<>();
    Matcher m =
        Pattern.compile("\"query\": (\"(?:[^\"\\\\]|\\\\.)*\"), \"notes\": \\[([^\\]]*)\\]")
            .matcher(truth);
    while (m.find()) {
      queries.add(new String[] {unquote(m.group(1)), m.group(2)});
    }
    FolderCorpus corpus = new FolderCorpus(vault, 1 << 20);
    if (args.length > 2 && args[2].equals("scan")) {
      scan(corpus, vault, queries);
      return;
    }
    PrintStream log = System.err;
    Engine engine = Engine.open(corpus, Map.of("XDG_CACHE_HOME", args[1]), log);
    long t0 = System.nanoTime();
    List<NoteSearch.Hit> first = engine.search(queries.get(0)[0], null, 10);
    long firstMs = Duration.between(jvmStart, Instant.now()).toMillis();
    System.out.printf(
        Locale.ROOT,
        "first search %d ms from JVM start (%d ms in search) in %s, %d hits%n",
        firstMs,
        (System.nanoTime() - t0) / 1_000_000,
        engine.where(),
        first.size());
    double[] ms = new double[queries.size()];
    int recalled = 0;
    for (int round = 0; round < 2; round++) {
      recalled = 0;
      for (int i = 0; i < queries.size(); i++) {
        long start = System.nanoTime();
        List<NoteSearch.Hit> hits = engine.search(queries.get(i)[0], null, 10);
        ms[i] = (System.nanoTime() - start) / 1e6;
        List<String> paths = new ArrayList<>();
        for (NoteSearch.Hit hit : hits) {
          paths.add(hit.path());
        }
        boolean all = true;
        for (String note : queries.get(i)[1].split(", ")) {
          all &= paths.contains(unquote(note));
        }
        if (all) {
          recalled++;
        }
      }
    }
    java.util.Arrays.sort(ms);
    System.out.printf(
        Locale.ROOT,
        "search p50 %.2f ms p99 %.2f ms max %.2f ms; recall %d/%d; VmHWM %s%n",
        ms[ms.length / 2],
        ms[(int) Math.ceil(ms.length * 0.99) - 1],
        ms[ms.length - 1],
        recalled,
        queries.size(),
        status("VmHWM"));
    engine.awaitCommitted();
    System.out.printf(Locale.ROOT, "committed; VmHWM %s%n", status("VmHWM"));
  }

  private static void scan(FolderCorpus corpus, Path vault, List<String[]> queries)
      throws Exception {
    List<String> notes = corpus.notes();
    for (int q = 0; q < 5; q++) {
      String word = queries.get(q)[0].toLowerCase(Locale.ROOT);
      long start = System.nanoTime();
      int found = 0;
      for (String note : notes) {
        String text = new String(Files.readAllBytes(vault.resolve(note)), StandardCharsets.UTF_8);
        if (text.toLowerCase(Locale.ROOT).contains(word)) {
          found++;
        }
      }
      System.out.printf(
          Locale.ROOT,
          "scan %s: %d notes, %d ms%n",
          word,
          found,
          (System.nanoTime() - start) / 1_000_000);
    }
    System.out.printf(Locale.ROOT, "VmHWM %s%n", status("VmHWM"));
  }

  private static String status(String key) throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith(key)) {
        return line.substring(key.length() + 1).trim();
      }
    }
    return "?";
  }

  private static String unquote(String json) {
    return json.substring(1, json.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\");
  }
}

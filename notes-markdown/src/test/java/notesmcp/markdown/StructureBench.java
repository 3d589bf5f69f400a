package notesmcp.markdown;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The module on the benchmark vault (bench/README.md, "The vault benchmark"): {@code StructureBench
 * VAULT_DATA}. Parses every note the generator wrote (DIR/structure.json lists them, the excluded
 * folders' too) and checks each structure against what the generator meant: properties with their
 * types, tags, aliases, headings, block ids, links with their lines, offsets and parts, and every
 * link resolved by {@link LinkTargets} among the readable notes ({@code resolved}) and among every
 * note ({@code obsidian}). Then measures: the parse of every note (median of 5 passes), the bytes a
 * structure keeps ({@link Structure#retainedBytes}, and the heap all of them take, measured), and
 * resolving every link.
 */
public final class StructureBench {
  private static int mismatches;

  public static void main(String[] args) throws IOException {
    Path data = Path.of(args[0]);
    JsonNode truth = JsonMapper.builder().build().readTree(data.resolve("structure.json").toFile());
    List<JsonNode> notes = new ArrayList<>();
    truth.get("notes").forEach(notes::add);
    List<byte[]> bytes = new ArrayList<>();
    long total = 0;
    for (JsonNode note : notes) {
      byte[] b = Files.readAllBytes(data.resolve("vault").resolve(note.get("path").asString()));
      bytes.add(b);
      total += b.length;
    }
    List<String> readable = new ArrayList<>();
    List<String> all = new ArrayList<>();
    for (JsonNode note : notes) {
      all.add(note.get("path").asString());
      if (note.get("readable").asBoolean()) {
        readable.add(note.get("path").asString());
      }
    }
    LinkTargets readableTargets = LinkTargets.of(readable);
    LinkTargets allTargets = LinkTargets.of(all);
    Structure[] structures = new Structure[notes.size()];
    int links = 0;
    for (int i = 0; i < notes.size(); i++) {
      String path = notes.get(i).get("path").asString();
      structures[i] = Structure.parse(bytes.get(i), path);
      links += check(notes.get(i), structures[i], bytes.get(i), readableTargets, allTargets);
    }
    System.out.printf(
        Locale.ROOT,
        "checked %d notes (%d readable), %d links: %d mismatches%n",
        notes.size(),
        readable.size(),
        links,
        mismatches);

    double[] passes = new double[5];
    double[] cpu = new double[5];
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (int pass = 0; pass < passes.length; pass++) {
      long start = System.nanoTime();
      long cpuStart = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < bytes.size(); i++) {
        structures[i] = Structure.parse(bytes.get(i), structures[i].path());
      }
      passes[pass] = (System.nanoTime() - start) / 1e6;
      cpu[pass] = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e6;
    }
    Arrays.sort(passes);
    Arrays.sort(cpu);
    System.out.printf(
        Locale.ROOT,
        "parse CPU time: median of 5 passes %.0f ms (%.0f MB/s of CPU)%n",
        cpu[2],
        total / 1e3 / cpu[2]);
    System.out.printf(
        Locale.ROOT,
        "parse: %d notes, %.1f MB, median of 5 passes %.0f ms (%.0f MB/s; passes %s ms)%n",
        bytes.size(),
        total / 1e6,
        passes[2],
        total / 1e3 / passes[2],
        Arrays.toString(round(passes)));

    long[] retained = new long[structures.length];
    long sum = 0;
    for (int i = 0; i < structures.length; i++) {
      retained[i] = structures[i].retainedBytes();
      sum += retained[i];
    }
    long[] sorted = retained.clone();
    Arrays.sort(sorted);
    System.out.printf(
        Locale.ROOT,
        "retainedBytes: total %d (%.1f MiB), mean %d, median %d, p99 %d, max %d bytes a note (%.2f%% of the notes' %d bytes)%n",
        sum,
        sum / 1048576.0,
        sum / structures.length,
        sorted[sorted.length / 2],
        sorted[sorted.length * 99 / 100],
        sorted[sorted.length - 1],
        100.0 * sum / total,
        total);

    bytes.clear();
    notes.clear();
    truth = null;
    structures = null;
    long before = usedAfterGc();
    Structure[] kept = new Structure[all.size()];
    for (int i = 0; i < kept.length; i++) {
      kept[i] =
          Structure.parse(
              Files.readAllBytes(data.resolve("vault").resolve(all.get(i))), all.get(i));
    }
    long after = usedAfterGc();
    System.out.printf(
        Locale.ROOT,
        "heap: %d structures hold %d bytes (%.1f MiB; %d a note)%n",
        kept.length,
        after - before,
        (after - before) / 1048576.0,
        (after - before) / kept.length);

    List<Link> every = new ArrayList<>();
    List<String> from = new ArrayList<>();
    for (Structure structure : kept) {
      for (Link link : structure.links()) {
        every.add(link);
        from.add(structure.path());
      }
    }
    double[] rounds = new double[5];
    double[] roundsCpu = new double[5];
    for (int round = 0; round < rounds.length; round++) {
      long start = System.nanoTime();
      long cpuStart = threads.getCurrentThreadCpuTime();
      int found = 0;
      for (int i = 0; i < every.size(); i++) {
        found += readableTargets.resolve(every.get(i), from.get(i)) == null ? 0 : 1;
      }
      rounds[round] = (System.nanoTime() - start) / 1e6;
      roundsCpu[round] = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e6;
      if (found == 0) {
        throw new AssertionError();
      }
    }
    Arrays.sort(rounds);
    Arrays.sort(roundsCpu);
    System.out.printf(
        Locale.ROOT,
        "resolve CPU time: median of 5 rounds %.0f ms (%.2f us a link)%n",
        roundsCpu[2],
        roundsCpu[2] * 1000 / every.size());
    System.out.printf(
        Locale.ROOT,
        "resolve: %d links, median of 5 rounds %.0f ms (%.2f us a link)%n",
        every.size(),
        rounds[2],
        rounds[2] * 1000 / every.size());
    // A vault ten times as large: the same notes again in copy1/ .. copy9/, so every file name
    // has ten times the notes (the links of copy0, the vault itself, resolved as before).
    List<String> tenfold = new ArrayList<>(readable);
    for (int copy = 1; copy < 10; copy++) {
      for (String path : readable) {
        tenfold.add("copy" + copy + "/" + path);
      }
    }
    long built = System.nanoTime();
    LinkTargets large = LinkTargets.of(tenfold);
    double buildMs = (System.nanoTime() - built) / 1e6;
    double[] largeRounds = new double[5];
    for (int round = 0; round < largeRounds.length; round++) {
      long cpuStart = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < every.size(); i++) {
        large.resolve(every.get(i), from.get(i));
      }
      largeRounds[round] = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e6;
    }
    Arrays.sort(largeRounds);
    System.out.printf(
        Locale.ROOT,
        "with %d paths (built in %.0f ms): resolve CPU time median of 5 rounds %.0f ms (%.2f us a link)%n",
        tenfold.size(),
        buildMs,
        largeRounds[2],
        largeRounds[2] * 1000 / every.size());
    long start = System.nanoTime();
    LinkTargets.of(readable);
    System.out.printf(
        Locale.ROOT,
        "index of %d paths built in %.1f ms%n",
        readable.size(),
        (System.nanoTime() - start) / 1e6);
    System.exit(mismatches == 0 ? 0 : 1);
  }

  private static long usedAfterGc() {
    Runtime runtime = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      used = Math.min(used, runtime.totalMemory() - runtime.freeMemory());
    }
    return used;
  }

  private static long[] round(double[] values) {
    long[] rounded = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      rounded[i] = Math.round(values[i]);
    }
    return rounded;
  }

  private static void differ(String path, String what, Object expected, Object actual) {
    if (mismatches++ < 30) {
      System.out.printf("MISMATCH %s: %s: expected %s, got %s%n", path, what, expected, actual);
    }
  }

  private static void same(String path, String what, Object expected, Object actual) {
    if (!String.valueOf(expected).equals(String.valueOf(actual))) {
      differ(path, what, expected, actual);
    }
  }

  private static int check(
      JsonNode note, Structure structure, byte[] bytes, LinkTargets readable, LinkTargets all) {
    String path = note.get("path").asString();
    same(path, "title", note.get("title").asString(), structure.title());
    same(path, "aliases", strings(note.get("aliases")), structure.aliases());
    same(
        path, "tags", strings(note.get("tags")), structure.tags().stream().map(Tag::name).toList());
    Properties properties = structure.properties();
    same(path, "properties readable", true, properties.readable() ? true : properties.problem());
    same(path, "properties", typed(note.get("properties")), properties.map().toString());
    List<String> headings = new ArrayList<>();
    note.get("headings")
        .forEach(
            h ->
                headings.add(
                    h.get("level").asInt()
                        + " "
                        + h.get("text").asString()
                        + " @"
                        + h.get("line").asInt()
                        + "/"
                        + h.get("offset").asLong()));
    same(
        path,
        "headings",
        headings,
        structure.headings().stream()
            .map(h -> h.level() + " " + h.text() + " @" + h.line() + "/" + h.offset())
            .toList());
    List<String> blocks = new ArrayList<>();
    note.get("blocks")
        .forEach(
            b ->
                blocks.add(
                    b.get("id").asString()
                        + " @"
                        + b.get("line").asInt()
                        + "/"
                        + b.get("offset").asLong()));
    same(
        path,
        "blocks",
        blocks,
        structure.blocks().stream().map(b -> b.id() + " @" + b.line() + "/" + b.offset()).toList());
    List<Link> links = structure.links();
    JsonNode expected = note.get("links");
    if (expected.size() != links.size()) {
      differ(path, "link count", expected.size(), links.size());
      return links.size();
    }
    for (int k = 0; k < links.size(); k++) {
      JsonNode want = expected.get(k);
      Link link = links.get(k);
      String text =
          new String(bytes, link.offset(), link.length(), java.nio.charset.StandardCharsets.UTF_8);
      String where = path + " link " + k;
      same(where, "text", want.get("text").asString(), text);
      same(
          where,
          "line/offset",
          want.get("line").asInt() + "/" + want.get("offset").asLong(),
          link.line() + "/" + link.offset());
      same(where, "path", want.get("path").asString(), link.path());
      same(where, "subpath", want.get("subpath").asString(), link.subpath());
      same(
          where,
          "display",
          want.get("display").isNull() ? null : want.get("display").asString(),
          link.display());
      same(
          where,
          "embed/markdown",
          want.get("embed").asBoolean() + "/" + want.get("markdown").asBoolean(),
          link.embed() + "/" + link.markdown());
      same(where, "resolved", text(want.get("resolved")), readable.resolve(link, path));
      same(where, "obsidian", text(want.get("obsidian")), all.resolve(link, path));
    }
    return links.size();
  }

  private static String text(JsonNode node) {
    return node.isNull() ? null : node.asString();
  }

  private static List<String> strings(JsonNode array) {
    List<String> list = new ArrayList<>();
    array.forEach(item -> list.add(item.asString()));
    return list;
  }

  /** The generator's typed values in the form of {@link Value#toString} of a map. */
  private static String typed(JsonNode properties) {
    StringBuilder out = new StringBuilder("{");
    Iterator<Map.Entry<String, JsonNode>> entries = properties.properties().iterator();
    while (entries.hasNext()) {
      Map.Entry<String, JsonNode> entry = entries.next();
      out.append(entry.getKey()).append('=').append(value(entry.getValue()));
      out.append(entries.hasNext() ? ", " : "");
    }
    return out.append('}').toString();
  }

  private static String value(JsonNode typed) {
    String type = typed.get("type").asString();
    JsonNode value = typed.get("value");
    switch (type) {
      case "list":
        List<String> items = new ArrayList<>();
        value.forEach(item -> items.add(value(item)));
        return items.toString();
      case "map":
        return typed(value);
      case "null":
        return "NULL:null";
      default:
        return type.toUpperCase(Locale.ROOT) + ":" + value.asString();
    }
  }
}

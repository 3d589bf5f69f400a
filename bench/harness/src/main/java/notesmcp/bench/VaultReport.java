package notesmcp.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The vault benchmark's report ({@code bench/vault/run}): what {@link VaultHarness} measured of
 * each server, as a Markdown page with the machine, one table of medians and percentiles, what
 * could not be measured, and the targets judged.
 */
final class VaultReport {
  private final Path vault;
  private final int notes;
  private final int rounds;
  private final int reads;
  private final int queries;
  private final int peerQueries;
  private final List<String> servers;
  private final Map<String, VaultHarness.Results> results;
  private final List<String> log;

  VaultReport(
      Path vault,
      int notes,
      int rounds,
      int reads,
      int queries,
      int peerQueries,
      List<String> servers,
      Map<String, VaultHarness.Results> results,
      List<String> log) {
    this.vault = vault;
    this.notes = notes;
    this.rounds = rounds;
    this.reads = reads;
    this.queries = queries;
    this.peerQueries = peerQueries;
    this.servers = servers;
    this.results = results;
    this.log = log;
  }

  /** The report, in Markdown: the machine, the table of metrics, what was not measured, targets. */
  String write(Machine machine, String arguments) {
    StringBuilder md = new StringBuilder();
    md.append("# Vault benchmark ").append(machine.started.toLocalDate()).append("\n\n");
    md.append("- command: `bench/vault/run ").append(arguments).append("`\n");
    md.append("- commit: ").append(machine.commit).append('\n');
    md.append("- machine: `")
        .append(machine.uname)
        .append("`, ")
        .append(machine.nproc)
        .append(" cores (")
        .append(machine.cpu)
        .append("), ")
        .append(machine.memory)
        .append('\n');
    md.append("- java: ").append(machine.java).append("; node ").append(machine.node).append('\n');
    md.append("- load average at start ")
        .append(machine.loadAtStart)
        .append(", at end ")
        .append(machine.loadAtEnd)
        .append('\n');
    md.append("- vault: ")
        .append(vault)
        .append(", ")
        .append(notes)
        .append(" notes; ")
        .append(rounds)
        .append(" rounds, order rotated; ")
        .append(reads)
        .append(" reads a round (one seeded sequence); ours ")
        .append(queries)
        .append(" queries a search process, each peer ")
        .append(peerQueries)
        .append(" a round (a rotating sample: their searches scan the vault)\n\n");
    md.append("Medians over rounds; read and search percentiles over every call of every round.")
        .append(" Start-up is spawn to the `tools/list` reply after `initialize` (")
        .append(McpClient.VERSION)
        .append("); a first search is spawn to its answer.\n\n");
    md.append("| metric | ");
    for (String server : servers) {
      md.append(server).append(" | ");
    }
    md.append("\n|---|");
    for (int i = 0; i < servers.size(); i++) {
      md.append("---:|");
    }
    md.append('\n');
    row(md, "start-up on the vault, ms", r -> r.startMs, 0.5);
    row(md, "start-up on the sample workspace, ms", r -> r.sampleStartMs, 0.5);
    row(md, "full listing, ms", r -> r.listingMs, 0.5);
    row(md, "listing calls", r -> r.listingCalls, 0.5);
    row(md, "files listed", r -> r.listed, 0.5);
    row(md, "whole-note read p50, ms", r -> r.readMs, 0.5);
    row(md, "whole-note read p99, ms", r -> r.readMs, 0.99);
    row(md, "peak RSS after the reads, MiB", r -> r.readPeakMiB, 0.5);
    row(md, "first search (first-ever start), ms", r -> r.firstSearchMs, 0.5);
    row(md, "first search after a restart, ms", r -> r.restartSearchMs, 0.5);
    row(md, "search p50, ms", r -> r.searchMs, 0.5);
    row(md, "search p99, ms", r -> r.searchMs, 0.99);
    row(md, "peak RSS after the searches, MiB", r -> r.searchPeakMiB, 0.5);
    md.append("| recall (every planted note among the hits) |");
    for (String server : servers) {
      md.append(' ').append(recall(results.get(server))).append(" |");
    }
    md.append("\n| decoys / never-served files among the hits |");
    for (String server : servers) {
      VaultHarness.Results r = results.get(server);
      md.append(' ').append(r.decoysHit).append(" / ").append(r.neverServedHit).append(" |");
    }
    md.append("\n| searches answered \"still being built\", then made again |");
    for (String server : servers) {
      md.append(' ').append(results.get(server).stillBuilding).append(" |");
    }
    md.append("\n\n");
    for (String server : servers) {
      VaultHarness.Results r = results.get(server);
      if (r.notMeasured != null) {
        md.append("- **")
            .append(server)
            .append("** serving not measured: ")
            .append(r.notMeasured.replace("\n", " "))
            .append('\n');
      }
      if (r.searchNotMeasured != null) {
        md.append("- **")
            .append(server)
            .append("** search not measured: ")
            .append(r.searchNotMeasured.replace("\n", " "))
            .append('\n');
      }
    }
    for (String line : log) {
      md.append("- ").append(line).append('\n');
    }
    md.append('\n');
    targets(md);
    return md.toString();
  }

  private void row(
      StringBuilder md,
      String metric,
      java.util.function.Function<VaultHarness.Results, List<Double>> values,
      double q) {
    md.append("| ").append(metric).append(" |");
    for (String server : servers) {
      List<Double> list = values.apply(results.get(server));
      md.append(' ')
          .append(list.isEmpty() ? "–" : number(new Stats(list).quantile(q)))
          .append(" |");
    }
    md.append('\n');
  }

  private static String recall(VaultHarness.Results r) {
    if (r.recallByKind.isEmpty()) {
      return "–";
    }
    int found = 0;
    int total = 0;
    StringBuilder kinds = new StringBuilder();
    for (Map.Entry<String, int[]> kind : r.recallByKind.entrySet()) {
      found += kind.getValue()[0];
      total += kind.getValue()[1];
      kinds
          .append(kinds.length() == 0 ? "" : ", ")
          .append(kind.getKey())
          .append(' ')
          .append(kind.getValue()[0])
          .append('/')
          .append(kind.getValue()[1]);
    }
    return String.format(Locale.ROOT, "%.1f %% (%s)", 100.0 * found / total, kinds);
  }

  private double median(
      String server, java.util.function.Function<VaultHarness.Results, List<Double>> of, double q) {
    VaultHarness.Results r = results.get(server);
    if (r == null || of.apply(r).isEmpty()) {
      return Double.NaN;
    }
    return new Stats(of.apply(r)).quantile(q);
  }

  private void targets(StringBuilder md) {
    md.append("## Targets\n\n| target | measured | met |\n|---|---|---|\n");
    double readP50 = median(VaultHarness.OURS, r -> r.readMs, 0.5);
    double fsRead = median(VaultHarness.FILESYSTEM, r -> r.readMs, 0.5);
    target(md, "read p50 ≤ 0.3× the filesystem server's", readP50 / fsRead, 0.3, true);
    double listing = median(VaultHarness.OURS, r -> r.listingMs, 0.5);
    double fsTree = median(VaultHarness.FILESYSTEM, r -> r.listingMs, 0.5);
    target(md, "full listing ≤ 0.25× its directory_tree", listing / fsTree, 0.25, true);
    double start = median(VaultHarness.OURS, r -> r.startMs, 0.5);
    double sample = median(VaultHarness.OURS, r -> r.sampleStartMs, 0.5);
    target(
        md,
        "start-up with the vault ≤ 1.5× ours on the sample workspace",
        start / sample,
        1.5,
        true);
    target(
        md,
        "RSS ≤ 64 MiB (serving)",
        median(VaultHarness.OURS, r -> r.readPeakMiB, 0.5),
        64,
        false);
    double vaultSearch = median(VaultHarness.MCPVAULT, r -> r.searchMs, 0.5);
    target(
        md,
        "first search after a first-ever start ≤ 1.5× one mcpvault search (its p50)",
        median(VaultHarness.OURS, r -> r.firstSearchMs, 0.5) / vaultSearch,
        1.5,
        true);
    target(
        md,
        "later searches p50 ≤ 0.02× mcpvault's",
        median(VaultHarness.OURS, r -> r.searchMs, 0.5) / vaultSearch,
        0.02,
        true);
    target(
        md,
        "first search after a restart (index kept) ≤ 0.1× mcpvault's",
        median(VaultHarness.OURS, r -> r.restartSearchMs, 0.5) / vaultSearch,
        0.1,
        true);
    target(
        md,
        "RSS ≤ 128 MiB with the index loaded",
        median(VaultHarness.OURS, r -> r.searchPeakMiB, 0.5),
        128,
        false);
    VaultHarness.Results ours = results.get(VaultHarness.OURS);
    if (ours != null && !ours.recallByKind.isEmpty()) {
      md.append("| recall 100 % | ")
          .append(recall(ours))
          .append(" | ")
          .append(recall(ours).startsWith("100.0 %") ? "yes" : "**no**")
          .append(" |\n");
    }
  }

  private static void target(
      StringBuilder md, String what, double value, double bound, boolean ratio) {
    md.append("| ").append(what).append(" | ");
    if (Double.isNaN(value)) {
      md.append("not judged (not measured) | – |\n");
      return;
    }
    md.append(number(value))
        .append(ratio ? "×" : " MiB")
        .append(" | ")
        .append(value <= bound ? "yes" : "**no**")
        .append(" |\n");
  }

  private static String number(double value) {
    if (value >= 100) {
      return String.format(Locale.ROOT, "%,.0f", value);
    }
    if (value >= 10) {
      return String.format(Locale.ROOT, "%.1f", value);
    }
    return String.format(Locale.ROOT, "%.3g", value);
  }
}

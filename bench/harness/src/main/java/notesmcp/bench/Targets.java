package notesmcp.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The targets, judged for each of our servers in the run: every metric with a target (its
 * value against its reference server's value in the same run, or against a bound), the soak's
 * flatness and lost replies. A target that could not be judged (no reference in this run, a phase
 * not run) says so rather than passing.
 */
final class Targets {
  /**
   * One line of the targets table.
   *
   * @param what the metric
   * @param server ours
   * @param value our value, with its unit, or "–"
   * @param reference the reference's value, or "–" (or empty for an absolute target)
   * @param ratio ours ÷ the reference, or "–"
   * @param target the bound
   * @param met true or false, or null when it could not be judged in this run
   */
  record Row(
      String what,
      String server,
      String value,
      String reference,
      String ratio,
      String target,
      Boolean met) {}

  private Targets() {}

  static List<Row> judge(Results results, List<String> servers, BenchOptions options) {
    List<Row> rows = new ArrayList<>();
    for (String server : servers) {
      if (!ServerCatalog.OURS.contains(server)) {
        continue;
      }
      for (Metric metric : Metric.values()) {
        if (metric.target != null && options.runs(metric.phase)) {
          rows.add(metric(results, metric, server));
        }
      }
      if (options.runs("soak") && options.soakServers.contains(server)) {
        rows.add(soak(results, server));
      }
      rows.add(lost(results, server));
    }
    return rows;
  }

  private static Row metric(Results results, Metric metric, String server) {
    Double ours = results.value(metric, server);
    Double theirs = metric.target.isRatio() ? results.value(metric, metric.reference) : null;
    String value = ours == null ? "–" : Report.number(metric, ours) + " " + metric.unit;
    String reference =
        !metric.target.isRatio()
            ? ""
            : theirs == null
                ? "not in this run"
                : Report.number(metric, theirs) + " " + metric.unit + " (" + metric.reference + ")";
    String ratio = ours == null || theirs == null ? "–" : Report.ratio(ours / theirs);
    Boolean met;
    if (ours == null || results.failed(server) || (metric.target.isRatio() && theirs == null)) {
      met = null;
    } else {
      met = metric.met(ours, metric.target.isRatio() ? theirs : 0);
    }
    return new Row(metric.title, server, value, reference, ratio, metric.targetText(), met);
  }

  private static Row soak(Results results, String server) {
    Soak.Result soak = results.soaks().get(server);
    return new Row(
        "RSS flat over the soak",
        server,
        soak == null
            ? "–"
            : "+" + Report.mib(soak.secondHalfGrowth()) + " MiB (2nd half's peak over the 1st's)",
        "",
        "",
        "flat (≤ 2 MiB or 2 %)",
        soak == null ? null : soak.flat());
  }

  private static Row lost(Results results, String server) {
    Map<String, String> failures = results.failures();
    long checked = results.checked(server);
    boolean failed = failures.containsKey(server);
    return new Row(
        "Lost or wrong replies (every reply checked)",
        server,
        failed ? "**failed** (see Notes)" : "0 of " + Report.count(checked),
        "",
        "",
        "none",
        failed ? Boolean.FALSE : checked > 0 ? Boolean.TRUE : null);
  }
}

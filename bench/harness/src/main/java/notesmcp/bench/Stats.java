package notesmcp.bench;

import java.util.Arrays;
import java.util.List;

/** Order statistics of a few samples: median, quartiles, extremes (linear interpolation). */
final class Stats {
  private final double[] sorted;

  Stats(List<Double> values) {
    this.sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
  }

  Stats(long[] values) {
    this.sorted = Arrays.stream(values).mapToDouble(v -> v).sorted().toArray();
  }

  int count() {
    return sorted.length;
  }

  double min() {
    return sorted[0];
  }

  double max() {
    return sorted[sorted.length - 1];
  }

  double median() {
    return quantile(0.5);
  }

  /** The q-quantile, 0 &le; q &le; 1, interpolated between the two nearest samples. */
  double quantile(double q) {
    double position = q * (sorted.length - 1);
    int below = (int) Math.floor(position);
    int above = Math.min(below + 1, sorted.length - 1);
    return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
  }
}

package notesmcp.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatsTest {
  @Test
  void medianOfAnOddCountIsTheMiddleSample() {
    Stats stats = new Stats(List.of(5.0, 1.0, 3.0));
    assertThat(stats.median()).isEqualTo(3.0);
    assertThat(stats.min()).isEqualTo(1.0);
    assertThat(stats.max()).isEqualTo(5.0);
    assertThat(stats.count()).isEqualTo(3);
  }

  @Test
  void medianOfAnEvenCountIsBetweenTheTwoMiddleSamples() {
    assertThat(new Stats(List.of(4.0, 1.0, 2.0, 3.0)).median()).isEqualTo(2.5);
  }

  @Test
  void quantilesInterpolateBetweenNeighbours() {
    Stats stats = new Stats(List.of(10.0, 20.0, 30.0, 40.0, 50.0));
    assertThat(stats.quantile(0.25)).isEqualTo(20.0);
    assertThat(stats.quantile(0.75)).isEqualTo(40.0);
    assertThat(stats.quantile(0.1)).isCloseTo(14.0, within(1e-9));
    assertThat(stats.quantile(0)).isEqualTo(10.0);
    assertThat(stats.quantile(1)).isEqualTo(50.0);
  }

  @Test
  void oneSampleIsEveryQuantile() {
    Stats stats = new Stats(List.of(7.0));
    assertThat(stats.quantile(0.25)).isEqualTo(7.0);
    assertThat(stats.median()).isEqualTo(7.0);
  }
}

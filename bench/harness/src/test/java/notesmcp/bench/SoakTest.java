package notesmcp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SoakTest {
  private static final long MIB = 1024 * 1024;

  private static Soak.Result rss(long... mib) {
    long[] calls = new long[mib.length];
    long[] bytes = new long[mib.length];
    for (int i = 0; i < mib.length; i++) {
      calls[i] = (i + 1) * 10_000L;
      bytes[i] = mib[i] * MIB;
    }
    return new Soak.Result(calls, bytes, bytes[bytes.length - 1], 1000);
  }

  @Test
  void aSteadyProcessIsFlat() {
    Soak.Result r = rss(47, 47, 47, 47, 47, 47, 47, 47, 47, 47);
    assertThat(r.flat()).isTrue();
    assertThat(r.secondHalfGrowth()).isZero();
  }

  @Test
  void growthInTheFirstHalfIsAllowed() {
    // Heaps and JIT caches find their working size early: not a leak.
    assertThat(rss(20, 30, 40, 47, 48, 48, 48, 48, 48, 48).flat()).isTrue();
  }

  @Test
  void aSawToothIsFlatWhereverTheLastSampleFalls() {
    // A collected heap: high, low, high. The second half's peak is no higher than the first's.
    assertThat(rss(110, 150, 118, 151, 120, 150, 119, 151, 117, 121).flat()).isTrue();
  }

  @Test
  void aLeakIsNotFlat() {
    Soak.Result r = rss(40, 41, 42, 43, 44, 45, 46, 47, 48, 49);
    assertThat(r.flat()).isFalse();
    assertThat(r.secondHalfGrowth()).isEqualTo(5 * MIB);
  }

  @Test
  void theToleranceIsTwoMibOrTwoPercentWhicheverIsMore() {
    assertThat(rss(40, 40, 40, 42, 42, 42).flat()).isTrue(); // 2 MiB
    assertThat(rss(40, 40, 40, 43, 43, 43).flat()).isFalse(); // 3 MiB > 2 MiB and > 2 % of 40
    assertThat(rss(200, 200, 200, 204, 204, 204).flat()).isTrue(); // 4 MiB = 2 % of 200
    assertThat(rss(200, 200, 200, 205, 205, 205).flat()).isFalse();
  }

  @Test
  void theMiddleIsTheLastSampleOfTheFirstHalf() {
    assertThat(rss(1, 2, 3, 4, 5, 6, 7, 8, 9, 10).middle()).isEqualTo(4);
    assertThat(rss(1, 2, 3).middle()).isEqualTo(1);
  }
}

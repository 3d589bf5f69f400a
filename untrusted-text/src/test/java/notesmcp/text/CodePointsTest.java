package notesmcp.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Code-point order is the order of the UTF-8 bytes, on every pair of whole-character strings. */
class CodePointsTest {
  @Test
  void theOrderIsTheOrderOfTheUtf8Bytes() {
    int[] interesting = {
      'a', 'b', '.', '/', 0x7f, 0xe9, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfffd, 0xffff, 0x10000,
      0x1f600, 0x10ffff
    };
    Random random = new Random(7);
    for (int round = 0; round < 200_000; round++) {
      String a = random(random, interesting);
      String b = random(random, interesting);
      int bytes =
          Arrays.compareUnsigned(
              a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
      assertThat(Integer.signum(CodePoints.compare(a, b)))
          .as("%s against %s", a, b)
          .isEqualTo(Integer.signum(bytes));
      assertThat(Integer.signum(CodePoints.ORDER.compare(a, b))).isEqualTo(Integer.signum(bytes));
    }
  }

  @Test
  void aCharacterAboveTheBasicPlaneSortsAfterEveryOneInIt() {
    assertThat(CodePoints.compare("\ufffd", "\ud83d\ude00")).isNegative();
    assertThat("\ufffd".compareTo("\ud83d\ude00")).as("UTF-16's order").isPositive();
    assertThat(CodePoints.compare("a/b", "a.b")).isPositive();
    assertThat(CodePoints.compare("ab", "a")).isPositive();
    assertThat(CodePoints.compare("same", "same")).isZero();
  }

  private static String random(Random random, int[] interesting) {
    StringBuilder out = new StringBuilder();
    int length = random.nextInt(5);
    for (int i = 0; i < length; i++) {
      out.appendCodePoint(interesting[random.nextInt(interesting.length)]);
    }
    return out.toString();
  }
}

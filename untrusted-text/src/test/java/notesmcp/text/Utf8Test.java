package notesmcp.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The UTF-8 check agrees with the JDK's strict decoder, on the verdict and on the byte it names;
 * the counted length is what encoding gives.
 */
class Utf8Test {
  /** Where the JDK's decoder (reporting, never replacing) finds the first fault, or -1. */
  private static int jdk(byte[] bytes) {
    CharsetDecoder utf8 =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CoderResult result = utf8.decode(in, CharBuffer.allocate(bytes.length), true);
    return result.isError() ? in.position() : -1;
  }

  @Test
  void theUtf8CheckAgreesWithTheJdksStrictDecoderOnRandomBytes() {
    Random random = new Random(11);
    byte[] interesting = {
      0x00,
      0x41,
      0x7f,
      (byte) 0x80,
      (byte) 0xbf,
      (byte) 0xc0,
      (byte) 0xc1,
      (byte) 0xc2,
      (byte) 0xdf,
      (byte) 0xe0,
      (byte) 0xe1,
      (byte) 0xec,
      (byte) 0xed,
      (byte) 0xee,
      (byte) 0xef,
      (byte) 0xf0,
      (byte) 0xf1,
      (byte) 0xf3,
      (byte) 0xf4,
      (byte) 0xf5,
      (byte) 0xff,
      (byte) 0x9f,
      (byte) 0xa0,
      (byte) 0x8f,
      (byte) 0x90
    };
    for (int round = 0; round < 200_000; round++) {
      byte[] bytes = new byte[random.nextInt(8)];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = interesting[random.nextInt(interesting.length)];
      }
      assertThat(Utf8.firstMalformed(bytes))
          .as("%s", java.util.Arrays.toString(bytes))
          .isEqualTo(jdk(bytes));
    }
    // Longer runs, mostly ASCII, so that the eight-at-a-time path meets every sequence at every
    // position against its block of eight.
    for (int round = 0; round < 100_000; round++) {
      byte[] bytes = new byte[random.nextInt(41)];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] =
            random.nextInt(5) == 0
                ? interesting[random.nextInt(interesting.length)]
                : (byte) (0x20 + random.nextInt(0x5f));
      }
      assertThat(Utf8.firstMalformed(bytes))
          .as("%s", java.util.Arrays.toString(bytes))
          .isEqualTo(jdk(bytes));
    }
    byte[] valid = "caf\u00e9 \ud83d\ude00 \u2028".getBytes(StandardCharsets.UTF_8);
    assertThat(Utf8.firstMalformed(valid)).isEqualTo(-1);
    assertThat(Utf8.firstMalformed("caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1)))
        .isEqualTo(3);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "plain ascii",
        "caf\u00e9 \u00df",
        "\u20ac and \u4e2d\u6587",
        "a pair \ud83d\ude00 of chars",
        "a lone high \ud83d surrogate",
        "a lone low \ude00 surrogate",
        "\ude00\ud83d reversed",
        "ends high \ud83d"
      })
  void aStringsLengthIsCountedAsUtf8EncodesIt(String text) {
    assertThat(Utf8.length(text)).isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
  }
}

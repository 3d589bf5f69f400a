package notesmcp.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import notesmcp.policy.Notes.JsonText;
import org.junit.jupiter.api.Test;
import tools.jackson.core.io.JsonStringEncoder;

/**
 * A note's answer is written from its bytes: it must be exactly what Jackson's own escaping of the
 * decoded text gives, and the UTF-8 check must agree with the JDK's strict decoder, on the verdict
 * and on the byte it names.
 */
class JsonTextTest {
  private static String jackson(String path, String content) {
    StringBuilder out = new StringBuilder("{\"path\":\"");
    JsonStringEncoder.getInstance().quoteAsString(path, out);
    out.append("\",\"content\":\"");
    JsonStringEncoder.getInstance().quoteAsString(content, out);
    return out.append("\"}").toString();
  }

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
  void aNotesAnswerIsWhatJacksonsEscapingOfItsTextGives() {
    String content =
        "plain \"quoted\" back\\slash\n\t\r\b\f\u0000\u0001\u001f\u007f caf\u00e9 \u2028"
            + " \ud83d\ude00 /";
    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);

    assertThat(JsonText.note("Caf\u00e9/\"n\".md", bytes, 0, bytes.length, -1, -1).text())
        .isEqualTo(jackson("Caf\u00e9/\"n\".md", content));
  }

  @Test
  void aListingIsWhatJacksonsEscapingOfItsPathsGives() {
    java.util.List<String> paths =
        java.util.List.of("a.md", "Caf\u00e9/\"q\".md", "x\\y.md", "\ud83d\ude00.md");
    StringBuilder expected = new StringBuilder("{\"notes\":[");
    for (int i = 0; i < paths.size(); i++) {
      expected.append(i > 0 ? ",\"" : "\"");
      JsonStringEncoder.getInstance().quoteAsString(paths.get(i), expected);
      expected.append('"');
    }

    assertThat(JsonText.notes(paths, null).text()).isEqualTo(expected + "]}");
    assertThat(JsonText.notes(paths, "AbC-_9").text())
        .isEqualTo(expected + "],\"nextCursor\":\"AbC-_9\"}");
    assertThat(JsonText.notes(java.util.List.of(), null).text()).isEqualTo("{\"notes\":[]}");
  }

  @Test
  void aPageCarriesItsOffsetTotalAndNext() {
    byte[] bytes = "0123456789".getBytes(StandardCharsets.US_ASCII);

    assertThat(JsonText.note("a.md", bytes, 2, 5, 10, 5).text())
        .isEqualTo(
            "{\"path\":\"a.md\",\"content\":\"234\",\"offset\":2,\"totalBytes\":10,"
                + "\"nextOffset\":5}");
    assertThat(JsonText.note("a.md", bytes, 5, 10, 10, -1).text()).endsWith("\"nextOffset\":null}");
  }

  @Test
  void randomTextIsEscapedAsJacksonEscapesIt() {
    Random random = new Random(7);
    int[] alphabet = {0, 1, 8, 9, 10, 12, 13, 31, 32, 34, 47, 92, 127, 0xe9, 0x2028, 0x1f600};
    for (int round = 0; round < 5_000; round++) {
      StringBuilder text = new StringBuilder();
      for (int i = random.nextInt(40); i > 0; i--) {
        text.appendCodePoint(alphabet[random.nextInt(alphabet.length)]);
      }
      // Long runs too, across the writer's 4 KiB pieces, all needing escapes.
      if (round % 100 == 0) {
        text.append("\u0001".repeat(5000));
      }
      byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
      assertThat(JsonText.note("p", bytes, 0, bytes.length, -1, -1).text())
          .isEqualTo(jackson("p", text.toString()));
    }
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
      assertThat(JsonText.firstMalformed(bytes))
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
      assertThat(JsonText.firstMalformed(bytes))
          .as("%s", java.util.Arrays.toString(bytes))
          .isEqualTo(jdk(bytes));
    }
    byte[] valid = "caf\u00e9 \ud83d\ude00 \u2028".getBytes(StandardCharsets.UTF_8);
    assertThat(JsonText.firstMalformed(valid)).isEqualTo(-1);
    assertThat(JsonText.firstMalformed("caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1)))
        .isEqualTo(3);
  }
}

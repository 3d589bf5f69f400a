package notesmcp.policy.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.core.io.JsonStringEncoder;

/**
 * A note's answer is written from its bytes: it must be exactly what Jackson's own escaping of the
 * decoded text gives.
 */
class JsonTextTest {
  private static String jackson(String path, String content) {
    StringBuilder out = new StringBuilder("{\"path\":\"");
    JsonStringEncoder.getInstance().quoteAsString(path, out);
    out.append("\",\"content\":\"");
    JsonStringEncoder.getInstance().quoteAsString(content, out);
    return out.append("\"}").toString();
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
}

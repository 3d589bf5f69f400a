package notesmcp.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import notesmcp.text.JsonInput.JsonString;
import org.junit.jupiter.api.Test;
import tools.jackson.core.io.JsonStringEncoder;

class JsonStringTest {
  private static String escapedByJackson(String text) {
    StringBuilder out = new StringBuilder();
    JsonStringEncoder.getInstance().quoteAsString(text, out);
    return out.toString();
  }

  private static String escaped(String text) {
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    JsonString escaped = JsonString.of(utf8, utf8.length);
    return new String(escaped.bytes(), 0, escaped.length(), StandardCharsets.UTF_8);
  }

  @Test
  void everyControlQuoteAndBackslashIsEscapedAsJacksonEscapesIt() {
    StringBuilder all = new StringBuilder();
    for (char c = 0; c < 0x80; c++) {
      all.append(c);
    }
    all.append("caf\u00e9 \u2028 \ud83d\ude00 \u00ff\u07ff\uffff");
    assertThat(escaped(all.toString())).isEqualTo(escapedByJackson(all.toString()));
  }

  @Test
  void randomTextsOfManyLengthsMatchJacksonAcrossTheFourKibPieces() {
    Random random = new Random(20261202);
    String alphabet = "ab \n\t\"\\\u0001\u001f\u007f\u00e9\u4e2d\ud83d\ude00";
    for (int round = 0; round < 300; round++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(round < 200 ? 64 : 20_000);
      while (text.length() < length) {
        int at = random.nextInt(alphabet.length() - 1);
        char c = alphabet.charAt(at);
        text.append(c);
        if (Character.isHighSurrogate(c)) {
          text.append(alphabet.charAt(at + 1));
        }
      }
      assertThat(escaped(text.toString())).isEqualTo(escapedByJackson(text.toString()));
    }
  }

  @Test
  void escapingIntoTheMiddleOfABufferWritesOnlyThere() {
    byte[] note = "x\"y\n".getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[32];
    out[0] = '[';
    int end = JsonString.escape(note, 1, 3, out, 1);
    assertThat(new String(out, 0, end, StandardCharsets.UTF_8)).isEqualTo("[\\\"y");
  }
}

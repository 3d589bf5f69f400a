package notesmcp.policy.proposals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import notesmcp.policy.rules.NoteName;
import org.junit.jupiter.api.Test;

class RecordFormatTest {
  private static final String ID = "0f8b8b4e-55d5-4c1e-9b7e-3c1f7d2a9e10";
  private static final Instant CREATED = Instant.parse("2026-01-02T03:04:05Z");

  @Test
  void recordEscapesDeleteLikeEveryOtherControlCharacter() throws Exception {
    // Found by RecordFormatFuzzTest: DEL (U+007F) is ASCII, so ESCAPE_NON_ASCII let it through raw.
    Proposal proposal =
        new Proposal(
            ID,
            NoteName.configured("draft.txt"),
            "a\u007fb\u0000c\u0085d",
            CREATED,
            new Requester("client\u007f", "1\u007f"));

    byte[] record = RecordFormat.encode(proposal);

    String text = new String(record, StandardCharsets.US_ASCII);
    assertThat(text)
        .contains("\"content\":\"a\\u007Fb\\u0000c\\u0085d\"")
        .contains("\"name\":\"client\\u007F\"")
        .contains("\"version\":\"1\\u007F\"");
    for (int i = 0; i < record.length - 1; i++) {
      assertThat(record[i] >= 0x20 && record[i] < 0x7f).as("byte %d of %s", i, text).isTrue();
    }
    assertThat(RecordFormat.decode(ID, record)).isEqualTo(proposal);
  }

  /**
   * A record is written in ASCII and read as UTF-8; one in UTF-16 or UTF-32 (which Jackson would
   * guess from its zero bytes and read) is damaged. The codec's fault, found by LineCodecFuzzTest.
   */
  @Test
  void aRecordInUtf16OrUtf32IsDamaged() throws Exception {
    Proposal proposal = new Proposal(ID, NoteName.configured("draft.txt"), "text", CREATED, null);
    String record = new String(RecordFormat.encode(proposal), StandardCharsets.US_ASCII);
    assertThat(RecordFormat.decode(ID, record.getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(proposal);

    for (String encoding :
        new String[] {"UTF-16BE", "UTF-16LE", "UTF-16", "UTF-32BE", "UTF-32LE"}) {
      byte[] bytes = record.getBytes(java.nio.charset.Charset.forName(encoding));
      assertThatThrownBy(() -> RecordFormat.decode(ID, bytes))
          .as(encoding)
          .isInstanceOf(RecordFormat.Damaged.class)
          .hasMessage("is not UTF-8 (UTF-16 and UTF-32 are not read)");
    }
  }
}

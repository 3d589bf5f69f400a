package notesmcp.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import notesmcp.jsonrpc.Message.Id;
import org.junit.jupiter.api.Test;

/** An id in a log line: integers as they are, strings quoted with their controls escaped. */
class IdTest {
  @Test
  void aStringIdIsQuotedWithOnlyControlsQuotesAndBackslashesEscaped() {
    assertThat(Id.of(" a b~").toString()).isEqualTo("\" a b~\"");
    assertThat(Id.of("\u001f\u007f\"\\").toString()).isEqualTo("\"\\u001f\\u007f\\u0022\\u005c\"");
    assertThat(Id.of(-7).toString()).isEqualTo("-7");
  }

  @Test
  void idsAreEqualExactlyWhenTheirValuesAre() {
    assertThat(Id.of("7")).isEqualTo(Id.of("7")).isNotEqualTo(Id.of(7)).isNotEqualTo(Id.of("8"));
    assertThat(Id.of(7)).isEqualTo(Id.of(7)).hasSameHashCodeAs(Id.of(7));
  }
}

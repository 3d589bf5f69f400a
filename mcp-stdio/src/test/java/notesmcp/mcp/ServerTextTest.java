package notesmcp.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ServerTextTest {
  @Test
  void controlAndFormatCharactersAreWrittenAsEscapes() {
    assertThat(ServerText.shown("a\u001b[2Jb\u009bc\u202ed\u200be\u007ff\r\ng\u2028h"))
        .isEqualTo("a\\u001b[2Jb\\u009bc\\u202ed\\u200be\\u007ff\\u000d\\u000ag\\u2028h");
  }

  @Test
  void ordinaryTextIsUnchanged() {
    assertThat(ServerText.shown("café 1.2 — ok ✓ 😀")).isEqualTo("café 1.2 — ok ✓ 😀");
  }

  @Test
  void supplementaryFormatCharactersAreEscapedWhole() {
    assertThat(ServerText.shown("x\uDB40\uDC01y")).isEqualTo("x\\U000e0001y");
  }

  @Test
  void lineFeedsAreKeptOnlyWhenAsked() {
    assertThat(ServerText.shown("a\nb", 100, true)).isEqualTo("a\nb");
    assertThat(ServerText.shown("a\nb", 100, false)).isEqualTo("a\\u000ab");
  }

  @Test
  void longTextIsCutSayingHowMuchWasLeftOut() {
    assertThat(ServerText.shown("x".repeat(ServerText.MAX_CHARS + 5)))
        .isEqualTo("x".repeat(ServerText.MAX_CHARS) + "... (5 more characters)");
  }

  /** The ends of each range: C1 ends at U+009F, and four hex digits hold up to U+FFFF. */
  @Test
  void theEdgesOfTheEscapedRangesAreExact() {
    assertThat(ServerText.shown("a\u009fb\u00a0c")).isEqualTo("a\\u009fb\u00a0c");
    assertThat(ServerText.shown("\uffff")).isEqualTo("\\uffff");
    assertThat(ServerText.shown("\ud800\udc00")).isEqualTo("\ud800\udc00");
  }

  @Test
  void noTextIsShownAsNone() {
    assertThat(ServerText.shown(null)).isEqualTo("(none)");
  }
}

package notesmcp.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SafeTextTest {
  @Test
  void quotedEscapesControlsFormatCharactersQuotesAndBackslashes() {
    assertThat(SafeText.quoted("a\"b\\c\nd\u001b[2J\u202e\u200b\u0085", 100))
        .isEqualTo("\"a\\u0022b\\u005cc\\u000ad\\u001b[2J\\u202e\\u200b\\u0085\"");
  }

  @Test
  void quotedKeepsOrdinaryTextAndSupplementaryLettersAndEscapesPrivateUsePlanes() {
    assertThat(SafeText.quoted("héllo 𝄞", 100)).isEqualTo("\"héllo 𝄞\"");
    assertThat(SafeText.quoted("\uDB80\uDC00", 100)).isEqualTo("\"\\U000f0000\"");
    assertThat(SafeText.quoted("lone \uD800", 100)).isEqualTo("\"lone \\ud800\"");
  }

  @Test
  void aLongTextIsCutSayingHowMuchWasLeftOut() {
    assertThat(SafeText.quoted("abcdefghij", 4)).isEqualTo("\"abcd\"... (6 more characters)");
    assertThat(SafeText.escaped("abcdefghij", 4, false)).isEqualTo("abcd... (6 more characters)");
    assertThat(SafeText.quoted("abcd", 4)).isEqualTo("\"abcd\"");
  }

  @Test
  void escapedKeepsLineFeedsOnlyWhenAsked() {
    assertThat(SafeText.escaped("a\nb\"", 100, true)).isEqualTo("a\nb\"");
    assertThat(SafeText.escaped("a\nb", 100, false)).isEqualTo("a\\u000ab");
    assertThat(SafeText.escaped(null, 100, false)).isEqualTo("(none)");
  }
}

package notesmcp.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuoteTest {

  @Test
  void plainAsciiIsQuotedAsIs() {
    assertThat(Quote.of("notes.txt")).isEqualTo("\"notes.txt\"");
  }

  @Test
  void quotesAndBackslashesAreEscaped() {
    assertThat(Quote.of("a\"b\\c")).isEqualTo("\"a\\\"b\\\\c\"");
  }

  @Test
  void lookAlikeCharactersAreShownAsUnicodeEscapes() {
    // U+2024 ONE DOT LEADER looks like '.', U+0430 CYRILLIC A looks like 'a'.
    assertThat(Quote.of("notes\u2024txt")).isEqualTo("\"notes\\u2024txt\"");
    assertThat(Quote.of("\u0430")).isEqualTo("\"\\u0430\"");
  }

  @Test
  void controlAndFormatCharactersAreShownAsUnicodeEscapes() {
    assertThat(Quote.of("a\u0000b\nc\u007f\u200b\u202e"))
        .isEqualTo("\"a\\u0000b\\u000ac\\u007f\\u200b\\u202e\"");
  }

  @Test
  void surrogatePairsAreShownAsTwoEscapes() {
    assertThat(Quote.of("\ud83d\ude00")).isEqualTo("\"\\ud83d\\ude00\"");
  }

  @Test
  void longValuesAreShortenedToEightyCharacters() {
    assertThat(Quote.of("x".repeat(80))).isEqualTo("\"" + "x".repeat(80) + "\"");
    assertThat(Quote.of("x".repeat(81))).isEqualTo("\"" + "x".repeat(80) + "...\"");
    assertThat(Quote.of("y".repeat(1_000_000))).hasSize(80 + 5);
  }
}

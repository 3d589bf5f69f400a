package notesmcp.text;

import static org.assertj.core.api.Assertions.assertThat;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UCharacterCategory;
import com.ibm.icu.lang.UProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Nothing a terminal could act on, and nothing that hides text, survives either form: the review's
 * and the chat's visible form, and the escaped form of diagnostic lines (docs/approvals.md shows
 * what the review renders).
 */
class TerminalTextTest {
  static Stream<Arguments> escapes() {
    return Stream.of(
        row("clear screen and home", "\u001b[2J\u001b[H", "\\x1b[2J\\x1b[H"),
        row("title by OSC, ended by BEL", "\u001b]0;owned\u0007", "\\x1b]0;owned\\x07"),
        row("C1 CSI, OSC and ST", "\u009b31m\u009d0;x\u009c", "\\x9b31m\\x9d0;x\\x9c"),
        row("DEL and NUL", "a\u007fb\u0000c", "a\\x7fb\\x00c"),
        row("carriage return overwrite", "approved\rrejected", "approved\\rrejected"),
        row("tab and backspace", "a\tb\bc", "a\\tb\\x08c"),
        row("right-to-left override", "abc\u202etxt.exe", "abc\\u202etxt.exe"),
        row("embeddings and pops", "\u202a\u202b\u202c\u202d", "\\u202a\\u202b\\u202c\\u202d"),
        row("isolates", "\u2066x\u2067y\u2068z\u2069", "\\u2066x\\u2067y\\u2068z\\u2069"),
        row(
            "zero-width characters and marks",
            "a\u200bb\u200cc\u200dd\u200e\u200f",
            "a\\u200bb\\u200cc\\u200dd\\u200e\\u200f"),
        row("line separator and BOM", "a\u2028b\ufeffc", "a\\u2028b\\ufeffc"),
        row("invisible tag character", "a\udb40\udc41b", "a\\U000e0041b"),
        row("Hangul fillers", "a\u3164b\u115fc\u1160d\uffa0e", "a\\u3164b\\u115fc\\u1160d\\uffa0e"),
        row("combining grapheme joiner", "a\u034fb", "a\\u034fb"),
        row(
            "variation selectors",
            "\u2764\ufe0f \u845b\udb40\udd00",
            "\u2764\\ufe0f \u845b\\U000e0100"),
        row("Mongolian selectors", "\u180b\u180e\u180f", "\\u180b\\u180e\\u180f"),
        row("Khmer inherent vowels", "\u17b4\u17b5", "\\u17b4\\u17b5"),
        row(
            "spaces that are not a plain space",
            "a\u00a0b\u2003c\u3000d\u202fe",
            "a\\u00a0b\\u2003c\\u3000d\\u202fe"),
        row("unassigned", "\u0378", "\\u0378"),
        row("private use, in the BMP and beyond", "\ue000\udb80\udc00", "\\ue000\\U000f0000"),
        row("a backslash is doubled", "\\x1b is four characters", "\\\\x1b is four characters"),
        row(
            "ordinary text is kept",
            "caf\u00e9 \u2013 \u65e5\u672c \u2713 \ud834\udd1e",
            "caf\u00e9 \u2013 \u65e5\u672c \u2713 \ud834\udd1e"));
  }

  private static Arguments row(String what, String text, String shown) {
    return Arguments.of(what, text, shown);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("escapes")
  void theVisibleFormShowsEveryUnsafeCharacterAsAnEscape(String what, String text, String shown) {
    assertThat(TerminalText.visible(text)).isEqualTo(shown);
  }

  /**
   * The rule is Unicode's properties, not a hand list: on every code point, {@link
   * TerminalText#isUnsafe} is exactly Default_Ignorable_Code_Point, or a control, format, line or
   * paragraph separator, surrogate, private-use or unassigned character, or White_Space other than
   * U+0020, as ICU4J (Unicode 16) has them. A code point this JDK does not know yet (Java 17 is
   * Unicode 13) is shown as an escape whatever it is.
   */
  @Test
  void theRuleIsExactlyTheUnicodePropertiesOnEveryCodePoint() {
    List<String> wrong = new ArrayList<>();
    for (int c = 0; c <= Character.MAX_CODE_POINT; c++) {
      boolean expected;
      if (Character.getType(c) == Character.UNASSIGNED) {
        expected = true;
      } else {
        expected = unsafeByUnicode(c);
      }
      if (TerminalText.isUnsafe(c) != expected) {
        wrong.add(String.format("U+%04X (%s)", c, UCharacter.getName(c)));
      }
    }
    assertThat(wrong).as("code points the rule gets wrong").isEmpty();
    assertThat(UCharacter.getUnicodeVersion().getMajor()).isGreaterThanOrEqualTo(16);
  }

  private static boolean unsafeByUnicode(int c) {
    switch (UCharacter.getType(c)) {
      case UCharacterCategory.CONTROL:
      case UCharacterCategory.FORMAT:
      case UCharacterCategory.LINE_SEPARATOR:
      case UCharacterCategory.PARAGRAPH_SEPARATOR:
      case UCharacterCategory.SURROGATE:
      case UCharacterCategory.UNASSIGNED:
      case UCharacterCategory.PRIVATE_USE:
        return true;
      default:
        return UCharacter.hasBinaryProperty(c, UProperty.DEFAULT_IGNORABLE_CODE_POINT)
            || (UCharacter.hasBinaryProperty(c, UProperty.WHITE_SPACE) && c != ' ');
    }
  }

  @Test
  void aLineFeedIsShownAndStillEndsTheLine() {
    assertThat(TerminalText.visible("one\ntwo\n")).isEqualTo("one\\n\ntwo\\n\n");
  }

  @Test
  void theVisibleFormHoldsNoCharacterATerminalActsOn() {
    StringBuilder every = new StringBuilder();
    for (int c = 0; c < 0x3000; c++) {
      if (!Character.isSurrogate((char) c)) {
        every.appendCodePoint(c);
      }
    }
    String shown = TerminalText.visible(every.toString());
    shown
        .codePoints()
        .forEach(
            c ->
                assertThat(
                        c == '\n'
                            || (c >= 0x20 && c < 0x7f)
                            || (c > 0x9f && Character.getType(c) != Character.FORMAT))
                    .as("U+%04X in the rendering", c)
                    .isTrue());
  }

  @Test
  void contentIsShownBehindAGutterLineByLine() {
    assertThat(TerminalText.gutter("Meeting\u001b[2J\r\nnotes"))
        .isEqualTo("    | Meeting\\x1b[2J\\r\\n\n    | notes\n");
    assertThat(TerminalText.gutter("done\n")).isEqualTo("    | done\\n\n");
    assertThat(TerminalText.gutter("")).isEqualTo("    (empty)\n");
  }

  @Test
  void anAnswerKeepsItsLinesAndShowsEverythingElseAsEscapes() {
    assertThat(TerminalText.visibleLines("one\r\ntwo \u001b[2J\\\nthree\u202e"))
        .isEqualTo("one\ntwo \\x1b[2J\\\\\nthree\\u202e");
  }

  @Test
  void aVisibleLineIsOneLineAndCutWhenLong() {
    assertThat(TerminalText.visibleLine("a\nb\rc")).isEqualTo("a\\nb\\rc");
    assertThat(TerminalText.visibleLine("x".repeat(TerminalText.LINE_CHARS + 5)))
        .isEqualTo("x".repeat(TerminalText.LINE_CHARS) + "... (5 more characters)");
  }

  @Test
  void aVisibleLineMayBeCutElsewhereAndCountsWhatItsEscapesTake() {
    assertThat(TerminalText.visibleLine("x".repeat(1000), 1000)).isEqualTo("x".repeat(1000));
    assertThat(TerminalText.visibleLine("\u001b".repeat(10), 9))
        .isEqualTo("\\x1b\\x1b\\... (31 more characters)");
  }

  /** The line as the whole text rendered and then cut: what {@link TerminalText#visibleLine} is. */
  private static String wholeThenCut(String text) {
    String rendered = TerminalText.visible(text).replace("\n", "");
    int length = rendered.codePointCount(0, rendered.length());
    if (length <= TerminalText.LINE_CHARS) {
      return rendered;
    }
    return rendered.substring(0, rendered.offsetByCodePoints(0, TerminalText.LINE_CHARS))
        + "... ("
        + (length - TerminalText.LINE_CHARS)
        + " more characters)";
  }

  /**
   * A visible line renders only what it shows and counts the rest, so a model's 8 MiB argument
   * costs no 8 MiB rendering; the line is exactly the whole text rendered and cut, at every length
   * around the cut and for every kind of character.
   */
  @Test
  void aVisibleLineIsTheWholeRenderingCutWithoutRenderingTheWhole() {
    String[] pieces = {
      "a", "\n", "\\", "\u001b", "\u009b", "\u202e", "\udb40\udc41", "\ud800", "é", "\t"
    };
    java.util.Random random = new java.util.Random(19);
    for (int round = 0; round < 2000; round++) {
      StringBuilder text = new StringBuilder();
      int n = random.nextInt(TerminalText.LINE_CHARS + 40);
      for (int i = 0; i < n; i++) {
        text.append(pieces[random.nextInt(pieces.length)]);
      }
      assertThat(TerminalText.visibleLine(text.toString()))
          .as("round %d", round)
          .isEqualTo(wholeThenCut(text.toString()));
    }
    String huge = "\u001b".repeat(8 * 1024 * 1024);
    assertThat(TerminalText.visibleLine(huge)).isEqualTo(wholeThenCut(huge));
  }

  // The escaped form, for diagnostic lines.

  @Test
  void quotedEscapesControlsFormatCharactersQuotesAndBackslashes() {
    assertThat(TerminalText.quoted("a\"b\\c\nd\u001b[2J\u202e\u200b\u0085", 100))
        .isEqualTo("\"a\\u0022b\\u005cc\\u000ad\\u001b[2J\\u202e\\u200b\\u0085\"");
  }

  @Test
  void quotedKeepsOrdinaryTextAndSupplementaryLettersAndEscapesPrivateUsePlanes() {
    assertThat(TerminalText.quoted("héllo 𝄞", 100)).isEqualTo("\"héllo 𝄞\"");
    assertThat(TerminalText.quoted("\uDB80\uDC00", 100)).isEqualTo("\"\\U000f0000\"");
    assertThat(TerminalText.quoted("lone \uD800", 100)).isEqualTo("\"lone \\ud800\"");
  }

  @Test
  void controlAndFormatCharactersAreWrittenAsEscapes() {
    assertThat(TerminalText.escaped("a\u001b[2Jb\u009bc\u202ed\u200be\u007ff\r\ng\u2028h"))
        .isEqualTo("a\\u001b[2Jb\\u009bc\\u202ed\\u200be\\u007ff\\u000d\\u000ag\\u2028h");
  }

  /**
   * A diagnostic line hides nothing the review would show: a server named with Hangul fillers, a
   * no-break space or a variation selector used to print them raw (blank, or a plain space).
   */
  @Test
  void theEscapedFormHidesNoInvisibleCharacterEither() {
    assertThat(TerminalText.escaped("notes\u3164mcp\u00a0x\ufe0f\u034f"))
        .isEqualTo("notes\\u3164mcp\\u00a0x\\ufe0f\\u034f");
  }

  @Test
  void ordinaryTextIsUnchanged() {
    assertThat(TerminalText.escaped("café 1.2 — ok ✓ 😀")).isEqualTo("café 1.2 — ok ✓ 😀");
  }

  @Test
  void supplementaryFormatCharactersAreEscapedWhole() {
    assertThat(TerminalText.escaped("x\uDB40\uDC01y")).isEqualTo("x\\U000e0001y");
  }

  /** The ends of each range: C1 ends at U+009F, and four hex digits hold up to U+FFFF. */
  @Test
  void theEdgesOfTheEscapedRangesAreExact() {
    assertThat(TerminalText.escaped("a\u009fb\u00a1c")).isEqualTo("a\\u009fb\u00a1c");
    assertThat(TerminalText.escaped("\uffff")).isEqualTo("\\uffff");
    assertThat(TerminalText.escaped("\ud800\udc00")).isEqualTo("\ud800\udc00");
  }

  @Test
  void aLongTextIsCutSayingHowMuchWasLeftOut() {
    assertThat(TerminalText.quoted("abcdefghij", 4)).isEqualTo("\"abcd\"... (6 more characters)");
    assertThat(TerminalText.escaped("abcdefghij", 4, false))
        .isEqualTo("abcd... (6 more characters)");
    assertThat(TerminalText.quoted("abcd", 4)).isEqualTo("\"abcd\"");
    assertThat(TerminalText.escaped("x".repeat(TerminalText.LINE_CHARS + 5)))
        .isEqualTo("x".repeat(TerminalText.LINE_CHARS) + "... (5 more characters)");
  }

  @Test
  void escapedKeepsLineFeedsOnlyWhenAsked() {
    assertThat(TerminalText.escaped("a\nb\"", 100, true)).isEqualTo("a\nb\"");
    assertThat(TerminalText.escaped("a\nb", 100, false)).isEqualTo("a\\u000ab");
    assertThat(TerminalText.escaped(null, 100, false)).isEqualTo("(none)");
  }
}

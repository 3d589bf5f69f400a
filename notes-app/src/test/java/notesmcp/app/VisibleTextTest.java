package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UCharacterCategory;
import com.ibm.icu.lang.UProperty;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import notesmcp.policy.NoteName;
import notesmcp.policy.Proposal;
import notesmcp.policy.Recorded;
import notesmcp.policy.Requester;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * "Content with ANSI escapes and control characters is displayed inert (check the exact rendering)"
 * (approvals issue): nothing a terminal could act on survives rendering.
 */
class VisibleTextTest {
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
        row("unassigned and private-use", "\u0378\ue000", "\\u0378\ue000"),
        row("a backslash is doubled", "\\x1b is four characters", "\\\\x1b is four characters"),
        row(
            "ordinary text is kept",
            "caf\u00e9 \u2013 \u65e5\u672c \u2713",
            "caf\u00e9 \u2013 \u65e5\u672c \u2713"));
  }

  private static Arguments row(String what, String text, String shown) {
    return Arguments.of(what, text, shown);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("escapes")
  void rendersEveryControlAndFormatCharacterAsAnEscape(String what, String text, String shown) {
    assertThat(VisibleText.render(text)).isEqualTo(shown);
  }

  /**
   * The rule is Unicode's properties, not a hand list: on every code point, {@link
   * VisibleText#isInvisible} is exactly Default_Ignorable_Code_Point, or a control, format, line or
   * paragraph separator, surrogate or unassigned character, or White_Space other than U+0020, as
   * ICU4J (Unicode 16) has them. A code point this JDK does not know yet (Java 17 is Unicode 13) is
   * shown as an escape whatever it is.
   */
  @Test
  void theRuleIsExactlyTheUnicodePropertiesOnEveryCodePoint() {
    List<String> wrong = new ArrayList<>();
    for (int c = 0; c <= Character.MAX_CODE_POINT; c++) {
      boolean expected;
      if (Character.getType(c) == Character.UNASSIGNED) {
        expected = true;
      } else {
        expected = invisibleByUnicode(c);
      }
      if (VisibleText.isInvisible(c) != expected) {
        wrong.add(String.format("U+%04X (%s)", c, UCharacter.getName(c)));
      }
    }
    assertThat(wrong).as("code points the rule gets wrong").isEmpty();
    assertThat(UCharacter.getUnicodeVersion().getMajor()).isGreaterThanOrEqualTo(16);
  }

  private static boolean invisibleByUnicode(int c) {
    switch (UCharacter.getType(c)) {
      case UCharacterCategory.CONTROL:
      case UCharacterCategory.FORMAT:
      case UCharacterCategory.LINE_SEPARATOR:
      case UCharacterCategory.PARAGRAPH_SEPARATOR:
      case UCharacterCategory.SURROGATE:
      case UCharacterCategory.UNASSIGNED:
        return true;
      default:
        return UCharacter.hasBinaryProperty(c, UProperty.DEFAULT_IGNORABLE_CODE_POINT)
            || (UCharacter.hasBinaryProperty(c, UProperty.WHITE_SPACE) && c != ' ');
    }
  }

  @Test
  void aLineFeedIsShownAndStillEndsTheLine() {
    assertThat(VisibleText.render("one\ntwo\n")).isEqualTo("one\\n\ntwo\\n\n");
  }

  @Test
  void theRenderingHoldsNoCharacterATerminalActsOn() {
    StringBuilder every = new StringBuilder();
    for (int c = 0; c < 0x3000; c++) {
      if (!Character.isSurrogate((char) c)) {
        every.appendCodePoint(c);
      }
    }
    String shown = VisibleText.render(every.toString());
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
  void aProposalsContentIsShownBehindAGutterLineByLine() {
    assertThat(ProposalView.content("Meeting\u001b[2J\r\nnotes"))
        .isEqualTo("    | Meeting\\x1b[2J\\r\\n\n    | notes\n");
    assertThat(ProposalView.content("done\n")).isEqualTo("    | done\\n\n");
    assertThat(ProposalView.content("")).isEqualTo("    (empty)\n");
  }

  /**
   * The requester is shown as {@code "name" version "version"}: a quote inside either was shown
   * raw, so the name {@code a" version "b} with version {@code c} looked exactly like the name
   * {@code a} with version {@code b" version "c} (found by VisibleTextFuzzTest). A quote inside the
   * quotes is written {@code \\x22}, one of the documented escapes.
   */
  @Test
  void aRequesterCannotPassForAnotherThroughQuotes() {
    String one = requestedBy(new Requester("a\" version \"b", "c"));
    String other = requestedBy(new Requester("a", "b\" version \"c"));

    assertThat(one).isNotEqualTo(other);
    assertThat(one)
        .isEqualTo(
            "  requested by \"a\\x22 version \\x22b\" version \"c\""
                + " (self-reported by the MCP client, unverified)");
    assertThat(other)
        .isEqualTo(
            "  requested by \"a\" version \"b\\x22 version \\x22c\""
                + " (self-reported by the MCP client, unverified)");
  }

  private static String requestedBy(Requester requester) {
    Proposal proposal =
        new Proposal(
            "0f8b8b4e-55d5-4c1e-9b7e-3c1f7d2a9e10",
            NoteName.configured("draft.txt"),
            "x",
            Instant.parse("2026-01-02T03:04:05Z"),
            requester);
    String block = ProposalView.render(new Recorded.Valid(proposal), Path.of("/w/draft.txt"));
    for (String line : block.split("\n")) {
      if (line.startsWith("  requested by ")) {
        return line;
      }
    }
    throw new AssertionError(block);
  }
}

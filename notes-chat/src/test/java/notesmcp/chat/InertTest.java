package notesmcp.chat;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InertTest {
  @Test
  void anAnswerKeepsItsLinesAndShowsEverythingElseAsEscapes() {
    assertThat(Inert.answer("one\r\ntwo \u001b[2J\\\nthree\u202e"))
        .isEqualTo("one\ntwo \\x1b[2J\\\\\nthree\\u202e");
  }

  @Test
  void aLogLineIsOneLineAndCutWhenLong() {
    assertThat(Inert.line("a\nb\rc")).isEqualTo("a\\nb\\rc");
    assertThat(Inert.line("x".repeat(Inert.LONGEST + 5)))
        .isEqualTo("x".repeat(Inert.LONGEST) + "... (5 more characters)");
  }
}

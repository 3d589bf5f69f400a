package notesmcp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CommandLineTest {

  @Test
  void plainWordsAreSplitOnWhitespace() {
    assertThat(CommandLine.split("node  server.mjs\t--port 1\n"))
        .containsExactly("node", "server.mjs", "--port", "1");
  }

  @Test
  void emptyAndBlankCommandsHaveNoWords() {
    assertThat(CommandLine.split("")).isEmpty();
    assertThat(CommandLine.split(" \t ")).isEmpty();
  }

  @Test
  void singleQuotesKeepEverythingLiterally() {
    assertThat(CommandLine.split("echo 'a  b' '\\n' '\"x\"'"))
        .containsExactly("echo", "a  b", "\\n", "\"x\"");
  }

  @Test
  void doubleQuotesKeepSpacesAndUnescapeOnlyQuoteBackslashDollarAndBacktick() {
    assertThat(CommandLine.split("\"a b\" \"q\\\"q\" \"s\\\\s\" \"d\\$\" \"b\\`\" \"n\\n\""))
        .containsExactly("a b", "q\"q", "s\\s", "d$", "b`", "n\\n");
  }

  @Test
  void backslashOutsideQuotesEscapesTheNextCharacter() {
    assertThat(CommandLine.split("a\\ b c\\'d \\\\")).containsExactly("a b", "c'd", "\\");
  }

  @Test
  void trailingBackslashIsKept() {
    assertThat(CommandLine.split("a\\")).containsExactly("a\\");
  }

  @Test
  void adjacentQuotedPartsFormOneWord() {
    assertThat(CommandLine.split("a'b c'\"d e\"f")).containsExactly("ab cd ef");
  }

  @Test
  void emptyQuotesAreAnEmptyWord() {
    assertThat(CommandLine.split("cmd '' \"\"")).containsExactly("cmd", "", "");
  }

  @Test
  void nothingIsExpanded() {
    assertThat(CommandLine.split("echo $HOME ~ *.txt `id` $(id)"))
        .containsExactly("echo", "$HOME", "~", "*.txt", "`id`", "$(id)");
  }
}

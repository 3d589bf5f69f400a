package notesmcp.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ToolArgumentsTest {
  @Test
  void noArgumentsAtAllAreAnEmptyObject() throws Exception {
    assertThat(ToolArguments.parse(null).text()).isEqualTo("{}");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "  "})
  void anEmptyTextIsNoObjectAndIsRefused(String text) {
    assertThatThrownBy(() -> ToolArguments.parse(text))
        .isInstanceOf(ToolArguments.Invalid.class)
        .hasMessage("its arguments are an empty text, not a JSON object");
  }

  @Test
  void argumentsOverTheServersLimitAreRefusedAndAtTheLimitPass() throws Exception {
    String prefix = "{\"path\":\"";
    String fits = prefix + "x".repeat(ToolArguments.MAX_BYTES - prefix.length() - 2) + "\"}";
    String over = prefix + "x".repeat(ToolArguments.MAX_BYTES - prefix.length() - 1) + "\"}";

    assertThat(ToolArguments.parse(fits).text()).hasSize(ToolArguments.MAX_BYTES);
    assertThatThrownBy(() -> ToolArguments.parse(over))
        .isInstanceOf(ToolArguments.Invalid.class)
        .hasMessage(
            "its arguments are 16385 bytes as JSON, over the 16384 bytes the server takes for one"
                + " call");
  }

  /** The limit is on the bytes the server receives: a non-ASCII character is more than one. */
  @Test
  void theLimitCountsBytesAsSentNotCharacters() {
    String content = "\u00e9".repeat(ToolArguments.MAX_BYTES / 2);
    assertThatThrownBy(() -> ToolArguments.parse("{\"content\":\"" + content + "\"}"))
        .isInstanceOf(ToolArguments.Invalid.class)
        .hasMessageStartingWith("its arguments are 16398 bytes as JSON");
  }

  @Test
  void aTextLongerThanTheHostReadsIsRefusedUnread() {
    String text = "{\"a\":\"" + " ".repeat(ToolArguments.MAX_TEXT_CHARS) + "\"}";
    assertThatThrownBy(() -> ToolArguments.parse(text))
        .isInstanceOf(ToolArguments.Invalid.class)
        .hasMessage(
            "its arguments are "
                + text.length()
                + " characters, more than the 65536 the host reads");
  }

  @Test
  void whatIsSentIsOneCompactObjectReadOnce() throws Exception {
    ToolArguments arguments =
        ToolArguments.parse("{ \"path\" : \"draft.txt\",\n \"content\":\"a\\nb\" }");

    assertThat(arguments.text()).isEqualTo("{\"path\":\"draft.txt\",\"content\":\"a\\nb\"}");
    assertThat(arguments.object().get("content").asString()).isEqualTo("a\nb");
  }

  @Test
  void aDuplicateKeyIsRefusedNotMerged() {
    assertThatThrownBy(() -> ToolArguments.parse("{\"path\":\"notes.txt\",\"path\":\"draft.txt\"}"))
        .isInstanceOf(ToolArguments.Invalid.class)
        .hasMessageStartingWith("its arguments are not valid JSON (Duplicate Object property");
  }

  @ParameterizedTest
  @ValueSource(strings = {"[]", "\"x\"", "3", "null"})
  void anythingButAnObjectIsRefused(String text) {
    assertThatThrownBy(() -> ToolArguments.parse(text))
        .isInstanceOf(ToolArguments.Invalid.class)
        .hasMessage("its arguments are not a JSON object");
  }

  @ParameterizedTest
  @ValueSource(strings = {"{", "{} {}", "{\"a\":1} x"})
  void textThatIsNotOneJsonValueIsRefused(String text) {
    assertThatThrownBy(() -> ToolArguments.parse(text))
        .isInstanceOf(ToolArguments.Invalid.class)
        .hasMessageStartingWith("its arguments are not valid JSON (");
  }
}

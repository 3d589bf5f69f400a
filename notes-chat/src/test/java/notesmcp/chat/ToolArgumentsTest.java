package notesmcp.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class ToolArgumentsTest {
  @ParameterizedTest
  @NullSource
  @ValueSource(strings = {"", "  "})
  void noArgumentsAreAnEmptyObject(String text) throws Exception {
    assertThat(ToolArguments.parse(text).text()).isEqualTo("{}");
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

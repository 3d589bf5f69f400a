package notesmcp.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.core.exc.StreamReadException;

/** A JSON fault in words a person can act on: Jackson's text without the Java names it carries. */
class JsonInputTest {
  private static String describe(String original) {
    return JsonInput.describe(new StreamReadException(null, original));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // Jackson's own texts, as they come.
        "Document nesting depth (65) exceeds the maximum allowed (64, from"
            + " `StreamReadConstraints.getMaxNestingDepth()`)"
            + " | Document nesting depth (65) exceeds the maximum allowed (64)",
        "Non-standard token 'NaN': enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow"
            + " | Non-standard token 'NaN'",
        "Unexpected end-of-input: expected close marker for Object"
            + " | Unexpected end-of-input: expected close marker for Object",
        // Every Java name goes, wherever it stands.
        "a, from `X.y()`, b, from `Z.w()` | a, b",
        ", from `X.y()` at the start | ' at the start'",
        "a, from `unclosed | a",
        "`Feature` first: no place to cut | not valid JSON",
        "cut: here `Feature` | cut",
        "two: cuts: `F` | two: cuts",
        // A cut that would leave nothing leaves the plain words.
        ": `Feature` | not valid JSON",
      })
  void javaNamesAreLeftOut(String original, String described) {
    assertThat(describe(original)).isEqualTo(described);
  }

  @Test
  void aFaultWithoutTextIsInvalidJson() {
    assertThat(describe(null)).isEqualTo("not valid JSON");
  }

  /**
   * UTF-16 and UTF-32 show a zero byte, or the byte-order marks' 0xFE and 0xFF, within the first
   * four bytes; UTF-8 JSON never holds those bytes, and only the first four decide.
   */
  @Test
  void utf16AndUtf32AreToldFromTheFirstFourBytes() {
    assertThat(JsonInput.isNotUtf8(new byte[] {0, '{'})).isTrue();
    assertThat(JsonInput.isNotUtf8(new byte[] {'{', 0})).isTrue();
    assertThat(JsonInput.isNotUtf8(new byte[] {'{', ' ', ' ', 0})).isTrue();
    assertThat(JsonInput.isNotUtf8(new byte[] {(byte) 0xfe, (byte) 0xff, 0, '{'})).isTrue();
    assertThat(JsonInput.isNotUtf8(new byte[] {(byte) 0xff, (byte) 0xfe})).isTrue();
    assertThat(JsonInput.isNotUtf8(new byte[] {'{', ' ', ' ', ' ', 0})).isFalse();
    assertThat(JsonInput.isNotUtf8("\ufeff{}".getBytes(StandardCharsets.UTF_8))).isFalse();
    assertThat(JsonInput.isNotUtf8("{\"a\":\"\u00ff\"}".getBytes(StandardCharsets.UTF_8)))
        .isFalse();
    assertThat(JsonInput.isNotUtf8(new byte[0])).isFalse();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "\"x\" | string",
        "1 | number",
        "1.5 | number",
        "true | boolean",
        "false | boolean",
        "null | null",
        "{} | object",
        "[] | array"
      })
  void aValuesTypeIsNamedFromItsFirstToken(String json, String type) {
    try (tools.jackson.core.JsonParser parser =
        JsonInput.factory(64, true)
            .createParser(tools.jackson.core.ObjectReadContext.empty(), json)) {
      assertThat(JsonInput.typeOf(parser.nextToken())).isEqualTo(type);
    }
  }

  @Test
  void aTokenThatStartsNoValueHasNoType() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> JsonInput.typeOf(tools.jackson.core.JsonToken.END_OBJECT))
        .isInstanceOf(IllegalArgumentException.class);
  }
}

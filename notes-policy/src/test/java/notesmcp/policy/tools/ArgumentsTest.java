package notesmcp.policy.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import notesmcp.policy.rules.Policy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ArgumentsTest {

  @Test
  void omittedArgumentsAreAnEmptyObject() throws Exception {
    Arguments arguments = Arguments.decode(null);

    assertThat(arguments.allowOnly("list_notes", Set.of())).isSameAs(arguments);
    assertThatThrownBy(() -> arguments.string("path"))
        .isInstanceOf(Arguments.Rejected.class)
        .hasMessage("missing required argument \"path\"");
  }

  @Test
  void emptyObjectHasNoMembers() throws Exception {
    Arguments arguments = Arguments.decode(" { } ");

    assertThat(arguments.allowOnly("list_notes", Set.of())).isSameAs(arguments);
  }

  @Test
  void stringMemberIsDecodedWithItsEscapes() throws Exception {
    Arguments arguments = Arguments.decode("{\"path\":\"a\\u00e9\\n\\\"b\"}");

    assertThat(arguments.string("path")).isEqualTo("a\u00e9\n\"b");
  }

  @Test
  void duplicateKeyIsRefusedBeforeDecoding() {
    assertThatThrownBy(() -> Arguments.decode("{\"path\":\"notes.txt\",\"path\":\"draft.txt\"}"))
        .isInstanceOf(Arguments.Rejected.class)
        .hasMessage("duplicate argument \"path\": each key may appear once");
  }

  @Test
  void duplicateKeyIsRefusedEvenWhenBothValuesAreEqual() {
    assertThatThrownBy(() -> Arguments.decode("{\"path\":\"a\",\"path\":\"a\"}"))
        .isInstanceOf(Arguments.Rejected.class)
        .hasMessage("duplicate argument \"path\": each key may appear once");
  }

  @Test
  void duplicateKeysInsideANestedValueDoNotMatterBecauseTheValueIsRefusedByType() throws Exception {
    Arguments arguments = Arguments.decode("{\"path\":{\"x\":1,\"x\":2}}");

    assertThatThrownBy(() -> arguments.string("path"))
        .hasMessage("argument \"path\" must be a string, not object");
  }

  @ParameterizedTest(name = "{0} is a {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"path\":{\"a\":\"notes.txt\"}} | object",
        "{\"path\":[\"notes.txt\"]}       | array",
        "{\"path\":7}                     | number",
        "{\"path\":7.5}                   | number",
        "{\"path\":true}                  | boolean",
        "{\"path\":false}                 | boolean",
        "{\"path\":null}                  | null",
      })
  void nonStringValueIsRefusedByItsType(String raw, String type) throws Exception {
    Arguments arguments = Arguments.decode(raw);

    assertThatThrownBy(() -> arguments.string("path"))
        .isInstanceOf(Arguments.Rejected.class)
        .hasMessage("argument \"path\" must be a string, not " + type);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"[]", "[{\"path\":\"notes.txt\"}]", "\"notes.txt\"", "42", "null", "true"})
  void nonObjectIsRefused(String raw) {
    assertThatThrownBy(() -> Arguments.decode(raw))
        .isInstanceOf(Arguments.Rejected.class)
        .hasMessage("arguments must be a JSON object");
  }

  @Test
  void secondValueAfterTheObjectIsRefused() {
    assertThatThrownBy(() -> Arguments.decode("{\"path\":\"notes.txt\"} {}"))
        .isInstanceOf(Arguments.Rejected.class)
        .hasMessage("arguments must be a single JSON object");
  }

  @ParameterizedTest
  @ValueSource(strings = {"{\"path\":", "{\"path\" \"x\"}", "{path:\"x\"}", "{} x", ""})
  void malformedJsonIsRefused(String raw) {
    assertThatThrownBy(() -> Arguments.decode(raw))
        .isInstanceOf(Arguments.Rejected.class)
        .satisfies(
            e ->
                assertThat(e.getMessage())
                    .satisfiesAnyOf(
                        m -> assertThat(m).startsWith("arguments are not valid JSON: "),
                        m -> assertThat(m).isEqualTo("arguments must be a JSON object")));
  }

  @Test
  void argumentsOfExactlySixteenKibAreAccepted() throws Exception {
    String raw = objectOfUtf8Bytes(Policy.MAX_ARGUMENT_BYTES, "a");

    assertThat(raw.getBytes(StandardCharsets.UTF_8)).hasSize(Policy.MAX_ARGUMENT_BYTES);
    assertThat(Arguments.decode(raw).string("content")).startsWith("aaa");
  }

  @Test
  void argumentsOverSixteenKibAreRefusedCountingUtf8BytesNotCharacters() {
    // 3-byte characters: about 5,500 chars, far under 16,384 chars, but over 16,384 bytes.
    String raw = objectOfUtf8Bytes(Policy.MAX_ARGUMENT_BYTES + 3, "\u20ac");

    assertThat(raw.length()).isLessThan(Policy.MAX_ARGUMENT_BYTES / 2);
    assertThatThrownBy(() -> Arguments.decode(raw))
        .isInstanceOf(Arguments.Rejected.class)
        .hasMessage("arguments are 16387 bytes; the limit is 16384 bytes");
  }

  @Test
  void argumentsOneByteOverTheLimitAreRefused() {
    String raw = objectOfUtf8Bytes(Policy.MAX_ARGUMENT_BYTES + 1, "a");

    assertThatThrownBy(() -> Arguments.decode(raw))
        .hasMessage("arguments are 16385 bytes; the limit is 16384 bytes");
  }

  @Test
  void unknownKeyMessageListsTheAcceptedKeysSorted() throws Exception {
    Arguments arguments =
        Arguments.decode("{\"path\":\"draft.txt\",\"content\":\"x\",\"approved\":true}");

    assertThatThrownBy(() -> arguments.allowOnly("propose_note", Set.of("path", "content")))
        .isInstanceOf(Arguments.Rejected.class)
        .hasMessage(
            "unknown argument \"approved\": propose_note accepts only \"content\", \"path\"");
  }

  @Test
  void unknownKeyOfAToolWithoutArgumentsSaysItTakesNone() throws Exception {
    Arguments arguments = Arguments.decode("{\"path\":\"notes.txt\"}");

    assertThatThrownBy(() -> arguments.allowOnly("list_notes", Set.of()))
        .hasMessage("unknown argument \"path\": list_notes takes no arguments");
  }

  @Test
  void unknownKeyIsQuotedWithLookAlikesEscaped() throws Exception {
    Arguments arguments = Arguments.decode("{\"p\\u0430th\":\"notes.txt\"}");

    assertThatThrownBy(() -> arguments.allowOnly("read_note", Set.of("path")))
        .hasMessage("unknown argument \"p\\u0430th\": read_note accepts only \"path\"");
  }

  /** {"content":"xxx..."} of exactly {@code bytes} bytes of UTF-8, padded with {@code unit}. */
  private static String objectOfUtf8Bytes(int bytes, String unit) {
    String prefix = "{\"content\":\"";
    String suffix = "\"}";
    int room = bytes - prefix.length() - suffix.length();
    int unitBytes = unit.getBytes(StandardCharsets.UTF_8).length;
    StringBuilder body = new StringBuilder();
    body.append(unit.repeat(room / unitBytes));
    body.append("a".repeat(room % unitBytes));
    return prefix + body + suffix;
  }

  @Test
  void anObjectArgumentIsReadOneLevelDownStrictly() throws Exception {
    Arguments arguments =
        Arguments.decode("{\"property\":{\"name\":\"status\",\"equals\":\"open\"},\"on\":true}");
    Arguments property = arguments.optionalObject("property");

    assertThat(property.string("name")).isEqualTo("status");
    assertThat(property.optionalString("equals")).isEqualTo("open");
    assertThat(arguments.optionalBoolean("on")).isTrue();
    assertThatThrownBy(() -> property.allowOnly("find_notes", Set.of("name")))
        .hasMessage("unknown key \"equals\" in argument \"property\": it accepts only \"name\"");
    assertThatThrownBy(() -> property.string("contains"))
        .hasMessage("argument \"property\" is missing its key \"contains\"");
    assertThatThrownBy(() -> arguments.optionalObject("on"))
        .hasMessage("argument \"on\" must be an object, not boolean");
    assertThatThrownBy(() -> arguments.optionalString("property"))
        .hasMessage("argument \"property\" must be a string, not object");
    assertThatThrownBy(
            () -> Arguments.decode("{\"p\":{\"name\":1,\"name\":2}}").optionalObject("p"))
        .hasMessage("duplicate key \"name\" in argument \"p\": each key may appear once");
    assertThatThrownBy(
            () ->
                Arguments.decode("{\"p\":{\"name\":{\"x\":1}}}").optionalObject("p").string("name"))
        .hasMessage("key \"name\" of argument \"p\" must be a string, not object");
    assertThatThrownBy(() -> Arguments.decode("{\"on\":1}").optionalBoolean("on"))
        .hasMessage("argument \"on\" must be true or false, not number");
  }
}

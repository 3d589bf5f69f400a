package notesmcp.policy.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import notesmcp.policy.rules.StrictJson;
import tools.jackson.databind.JsonNode;

/**
 * The strict arguments decoder against a reference reading ({@code docs/behaviour.md}, "Refusals"):
 * for any text, the decoder and the tools accept exactly what the reference accepts (one JSON
 * object, no duplicate key, only the tool's keys, every value a string, never null, every required
 * key, at most 16 KiB of UTF-8 as received) and decode the same values; a refusal is always a
 * value, never an exception.
 */
class ArgumentsFuzzTest {
  /**
   * Each tool's keys, all of them required ({@code docs/behaviour.md}, "Tools"), written out here,
   * not read from code.
   */
  private static final Map<String, List<String>> KEYS =
      Map.of(
          NoteAccess.LIST_NOTES, List.of(),
          NoteAccess.READ_NOTE, List.of("path"),
          NoteAccess.PROPOSE_NOTE, List.of("path", "content"));

  private static final int LIMIT = 16 * 1024;
  private static final Pattern UUID =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  @FuzzTest
  @DictionaryEntries({
    "{",
    "}",
    "\"path\"",
    "\"content\"",
    "\"notes.txt\"",
    "\"draft.txt\"",
    ":",
    ",",
    "null",
    "true",
    "\\u0000",
    "\\ud800",
    "\\u00e9",
    "\\\"",
    "[]",
    "1e9",
    "-0",
    "\"approved\""
  })
  void decoderAcceptsExactlyWhatTheReferenceAccepts(byte[] input) throws Exception {
    String raw = StrictJson.utf8(input);
    boolean accepted = agreeOnEveryTool(raw);
    // The size bound at its edge: leading white space keeps the JSON meaning, so arguments that a
    // tool accepts must still be accepted at exactly 16 KiB, and refused one byte over. (Only for
    // accepted text: padding cannot change a refusal, and 16 KiB per input slows fuzzing down.)
    int bytes = raw.getBytes(StandardCharsets.UTF_8).length;
    if (accepted && bytes < LIMIT) {
      assertThat(agreeOnEveryTool(" ".repeat(LIMIT - bytes) + raw)).isTrue();
      assertThat(agreeOnEveryTool(" ".repeat(LIMIT - bytes + 1) + raw)).isFalse();
    }
  }

  /** Asserts that the decoder and the reference agree for each tool; whether any tool accepts. */
  private static boolean agreeOnEveryTool(String raw) {
    boolean fits = raw.getBytes(StandardCharsets.UTF_8).length <= LIMIT;
    JsonNode reference = fits ? StrictJson.read(raw) : null;
    boolean accepted = false;
    for (Map.Entry<String, List<String>> tool : KEYS.entrySet()) {
      Map<String, String> expected = fits ? reference(reference, tool.getValue()) : null;
      Map<String, String> decoded = decoded(raw, tool.getKey(), tool.getValue());
      assertThat(decoded).as("%s of %s", tool.getKey(), StrictJson.quote(raw)).isEqualTo(expected);
      accepted |= expected != null;
    }
    return accepted;
  }

  /** The decoder's reading, as Notes uses it: the values, or null when it refuses. */
  private static Map<String, String> decoded(String raw, String tool, List<String> keys) {
    try {
      Arguments arguments = Arguments.decode(raw).allowOnly(tool, Set.copyOf(keys));
      Map<String, String> values = new LinkedHashMap<>();
      for (String key : keys) {
        values.put(key, arguments.string(key));
      }
      return values;
    } catch (Arguments.Rejected rejected) {
      assertThat(rejected.getMessage()).isNotBlank();
      return null;
    }
  }

  /**
   * The reference reading of text within the size bound, already parsed into {@code tree}: the
   * values, or null when docs/behaviour.md says refuse.
   */
  private static Map<String, String> reference(JsonNode tree, List<String> keys) {
    if (tree == null || !tree.isObject()) {
      return null;
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> member : tree.properties()) {
      if (!keys.contains(member.getKey()) || !member.getValue().isString()) {
        return null;
      }
      values.put(member.getKey(), member.getValue().stringValue());
    }
    if (!values.keySet().containsAll(keys)) {
      return null;
    }
    Map<String, String> ordered = new LinkedHashMap<>();
    for (String key : keys) {
      ordered.put(key, values.get(key));
    }
    return ordered;
  }

  @FuzzTest
  @DictionaryEntries({
    "{",
    "}",
    "\"path\"",
    "\"content\"",
    "\"notes.txt\"",
    "\"project.txt\"",
    "\"draft.txt\"",
    "\\u0000",
    "\\ud800",
    "\\udc00",
    "\\u00e9",
    "\\\"",
    "\\/",
    "\"approved\"",
    "null"
  })
  void toolCallsAnswerExactlyWhenTheReferenceAccepts(byte[] input) throws Exception {
    String raw = StrictJson.utf8(input);
    JsonNode reference = StrictJson.read(raw);
    for (String tool : KEYS.keySet()) {
      Outcome outcome = SampleWorkspace.notes().execute(tool, raw, () -> false);
      boolean fits = raw.getBytes(StandardCharsets.UTF_8).length <= LIMIT;
      Map<String, String> arguments = fits ? reference(reference, KEYS.get(tool)) : null;
      String expected = arguments == null ? null : expectedAnswer(tool, arguments);
      if (expected == null) {
        assertThat(outcome)
            .as("%s of %s", tool, StrictJson.quote(raw))
            .isInstanceOf(Outcome.Refusal.class);
        assertThat(outcome.text()).isNotBlank();
      } else {
        assertThat(outcome)
            .as("%s of %s", tool, StrictJson.quote(raw))
            .isInstanceOf(Outcome.Answer.class);
        assertThat(answerOf(outcome)).isEqualTo(expected);
      }
    }
  }

  /**
   * The answer docs/behaviour.md gives for valid arguments, in a comparable form, or null for a
   * refusal: the workspace holds notes.txt and project.txt, no draft.txt, and nothing is pending.
   */
  private static String expectedAnswer(String tool, Map<String, String> arguments) {
    switch (tool) {
      case NoteAccess.LIST_NOTES:
        return "{\"notes\":[\"notes.txt\",\"project.txt\"]}";
      case NoteAccess.READ_NOTE:
        String path = arguments.get("path");
        if (path.equals("notes.txt")) {
          return "read notes.txt " + SampleWorkspace.NOTES_TXT;
        }
        return path.equals("project.txt")
            ? "read project.txt " + SampleWorkspace.PROJECT_TXT
            : null;
      case NoteAccess.PROPOSE_NOTE:
        String content = arguments.get("content");
        boolean fits =
            isValidUnicode(content) && content.getBytes(StandardCharsets.UTF_8).length <= 2048;
        return arguments.get("path").equals("draft.txt") && fits ? "pending draft.txt" : null;
      default:
        throw new AssertionError(tool);
    }
  }

  /** The answer's document, read back by the reference, in the form of {@link #expectedAnswer}. */
  private static String answerOf(Outcome outcome) {
    JsonNode answer = StrictJson.read(outcome.text());
    assertThat(answer).as(outcome.text()).isNotNull();
    if (answer.has("notes")) {
      return outcome.text();
    }
    if (answer.has("content")) {
      assertThat(answer.propertyNames()).containsExactly("path", "content");
      return "read " + answer.get("path").stringValue() + " " + answer.get("content").stringValue();
    }
    assertThat(answer.propertyNames()).containsExactly("status", "proposal_id", "path");
    assertThat(answer.get("status").stringValue()).isEqualTo("pending_approval");
    assertThat(UUID.matcher(answer.get("proposal_id").stringValue()).matches()).isTrue();
    return "pending " + answer.get("path").stringValue();
  }

  private static boolean isValidUnicode(String text) {
    return StandardCharsets.UTF_8.newEncoder().canEncode(text);
  }
}

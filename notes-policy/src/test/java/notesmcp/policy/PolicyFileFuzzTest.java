package notesmcp.policy;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Policy files, for any bytes: a policy or a clear {@link PolicyFile.Invalid}, never another
 * exception, and a policy exactly when a reference reading of the documented format accepts the
 * file, with the same lists and numbers. So an accepted policy never widens what a client can
 * reach: every name in it follows the name rule, no list repeats a name, and nothing the file did
 * not say differs from the defaults.
 */
class PolicyFileFuzzTest {
  private static final Path FILE = Path.of("policy.json");

  @FuzzTest
  @DictionaryEntries({
    "\"readable\"",
    "\"proposable\"",
    "\"maxNoteBytes\"",
    "\"maxCalls\"",
    "\"notes.txt\"",
    "[",
    "]",
    "{",
    "}",
    ":",
    ",",
    "2147483647",
    "2147483648",
    "-1",
    "1048576",
    "1048577",
    "\\u0000",
    ".."
  })
  void anyBytesGiveAPolicyOrInvalid(byte[] input) {
    Policy policy;
    try {
      policy = PolicyFile.parse(FILE, input);
    } catch (PolicyFile.Invalid e) {
      assertThat(e.getMessage()).startsWith("policy file policy.json: ");
      policy = null;
    }
    Expected expected = reference(input);
    if (expected == null) {
      assertThat(policy).as("accepted, but the reference refuses").isNull();
      return;
    }
    assertThat(policy).as("refused, but the reference accepts").isNotNull();
    assertThat(values(policy.readable())).isEqualTo(expected.readable);
    assertThat(values(policy.proposable())).isEqualTo(expected.proposable);
    assertThat(policy.maxNoteBytes()).isEqualTo(expected.maxNoteBytes);
    assertThat(policy.maxCalls()).isEqualTo(expected.maxCalls);
    for (NoteName name : policy.readable()) {
      assertThat(NoteNameFuzzTest.NAME_RULE.matcher(name.value()).matches()).isTrue();
    }
    for (NoteName name : policy.proposable()) {
      assertThat(NoteNameFuzzTest.NAME_RULE.matcher(name.value()).matches()).isTrue();
    }
  }

  /** What a policy file says, after the reference reading. */
  private static final class Expected {
    List<String> readable = List.of("notes.txt", "project.txt", "draft.txt");
    List<String> proposable = List.of("draft.txt");
    int maxNoteBytes = 2048;
    int maxCalls = 16;
  }

  /**
   * The documented format (README "A policy file"), read independently: one JSON object, no
   * duplicate key, only the four keys, names as arrays of distinct strings that follow the name
   * rule, numbers as JSON integers that fit in an int, at least one readable note, 1..1048576 bytes
   * a note, a budget of 0 or more. Null when the file must be refused.
   */
  private static Expected reference(byte[] input) {
    JsonNode tree = StrictJson.read(input);
    if (tree == null || !tree.isObject()) {
      return null;
    }
    Expected expected = new Expected();
    for (Map.Entry<String, JsonNode> member : tree.properties()) {
      JsonNode value = member.getValue();
      switch (member.getKey()) {
        case "readable":
          expected.readable = names(value);
          break;
        case "proposable":
          expected.proposable = names(value);
          break;
        case "maxNoteBytes":
          expected.maxNoteBytes = value.isInt() ? value.intValue() : 0;
          break;
        case "maxCalls":
          expected.maxCalls = value.isInt() ? value.intValue() : -1;
          break;
        default:
          return null;
      }
      if (expected.readable == null || expected.proposable == null) {
        return null;
      }
    }
    boolean fits =
        !expected.readable.isEmpty()
            && expected.maxNoteBytes >= 1
            && expected.maxNoteBytes <= 1024 * 1024
            && expected.maxCalls >= 0;
    return fits ? expected : null;
  }

  private static List<String> names(JsonNode array) {
    if (!array.isArray()) {
      return null;
    }
    List<String> names = new ArrayList<>();
    for (JsonNode element : array) {
      if (!element.isString()
          || !NoteNameFuzzTest.NAME_RULE.matcher(element.stringValue()).matches()
          || names.contains(element.stringValue())) {
        return null;
      }
      names.add(element.stringValue());
    }
    return names;
  }

  private static List<String> values(List<NoteName> names) {
    List<String> values = new ArrayList<>();
    for (NoteName name : names) {
      values.add(name.value());
    }
    assertThat(new HashSet<>(values)).hasSameSizeAs(values);
    return values;
  }
}

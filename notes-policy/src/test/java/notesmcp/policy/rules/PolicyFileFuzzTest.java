package notesmcp.policy.rules;

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
 * exception, and a policy exactly when a reference reading of the documented format
 * (docs/behaviour.md, "Policy files") accepts the file, with the same lists and numbers. So an
 * accepted policy never widens what a client can reach: every exact name in it follows the name
 * rules, every pattern is well formed, no list repeats an entry, and nothing the file did not say
 * differs from the defaults.
 */
class PolicyFileFuzzTest {
  private static final Path FILE = Path.of("policy.json");

  @FuzzTest
  @DictionaryEntries({
    "\"readable\"",
    "\"proposable\"",
    "\"exclude\"",
    "\"**/*.md\"",
    "*",
    "?",
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
    assertThat(distinct(policy.readable())).isEqualTo(expected.readable);
    assertThat(distinct(policy.exclude())).isEqualTo(expected.exclude);
    assertThat(distinct(policy.proposable())).isEqualTo(expected.proposable);
    assertThat(policy.maxNoteBytes()).isEqualTo(expected.maxNoteBytes);
    assertThat(policy.maxCalls()).isEqualTo(expected.maxCalls);
  }

  /** What a policy file says, after the reference reading. */
  private static final class Expected {
    List<String> readable = List.of("notes.txt", "project.txt", "draft.txt");
    List<String> exclude = List.of();
    List<String> proposable = List.of("draft.txt");
    int maxNoteBytes = 2048;
    int maxCalls = 16;
  }

  /**
   * The documented format, read independently: one JSON object, no duplicate key, only the five
   * keys, lists as arrays of distinct strings that are exact names following the name rules or
   * well-formed patterns, numbers as JSON integers that fit in an int, at least one readable entry
   * (and, when all are exact names, one that is not excluded), 1..1048576 bytes a note, a budget of
   * 0 or more. Null when the file must be refused.
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
        case "exclude":
          expected.exclude = names(value);
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
      if (expected.readable == null || expected.exclude == null || expected.proposable == null) {
        return null;
      }
    }
    boolean fits =
        !expected.readable.isEmpty()
            && !allExcluded(expected)
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
          || !wellFormed(element.stringValue())
          || names.contains(element.stringValue())) {
        return null;
      }
      names.add(element.stringValue());
    }
    return names;
  }

  /**
   * An exact name that follows the rules, or a pattern: components not empty, {@code **} only as a
   * whole component, at most 40 components and 17 that are not {@code **}, and what is left with
   * each * and ? as one letter (the {@code **} components dropped) following the rules too.
   */
  static boolean wellFormed(String entry) {
    if (entry.indexOf('*') < 0 && entry.indexOf('?') < 0) {
      return NoteNameFuzzTest.followsRules(entry);
    }
    String[] parts = entry.split("/", -1);
    if (parts.length > 40) {
      return false;
    }
    List<String> fixed = new ArrayList<>();
    for (String part : parts) {
      if (part.isEmpty() || (part.contains("**") && !part.equals("**"))) {
        return false;
      }
      if (!part.equals("**")) {
        fixed.add(part.replace('*', 'x').replace('?', 'x'));
      }
    }
    return fixed.isEmpty() || NoteNameFuzzTest.followsRules(String.join("/", fixed));
  }

  /** Whether every readable entry is an exact name that an exclude entry matches. */
  private static boolean allExcluded(Expected expected) {
    for (String entry : expected.readable) {
      if (entry.indexOf('*') >= 0 || entry.indexOf('?') >= 0) {
        return false;
      }
    }
    for (String entry : expected.readable) {
      boolean excluded = false;
      for (String exclude : expected.exclude) {
        excluded |= NotePatternTest.matchesOrContains(exclude, entry);
      }
      if (!excluded) {
        return false;
      }
    }
    return true;
  }

  private static List<String> distinct(List<String> values) {
    assertThat(new HashSet<>(values)).hasSameSizeAs(values);
    return values;
  }
}

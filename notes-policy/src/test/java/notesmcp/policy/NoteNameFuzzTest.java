package notesmcp.policy;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Note names, for any string: a configured name is accepted exactly when it follows the documented
 * rule (README "A policy file": one plain file name, ASCII letters, digits, '.', '-' and '_', not
 * starting with '.', at most 255 characters), and a client's path names a note exactly when it is
 * one allowed name, character for character (CONTRACT §3: "any path that is not exactly one allowed
 * name" is refused), through the allow-lists and through a real tool call.
 */
class NoteNameFuzzTest {
  /** The rule, written out again from the documentation. */
  static final Pattern NAME_RULE = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,254}");

  private static final List<String> READABLE = List.of("notes.txt", "project.txt", "draft.txt");
  private static final List<String> PROPOSABLE = List.of("draft.txt");
  private static final List<String> PRESENT = List.of("notes.txt", "project.txt");

  @FuzzTest
  @DictionaryEntries({"notes.txt", "draft.txt", "project.txt", "..", "./", "/", "\\", "\u0000"})
  void nameIsAllowedExactlyWhenItIsOneAllowedName(byte[] input) {
    String candidate = StrictJson.utf8(input);
    boolean followsRule = NAME_RULE.matcher(candidate).matches();

    assertThat(configured(candidate)).as(StrictJson.quote(candidate)).isEqualTo(followsRule);
    assertThat(asOnlyReadable(candidate)).isEqualTo(followsRule);

    Policy policy = Policy.defaults();
    assertThat(policy.readableNamed(candidate).map(NoteName::value))
        .isEqualTo(READABLE.contains(candidate) ? Optional.of(candidate) : Optional.empty());
    assertThat(policy.proposableNamed(candidate).map(NoteName::value))
        .isEqualTo(PROPOSABLE.contains(candidate) ? Optional.of(candidate) : Optional.empty());

    String path = StrictJson.quote(candidate);
    Outcome read =
        SampleWorkspace.notes().execute(Notes.READ_NOTE, "{\"path\":" + path + "}", () -> false);
    assertThat(read)
        .as(read.text())
        .isInstanceOf(PRESENT.contains(candidate) ? Outcome.Answer.class : Outcome.Refusal.class);
    Outcome proposed =
        SampleWorkspace.notes()
            .execute(Notes.PROPOSE_NOTE, "{\"path\":" + path + ",\"content\":\"x\"}", () -> false);
    assertThat(proposed)
        .as(proposed.text())
        .isInstanceOf(
            PROPOSABLE.contains(candidate) ? Outcome.Answer.class : Outcome.Refusal.class);
  }

  /** Whether {@code value} is accepted as a configured name; a refusal says which name and why. */
  private static boolean configured(String value) {
    try {
      assertThat(NoteName.configured(value).value()).isEqualTo(value);
      return true;
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).startsWith("note name ");
      return false;
    }
  }

  /** Whether a policy that reads only {@code value} can be built, and then matches it alone. */
  private static boolean asOnlyReadable(String value) {
    Policy policy;
    try {
      policy = Policy.of(List.of(value), List.of(), 1, 0);
    } catch (IllegalArgumentException e) {
      return false;
    }
    assertThat(policy.readableNamed(value).map(NoteName::value)).contains(value);
    assertThat(policy.readableNamed(value + " ")).isEmpty();
    assertThat(policy.readableNamed("./" + value)).isEmpty();
    return true;
  }
}

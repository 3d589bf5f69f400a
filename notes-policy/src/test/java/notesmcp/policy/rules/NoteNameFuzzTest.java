package notesmcp.policy.rules;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.List;
import notesmcp.policy.tools.NoteAccess;
import notesmcp.policy.tools.Outcome;
import notesmcp.policy.tools.SampleWorkspace;

/**
 * Note names, for any string: a configured name is accepted exactly when it follows the documented
 * rules (docs/behaviour.md, "Note names", written out again below), and a client's path names a
 * note of the default policy exactly when it is one allowed name, character for character
 * (docs/behaviour.md, "Refusals": any path that is not exactly one allowed name is refused),
 * through the allow-lists and through a real tool call.
 */
public class NoteNameFuzzTest {
  private static final List<String> READABLE = List.of("notes.txt", "project.txt", "draft.txt");
  private static final List<String> PROPOSABLE = List.of("draft.txt");
  private static final List<String> PRESENT = List.of("notes.txt", "project.txt");

  /** Other_Default_Ignorable_Code_Point and Variation_Selector (PropList.txt), inclusive. */
  private static final int[][] IGNORABLE = {
    {0x034f, 0x034f}, {0x115f, 0x1160}, {0x17b4, 0x17b5}, {0x180b, 0x180d}, {0x180f, 0x180f},
    {0x2065, 0x2065}, {0x3164, 0x3164}, {0xfe00, 0xfe0f}, {0xffa0, 0xffa0}, {0xfff0, 0xfff8},
    {0xe0000, 0xe0fff}
  };

  /**
   * The rules, written out again from the documentation: components split on '/', none empty or
   * starting with '.', each at most 255 bytes, the whole at most 1,024 bytes and 16 folders, NFC,
   * no control, format, separator, unassigned, surrogate, private-use, non-ASCII space or
   * default-ignorable character.
   */
  public static boolean followsRules(String path) {
    if (path.getBytes(StandardCharsets.UTF_8).length > 1024 || path.isEmpty()) {
      return false;
    }
    String[] components = path.split("/", -1);
    if (components.length > 17) {
      return false;
    }
    for (String component : components) {
      if (component.isEmpty()
          || component.startsWith(".")
          || component.getBytes(StandardCharsets.UTF_8).length > 255) {
        return false;
      }
    }
    if (!Normalizer.normalize(path, Normalizer.Form.NFC).equals(path)) {
      return false;
    }
    return path.codePoints().noneMatch(NoteNameFuzzTest::hidden);
  }

  private static boolean hidden(int c) {
    int type = Character.getType(c);
    if (type == Character.CONTROL
        || type == Character.FORMAT
        || type == Character.LINE_SEPARATOR
        || type == Character.PARAGRAPH_SEPARATOR
        || type == Character.SURROGATE
        || type == Character.UNASSIGNED
        || type == Character.PRIVATE_USE
        || (type == Character.SPACE_SEPARATOR && c != ' ')) {
      return true;
    }
    for (int[] range : IGNORABLE) {
      if (c >= range[0] && c <= range[1]) {
        return true;
      }
    }
    return false;
  }

  @FuzzTest
  @DictionaryEntries({
    "notes.txt",
    "draft.txt",
    "project.txt",
    "..",
    "./",
    "/",
    "\\",
    "\u0000",
    "\u0301",
    "\u202e"
  })
  void nameIsAllowedExactlyWhenItIsOneAllowedName(byte[] input) {
    String candidate = StrictJson.utf8(input);
    boolean followsRules = followsRules(candidate);

    assertThat(configured(candidate)).as(StrictJson.quote(candidate)).isEqualTo(followsRules);
    assertThat(NoteName.problemWith(candidate) == null).isEqualTo(followsRules);
    assertThat(asOnlyReadable(candidate)).isEqualTo(followsRules);

    Policy policy = Policy.defaults();
    assertThat(name(policy.readableNamed(candidate)))
        .isEqualTo(READABLE.contains(candidate) ? candidate : null);
    assertThat(name(policy.proposableNamed(candidate)))
        .isEqualTo(PROPOSABLE.contains(candidate) ? candidate : null);

    String path = StrictJson.quote(candidate);
    Outcome read =
        SampleWorkspace.notes()
            .execute(NoteAccess.READ_NOTE, "{\"path\":" + path + "}", () -> false);
    assertThat(read)
        .as(read.text())
        .isInstanceOf(PRESENT.contains(candidate) ? Outcome.Answer.class : Outcome.Refusal.class);
    Outcome proposed =
        SampleWorkspace.notes()
            .execute(
                NoteAccess.PROPOSE_NOTE, "{\"path\":" + path + ",\"content\":\"x\"}", () -> false);
    assertThat(proposed)
        .as(proposed.text())
        .isInstanceOf(
            PROPOSABLE.contains(candidate) ? Outcome.Answer.class : Outcome.Refusal.class);
  }

  private static String name(NoteName name) {
    return name == null ? null : name.value();
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

  /**
   * Whether a policy that reads only {@code value} can be built, and then matches it alone. A value
   * with '*' or '?' is a pattern, not a name: it is left out here.
   */
  private static boolean asOnlyReadable(String value) {
    if (value.indexOf('*') >= 0 || value.indexOf('?') >= 0) {
      return followsRules(value);
    }
    Policy policy;
    try {
      policy = Policy.of(List.of(value), List.of(), 1, 0);
    } catch (IllegalArgumentException e) {
      return false;
    }
    assertThat(name(policy.readableNamed(value))).isEqualTo(value);
    assertThat(policy.readableNamed(value + " ")).isNull();
    assertThat(policy.readableNamed("./" + value)).isNull();
    return true;
  }
}

package notesmcp.policy.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import notesmcp.text.Quote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The name rules of docs/behaviour.md, "Note names", each with its refusal. */
class NoteNameTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "notes.txt",
        "a",
        "A-b_c.9",
        "draft.",
        "Projects/Paper Kite.md",
        "Caf\u00e9 ideas.md",
        "Journal/2026/12/01.md",
        "a b/c d",
        "\u65e5\u8a18/\u4eca\u65e5.md",
        "\ud83d\ude00.md",
        "back\\slash.md",
        "trailing space .md",
        "Paper Kite.md "
      })
  void pathsThatFollowEveryRuleAreNames(String value) {
    NoteName name = NoteName.configured(value);

    assertThat(name.value()).isEqualTo(value);
    assertThat(name).hasToString(value).isEqualTo(NoteName.configured(value));
    assertThat(NoteName.problemWith(value)).isNull();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "''                 | is empty",
        ".                  | has the component \".\" (a component starting with '.' is never a"
            + " note)",
        "..                 | has the component \"..\" (a component starting with '.' is never a"
            + " note)",
        "../x               | has the component \"..\" (a component starting with '.' is never a"
            + " note)",
        "a/./b              | has the component \".\" (a component starting with '.' is never a"
            + " note)",
        ".obsidian/app.md   | has the component \".obsidian\" (a component starting with '.' is"
            + " never a note)",
        "a/.trash/b.md      | has the component \".trash\" (a component starting with '.' is never"
            + " a note)",
        "/abs.md            | starts with '/': a note's path is relative to the workspace",
        "a/                 | ends with '/'",
        "a//b               | has an empty component ('//')",
        "a\u0000b           | holds U+0000, a control, format, invisible or private-use character (never part of"
            + " a note's name)",
        "a\u007fb           | holds U+007F, a control, format, invisible or private-use character (never part of"
            + " a note's name)",
        "a\u202eb.md        | holds U+202E, a control, format, invisible or private-use character (never part of"
            + " a note's name)",
        "a\u200bb.md        | holds U+200B, a control, format, invisible or private-use character (never part of"
            + " a note's name)",
        "a\u00a0b.md        | holds U+00A0, a control, format, invisible or private-use character (never part of"
            + " a note's name)",
        "a\ufe0fb.md        | holds U+FE0F, a control, format, invisible or private-use character (never part of"
            + " a note's name)",
        "a\u3164b.md        | holds U+3164, a control, format, invisible or private-use character (never part of"
            + " a note's name)",
        "Cafe\u0301.md      | is not in Unicode normalization form C (NFC)",
        "\u212b.md          | is not in Unicode normalization form C (NFC)",
      })
  void pathsThatBreakARuleAreNeverNames(String value, String problem) {
    assertThat(NoteName.problemWith(value)).isEqualTo(problem);
    assertThatThrownBy(() -> NoteName.configured(value))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("note name " + Quote.of(value) + " " + problem);
  }

  @Test
  void aLineBreakIsNeverPartOfAName() {
    assertThat(NoteName.problemWith("a\nb.md"))
        .isEqualTo(
            "holds U+000A, a control, format, invisible or private-use character (never part of a note's"
                + " name)");
  }

  @Test
  void anUnpairedSurrogateIsNeverAName() {
    assertThat(NoteName.problemWith("a\ud800.md"))
        .isEqualTo(
            "holds U+D800, a control, format, invisible or private-use character (never part of a note's"
                + " name)");
  }

  @Test
  void aComponentMayBe255BytesOfUtf8AndNoMore() {
    assertThat(NoteName.problemWith("x".repeat(255))).isNull();
    assertThat(NoteName.problemWith("a/" + "\u00e9".repeat(127) + "x")).isNull();
    assertThat(NoteName.problemWith("x".repeat(256)))
        .isEqualTo("has a component of 256 bytes; the limit is 255");
    assertThat(NoteName.problemWith("a/" + "\u00e9".repeat(128)))
        .isEqualTo("has a component of 256 bytes; the limit is 255");
  }

  @Test
  void aPathMayBe1024BytesOfUtf8AndNoMore() {
    String folders = ("x".repeat(200) + "/").repeat(4); // 804 bytes
    assertThat(NoteName.problemWith(folders + "y".repeat(220))).isNull();
    assertThat(NoteName.problemWith(folders + "y".repeat(221)))
        .isEqualTo("is 1025 bytes of UTF-8; the limit is 1024");
  }

  @Test
  void aNoteMayLieSixteenFoldersDeepAndNoDeeper() {
    assertThat(NoteName.problemWith("d/".repeat(16) + "n.md")).isNull();
    assertThat(NoteName.problemWith("d/".repeat(17) + "n.md"))
        .isEqualTo("is 17 folders deep; the limit is 16");
  }

  @Test
  void aComponentReadFromAFolderFollowsTheSameRules() {
    assertThat(NoteName.componentProblem("Paper Kite.md")).isNull();
    assertThat(NoteName.componentProblem(".obsidian"))
        .isEqualTo(
            "has the component \".obsidian\" (a component starting with '.' is never a note)");
    assertThat(NoteName.componentProblem("Cafe\u0301"))
        .isEqualTo("is not in Unicode normalization form C (NFC)");
    assertThat(NoteName.componentProblem("a\u202e"))
        .startsWith("holds U+202E, a control, format, invisible or private-use character");
    assertThat(NoteName.componentProblem("x".repeat(256)))
        .isEqualTo("has a component of 256 bytes; the limit is 255");
  }

  @Test
  void aNameKnowsItsFolderAndItsFileName() {
    NoteName deep = NoteName.configured("Projects/2026/Paper Kite.md");
    NoteName flat = NoteName.configured("notes.txt");

    assertThat(deep.folder()).isEqualTo("Projects/2026");
    assertThat(deep.fileName()).isEqualTo("Paper Kite.md");
    assertThat(flat.folder()).isEmpty();
    assertThat(flat.fileName()).isEqualTo("notes.txt");
  }

  @Test
  void onlyThePlainSpaceOfAllSpacesAndNoPrivateUseCharacterIsPartOfAName() {
    assertThat(NoteName.problemWith("a b.md")).isNull();
    for (int c : new int[] {0x2003, 0x2028, 0x3000, 0xe000, 0xf8ff, 0xe0041, 0xf0000}) {
      assertThat(NoteName.problemWith("a" + new String(Character.toChars(c)) + "b.md"))
          .as("U+%04X", c)
          .startsWith("holds U+");
    }
  }
}

package notesmcp.markdown;

import static notesmcp.markdown.FrontmatterTest.unescape;
import static notesmcp.markdown.Notes.parse;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Inline tags, as Obsidian reads them (docs/knowledge.md, "Tags"). */
class TagsTest {
  private static List<String> tags(String note) {
    return parse(unescape(note)).tags().stream().map(Tag::name).toList();
  }

  @ParameterizedTest(name = "{0} -> [{1}]")
  @CsvSource(
      delimiter = '|',
      value = {
        // What a tag is made of.
        "#project | project",
        "#a/b/c | a/b/c",
        "#x_y-z | x_y-z",
        "#y1984 | y1984",
        "#1984 | ''",
        "#1984/x | 1984/x",
        "#12-34 | 12-34",
        "#١٩٨٤ | ١٩٨٤",
        "#Café | Café",
        "#日本語 | 日本語",
        "#Москва | Москва",
        "#עברית | עברית",
        "#مشروع | مشروع",
        "#🙂 | 🙂",
        "#❤️ok | ❤️ok",
        "#a€b | a€b",
        // What ends one.
        "#tag. | tag",
        "#tag, | tag",
        "#tag's | tag",
        "#tag) | tag",
        "#tag] | tag",
        "#tag! | tag",
        "#tag? | tag",
        "#tag:x | tag",
        "#tag#other | tag",
        "#a\u00a0b | a",
        "#a\u2014b | a",
        "#a\u200bb | a",
        "#a\u3000b | a",
        "#a\u00adb | a",
        "#a\u0007b | a",
        "#a\ue000b | a",
        "#a+b | a",
        "#a\\\\b | a",
        // What may stand before one.
        "text #tag | tag",
        "\\t#tag | tag",
        "- #tag | tag",
        "> #tag | tag",
        ">#tag | tag",
        "> > #tag | tag",
        "**#tag** | tag",
        "_#tag_ | tag",
        "~~#tag~~ | tag",
        "==#tag== | tag",
        "x\u3000#tag | tag",
        "x\u00a0#tag | tag",
        "a_#tag | ''",
        "a#tag | ''",
        "(#tag) | ''",
        "[#tag] | ''",
        "'\"#tag\"' | ''",
        "##tag | ''",
        "#\\\\#tag | ''",
        "\\\\#tag | ''",
        "\\#tag | ''",
        "http://x.org/#frag | ''",
        "see x.org/page#frag | ''",
        "# | ''",
        "#  | ''",
        // Headings are not tags; tags in headings are.
        "# Heading | ''",
        "## Heading #in-heading | in-heading",
        "# Heading ## | ''",
        "#tag at the start | tag",
      })
  void obsidiansRule(String line, String expected) {
    List<String> wanted = expected.isEmpty() ? List.of() : List.of(expected);
    assertThat(tags(line)).containsExactlyElementsOf(wanted);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "a fenced code block | ```\\n#no\\n```\\n#yes",
        "a fence with an info string | ```js title=x\\n#no\\n```\\n#yes",
        "a tilde fence | ~~~\\n#no\\n~~~\\n#yes",
        "a longer closing fence | ````\\n#no\\n```\\n#no\\n`````\\n#yes",
        "a fence closed only by its own character | ```\\n#no\\n~~~\\n#no\\n```\\n#yes",
        "an indented fence in a list | - item\\n    ```\\n    #no\\n    ```\\n#yes",
        "a fence in a quote | > ```\\n> #no\\n> ```\\n#yes",
        "an inline code span | `#no` #yes",
        "a code span of two backticks | ``a ` #no`` #yes",
        "an unclosed code span is text | ` #yes",
        "an HTML comment | <!-- #no --> #yes",
        "an HTML comment over lines | <!--\\n#no\\n-->#no2 #yes",
        "a percent comment | %% #no %% #yes",
        "a percent comment over lines | %%\\n#no\\n%% #yes",
        "a comment inside a code span | `%%` #yes",
      })
  void notInCodeOrComments(String name, String note) {
    assertThat(tags(note)).containsExactly("yes");
  }

  @Test
  void anUnclosedFenceOrCommentRunsToTheEnd() {
    assertThat(tags("#yes\n```\n#no\n#no2")).containsExactly("yes");
    assertThat(tags("#yes\n%%\n#no")).containsExactly("yes");
    assertThat(tags("#yes <!-- \n#no")).containsExactly("yes");
  }

  @Test
  void aBacktickFenceWithABacktickInItsInfoIsNoFence() {
    assertThat(tags("``` a`b\n#yes")).containsExactly("yes");
  }

  @Test
  void tagsAreOneEachTheFirstSpellingKept() {
    Structure structure = parse("---\ntags: [Project]\n---\n#project #PROJECT #other\n#Other\n");
    assertThat(structure.tags())
        .containsExactly(new Tag("Project", 4, true, true), new Tag("other", 4, true, false));
  }

  @Test
  void theFoldIsUnicodesLowerCaseAfterNfc() {
    assertThat(Tag.fold("ProJect")).isEqualTo("project");
    assertThat(Tag.fold("Cafe\u0301")).isEqualTo("café");
    assertThat(Tag.fold("STRASSE")).isNotEqualTo(Tag.fold("Straße"));
    assertThat(Tag.fold("ΟΔΟΣ")).isEqualTo("οδος");
    assertThat(Tag.fold("İ")).isEqualTo("i\u0307");
    assertThat(tags("#Cafe\u0301 #café")).containsExactly("Cafe\u0301");
  }

  @Test
  void aTagLongerThanTheBoundIsNoTag() {
    String longest = "é".repeat(Tag.MAX_CODE_POINTS);
    assertThat(tags("#" + longest + " #ok")).containsExactly(longest, "ok");
    assertThat(tags("#" + longest + "é #ok")).containsExactly("ok");
    assertThat(tags("#" + "a".repeat(10_000) + " #ok")).containsExactly("ok");
  }

  @Test
  void theFirstInlineLineIsKept() {
    assertThat(parse("a\n\nb #x\n#x").tags()).containsExactly(new Tag("x", 3, true, false));
  }
}

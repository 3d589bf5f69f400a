package notesmcp.markdown;

import static notesmcp.markdown.FrontmatterTest.unescape;
import static notesmcp.markdown.Notes.parse;
import static notesmcp.markdown.Notes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Headings, sections and block ids (docs/knowledge.md, "Headings and sections"). */
class HeadingsTest {
  private static List<String> headings(String note) {
    return parse(unescape(note)).headings().stream().map(h -> h.level() + ":" + h.text()).toList();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "# One | 1:One",
        "###### Six | 6:Six",
        "####### Seven | ''",
        "#NoSpace | ''",
        "#\\tTab | 1:Tab",
        "# | 1:",
        "#   Spaced   | 1:Spaced",
        "# Closed ## | 1:Closed",
        "# Closed#not | 1:Closed#not",
        "# ### | 1:",
        "# C# notes | 1:C# notes",
        "'   # Three spaces' | 1:Three spaces",
        "'    # Four spaces' | ''",
        "> # Quoted | ''",
        "- # In a list | ''",
        "# See [[Other]] #tag | 1:See [[Other]] #tag",
        "```\\n# Code\\n``` | ''",
        "%%\\n# Comment\\n%% | ''",
        // Setext, as Obsidian shows them: a one-line paragraph over === or ---.
        "Title\\n=== | 1:Title",
        "Title\\n--- | 2:Title",
        "Title\\n- | 2:Title",
        "'  Title  \\n   ==   ' | 1:Title",
        "\\nTitle\\n=== | 1:Title",
        "# H\\nTitle\\n=== | 1:H,1:Title",
        "***\\nTitle\\n--- | 2:Title",
        "Two\\nlines\\n=== | ''",
        "---\\n\\n--- | ''",
        "- item\\n--- | ''",
        "> quote\\n--- | ''",
        "Title\\n= = | ''",
        "Title\\n---x | ''",
        "'    code\\n---' | ''",
      })
  void atxAndSetextHeadings(String note, String expected) {
    List<String> wanted = expected.isEmpty() ? List.of() : List.of(expected.split(","));
    assertThat(headings(note)).containsExactlyElementsOf(wanted);
  }

  @Test
  void aSectionRunsToTheNextHeadingOfTheSameOrAHigherLevel() {
    String note = "intro\n# A\na\n## A1\nx\n### A1a\ny\n## A2\nz\n# B\nb\n";
    List<Heading> headings = parse(note).headings();
    assertThat(headings).extracting(Heading::text).containsExactly("A", "A1", "A1a", "A2", "B");
    assertThat(section(note, headings.get(0)))
        .isEqualTo("# A\na\n## A1\nx\n### A1a\ny\n## A2\nz\n");
    assertThat(section(note, headings.get(1))).isEqualTo("## A1\nx\n### A1a\ny\n");
    assertThat(section(note, headings.get(2))).isEqualTo("### A1a\ny\n");
    assertThat(section(note, headings.get(3))).isEqualTo("## A2\nz\n");
    assertThat(section(note, headings.get(4))).isEqualTo("# B\nb\n");
    assertThat(headings).extracting(Heading::line).containsExactly(2, 4, 6, 8, 10);
  }

  @Test
  void aSetextSectionStartsAtItsTextLine() {
    String note = "---\nk: v\n---\nTitle\n=====\nbody\n## Sub\nmore";
    List<Heading> headings = parse(note).headings();
    assertThat(section(note, headings.get(0))).isEqualTo("Title\n=====\nbody\n## Sub\nmore");
    assertThat(headings.get(0).line()).isEqualTo(4);
    assertThat(section(note, headings.get(1))).isEqualTo("## Sub\nmore");
  }

  @Test
  void aDeeperHeadingFirstEndsAtTheNextHigherOne() {
    String note = "### Deep\nx\n# Top\ny";
    assertThat(parse(note).headings())
        .extracting(h -> section(note, h))
        .containsExactly("### Deep\nx\n", "# Top\ny");
  }

  private static String section(String note, Heading heading) {
    return Notes.at(note, heading.offset(), heading.bytes());
  }

  @Test
  void aSectionIsFoundByItsTextThenByAPath() {
    String note =
        "# Plan\n## Risks\nplan risks\n# Review\n## Risks\nreview risks\n# C# notes\n## A#B\n";
    Structure structure = parse(note);
    assertThat(structure.section("Risks").line()).isEqualTo(2);
    assertThat(structure.section(" Risks ").line()).isEqualTo(2);
    assertThat(structure.section("Review#Risks").line()).isEqualTo(5);
    assertThat(structure.section("Review # Risks").line()).isEqualTo(5);
    assertThat(structure.section("Plan#Risks").line()).isEqualTo(2);
    assertThat(structure.section("C# notes").line()).isEqualTo(7);
    assertThat(structure.section("C# notes#A#B").line()).isEqualTo(8);
    assertThat(structure.section("A#B").line()).isEqualTo(8);
    assertThat(structure.section("risks")).isNull();
    assertThat(structure.section("Review#Plan")).isNull();
    assertThat(structure.section("Nothing")).isNull();
    assertThat(structure.section("Plan#Nothing")).isNull();
  }

  @Test
  void aSectionsBytesComeFromTheNoteParsed() {
    String note = "# Plan\nx\n## Risks\nThe line may snap.\n# Log\n";
    Structure structure = parse(note);
    assertThat(new String(structure.section(utf8(note), "Plan#Risks"), StandardCharsets.UTF_8))
        .isEqualTo("## Risks\nThe line may snap.\n");
    assertThat(structure.section(utf8(note), "Nothing")).isNull();
    assertThatThrownBy(() -> structure.section(utf8(note + "more"), "Plan"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void blockIdsEndALine() {
    String note =
        "A paragraph ^p1\n- item ^item-2\n^alone\nnot^block\n^bad_id\n`code ^no`\nx ^p1\n^tail  ";
    Structure structure = parse(note);
    assertThat(structure.blocks())
        .extracting(Structure.Block::id)
        .containsExactly("p1", "item-2", "alone", "tail");
    Structure.Block first = structure.blocks().get(0);
    assertThat(first.line()).isEqualTo(1);
    assertThat(Notes.at(note, first.offset(), 3)).isEqualTo("^p1");
    assertThat(parse("x ^a b").blocks()).isEmpty();
    assertThat(parse("```\n^no\n```").blocks()).isEmpty();
  }

  @Test
  void headingsBeyondTheBoundAreDroppedButSectionsStayTrue() {
    StringBuilder note = new StringBuilder("# Top\n");
    for (int i = 0; i < Structure.MAX_HEADINGS + 10; i++) {
      note.append("## H").append(i).append('\n');
    }
    note.append("# Last\n");
    Structure structure = parse(note.toString());
    assertThat(structure.headings()).hasSize(Structure.MAX_HEADINGS);
    assertThat(structure.truncated(Structure.HEADINGS)).isTrue();
    Heading top = structure.headings().get(0);
    assertThat(top.offset() + top.bytes()).isEqualTo(note.indexOf("# Last"));
    assertThat(parse("# Only\n").truncated()).isZero();
    assertThat(utf8(note.toString()).length).isGreaterThan(top.bytes());
  }
}

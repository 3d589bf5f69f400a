package notesmcp.markdown;

import static notesmcp.markdown.Notes.parse;
import static notesmcp.markdown.Notes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The bounds of one note's structure, and its compact form. */
class StructureTest {
  @Test
  void linksBeyondTheBoundAreDroppedAndTold() {
    String note = "[[a]] ".repeat(Structure.MAX_LINKS + 5);
    Structure structure = parse(note);
    assertThat(structure.links()).hasSize(Structure.MAX_LINKS);
    assertThat(structure.truncated()).isEqualTo(Structure.LINKS);
    assertThat(parse("[[a]] ".repeat(Structure.MAX_LINKS)).truncated()).isZero();
  }

  @Test
  void tagsBeyondTheBoundAreDroppedAndTold() {
    StringBuilder note = new StringBuilder();
    for (int i = 0; i < Structure.MAX_TAGS + 5; i++) {
      note.append("#t").append(i).append(' ');
    }
    note.append("#t0 #T1");
    Structure structure = parse(note.toString());
    assertThat(structure.tags()).hasSize(Structure.MAX_TAGS);
    assertThat(structure.truncated()).isEqualTo(Structure.TAGS);
  }

  @Test
  void blocksBeyondTheBoundAreDroppedAndTold() {
    StringBuilder note = new StringBuilder();
    for (int i = 0; i < Structure.MAX_BLOCKS + 5; i++) {
      note.append("x ^b").append(i).append('\n');
    }
    Structure structure = parse(note.toString());
    assertThat(structure.blocks()).hasSize(Structure.MAX_BLOCKS);
    assertThat(structure.truncated()).isEqualTo(Structure.BLOCKS);
  }

  @Test
  void aNoteOverAMebibyteIsNotRead() {
    assertThatThrownBy(() -> Structure.parse(new byte[Structure.MAX_NOTE_BYTES + 1], "x.md"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(Structure.parse(new byte[Structure.MAX_NOTE_BYTES], "x.md").links()).isEmpty();
  }

  @Test
  void textMadeToSearchFarIsReadWithinItsBudget() {
    // Each [ looks for its ] to the line's end, and each backtick run of a new length for its
    // closing run: quadratic without a bound.
    String brackets = "[](".repeat(300_000);
    int[] work = new int[3];
    Structure.parse(utf8(brackets), "x.md", work);
    assertThat(work[0]).isLessThanOrEqualTo(work[1] + brackets.length() + Link.MAX_BYTES);
    StringBuilder ticks = new StringBuilder();
    for (int length = 1; ticks.length() < 900_000; length++) {
      ticks.append("`".repeat(length)).append(' ');
    }
    Structure.parse(utf8(ticks.toString()), "x.md", work);
    assertThat(work[0]).isLessThanOrEqualTo(work[1] + ticks.length());
  }

  @Test
  void whatWasFoundBeforeTheBudgetRanOutIsKeptAndTold() {
    String note = "[[first]] #early\n" + "[a".repeat(400_000) + "](x.md)\n[[late]] #late";
    int[] work = new int[3];
    Structure structure = Structure.parse(utf8(note), "x.md", work);
    assertThat(work[0]).isGreaterThan(work[1]);
    assertThat(structure.links()).extracting(Link::path).containsExactly("first");
    assertThat(structure.tags()).extracting(Tag::name).containsExactly("early");
    assertThat(structure.truncated())
        .isEqualTo(Structure.LINKS | Structure.TAGS | Structure.BLOCKS);
  }

  @Test
  void malformedUtf8IsReadAsReplacementCharacters() {
    byte[] note = {
      '#',
      'a',
      (byte) 0xff,
      'b',
      ' ',
      '[',
      '[',
      (byte) 0xc3,
      ']',
      ']',
      ' ',
      '#',
      (byte) 0xe2,
      (byte) 0x82
    };
    Structure structure = Structure.parse(note, "x.md");
    assertThat(structure.tags()).extracting(Tag::name).first().isEqualTo("a\ufffdb");
    assertThat(structure.links()).hasSize(1);
    assertThat(structure.links().get(0).path()).isEqualTo("\ufffd");
  }

  @Test
  void theStructureIsSmallerThanTheNote() {
    StringBuilder note =
        new StringBuilder("---\ntags: [project, open]\ncreated: 2026-12-01\n---\n# Plan\n");
    for (int i = 0; i < 40; i++) {
      note.append("Some ordinary words of a paragraph, with a link to [[Note ")
          .append(i)
          .append("]] and a #tag")
          .append(i % 5)
          .append(".\n\n");
    }
    note.append("## Risks\nThe risk ^r1\n");
    Structure structure = parse(note.toString());
    long bytes = structure.retainedBytes();
    assertThat(structure.links()).hasSize(40);
    assertThat(bytes).isLessThan(utf8(note.toString()).length / 3);
    // The form keeps each link's text and a few bytes of numbers, nothing per object.
    int linkText = structure.links().stream().mapToInt(Link::length).sum();
    assertThat(bytes).isLessThan(48 + 16 + linkText + 40 * 3 + 400);
  }

  @Test
  void namesOfEveryScriptGiveTheirTitleAndTheirLinks() {
    String note =
        "# עברית\n[[מסמך ראשון|ראשון]] [[東京/会議 メモ#議題]] ![[Émoji 🙂 🚀]]"
            + " [t](%D8%A7%D9%84%D8%B9%D8%B1%D8%A8%D9%8A%D8%A9/%D9%85%D9%84%D8%A7%D8%AD%D8%B8%D8%A9.md)"
            + " #日本語 #𝒳ω\n";
    Structure structure = Structure.parse(utf8(note), "עברית/מסמך 🙂 𝒳.md");
    assertThat(structure.title()).isEqualTo("מסמך 🙂 𝒳");
    assertThat(structure.links())
        .extracting(Link::path)
        .containsExactly("מסמך ראשון", "東京/会議 メモ", "Émoji 🙂 🚀", "العربية/ملاحظة.md");
    assertThat(structure.links().get(1).subpath()).isEqualTo("議題");
    assertThat(structure.tags()).extracting(Tag::name).containsExactly("日本語", "𝒳ω");
    for (Link link : structure.links()) {
      assertThat(Notes.at(note, link.offset(), link.length())).startsWith(link.embed() ? "!" : "[");
    }
  }

  @Test
  void everyAccessorDecodesTheSameAgain() {
    Structure structure = parse("---\na: [1, {b: c}]\n---\n# H ^x\n[[L]] #t\n");
    assertThat(structure.links()).isEqualTo(structure.links());
    assertThat(structure.properties().map()).isEqualTo(structure.properties().map());
    assertThat(structure.headings()).isEqualTo(List.of(new Heading(1, "H ^x", 4, 23, 16)));
    assertThat(structure.blocks()).containsExactly(new Structure.Block("x", 4, 27));
  }
}

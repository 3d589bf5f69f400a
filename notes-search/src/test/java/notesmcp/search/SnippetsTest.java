package notesmcp.search;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SnippetsTest {
  private static String around(String text, String word) throws Exception {
    SearchQuery.Match match = SearchQuery.parse(word).matchIn(text, "name");
    return Snippets.around(text, match);
  }

  private static int codePoints(String s) {
    return s.codePointCount(0, s.length());
  }

  @Test
  void aShortNoteIsItsOwnSnippetOnOneLine() throws Exception {
    assertThat(around("Line one\n\n\tkite line\r\n", "kite")).isEqualTo("Line one kite line");
  }

  @Test
  void aLongNoteIsCutAtBothEndsWithMarksWithinTwoHundredCodePoints() throws Exception {
    String text = "word ".repeat(100) + "kite " + "more ".repeat(100);
    String snippet = around(text, "kite");
    assertThat(snippet).startsWith("\u2026word").endsWith("\u2026").contains("kite");
    assertThat(codePoints(snippet)).isEqualTo(200);
  }

  @Test
  void cutsNeverSplitASurrogatePair() throws Exception {
    String text = "\ud83d\ude00".repeat(300) + " kite " + "\ud83d\ude00".repeat(300);
    String snippet = around(text, "kite");
    assertThat(codePoints(snippet)).isLessThanOrEqualTo(200);
    for (int i = 0; i < snippet.length(); i++) {
      char c = snippet.charAt(i);
      if (Character.isHighSurrogate(c)) {
        assertThat(Character.isLowSurrogate(snippet.charAt(i + 1))).isTrue();
        i++;
      } else {
        assertThat(Character.isLowSurrogate(c)).isFalse();
      }
    }
  }

  @Test
  void theMatchIsFoundInDecomposedTextAndAcrossCase() throws Exception {
    assertThat(around("Le Cafe\u0301 est ouvert.", "CAFÉ")).isEqualTo("Le Cafe\u0301 est ouvert.");
  }

  @Test
  void aPhraseMatchesOnlyInOrder() throws Exception {
    assertThat(SearchQuery.parse("\"paper kite\"").matchIn("kite paper", "x")).isNull();
    assertThat(SearchQuery.parse("\"paper kite\"").matchIn("a paper, kite!", "x"))
        .isEqualTo(new SearchQuery.Match(2, 13));
  }

  @Test
  void theFrontMatterIsNeverInASnippet() throws Exception {
    String note = "---\nstatus: open\ntags: [kite]\n---\n\nThe kite flew. Nothing else.\n";
    assertThat(around(note, "kite")).isEqualTo("The kite flew. Nothing else.");
    // Found only in the front matter: still a hit, and the snippet is the body's beginning.
    assertThat(SearchQuery.parse("open").matchIn(note, "x")).isNotNull();
    assertThat(around(note, "open")).isEqualTo("The kite flew. Nothing else.");
    // A match far into the body: cut marks, never the front matter.
    String far = "---\na: b\n---\n" + "word ".repeat(100) + "kite";
    assertThat(around(far, "kite")).startsWith("\u2026").doesNotContain("a: b");
    // Not front matter: no closing line, or more than dashes on the first.
    assertThat(Snippets.bodyStart("---\nno end\n")).isZero();
    assertThat(Snippets.bodyStart("--- x\na\n---\n")).isZero();
    assertThat(Snippets.bodyStart("---  \r\na\r\n---\r\nbody")).isEqualTo(15);
    assertThat(Snippets.bodyStart("\ufeff---\n---\nbody")).isEqualTo(9);
    assertThat(around("---\n---\n", "name")).isEmpty();
  }
}

package notesmcp.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The diff {@code review} shows reads as a unified diff does (docs/approvals.md, "Edits"): in each
 * run of changed lines, the lines removed come first, then the lines added.
 */
class LineDiffTest {
  @Test
  void aChangedLineShowsTheRemovedLineAboveTheAddedOne() {
    String diff = LineDiff.render("line 1\nline two\nline 3\n", "line 1\nline 2\nline 3\n");

    assertThat(diff)
        .isEqualTo(
            "    @@ -1,3 +1,3 @@\n"
                + "     | line 1\\n\n"
                + "    -| line two\\n\n"
                + "    +| line 2\\n\n"
                + "     | line 3\\n\n");
  }

  @Test
  void aRunOfChangesRemovesEveryOldLineBeforeAddingTheNewOnes() {
    String diff = LineDiff.render("keep\na\nb\nc\nkeep too\n", "keep\nx\nb2\ny\nz\nkeep too\n");

    assertThat(diff)
        .isEqualTo(
            "    @@ -1,5 +1,6 @@\n"
                + "     | keep\\n\n"
                + "    -| a\\n\n"
                + "    -| b\\n\n"
                + "    -| c\\n\n"
                + "    +| x\\n\n"
                + "    +| b2\\n\n"
                + "    +| y\\n\n"
                + "    +| z\\n\n"
                + "     | keep too\\n\n");
  }

  @Test
  void aLineAddedAtTheEndAndAMissingFinalNewlineAreShownAsSuch() {
    String diff = LineDiff.render("a\nb", "a\nb\nc\n");

    assertThat(diff)
        .isEqualTo("    @@ -1,2 +1,3 @@\n     | a\\n\n    -| b\n    +| b\\n\n    +| c\\n\n");
  }

  /**
   * Whatever the two texts, each run of changed lines is its removals then its additions, and the
   * diff takes the old text to the new one: its context and removed lines, in order, are the old
   * text's lines; its context and added lines the new text's.
   */
  @Test
  void everyRunOfChangesIsRemovalsThenAdditionsAndTheDiffIsExact() {
    Random random = new Random(20261207L);
    for (int round = 0; round < 2000; round++) {
      String before = text(random);
      String after = text(random);
      List<String> lines = diffLines(LineDiff.render(before, after));
      char last = ' ';
      for (String line : lines) {
        char kind = line.charAt(4);
        assertThat(last == '+' && kind == '-')
            .as("a removal after an addition in\n%s", String.join("\n", lines))
            .isFalse();
        last = kind;
      }
      if (!before.equals(after) && lines.size() == count(before, after)) {
        assertThat(side(lines, '-')).isEqualTo(shown(before));
        assertThat(side(lines, '+')).isEqualTo(shown(after));
      }
    }
  }

  /** Short texts over a small alphabet of lines, so that many lines repeat. */
  private static String text(Random random) {
    StringBuilder text = new StringBuilder();
    int lines = random.nextInt(9);
    for (int i = 0; i < lines; i++) {
      text.append((char) ('a' + random.nextInt(4))).append('\n');
    }
    return text.toString();
  }

  /** The diff's lines but its hunk headers, each " K| text". */
  private static List<String> diffLines(String diff) {
    List<String> lines = new ArrayList<>();
    for (String line : diff.split("\n")) {
      if (!line.startsWith("    @@") && !line.startsWith("    (")) {
        lines.add(line);
      }
    }
    return lines;
  }

  /** How many diff lines a diff shows when every line of both texts is in its hunks. */
  private static int count(String before, String after) {
    return LineDiff.lines(before).size()
        + LineDiff.lines(after).size()
        - common(LineDiff.lines(before), LineDiff.lines(after));
  }

  private static int common(List<String> a, List<String> b) {
    int[][] table = new int[a.size() + 1][b.size() + 1];
    for (int i = a.size() - 1; i >= 0; i--) {
      for (int j = b.size() - 1; j >= 0; j--) {
        table[i][j] =
            a.get(i).equals(b.get(j))
                ? table[i + 1][j + 1] + 1
                : Math.max(table[i + 1][j], table[i][j + 1]);
      }
    }
    return table[0][0];
  }

  /** The text one side of a diff shows: context and the lines of {@code kind}. */
  private static List<String> side(List<String> lines, char kind) {
    List<String> side = new ArrayList<>();
    for (String line : lines) {
      char k = line.charAt(4);
      if (k == ' ' || k == kind) {
        side.add(line.substring(7));
      }
    }
    return side;
  }

  private static List<String> shown(String text) {
    List<String> shown = new ArrayList<>();
    for (String line : LineDiff.lines(text)) {
      shown.add(TerminalText.visibleLine(line));
    }
    return shown;
  }
}

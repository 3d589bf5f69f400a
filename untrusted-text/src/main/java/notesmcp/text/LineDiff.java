package notesmcp.text;

import java.util.ArrayList;
import java.util.List;

/**
 * The unified line diff {@code review} shows for an edit (docs/approvals.md, "Edits"): hunks of
 * {@code -} removed and {@code +} added lines (in each run of changes the removed first) with three
 * lines of context, each line in {@link TerminalText}'s visible form behind a gutter (so nothing in
 * either text can drive the terminal or pass for the program's own output), a line's end shown as
 * {@code \n} (a missing final newline is visible), lines cut after {@link TerminalText#LINE_CHARS}
 * characters saying how many more.
 *
 * <p>Bounded whatever the texts: at most {@link #MAX_SHOWN} diff lines are printed, then one line
 * says how many more there were; the comparison keeps a table of at most {@link #MAX_CELLS} cells
 * for the lines between the common start and end, and beyond that shows the whole middle as removed
 * and added (still exact, only less short). Stateless.
 */
public final class LineDiff {
  /** Diff lines printed at most; the rest are counted. */
  public static final int MAX_SHOWN = 2000;

  /** Lines of context around each change. */
  private static final int CONTEXT = 3;

  /** The largest comparison table (removed lines times added lines) the diff builds: 16 MB. */
  private static final long MAX_CELLS = 4_000_000;

  private LineDiff() {}

  /** One line of the diff: ' ' kept, '-' removed, '+' added; with its line numbers (1-based). */
  private record Line(char kind, String text, int oldLine, int newLine) {}

  /** The lines of {@code text}, each with its own line feed (the last may have none). */
  static List<String> lines(String text) {
    List<String> lines = new ArrayList<>();
    int start = 0;
    while (start < text.length()) {
      int end = text.indexOf('\n', start);
      end = end < 0 ? text.length() : end + 1;
      lines.add(text.substring(start, end));
      start = end;
    }
    return lines;
  }

  /** The rendered diff from {@code before} to {@code after}, ending with a newline. */
  public static String render(String before, String after) {
    List<Line> diff = compare(lines(before), lines(after));
    StringBuilder out = new StringBuilder(4096);
    int shown = 0;
    int changed = 0;
    for (Line line : diff) {
      if (line.kind != ' ') {
        changed++;
      }
    }
    int i = 0;
    int total = 0;
    while (i < diff.size()) {
      if (diff.get(i).kind == ' ') {
        i++;
        continue;
      }
      int from = Math.max(0, i - CONTEXT);
      int to = i;
      while (to < diff.size()) {
        if (diff.get(to).kind != ' ') {
          to++;
          continue;
        }
        int run = to;
        while (run < diff.size() && diff.get(run).kind == ' ') {
          run++;
        }
        if (run < diff.size() && run - to <= 2 * CONTEXT) {
          to = run;
        } else {
          to = Math.min(diff.size(), to + CONTEXT);
          break;
        }
      }
      total += 1 + (to - from);
      if (shown < MAX_SHOWN) {
        out.append("    @@ ").append(header(diff, from, to)).append(" @@\n");
        shown++;
        for (int k = from; k < to && shown < MAX_SHOWN; k++) {
          Line line = diff.get(k);
          out.append("    ")
              .append(line.kind)
              .append("| ")
              .append(TerminalText.visibleLine(line.text))
              .append('\n');
          shown++;
        }
      }
      i = to;
    }
    if (total > shown) {
      out.append("    ... ")
          .append(total - shown)
          .append(" more diff lines not shown (")
          .append(changed)
          .append(" lines removed or added in all; at most ")
          .append(MAX_SHOWN)
          .append(" diff lines are shown)\n");
    }
    if (diff.isEmpty() || changed == 0) {
      out.append("    (no line differs)\n");
    }
    return out.toString();
  }

  private static String header(List<Line> diff, int from, int to) {
    int oldStart = 0;
    int newStart = 0;
    int oldCount = 0;
    int newCount = 0;
    for (int k = from; k < to; k++) {
      Line line = diff.get(k);
      if (line.kind != '+') {
        if (oldCount++ == 0) {
          oldStart = line.oldLine;
        }
      }
      if (line.kind != '-') {
        if (newCount++ == 0) {
          newStart = line.newLine;
        }
      }
    }
    if (oldCount == 0) {
      oldStart = from < diff.size() ? diff.get(from).oldLine - 1 : 0;
    }
    if (newCount == 0) {
      newStart = from < diff.size() ? diff.get(from).newLine - 1 : 0;
    }
    return "-" + oldStart + "," + oldCount + " +" + newStart + "," + newCount;
  }

  /** The diff of two lists of lines: common start and end kept, the middle compared (bounded). */
  private static List<Line> compare(List<String> a, List<String> b) {
    int prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a.get(prefix).equals(b.get(prefix))) {
      prefix++;
    }
    int suffix = 0;
    while (suffix < a.size() - prefix
        && suffix < b.size() - prefix
        && a.get(a.size() - 1 - suffix).equals(b.get(b.size() - 1 - suffix))) {
      suffix++;
    }
    List<Line> out = new ArrayList<>(a.size() + b.size());
    for (int k = 0; k < prefix; k++) {
      out.add(new Line(' ', a.get(k), k + 1, k + 1));
    }
    int n = a.size() - prefix - suffix;
    int m = b.size() - prefix - suffix;
    if ((long) (n + 1) * (m + 1) <= MAX_CELLS) {
      middle(a, b, prefix, n, m, out);
    } else {
      for (int k = 0; k < n; k++) {
        out.add(new Line('-', a.get(prefix + k), prefix + k + 1, prefix + 1));
      }
      for (int k = 0; k < m; k++) {
        out.add(new Line('+', b.get(prefix + k), prefix + n + 1, prefix + k + 1));
      }
    }
    for (int k = 0; k < suffix; k++) {
      int oldIndex = a.size() - suffix + k;
      int newIndex = b.size() - suffix + k;
      out.add(new Line(' ', a.get(oldIndex), oldIndex + 1, newIndex + 1));
    }
    return out;
  }

  /**
   * The longest common subsequence of the middle lines, by the classic table, as a diff. Where
   * removing a line and adding one keep the subsequence equally long, the removal comes first: once
   * a run of changes adds a line it only adds until the next common line (the line it waits for is
   * in that subsequence), so every run reads as its removals then its additions, as in a unified
   * diff.
   */
  private static void middle(
      List<String> a, List<String> b, int prefix, int n, int m, List<Line> out) {
    int[] table = new int[(n + 1) * (m + 1)];
    for (int i = n - 1; i >= 0; i--) {
      for (int j = m - 1; j >= 0; j--) {
        table[i * (m + 1) + j] =
            a.get(prefix + i).equals(b.get(prefix + j))
                ? table[(i + 1) * (m + 1) + j + 1] + 1
                : Math.max(table[(i + 1) * (m + 1) + j], table[i * (m + 1) + j + 1]);
      }
    }
    int i = 0;
    int j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a.get(prefix + i).equals(b.get(prefix + j))) {
        out.add(new Line(' ', a.get(prefix + i), prefix + i + 1, prefix + j + 1));
        i++;
        j++;
      } else if (i < n && (j == m || table[(i + 1) * (m + 1) + j] >= table[i * (m + 1) + j + 1])) {
        out.add(new Line('-', a.get(prefix + i), prefix + i + 1, prefix + j + 1));
        i++;
      } else {
        out.add(new Line('+', b.get(prefix + j), prefix + i + 1, prefix + j + 1));
        j++;
      }
    }
  }
}

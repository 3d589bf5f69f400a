package notesmcp.policy.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import notesmcp.files.ChangeRule;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.vault.Catalog;
import notesmcp.policy.vault.Workspace;
import notesmcp.text.CodePoints;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link NoteStructures#find}: a page is the first notes after a position, in code-point order,
 * however many pass; and a property's test (docs/knowledge.md, "find_notes") as the values decoded
 * when a note is read hold it, lists and dates included.
 */
class NoteStructuresFindTest {
  @TempDir Path dir;
  private NoteStructures structures;
  private final List<String> all = new ArrayList<>();

  @BeforeEach
  void vault() throws Exception {
    Path root = Files.createDirectory(dir.resolve("vault"));
    // Names whose code-point order differs from String order: a letter past the BMP sorts after
    // U+FFxx by code point, before it by UTF-16 unit.
    String[] stems = {"a", "B", "é", "\uFF21", "\uD835\uDC00", "z"};
    for (int i = 0; i < 60; i++) {
      String path = (i % 2 == 0 ? "one/" : "two/") + stems[i % stems.length] + i + ".md";
      String created = String.format("2026-%02d-%02d", 1 + i % 12, 1 + i % 28);
      String front =
          "---\nstatus: "
              + (i % 3 == 0 ? "open" : "Closed")
              + "\ncreated: "
              + created
              + (i % 5 == 0 ? "T10:30" : "")
              + "\ntags: [t"
              + (i % 4)
              + ", Ωmega]\nlist: [x, [nested], {k: v}, "
              + (i % 7 == 0 ? "2026-12-01" : "word")
              + "]\n---\n# Note "
              + i
              + "\n";
      Path file = root.resolve(path);
      Files.createDirectories(file.getParent());
      Files.writeString(file, front);
      all.add(path);
    }
    all.sort(CodePoints.ORDER);
    Policy policy = Policy.of(List.of("**/*.md"), List.of(), List.of(), 1 << 20, 16);
    Workspace workspace = Workspace.at(root, new ChangeRule(true, Duration.ZERO));
    PrintStream log = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    structures = new NoteStructures(policy, workspace, new Catalog(policy, workspace, log), log);
  }

  private static Filter property(String name, String equals, String contains, String after) {
    return new Filter(
        null, name, equals, contains, after, null, null, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  private List<String> everyPage(Filter filter, int max) throws Exception {
    List<String> found = new ArrayList<>();
    String after = null;
    while (true) {
      List<String> page = structures.find(filter, after, max + 1);
      assertThat(page).isSortedAccordingTo(CodePoints.ORDER);
      found.addAll(page.subList(0, Math.min(max, page.size())));
      if (page.size() <= max) {
        return found;
      }
      after = page.get(max - 1);
    }
  }

  private List<String> where(java.util.function.IntPredicate note) {
    List<String> want = new ArrayList<>();
    for (String path : all) {
      int i = Integer.parseInt(path.replaceAll("[^0-9]", ""));
      if (note.test(i)) {
        want.add(path);
      }
    }
    return want;
  }

  @Test
  void pagesAreTheFirstNotesAfterThePositionInCodePointOrder() throws Exception {
    Filter any = property("status", null, null, null);
    for (int max : new int[] {1, 7, 59, 60, 61}) {
      assertThat(everyPage(any, max)).as("pages of %d", max).isEqualTo(all);
    }
    assertThat(structures.find(any, all.get(all.size() - 1), 10)).isEmpty();
    assertThat(structures.find(any, all.get(9), 5)).isEqualTo(all.subList(10, 15));
  }

  @Test
  void aPropertysTestIsTheFiltersOverEveryLeaf() throws Exception {
    assertThat(everyPage(property("STATUS", "open", null, null), 4))
        .isEqualTo(where(i -> i % 3 == 0));
    assertThat(everyPage(property("status", null, "LOS", null), 4))
        .isEqualTo(where(i -> i % 3 != 0));
    // A list's items are tested, not the lists or maps in it.
    assertThat(everyPage(property("list", "x", null, null), 9)).isEqualTo(all);
    assertThat(everyPage(property("list", "nested", null, null), 9)).isEmpty();
    assertThat(everyPage(property("list", null, null, "2026-11-30"), 9))
        .isEqualTo(where(i -> i % 7 == 0));
    // Dates: a date is its day's start; a date and time compares as written.
    assertThat(everyPage(property("created", null, null, "2026-10-15"), 9))
        .isEqualTo(
            where(
                i -> {
                  int month = 1 + i % 12;
                  int day = 1 + i % 28;
                  return month > 10 || (month == 10 && (day > 15 || (day == 15 && i % 5 == 0)));
                }));
    assertThat(everyPage(property("tags", null, "ΩMEGA", null), 9)).isEqualTo(all);
    assertThat(everyPage(property("missing", null, null, null), 9)).isEmpty();
    // Text that folding leaves as it is, and text that holds a lone surrogate (no note's does).
    assertThat(everyPage(property("status", null, "pe", null), 9))
        .isEqualTo(where(i -> i % 3 == 0));
    assertThat(everyPage(property("status", "open\uD800", null, null), 9)).isEmpty();
    assertThat(everyPage(property("status", null, "\uDC00", null), 9)).isEmpty();
    // A date and time equal to the bound is not after it; one a minute before is.
    assertThat(everyPage(property("created", null, null, "2026-01-01T10:30"), 99))
        .doesNotContain(where(i -> i == 0).get(0));
    assertThat(everyPage(property("created", null, null, "2026-01-01T10:29:59.999999999"), 99))
        .contains(where(i -> i == 0).get(0));
  }

  @Test
  void aPropertyIsEveryNameThatLowerCasesToIt() throws Exception {
    Files.createDirectories(dir.resolve("vault/cases"));
    Files.writeString(
        dir.resolve("vault/cases/Mixed.md"),
        "---\nStatus: waiting\nSTATUS: [later, 2026-12-31]\n---\n");
    assertThat(structures.find(property("status", "waiting", null, null), null, 99))
        .containsExactly("cases/Mixed.md");
    assertThat(structures.find(property("Status", "later", null, null), null, 99))
        .containsExactly("cases/Mixed.md");
    assertThat(structures.find(property("status", null, null, "2026-12-30"), null, 99))
        .containsExactly("cases/Mixed.md");
  }
}

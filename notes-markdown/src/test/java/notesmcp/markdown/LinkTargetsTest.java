package notesmcp.markdown;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How a link resolves (docs/knowledge.md, "How a link resolves"). The first four tests are the
 * vaults on which Obsidian 1.13.7's {@code getFirstLinkpathDest} was observed (three notes named
 * {@code Note.md}, sources in three folders, then the root note deleted, then more notes added),
 * with the answers it gave.
 */
class LinkTargetsTest {
  private static LinkTargets targets(String... paths) {
    return LinkTargets.of(List.of(paths));
  }

  @Test
  void anExactVaultPathWinsFromEveryFolder() {
    LinkTargets vault = targets("Note.md", "zzzz/Note.md", "a/b/Note.md");
    assertThat(vault.resolve("Note", "src-root.md")).isEqualTo("Note.md");
    assertThat(vault.resolve("Note", "zzzz/src-zzzz.md")).isEqualTo("Note.md");
    assertThat(vault.resolve("Note", "a/b/src-ab.md")).isEqualTo("Note.md");
  }

  @Test
  void elseTheLinkingNotesFolderThenTheShortestPath() {
    LinkTargets vault = targets("zzzz/Note.md", "a/b/Note.md");
    assertThat(vault.resolve("Note", "src-root.md")).isEqualTo("a/b/Note.md");
    assertThat(vault.resolve("Note", "zzzz/src-zzzz.md")).isEqualTo("zzzz/Note.md");
    assertThat(vault.resolve("Note", "a/b/src-ab.md")).isEqualTo("a/b/Note.md");
  }

  @Test
  void anAncestorFolderCountsForNothingAndTreeOrderNeither() {
    LinkTargets vault = targets("zzzz/Note.md", "a/b/Note.md", "b/Note.md", "aaaaaaaa/Note.md");
    assertThat(vault.resolve("Note", "src-root.md")).isEqualTo("b/Note.md");
    assertThat(vault.resolve("Note", "zzzz/deep/src-deep.md")).isEqualTo("b/Note.md");
    assertThat(vault.resolve("Note", "zzzz/src-zzzz.md")).isEqualTo("zzzz/Note.md");
  }

  @Test
  void aPathWithFoldersMatchesAsASuffixUnlessItIsExact() {
    assertThat(targets("a/b/Note.md").resolve("b/Note", "suffix.md")).isEqualTo("a/b/Note.md");
    LinkTargets both = targets("a/b/Note.md", "b/Note.md");
    assertThat(both.resolve("b/Note", "a/b/src-ab-path.md")).isEqualTo("b/Note.md");
    assertThat(both.resolve("b/Note", "suffix.md")).isEqualTo("b/Note.md");
    assertThat(targets("ab/Note.md").resolve("b/Note", "x.md")).isNull();
  }

  @Test
  void aFolderPathIsAlsoTriedFromTheLinkingNotesFolder() {
    LinkTargets vault = targets("Projects/x/Plan.md", "Areas/Projects/x/Plan.md", "zz/x/Plan.md");
    assertThat(vault.resolve("x/Plan", "Areas/Projects/Index.md"))
        .isEqualTo("Areas/Projects/x/Plan.md");
    assertThat(vault.resolve("x/Plan", "Index.md")).isEqualTo("zz/x/Plan.md");
  }

  @Test
  void relativePathsResolveFromTheLinkingNoteOnly() {
    LinkTargets vault = targets("y.md", "a/Sibling.md", "a/b/Child.md", "Elsewhere/Missing.md");
    assertThat(vault.resolve("../y", "a/x.md")).isEqualTo("y.md");
    assertThat(vault.resolve("./Sibling", "a/x.md")).isEqualTo("a/Sibling.md");
    assertThat(vault.resolve("./b/Child.md", "a/x.md")).isEqualTo("a/b/Child.md");
    assertThat(vault.resolve("../a/./b/../Sibling", "a/x.md")).isEqualTo("a/Sibling.md");
    assertThat(vault.resolve("./Missing", "a/x.md")).isNull();
    assertThat(vault.resolve("../../y", "a/x.md")).isNull();
    assertThat(vault.resolve("../y", "x.md")).isNull();
  }

  @Test
  void aLeadingSlashIsTheVaultsRootExactly() {
    LinkTargets vault = targets("a/b/Note.md", "Note.md");
    assertThat(vault.resolve("/a/b/Note", "x/y.md")).isEqualTo("a/b/Note.md");
    assertThat(vault.resolve("/b/Note", "x/y.md")).isNull();
    assertThat(vault.resolve("//Note.md", "x/y.md")).isEqualTo("Note.md");
  }

  @Test
  void namesMatchIgnoringCaseTheLinksOwnCaseFirst() {
    LinkTargets vault = targets("Log.md", "Ext.md");
    assertThat(vault.resolve("log", "x.md")).isEqualTo("Log.md");
    assertThat(vault.resolve("LOG", "x.md")).isEqualTo("Log.md");
    assertThat(vault.resolve("Ext.MD", "x.md")).isEqualTo("Ext.md");
    assertThat(vault.resolve("FOLDER/../Log", "x.md")).isNull();
    LinkTargets twins = targets("case.md", "Case.md");
    assertThat(twins.resolve("case", "x.md")).isEqualTo("case.md");
    assertThat(twins.resolve("Case", "x.md")).isEqualTo("Case.md");
    assertThat(twins.resolve("CASE", "x.md")).isEqualTo("Case.md");
    assertThat(twins.resolve("/case", "x.md")).isEqualTo("case.md");
    assertThat(twins.resolve("/CASE", "x.md")).isEqualTo("Case.md");
  }

  @Test
  void equalLengthsAreBrokenByCodePoints() {
    // Obsidian's choice here was observed not to be stable; ours is.
    assertThat(targets("bb/Tie.md", "aa/Tie.md", "zz/Tie.md").resolve("Tie", "x.md"))
        .isEqualTo("aa/Tie.md");
  }

  @Test
  void lengthIsCountedInUtf16UnitsAsObsidianCountsIt() {
    // a/🙂/N.md is 9 units and 8 code points; bbb/N.md is 8 of both.
    assertThat(targets("a/🙂/N.md", "bbb/N.md").resolve("N", "x.md")).isEqualTo("bbb/N.md");
  }

  @Test
  void theMdExtensionIsOptionalAndAnotherNameIsTriedAsWritten() {
    LinkTargets vault = targets("Note.md", "notes.txt", "v1.2 notes.md", "Figure.png.md");
    assertThat(vault.resolve("Note.md", "x.md")).isEqualTo("Note.md");
    assertThat(vault.resolve("notes.txt", "x.md")).isEqualTo("notes.txt");
    assertThat(vault.resolve("notes", "x.md")).isNull();
    assertThat(vault.resolve("v1.2 notes", "x.md")).isEqualTo("v1.2 notes.md");
    assertThat(vault.resolve("Figure.png", "x.md")).isEqualTo("Figure.png.md");
    assertThat(vault.resolve("Note.md.md", "x.md")).isNull();
  }

  @Test
  void anEmptyPathIsTheLinkingNote() {
    LinkTargets vault = targets("a/Self.md");
    assertThat(vault.resolve("", "a/Self.md")).isEqualTo("a/Self.md");
    Link self = Notes.parse("[[#Risks]]").links().get(0);
    assertThat(vault.resolve(self, "a/Self.md")).isEqualTo("a/Self.md");
  }

  @Test
  void aLinkWrittenInNfdResolvesToTheNfcNote() {
    LinkTargets vault = targets("Inbox/Café.md");
    assertThat(vault.resolve("Cafe\u0301", "x.md")).isEqualTo("Inbox/Café.md");
    assertThat(vault.resolve("CAFE\u0301", "x.md")).isEqualTo("Inbox/Café.md");
    assertThat(vault.resolve("Inbox/Cafe\u0301.md", "x.md")).isEqualTo("Inbox/Café.md");
  }

  @Test
  void namesOfEveryScriptResolve() {
    LinkTargets vault =
        targets(
            "東京/会議 メモ.md",
            "Émoji 🙂 🚀.md",
            "עברית/מסמך ראשון.md",
            "العربية/ملاحظة.md",
            "Ελλάδα/Σημείωση.md",
            "Zürich trip/Straße.md");
    assertThat(vault.resolve("会議 メモ", "x.md")).isEqualTo("東京/会議 メモ.md");
    assertThat(vault.resolve("émoji 🙂 🚀", "x.md")).isEqualTo("Émoji 🙂 🚀.md");
    assertThat(vault.resolve("מסמך ראשון", "x.md")).isEqualTo("עברית/מסמך ראשון.md");
    assertThat(vault.resolve("العربية/ملاحظة", "x.md")).isEqualTo("العربية/ملاحظة.md");
    assertThat(vault.resolve("ΣΗΜΕΊΩΣΗ", "x.md")).isEqualTo("Ελλάδα/Σημείωση.md");
    assertThat(vault.resolve("zürich trip/straße", "x.md")).isEqualTo("Zürich trip/Straße.md");
    assertThat(vault.resolve("STRASSE", "x.md")).isNull();
  }

  @Test
  void aliasesResolveNothing() {
    Structure note = Notes.parse("---\naliases: [Kite]\n---\n");
    assertThat(note.aliases()).containsExactly("Kite");
    assertThat(targets("Folder/Note.md").resolve("Kite", "x.md")).isNull();
  }

  @Test
  void addAndRemoveKeepTheIndexExact() {
    LinkTargets vault = new LinkTargets();
    assertThat(vault.add("a/N.md")).isTrue();
    assertThat(vault.add("a/N.md")).isFalse();
    assertThat(vault.add("b/n.md")).isTrue();
    assertThat(vault.add("c/N.md")).isTrue();
    assertThat(vault.size()).isEqualTo(3);
    assertThat(vault.contains("b/n.md")).isTrue();
    assertThat(vault.contains("b/N.md")).isFalse();
    assertThat(vault.remove("b/N.md")).isFalse();
    assertThat(vault.remove("b/n.md")).isTrue();
    assertThat(vault.resolve("n", "c/x.md")).isEqualTo("c/N.md");
    assertThat(vault.remove("c/N.md")).isTrue();
    assertThat(vault.resolve("n", "c/x.md")).isEqualTo("a/N.md");
    assertThat(vault.remove("a/N.md")).isTrue();
    assertThat(vault.remove("a/N.md")).isFalse();
    assertThat(vault.size()).isZero();
    assertThat(vault.resolve("n", "c/x.md")).isNull();
  }

  @Test
  void manyNotesOfOneNameStayCorrect() {
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      paths.add("f" + i + "/README.md");
    }
    LinkTargets vault = LinkTargets.of(paths);
    assertThat(vault.resolve("README", "f500/x.md")).isEqualTo("f500/README.md");
    assertThat(vault.resolve("README", "x.md")).isEqualTo("f0/README.md");
    for (int i = 0; i < 1000; i += 2) {
      vault.remove("f" + i + "/README.md");
    }
    assertThat(vault.size()).isEqualTo(500);
    assertThat(vault.resolve("README", "x.md")).isEqualTo("f1/README.md");
    assertThat(vault.resolve("README", "f500/x.md")).isEqualTo("f1/README.md");
  }

  @Test
  void aLinkNamesTheFileNamesItMayResolveTo() {
    assertThat(LinkTargets.fileNames("Paper Kite", "a/x.md"))
        .containsExactly("paper kite", "paper kite.md");
    assertThat(LinkTargets.fileNames("Sub/Note.MD", "a/x.md")).containsExactly("note.md");
    assertThat(LinkTargets.fileNames("../y", "a/x.md")).containsExactly("y", "y.md");
    assertThat(LinkTargets.fileNames("../../y", "a/x.md")).isEmpty();
    assertThat(LinkTargets.fileNames("", "a/X.md")).containsExactly("x.md");
    assertThat(LinkTargets.fileNames("Cafe\u0301", "x.md"))
        .containsExactly("caf\u00e9", "caf\u00e9.md");
  }
}

package notesmcp.policy.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import notesmcp.files.ChangeRule;
import notesmcp.policy.rules.NoteName;
import notesmcp.policy.rules.Policy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog (docs/design.md, "The catalog"): what the enumeration enters and keeps, its bounds,
 * how it follows the workspace as it changes, and what its listeners are told.
 */
class CatalogTest {
  @TempDir Path dir;
  private final ByteArrayOutputStream log = new ByteArrayOutputStream();

  private Catalog catalog(Path root, Policy policy) throws IOException {
    return catalog(root, policy, Catalog.MAX_NOTES, Catalog.MAX_FOLDERS);
  }

  private Catalog catalog(Path root, Policy policy, int maxNotes, int maxFolders)
      throws IOException {
    return new Catalog(
        policy,
        Workspace.at(root, new ChangeRule(true, Duration.ZERO)),
        new PrintStream(log, true, StandardCharsets.UTF_8),
        maxNotes,
        maxFolders);
  }

  private static Policy markdown() {
    return Policy.of(List.of("**/*.md"), List.of(), List.of(), 2048, 16);
  }

  private static List<String> all(Catalog catalog) throws Catalog.Refused {
    List<String> paths = new ArrayList<>();
    String cursor = null;
    do {
      Catalog.Page page = catalog.page(null, cursor);
      paths.addAll(page.paths());
      cursor = page.nextCursor();
    } while (cursor != null);
    return paths;
  }

  private Path root() throws IOException {
    return Files.createDirectory(dir.resolve("vault"));
  }

  @Test
  void nothingIsEnumeratedBeforeTheFirstCallThatNeedsIt() throws Exception {
    Path root = root();
    write(root, "a/b.md", "x");
    Catalog catalog = catalog(root, markdown());

    assertThat(catalog.entered()).isEmpty();
    assertThat(all(catalog)).containsExactly("a/b.md");
    assertThat(catalog.entered()).containsExactly("", "a");
  }

  @Test
  void onlyFoldersAPatternCanReachAreEnteredAndNeverAnExcludedOrDottedOne() throws Exception {
    Path root = root();
    for (String path :
        List.of(
            "Inbox/a.md", "Inbox/deep/b.md", "Other/c.md", "Private/d.md", ".git/e.md", "f.md")) {
      write(root, path, "x");
    }
    Policy policy =
        Policy.of(
            List.of("Inbox/*.md", "*.md", "Private/*.md"), List.of("Private"), List.of(), 10, 1);
    Catalog catalog = catalog(root, policy);

    assertThat(all(catalog)).containsExactly("Inbox/a.md", "f.md");
    assertThat(catalog.entered()).containsExactly("", "Inbox");
  }

  @Test
  void aSymlinkedFolderOrNoteIsNeverEnteredNorListed() throws Exception {
    Path root = root();
    Path outside = Files.createDirectory(dir.resolve("outside"));
    write(outside, "secret.md", "TOP SECRET");
    Files.createSymbolicLink(root.resolve("Linked"), outside);
    Files.createSymbolicLink(root.resolve("linked.md"), outside.resolve("secret.md"));
    write(root, "real.md", "x");
    Catalog catalog = catalog(root, markdown());

    assertThat(all(catalog)).containsExactly("real.md");
    assertThat(catalog.entered()).containsExactly("");
  }

  @Test
  void aFortyDeepChainIsEnteredSixteenFoldersDeepAndNoDeeper() throws Exception {
    Path root = root();
    Path folder = root;
    for (int depth = 0; depth <= 40; depth++) {
      Files.writeString(folder.resolve("n" + depth + ".md"), "x");
      folder = Files.createDirectory(folder.resolve("d"));
    }
    Catalog catalog = catalog(root, markdown());

    List<String> listed = all(catalog);
    assertThat(listed).hasSize(17);
    assertThat(listed)
        .contains("d/".repeat(16) + "n16.md")
        .doesNotContain("d/".repeat(17) + "n17.md");
    assertThat(catalog.entered()).hasSize(17);
  }

  @Test
  void namesThatBreakTheRulesAreNeverNotes() throws Exception {
    Path root = root();
    for (String name :
        List.of(
            "nfc-\u00e9.md",
            "nfd-e\u0301.md",
            "rtl-\u202egpj.md",
            "zero\u200bwidth.md",
            "nbsp\u00a0.md",
            "Case.md",
            "case.md",
            "trailing .md",
            "trailing.md",
            "latin-a.md",
            "cyrillic-\u0430.md")) {
      Files.writeString(root.resolve(name), "x");
    }
    // A name that is not UTF-8 at all: Java cannot spell it, so python makes it.
    Process python =
        new ProcessBuilder(
                "python3",
                "-c",
                "import sys; open(sys.argv[1].encode() + b'/\\xff.md', 'w')",
                root.toString())
            .start();
    assertThat(python.waitFor()).isZero();
    Catalog catalog = catalog(root, markdown());

    assertThat(all(catalog))
        .containsExactly(
            "Case.md",
            "case.md",
            "cyrillic-\u0430.md",
            "latin-a.md",
            "nfc-\u00e9.md",
            "trailing .md",
            "trailing.md");
  }

  @Test
  void beyondItsBoundOnNotesTheCatalogKeepsNoMoreAndSaysSoOnce() throws Exception {
    Path root = root();
    for (int i = 0; i < 150; i++) {
      Files.writeString(root.resolve("n" + i + ".md"), "x");
    }
    Catalog catalog = catalog(root, markdown(), 100, 10);

    assertThat(all(catalog)).hasSize(100);
    assertThat(all(catalog)).hasSize(100);
    assertThat(log.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "notes-mcp: the workspace holds more than 100 notes the policy allows; only 100 are"
                + " served (which ones depends on the order the folders list them)\n");
  }

  @Test
  void beyondItsBoundOnFoldersTheCatalogEntersNoMoreAndSaysSoOnce() throws Exception {
    Path root = root();
    for (int i = 0; i < 5; i++) {
      write(root, "f" + i + "/n.md", "x");
    }
    Catalog catalog = catalog(root, markdown(), 100, 3);

    assertThat(all(catalog)).hasSize(2);
    assertThat(catalog.entered()).hasSize(3);
    assertThat(log.toString(StandardCharsets.UTF_8))
        .startsWith("notes-mcp: more than 3 folders could hold notes the policy allows;");
  }

  @Test
  void theEnumerationFollowsNotesMadeRemovedAndMovedBetweenCalls() throws Exception {
    Path root = root();
    write(root, "a/one.md", "x");
    Catalog catalog = catalog(root, markdown());
    assertThat(all(catalog)).containsExactly("a/one.md");

    write(root, "a/two.md", "x");
    assertThat(all(catalog)).containsExactly("a/one.md", "a/two.md");

    Files.delete(root.resolve("a/one.md"));
    assertThat(all(catalog)).containsExactly("a/two.md");

    Files.move(root.resolve("a"), root.resolve("b"));
    assertThat(all(catalog)).containsExactly("b/two.md");

    write(root, "b/c/d/three.md", "x");
    assertThat(all(catalog)).containsExactly("b/c/d/three.md", "b/two.md");

    Files.move(root.resolve("b/c"), dir.resolve("away"));
    assertThat(all(catalog)).containsExactly("b/two.md");
    assertThat(catalog.entered()).containsExactly("", "b");
  }

  @Test
  void aFolderSwappedForASymlinkLosesItsNotesAtOnce() throws Exception {
    Path root = root();
    write(root, "a/one.md", "x");
    Path outside = Files.createDirectory(dir.resolve("outside"));
    write(outside, "secret.md", "TOP SECRET");
    Catalog catalog = catalog(root, markdown());
    assertThat(all(catalog)).containsExactly("a/one.md");

    Files.move(root.resolve("a"), dir.resolve("old"));
    Files.createSymbolicLink(root.resolve("a"), outside);

    assertThat(all(catalog)).isEmpty();
    assertThat(catalog.find("a/secret.md")).isNull();
  }

  @Test
  void theCatalogsNameIsItsOwnStringEqualToTheClients() throws Exception {
    Path root = root();
    write(root, "a/one.md", "x");
    Catalog catalog = catalog(root, markdown());
    String asked = new String("a/one.md".toCharArray());

    NoteName found = catalog.find(asked);

    assertThat(found.value()).isEqualTo(asked).isNotSameAs(asked);
    assertThat(catalog.find("a/ONE.md")).isNull();
  }

  @Test
  void startingWithFindsAtMostTheGivenNumberInOrder() throws Exception {
    Path root = root();
    for (String path : List.of("Pa/x.md", "Paper.md", "Pb.md", "Pa/y.md", "Q.md")) {
      write(root, path, "x");
    }
    Catalog catalog = catalog(root, markdown());

    assertThat(catalog.startingWith("Pa", 10)).containsExactly("Pa/x.md", "Pa/y.md", "Paper.md");
    assertThat(catalog.startingWith("Pa", 2)).containsExactly("Pa/x.md", "Pa/y.md");
    assertThat(catalog.startingWith("Z", 10)).isEmpty();
  }

  @Test
  void theCursorsMacIsHmacSha256AsTheJdkComputesIt() throws Exception {
    java.util.Random random = new java.util.Random(3);
    for (int round = 0; round < 200; round++) {
      byte[] key = new byte[32];
      random.nextBytes(key);
      byte[] message = new byte[random.nextInt(300)];
      random.nextBytes(message);
      byte[] inner = new byte[64];
      byte[] outer = new byte[64];
      for (int i = 0; i < 64; i++) {
        byte k = i < 32 ? key[i] : 0;
        inner[i] = (byte) (k ^ 0x36);
        outer[i] = (byte) (k ^ 0x5c);
      }
      javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
      mac.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
      byte[] expected = java.util.Arrays.copyOf(mac.doFinal(message), 16);

      assertThat(
              CursorMac.hmac(
                  java.security.MessageDigest.getInstance("SHA-256"),
                  inner,
                  outer,
                  message,
                  message.length))
          .isEqualTo(expected);
    }
  }

  @Test
  void theListingIsInCodePointOrderOnceANameAboveUffffAppears() throws Exception {
    Path root = root();
    for (String name : List.of("a.md", "\ufffd.md", "\uff21.md", "b.md")) {
      Files.writeString(root.resolve(name), "x");
    }
    Catalog catalog = catalog(root, markdown());
    assertThat(all(catalog)).containsExactly("a.md", "b.md", "\uff21.md", "\ufffd.md");

    Files.writeString(root.resolve("\ud83d\ude00.md"), "x");
    Files.writeString(root.resolve("c.md"), "x");

    assertThat(all(catalog))
        .containsExactly("a.md", "b.md", "c.md", "\uff21.md", "\ufffd.md", "\ud83d\ude00.md");
  }

  @Test
  void theListingIsInCodePointOrderOnceANameFromUe000ToUffffJoinsNamesAboveUffff()
      throws Exception {
    Path root = root();
    Files.createDirectory(root.resolve("\ud83d\udcdd Journal"));
    for (String name : List.of("a.md", "\ud83d\ude00.md", "\ud83d\udcdd Journal/x.md", "b.md")) {
      Files.writeString(root.resolve(name), "x");
    }
    Catalog catalog = catalog(root, markdown());
    assertThat(all(catalog))
        .containsExactly("a.md", "b.md", "\ud83d\udcdd Journal/x.md", "\ud83d\ude00.md");

    Files.writeString(root.resolve("\uff21.md"), "x");
    Files.writeString(root.resolve("\ud83d\udcdd Journal/\uff21.md"), "x");

    assertThat(all(catalog))
        .containsExactly(
            "a.md",
            "b.md",
            "\uff21.md",
            "\ud83d\udcdd Journal/x.md",
            "\ud83d\udcdd Journal/\uff21.md",
            "\ud83d\ude00.md");
    assertThat(catalog.page("\ud83d\udcdd Journal", null).paths())
        .containsExactly("\ud83d\udcdd Journal/x.md", "\ud83d\udcdd Journal/\uff21.md");
  }

  @Test
  void aCharacterAboveUffffOnlyInAFolderNameCountsForTheOrderToo() throws Exception {
    Path root = root();
    Files.createDirectory(root.resolve("\ud83d\udcdd Journal"));
    for (String name : List.of("\ufffd.md", "\ud83d\udcdd Journal/x.md", "\uff21.md")) {
      Files.writeString(root.resolve(name), "x");
    }
    assertThat(all(catalog(root, markdown())))
        .as("U+FF21, U+FFFD, then U+1F4DD: String's own order would put the folder first")
        .containsExactly("\uff21.md", "\ufffd.md", "\ud83d\udcdd Journal/x.md");
  }

  @Test
  void aListenerHearsOfANoteMadeWrittenAndRemovedFromTheWatcherThread() throws Exception {
    Path root = root();
    write(root, "a/one.md", "x");
    Catalog catalog = catalog(root, markdown());
    BlockingQueue<Catalog.Change> heard = new LinkedBlockingQueue<>();
    catalog.listen(heard::add);
    Thread.sleep(200); // the watcher's first look

    write(root, "a/two.md", "new");
    Catalog.Change made = awaitChange(heard, "a/two.md");
    assertThat(made.listChanged()).isTrue();

    Files.writeString(root.resolve("a/one.md"), "changed");
    Catalog.Change written = awaitChange(heard, "a/one.md");
    assertThat(written.paths()).contains("a/one.md");

    Files.delete(root.resolve("a/two.md"));
    assertThat(awaitChange(heard, "a/two.md").listChanged()).isTrue();
  }

  @Test
  void aListenerOfANamedPolicyHearsWhenANoteChanges() throws Exception {
    Path root = root();
    Files.writeString(root.resolve("notes.txt"), "x");
    Catalog catalog = catalog(root, Policy.defaults());
    BlockingQueue<Catalog.Change> heard = new LinkedBlockingQueue<>();
    catalog.listen(heard::add);
    Thread.sleep(200); // the watcher's first look, which is no change

    Files.writeString(root.resolve("project.txt"), "new");
    Catalog.Change made = awaitChange(heard, "project.txt");
    assertThat(made.listChanged()).isTrue();
    assertThat(made.paths()).containsExactly("project.txt");

    Files.writeString(root.resolve("notes.txt"), "written");
    assertThat(awaitChange(heard, "notes.txt").paths()).containsExactly("notes.txt");
  }

  private static Catalog.Change awaitChange(BlockingQueue<Catalog.Change> heard, String path)
      throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < end) {
      Catalog.Change change = heard.poll(100, TimeUnit.MILLISECONDS);
      if (change != null && change.paths().contains(path)) {
        return change;
      }
    }
    throw new AssertionError("no change told for " + path);
  }

  @Test
  void aNamedPolicyIsListedInItsOwnOrderWithoutEnumerating() throws Exception {
    Path root = root();
    write(root, "z.md", "x");
    write(root, "Projects/a.md", "x");
    Catalog catalog =
        catalog(root, Policy.of(List.of("z.md", "missing.md", "Projects/a.md"), List.of(), 10, 1));

    assertThat(all(catalog)).containsExactly("z.md", "Projects/a.md");
    assertThat(catalog.page("Projects", null).paths()).containsExactly("Projects/a.md");
    assertThat(catalog.entered()).isEmpty();
    assertThatThrownBy(() -> catalog.page(null, "x"))
        .isInstanceOf(Catalog.Refused.class)
        .hasMessageStartingWith("cursor is not one this server issued");
  }

  @Test
  void anotherAnswersCursorHoldsOnlyForItsKindAndScope() throws Exception {
    Path root = root();
    write(root, "a.md", "x");
    Catalog catalog = catalog(root, markdown());
    String cursor = catalog.cursor('b', "a.md", "12\tb.md");

    assertThat(catalog.position(cursor, 'b', "a.md", "another note")).isEqualTo("12\tb.md");
    assertThatThrownBy(() -> catalog.position(cursor, 'b', "c.md", "another note"))
        .isInstanceOf(Catalog.Refused.class)
        .hasMessage("cursor was issued for another note");
    assertThatThrownBy(() -> catalog.position(cursor, 'f', "a.md", "another note"))
        .hasMessageStartingWith("cursor is not one this server issued");
    assertThatThrownBy(() -> catalog.page(null, cursor))
        .hasMessageStartingWith("cursor is not one this server issued");
    assertThatThrownBy(() -> catalog.cursor('p', "", "a.md"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void catchingUpTellsTheListenerOfEveryChangeBeforeItReturns() throws Exception {
    Path root = root();
    write(root, "a.md", "x");
    Catalog catalog = catalog(root, markdown());
    List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();
    catalog.listen(change -> told.addAll(change.paths()));
    assertThat(catalog.holds("a.md")).isTrue();

    Files.delete(root.resolve("a.md"));
    write(root, "b.md", "y");
    catalog.catchUp();

    assertThat(told).contains("a.md", "b.md");
    assertThat(catalog.holds("a.md")).isFalse();
    assertThat(catalog.holds("b.md")).isTrue();
    assertThat(catalog.all()).containsExactly("b.md");
  }

  private static void write(Path root, String path, String text) throws IOException {
    Path file = root.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }
}

package notesmcp.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A note in a folder, reached from the root folder by folder ({@link Folder#walk}) and read by the
 * careful read; the listing, the watcher and the writes of {@link Folder}. Each walk test runs both
 * ways: one {@code openat2} for the whole path, and one {@code openat} per folder (what a kernel
 * without openat2 gets, and what unprotected hard links need).
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WalkTest {
  @TempDir Path dir;
  private Path root;
  private Folder folder;

  @BeforeEach
  void openRoot() throws IOException {
    root = Files.createDirectory(dir.resolve("root")).toRealPath();
    folder = Folder.open(root, Rules.NO_MARGIN);
  }

  @ParameterizedTest(name = "openat2 {0}")
  @ValueSource(booleans = {true, false})
  void aNoteInNestedFoldersIsReachedAndRead(boolean beneath) throws IOException {
    Files.createDirectories(root.resolve("Projects/2026/Q1"));
    Files.writeString(root.resolve("Projects/2026/Q1/Paper Kite.md"), "kites\n");

    try (Folder reached = folder.walk("Projects/2026/Q1", beneath);
        OpenedFile note = reached.open("Paper Kite.md", "Projects/2026/Q1/Paper Kite.md")) {
      assertThat(new String(note.readAll(100), StandardCharsets.UTF_8)).isEqualTo("kites\n");
      assertThat(note.identity().inode())
          .isEqualTo(
              Files.getAttribute(root.resolve("Projects/2026/Q1/Paper Kite.md"), "unix:ino"));
    }
  }

  @ParameterizedTest(name = "openat2 {0}")
  @ValueSource(booleans = {true, false})
  void aSymlinkedFolderIsNeverEnteredAtAnyDepth(boolean beneath) throws IOException {
    Path outside = Files.createDirectory(dir.resolve("outside"));
    Files.writeString(outside.resolve("secret.md"), "TOP SECRET");
    Files.createDirectories(root.resolve("a/b"));
    Files.createSymbolicLink(root.resolve("Linked"), outside);
    Files.createSymbolicLink(root.resolve("a/b/Linked"), outside);

    assertThatThrownBy(() -> folder.walk("Linked", beneath))
        .isInstanceOf(Folder.NotAFolder.class)
        .hasMessage("the folder Linked is a symbolic link (links are never followed)");
    assertThatThrownBy(() -> folder.walk("a/b/Linked", beneath))
        .isInstanceOf(Folder.NotAFolder.class)
        .hasMessageStartingWith("the folder a/b/Linked is a symbolic link");
  }

  @ParameterizedTest(name = "openat2 {0}")
  @ValueSource(booleans = {true, false})
  void aLinkInTheMiddleOfThePathIsNeverFollowed(boolean beneath) throws IOException {
    Files.createDirectories(root.resolve("a/real/c"));
    Files.createSymbolicLink(root.resolve("a/link"), root.resolve("a/real"));

    assertThatThrownBy(() -> folder.walk("a/link/c", beneath))
        .isInstanceOf(Folder.NotAFolder.class)
        .hasMessageContaining("is a symbolic link (links are never followed)");
  }

  @ParameterizedTest(name = "openat2 {0}")
  @ValueSource(booleans = {true, false})
  void aFileOrAFifoWhereAFolderShouldBeIsRefusedAndAMissingOneIsMissing(boolean beneath)
      throws Exception {
    Files.writeString(root.resolve("file"), "x");
    assertThat(new ProcessBuilder("mkfifo", root.resolve("fifo").toString()).start().waitFor())
        .isZero();

    assertThatThrownBy(() -> folder.walk("file", beneath))
        .isInstanceOf(Folder.NotAFolder.class)
        .hasMessage("the folder file is not a folder");
    assertThatThrownBy(() -> folder.walk("fifo/x", beneath)).isInstanceOf(Folder.NotAFolder.class);
    assertThatThrownBy(() -> folder.walk("missing/x", beneath))
        .isInstanceOf(NoSuchFileException.class);
  }

  @Test
  void onlyARelativePathOfPlainNamesIsWalked() {
    for (String path : new String[] {"/etc", "a/../b", "..", "a//b", "a/", "./a", "a\0b"}) {
      assertThatThrownBy(() -> folder.walk(path))
          .as(path)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void anEmptyPathIsTheStartFolderWhoseCloseKeepsIt() throws IOException {
    Files.writeString(root.resolve("note"), "x");
    try (Folder same = folder.walk("")) {
      assertThat(same).isSameAs(folder);
    }

    assertThat(folder.attributesOf("note")).isNotNull();
  }

  @Test
  void aFortyDeepChainIsWalkedAndLeavesNoDescriptorOpen() throws IOException {
    StringBuilder path = new StringBuilder("d0");
    for (int i = 1; i < 40; i++) {
      path.append("/d").append(i);
    }
    Files.createDirectories(root.resolve(path.toString()));
    Files.writeString(root.resolve(path + "/deep.md"), "deep");

    for (boolean beneath : new boolean[] {true, false}) {
      for (int i = 0; i < 50; i++) {
        try (Folder deep = folder.walk(path.toString(), beneath);
            OpenedFile note = deep.open("deep.md")) {
          assertThat(note.readAll(10)).hasSize(4);
        }
      }
    }

    assertThat(descriptorsInside(root)).isEmpty();
  }

  @Test
  void aFolderMovedAwayDuringAWalkIsNeverFollowedOutside() throws IOException {
    Files.createDirectories(root.resolve("Projects"));
    Path outside = Files.createDirectory(dir.resolve("outside"));
    Files.writeString(outside.resolve("secret.md"), "TOP SECRET");

    try (Folder projects = folder.walk("Projects")) {
      // The folder opened stays the folder read, whatever its name becomes.
      Files.move(root.resolve("Projects"), dir.resolve("moved"));
      Files.createSymbolicLink(root.resolve("Projects"), outside);

      assertThatThrownBy(() -> projects.open("secret.md")).isInstanceOf(NoSuchFileException.class);
    }
    assertThatThrownBy(() -> folder.walk("Projects"))
        .isInstanceOf(Folder.NotAFolder.class)
        .hasMessageContaining("symbolic link");
  }

  @Test
  void withHardLinksUnprotectedAFolderOthersMayWriteIsRefusedWhereverItIsReached()
      throws IOException {
    ChangeRule unprotected = new ChangeRule(false, Duration.ZERO);
    Files.createDirectories(root.resolve("Shared/inner"));
    Files.setPosixFilePermissions(
        root.resolve("Shared"),
        java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
    Folder strict = Folder.open(root, unprotected);

    for (boolean beneath : new boolean[] {true, false}) {
      assertThatThrownBy(() -> strict.walk("Shared/inner", beneath))
          .as("beneath " + beneath)
          .isInstanceOf(Folder.NotAFolder.class)
          .hasMessage(
              "the folder Shared is writable by every user (mode 0777), and this system does not"
                  + " protect hard links (fs.protected_hardlinks is not 1), so another user could"
                  + " link into it a file only you can read");
    }
    try (Folder protectedWalk = folder.walk("Shared/inner")) {
      assertThat(protectedWalk).isNotNull();
    }
  }

  @Test
  void folderWritesLinkRenameExchangeRemoveAndMakeFolders() throws IOException {
    WritableFolder top = WritableFolder.of(folder);
    top.makeFolder("sub");
    try (WritableFolder sub = WritableFolder.of(folder.folder("sub"))) {
      try (WritableFile file = sub.create("a")) {
        file.write(new byte[] {'A'});
      }
      assertThatThrownBy(() -> sub.create("a"))
          .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
      sub.link("a", top, "a-link");
      assertThatThrownBy(() -> sub.link("a", top, "a-link"))
          .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
      sub.rename("a", sub, "b", false);
      try (WritableFile file = sub.create("c")) {
        file.write(new byte[] {'C'});
      }
      assertThatThrownBy(() -> sub.rename("b", sub, "c", false))
          .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
      sub.exchange("b", "c");
      assertThat(Files.readString(root.resolve("sub/b"))).isEqualTo("C");
      assertThat(Files.readString(root.resolve("sub/c"))).isEqualTo("A");
      sub.rename("c", sub, "b", true);
      assertThat(Files.readString(root.resolve("sub/b"))).isEqualTo("A");
      sub.remove("b");
      assertThatThrownBy(() -> sub.remove("b")).isInstanceOf(NoSuchFileException.class);
    }
    assertThat(Files.readString(root.resolve("a-link"))).isEqualTo("A");
    assertThatThrownBy(() -> top.removeFolder("missing")).isInstanceOf(NoSuchFileException.class);
    top.removeFolder("sub");
    assertThat(Files.exists(root.resolve("sub"))).isFalse();
  }

  @Test
  void aLockFileIsHeldAroundTheWorkAndAFileIsReadAndWrittenThroughTheFoldersDescriptor()
      throws IOException {
    WritableFolder top = WritableFolder.of(folder);
    String held =
        top.locked(
            "lock",
            "the lock",
            () -> {
              throw new AssertionError("nobody else holds it");
            },
            () -> {
              try (java.nio.channels.FileChannel log = top.openToAppend("log", Posix.userId())) {
                log.write(java.nio.ByteBuffer.wrap(new byte[] {'x'}));
              }
              return "ran";
            });

    assertThat(held).isEqualTo("ran");
    assertThat(Files.readString(root.resolve("log"))).isEqualTo("x");
    assertThat(Files.getPosixFilePermissions(root.resolve("log")))
        .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    try (OpenedFile opened = folder.open("log");
        java.nio.channels.FileChannel log = opened.reopened()) {
      assertThat(log.size()).isEqualTo(1);
    }
    Files.createSymbolicLink(root.resolve("link"), root.resolve("log"));
    assertThatThrownBy(() -> top.openToAppend("link", Posix.userId()))
        .isInstanceOf(IOException.class);
  }

  @Test
  void aListingOfThousandsOfEntriesHoldsOneChunkAtATime() throws IOException {
    Path big = Files.createDirectory(root.resolve("big"));
    Posix.require();
    try (Folder inside = folder.folder("big")) {
      for (int i = 0; i < 1_200; i++) {
        WritableFolder.of(inside).makeFolder("an entry with a name of some length " + i);
      }
      long count = 0;
      long nameBytes = 0;
      try (Folder.Entries entries = inside.entries()) {
        Folder.Entry entry;
        while ((entry = entries.next()) != null) {
          count++;
          nameBytes += entry.name().length;
          assertThat(entry.type()).isEqualTo(Posix.DT_DIR);
        }
      }
      assertThat(count).isEqualTo(1_200);
      assertThat(nameBytes).as("more than one chunk").isGreaterThan(Folder.Entries.CHUNK);
    }
    assertThat(Files.isDirectory(big)).isTrue();
  }

  @Test
  void twoListingsOfOneFolderNeverShareAPosition() throws IOException {
    for (int i = 0; i < 50; i++) {
      Files.createFile(root.resolve("f" + i));
    }
    List<String> first = new ArrayList<>();
    List<String> second = new ArrayList<>();
    try (Folder.Entries a = folder.entries();
        Folder.Entries b = folder.entries()) {
      Folder.Entry x;
      Folder.Entry y;
      do {
        x = a.next();
        y = b.next();
        if (x != null) {
          first.add(x.text());
        }
        if (y != null) {
          second.add(y.text());
        }
      } while (x != null || y != null);
    }

    assertThat(first).hasSize(50).isEqualTo(second);
  }

  @Test
  void aNameThatIsNotUtf8IsListedAsItsBytes() throws IOException {
    byte[] latin1 = {'c', 'a', 'f', (byte) 0xe9};
    try (WritableFile file =
        WritableFolder.of(folder).create(new String(latin1, StandardCharsets.ISO_8859_1))) {
      file.write(new byte[0]);
    }
    // Java wrote it as UTF-8 (c3 a9); make a second one with the raw byte through the shell.
    Process touch =
        new ProcessBuilder("sh", "-c", "touch \"$(printf 'caf\\351')\"")
            .directory(root.toFile())
            .start();
    try {
      assertThat(touch.waitFor()).isZero();
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
    List<String> texts = new ArrayList<>();
    List<Integer> lengths = new ArrayList<>();
    try (Folder.Entries entries = folder.entries()) {
      Folder.Entry entry;
      while ((entry = entries.next()) != null) {
        texts.add(entry.text());
        lengths.add(entry.name().length);
      }
    }

    assertThat(texts).containsExactlyInAnyOrder("caf\u00e9", null);
    assertThat(lengths).containsExactlyInAnyOrder(5, 4);
  }

  @Test
  void aWatcherHearsOfNamesInAFolderItWatches() throws IOException {
    Files.createDirectories(root.resolve("Inbox"));
    try (Folder inbox = folder.folder("Inbox");
        Watcher watcher = Watcher.open()) {
      int watch = watcher.watch(inbox, Watcher.NAMES);
      assertThat(watcher.events()).isEmpty();

      Files.writeString(root.resolve("Inbox/new.md"), "x");
      Files.move(root.resolve("Inbox/new.md"), root.resolve("Inbox/renamed.md"));
      Files.delete(root.resolve("Inbox/renamed.md"));

      assertThat(watcher.await(5000)).isTrue();
      List<String> heard = new ArrayList<>();
      for (Watcher.Event event : watcher.events()) {
        assertThat(event.watch()).isEqualTo(watch);
        heard.add(event.mask() + " " + new String(event.name(), StandardCharsets.UTF_8));
      }
      assertThat(heard)
          .containsExactly(
              Posix.IN_CREATE + " new.md",
              Posix.IN_MOVED_FROM + " new.md",
              Posix.IN_MOVED_TO + " renamed.md",
              Posix.IN_DELETE + " renamed.md");
      watcher.unwatch(watch);
      assertThat(watcher.events()).extracting(Watcher.Event::ended).containsExactly(true);
      watcher.unwatch(watch); // already ended: not an error
      assertThat(watcher.await(0)).isFalse();
    }
  }

  private static List<Path> descriptorsInside(Path folder) throws IOException {
    List<Path> inside = new ArrayList<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      for (Path fd : fds.toList()) {
        try {
          Path target = Files.readSymbolicLink(fd);
          if (target.startsWith(folder) && !target.equals(folder)) {
            inside.add(target);
          }
        } catch (IOException gone) {
          // the listing's own descriptor, closed meanwhile
        }
      }
    }
    return inside;
  }
}

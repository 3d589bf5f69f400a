package notesmcp.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The careful open of {@link Folder} and the descriptor of {@link OpenedFile}, over the native
 * library: every kind of file that is not a single-link regular file, and no descriptor left open
 * on any path.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FolderTest {
  @TempDir Path dir;
  private Path root;
  private Folder folder;

  @BeforeEach
  void openFolder() throws IOException {
    root = Files.createDirectory(dir.resolve("folder"));
    folder = Folder.open(root.toRealPath(), Rules.NO_MARGIN);
  }

  @Test
  void aRegularFileIsOpenedAndReadFromItsDescriptor() throws IOException {
    Files.writeString(root.resolve("note"), "twelve bytes");

    try (OpenedFile note = folder.open("note")) {
      assertThat(note.links()).isEqualTo(1);
      assertThat(note.size()).isEqualTo(12);
      assertThat(note.readAll(100)).isEqualTo("twelve bytes".getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void aNameReplacedAfterTheOpenIsRefusedAsChangedAndTheNewFileNeverRead() throws IOException {
    Files.writeString(root.resolve("note"), "the file opened");
    Path secret = Files.writeString(dir.resolve("secret"), "TOP SECRET");

    try (OpenedFile note = folder.open("note")) {
      Files.delete(root.resolve("note"));
      Files.createLink(root.resolve("note"), secret);

      assertThatThrownBy(() -> note.readAll(100))
          .isInstanceOf(OpenedFile.ChangedWhileReading.class)
          .hasMessage("note changed while it was being read; try again");
    }
  }

  @Test
  void aSymbolicLinkIsRefusedWithoutFollowingIt() throws IOException {
    Files.writeString(dir.resolve("secret"), "TOP SECRET");
    Files.createSymbolicLink(root.resolve("note"), dir.resolve("secret"));

    assertThatThrownBy(() -> folder.open("note"))
        .isInstanceOf(Folder.NotRegularFile.class)
        .hasMessage("note is a symbolic link (links are never followed), not a regular file");
  }

  @Test
  void aDirectoryIsRefused() throws IOException {
    Files.createDirectory(root.resolve("note"));

    assertThatThrownBy(() -> folder.open("note"))
        .isInstanceOf(Folder.NotRegularFile.class)
        .hasMessage("note is a directory, not a regular file");
  }

  @Test
  void aFifoNobodyWritesIsRefusedWithoutWaiting() throws Exception {
    mkfifo(root.resolve("note"));

    assertThatThrownBy(() -> folder.open("note"))
        .isInstanceOf(Folder.NotRegularFile.class)
        .hasMessage("note is a special file (FIFO, socket or device), not a regular file");
  }

  @Test
  void aDeviceIsRefused() throws IOException {
    Folder devices = Folder.open(Path.of("/dev").toRealPath());

    assertThatThrownBy(() -> devices.open("null"))
        .isInstanceOf(Folder.NotRegularFile.class)
        .hasMessage("null is a special file (FIFO, socket or device), not a regular file");
  }

  @Test
  void aSecondHardLinkCountsEvenAfterTheOtherNameIsRemovedOnceOpened() throws IOException {
    // Open a name while it is a hard link to an outside file, then the other process
    // removes that outside name; the descriptor alone now shows one link. The name showed two.
    Path outside = Files.writeString(dir.resolve("outside"), "not a note");
    Files.createLink(root.resolve("note"), outside);

    try (OpenedFile note = folder.open("note")) {
      Files.delete(outside);

      assertThat(Files.getAttribute(root.resolve("note"), "unix:nlink")).isEqualTo(1);
      assertThat(note.links()).isEqualTo(2);
    }
  }

  @Test
  void theNameAndTheDescriptorMustBeTheSameRegularFile() {
    long[] note = attributes(0100600, 1, 42, 7);

    assertThat(
            new OpenedFile(-1, "note", null, null, note, attributes(0100600, 1, 42, 7))
                .isWhatTheNameShowed())
        .isTrue();
    assertThat(
            new OpenedFile(-1, "note", null, null, note, attributes(0100600, 1, 42, 8))
                .isWhatTheNameShowed())
        .as("another inode")
        .isFalse();
    assertThat(
            new OpenedFile(-1, "note", null, null, note, attributes(0100600, 1, 43, 7))
                .isWhatTheNameShowed())
        .as("another device")
        .isFalse();
    assertThat(
            new OpenedFile(-1, "note", null, null, note, attributes(0010600, 1, 42, 7))
                .isWhatTheNameShowed())
        .as("a FIFO")
        .isFalse();
  }

  private static long[] attributes(int mode, int links, long device, long inode) {
    long[] attributes = new long[Posix.ATTRIBUTES];
    attributes[Posix.MODE] = mode;
    attributes[Posix.LINKS] = links;
    attributes[Posix.DEVICE] = device;
    attributes[Posix.INODE] = inode;
    return attributes;
  }

  @Test
  void aFileOverTheBoundReadsAsNullAndOneAtItAsItsBytes() throws IOException {
    Files.write(root.resolve("big"), new byte[4097]);
    Files.write(root.resolve("exact"), new byte[4096]);

    try (OpenedFile big = folder.open("big");
        OpenedFile exact = folder.open("exact")) {
      assertThat(big.readAll(4096)).isNull();
      assertThat(exact.readAll(4096)).hasSize(4096);
    }
  }

  @Test
  void aFileWrittenAfterItIsOpenedIsRefusedAsChangedOrOverTheBoundAsNull() throws IOException {
    Path file = Files.writeString(root.resolve("note"), "short");

    try (OpenedFile note = folder.open("note")) {
      Files.writeString(file, "short, then longer");
      assertThatThrownBy(() -> note.readAll(100))
          .isInstanceOf(OpenedFile.ChangedWhileReading.class);
    }
    try (OpenedFile note = folder.open("note")) {
      Files.write(file, new byte[200]);
      assertThat(note.readAll(100)).isNull();
    }
  }

  @Test
  void nothingAtTheNameIsNoSuchFile() {
    assertThatThrownBy(() -> folder.open("missing")).isInstanceOf(NoSuchFileException.class);
    assertThatThrownBy(() -> folder.attributesOf("missing"))
        .isInstanceOf(NoSuchFileException.class);
  }

  @Test
  void onlyAPlainFileNameIsLookedUp() {
    for (String notAName : new String[] {"", ".", "..", "a/b", "/etc/passwd"}) {
      assertThatThrownBy(() -> folder.open(notAName))
          .as(notAName)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void aFolderMustBeARealDirectory() throws IOException {
    Path file = Files.createFile(dir.resolve("file"));
    Path link = Files.createSymbolicLink(dir.resolve("link"), root);

    assertThatThrownBy(() -> Folder.open(file)).isInstanceOf(NotDirectoryException.class);
    assertThatThrownBy(() -> Folder.open(link)).isInstanceOf(NotDirectoryException.class);
    assertThatThrownBy(() -> Folder.open(dir.resolve("missing")))
        .isInstanceOf(NoSuchFileException.class);
  }

  @Test
  void noDescriptorIsLeftOpenOnAnyPath() throws Exception {
    Files.writeString(root.resolve("note"), "x");
    Files.createSymbolicLink(root.resolve("link"), root.resolve("note"));
    Files.createDirectory(root.resolve("directory"));
    mkfifo(root.resolve("fifo"));
    Files.write(root.resolve("big"), new byte[100]);

    for (int i = 0; i < 200; i++) {
      for (String name : new String[] {"note", "link", "directory", "fifo", "big", "missing"}) {
        try (OpenedFile file = folder.open(name)) {
          file.readAll(10);
        } catch (IOException refused) {
          // each refusal must leave nothing open either
        }
      }
    }

    assertThat(descriptorsOfFilesIn(root.toRealPath())).isEmpty();
  }

  /** This process's open descriptors of files inside {@code folder} (not of the folder itself). */
  private static List<Path> descriptorsOfFilesIn(Path folder) throws IOException {
    List<Path> inside = new ArrayList<>();
    try (Stream<Path> open = Files.list(Path.of("/proc/self/fd"))) {
      for (Path fd : open.toList()) {
        try {
          Path target = Files.readSymbolicLink(fd);
          if (target.startsWith(folder) && !target.equals(folder)) {
            inside.add(target);
          }
        } catch (IOException gone) {
          // closed meanwhile (the listing's own descriptor)
        }
      }
    }
    return inside;
  }

  private static void mkfifo(Path path) throws Exception {
    assertThat(new ProcessBuilder("mkfifo", path.toString()).inheritIO().start().waitFor())
        .isZero();
  }
}

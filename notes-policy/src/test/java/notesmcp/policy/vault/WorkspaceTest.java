package notesmcp.policy.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import notesmcp.files.WritableFile;
import notesmcp.files.WritableFolder;
import notesmcp.policy.rules.NoteName;
import notesmcp.policy.rules.Policy;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class WorkspaceTest {
  private static final NoteName NOTES = NoteName.configured("notes.txt");
  private static final int MAX = Policy.DEFAULT_MAX_NOTE_BYTES;

  @TempDir Path dir;
  private Path root;
  private Workspace workspace;

  @BeforeEach
  void createWorkspace() throws IOException {
    root = Files.createDirectory(dir.resolve("workspace"));
    workspace = Workspace.at(root, Rules.NO_MARGIN);
  }

  @Test
  void regularFileIsReadAsText() throws IOException {
    Files.writeString(root.resolve("notes.txt"), "caf\u00e9 \u20ac \ud83d\ude00\n");

    assertThat(((Workspace.Text) workspace.read(NOTES, MAX)).content())
        .isEqualTo("caf\u00e9 \u20ac \ud83d\ude00\n");
  }

  @Test
  void emptyFileIsEmptyText() throws IOException {
    Files.createFile(root.resolve("notes.txt"));

    assertThat(((Workspace.Text) workspace.read(NOTES, MAX)).content()).isEqualTo("");
  }

  @Test
  void symlinkToAFileOutsideIsRefusedWithoutFollowing() throws IOException {
    Path secret = Files.writeString(dir.resolve("secret.txt"), "secret");
    Files.createSymbolicLink(root.resolve("notes.txt"), secret);

    assertThat(workspace.read(NOTES, MAX))
        .isEqualTo(
            new Workspace.Unreadable(
                "notes.txt is a symbolic link (links are never followed), not a regular file"));
    assertThat(workspace.isRegularFile(NOTES)).isFalse();
  }

  @Test
  void symlinkToAFileInsideIsRefusedToo() throws IOException {
    Files.writeString(root.resolve("project.txt"), "inside");
    Files.createSymbolicLink(root.resolve("notes.txt"), Path.of("project.txt"));

    assertThat(workspace.read(NOTES, MAX))
        .isEqualTo(
            new Workspace.Unreadable(
                "notes.txt is a symbolic link (links are never followed), not a regular file"));
  }

  @Test
  void directoryIsRefused() throws IOException {
    Files.createDirectory(root.resolve("notes.txt"));

    assertThat(workspace.read(NOTES, MAX))
        .isEqualTo(new Workspace.Unreadable("notes.txt is a directory, not a regular file"));
    assertThat(workspace.isRegularFile(NOTES)).isFalse();
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void fifoIsRefusedWithoutBlocking() throws Exception {
    Path fifo = root.resolve("notes.txt");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
    assertThat(mkfifo.waitFor()).isZero();

    // Nobody ever opens the other end: an open() for reading would block forever.
    assertThat(workspace.read(NOTES, MAX))
        .isEqualTo(
            new Workspace.Unreadable(
                "notes.txt is a special file (FIFO, socket or device), not a regular file"));
    assertThat(workspace.isRegularFile(NOTES)).isFalse();
  }

  @Test
  void fileWithASecondHardLinkIsRefused() throws IOException {
    Path note = Files.writeString(root.resolve("notes.txt"), "shared inode");
    Files.createLink(dir.resolve("elsewhere.txt"), note);

    assertThat(workspace.read(NOTES, MAX))
        .isEqualTo(
            new Workspace.Unreadable(
                "notes.txt has 2 hard links; a note must have exactly one"
                    + " (another link may lead outside the workspace)"));
  }

  @Test
  void noteOfExactlyTheLimitIsRead() throws IOException {
    Files.writeString(root.resolve("notes.txt"), "x".repeat(MAX));

    assertThat(((Workspace.Text) workspace.read(NOTES, MAX)).content()).isEqualTo("x".repeat(MAX));
  }

  @Test
  void noteOneByteOverTheLimitIsRefused() throws IOException {
    Files.writeString(root.resolve("notes.txt"), "x".repeat(MAX + 1));

    assertThat(workspace.read(NOTES, MAX))
        .isEqualTo(new Workspace.Unreadable("notes.txt is 2049 bytes; the limit is 2048 bytes"));
  }

  @Test
  void limitCountsBytesNotCharacters() throws IOException {
    // 700 three-byte characters: 700 chars, 2,100 bytes.
    Files.writeString(root.resolve("notes.txt"), "\u20ac".repeat(700));

    assertThat(workspace.read(NOTES, MAX))
        .isEqualTo(new Workspace.Unreadable("notes.txt is 2100 bytes; the limit is 2048 bytes"));
  }

  @Test
  void invalidUtf8IsRefusedNamingTheFirstBadByte() throws IOException {
    Files.write(root.resolve("notes.txt"), new byte[] {'a', 'b', (byte) 0xff, 'c', (byte) 0xfe});

    assertThat(workspace.read(NOTES, MAX))
        .isEqualTo(new Workspace.Unreadable("notes.txt is not valid UTF-8 (byte 2)"));
  }

  @Test
  void overlongEncodingIsRefused() throws IOException {
    // 0xC0 0xAF is an overlong '/': never valid UTF-8.
    Files.write(root.resolve("notes.txt"), new byte[] {'o', 'k', (byte) 0xc0, (byte) 0xaf});

    assertThat(workspace.read(NOTES, MAX))
        .isEqualTo(new Workspace.Unreadable("notes.txt is not valid UTF-8 (byte 2)"));
  }

  @Test
  void encodedSurrogateIsRefused() throws IOException {
    // ED A0 80 is U+D800 encoded as if it were a character (CESU-8), not UTF-8.
    Files.write(root.resolve("notes.txt"), new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80});

    assertThat(workspace.read(NOTES, MAX))
        .isEqualTo(new Workspace.Unreadable("notes.txt is not valid UTF-8 (byte 0)"));
  }

  @Test
  void truncatedMultiByteSequenceAtTheEndIsRefused() throws IOException {
    byte[] euro = "\u20ac".getBytes(StandardCharsets.UTF_8);
    Files.write(root.resolve("notes.txt"), new byte[] {'a', 'b', euro[0], euro[1]});

    assertThat(workspace.read(NOTES, MAX))
        .isEqualTo(new Workspace.Unreadable("notes.txt is not valid UTF-8 (byte 2)"));
  }

  @Test
  void missingNoteIsRefused() {
    assertThat(workspace.read(NOTES, MAX))
        .isEqualTo(new Workspace.Unreadable("notes.txt does not exist in the workspace"));
    assertThat(workspace.isRegularFile(NOTES)).isFalse();
    assertThat(workspace.isOccupied(NOTES)).isFalse();
  }

  @Test
  void danglingSymlinkOccupiesTheName() throws IOException {
    Files.createSymbolicLink(root.resolve("notes.txt"), dir.resolve("nowhere.txt"));

    assertThat(workspace.isOccupied(NOTES)).isTrue();
    assertThat(workspace.isRegularFile(NOTES)).isFalse();
    assertThat(workspace.read(NOTES, MAX))
        .isEqualTo(
            new Workspace.Unreadable(
                "notes.txt is a symbolic link (links are never followed), not a regular file"));
  }

  @Test
  void regularFileAndDirectoryOccupyTheName() throws IOException {
    Files.createFile(root.resolve("notes.txt"));
    Files.createDirectory(root.resolve("draft.txt"));

    assertThat(workspace.isOccupied(NOTES)).isTrue();
    assertThat(workspace.isOccupied(NoteName.configured("draft.txt"))).isTrue();
    assertThat(workspace.isRegularFile(NOTES)).isTrue();
  }

  @Test
  void rootIsResolvedToItsRealPathOnce() throws IOException {
    Path link = Files.createSymbolicLink(dir.resolve("link-to-workspace"), root);

    assertThat(Workspace.at(link).root()).isEqualTo(root.toRealPath());
  }

  @Test
  void rootThatIsAFileIsRefused() throws IOException {
    Path file = Files.createFile(dir.resolve("file"));

    assertThatThrownBy(() -> Workspace.at(file))
        .isInstanceOf(IOException.class)
        .hasMessage(file + " is not a directory");
  }

  @Test
  void missingRootIsRefused() {
    assertThatThrownBy(() -> Workspace.at(dir.resolve("missing")))
        .isInstanceOf(NoSuchFileException.class);
  }

  @Test
  void theWorkspaceReadsANoteInAFolderAndNamesItsPathInEveryRefusal() throws IOException {
    Files.createDirectories(root.resolve("Projects"));
    Files.writeString(root.resolve("Projects/Paper Kite.md"), "kites");
    Files.createSymbolicLink(root.resolve("Linked"), root.resolve("Projects"));
    Files.createDirectory(root.resolve("Projects/Folder.md"));
    Workspace workspace = Workspace.at(root, Rules.NO_MARGIN);

    Workspace.Raw read = workspace.readBytes("Projects/Paper Kite.md", 100);
    assertThat(read).isInstanceOf(Workspace.Bytes.class);
    Workspace.Bytes bytes = (Workspace.Bytes) read;
    assertThat(new String(bytes.bytes(), StandardCharsets.UTF_8)).isEqualTo("kites");
    assertThat(bytes.identity().size()).isEqualTo(5);
    assertThat(bytes.identity().inode())
        .isEqualTo(Files.getAttribute(root.resolve("Projects/Paper Kite.md"), "unix:ino"));

    assertThat(workspace.readBytes("Linked/Paper Kite.md", 100))
        .isEqualTo(
            new Workspace.Unreadable(
                "Linked/Paper Kite.md cannot be read: the folder Linked is a symbolic link"
                    + " (links are never followed)"));
    assertThat(workspace.readBytes("Projects/Folder.md", 100))
        .isEqualTo(
            new Workspace.Unreadable("Projects/Folder.md is a directory, not a regular file"));
    assertThat(workspace.readBytes("Nowhere/x.md", 100))
        .isEqualTo(new Workspace.Unreadable("Nowhere/x.md does not exist in the workspace"));
    assertThat(workspace.readBytes("Projects/missing.md", 100))
        .isEqualTo(new Workspace.Unreadable("Projects/missing.md does not exist in the workspace"));
  }

  @Test
  void aReachedPlaceGivesTheNotesFolderForWritesBesideIt() throws IOException {
    Files.createDirectories(root.resolve("Inbox"));
    Workspace workspace = Workspace.at(root, Rules.NO_MARGIN);

    try (Workspace.Place place = workspace.reach("Inbox/idea.md")) {
      assertThat(place.name()).isEqualTo("idea.md");
      WritableFolder folder = WritableFolder.of(place.folder());
      try (WritableFile temp = folder.create(".tmp-1")) {
        temp.write("new idea\n".getBytes(StandardCharsets.UTF_8));
        temp.sync();
      }
      folder.rename(".tmp-1", folder, place.name(), false);
      folder.sync();
    }

    assertThat(Files.readString(root.resolve("Inbox/idea.md"))).isEqualTo("new idea\n");
    try (Workspace.Place place = workspace.reach("notes.txt")) {
      assertThat(place.folder()).isSameAs(workspace.rootFolder());
    }
  }
}

package notesmcp.policy.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import notesmcp.files.ChangeRule;
import notesmcp.files.OpenedFile;
import notesmcp.files.Posix;
import notesmcp.policy.rules.NoteName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The change rule of the careful read, with the real margin: one look at a note or its folder
 * changed within the margin, or during the read, gives no bytes ("changed while it was being read;
 * try again"); the tools' read tries once more when the margin has passed and refuses a note still
 * changing then; a settled one always reads; readers that may wait ({@link OpenedFile#patiently})
 * wait it out. And the hard-link protection's side: a folder another user may write is refused only
 * when the kernel does not protect hard links.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ChangeRuleTest {
  private static final NoteName NOTES = NoteName.configured("notes.txt");
  private static final String REFUSED = "notes.txt changed while it was being read; try again";

  @TempDir Path dir;
  private Path root;
  private Workspace workspace;

  /**
   * The first lambda and the first careful read of a JVM cost tens of milliseconds, as much as the
   * margin: taken here, so that no test's read of a fresh change comes after the margin has passed.
   */
  @BeforeAll
  static void warmUp() {
    assertThatThrownBy(
            () -> {
              throw new IOException("warm");
            })
        .hasMessage("warm");
  }

  @BeforeEach
  void createWorkspace() throws IOException {
    root = Files.createDirectory(dir.resolve("workspace")).toRealPath();
    workspace = Workspace.at(root, new ChangeRule(true, ChangeRule.MARGIN));
  }

  @Test
  void aNoteWrittenWithinTheMarginIsReadOnceTheMarginHasPassedNotRefused() throws IOException {
    Files.writeString(root.resolve("notes.txt"), "fresh");
    try (OpenedFile note = workspace.rootFolder().open("notes.txt")) {
      assertThatThrownBy(() -> note.readAll(100)).hasMessage(REFUSED); // one look: too fresh
    }

    assertThat(workspace.read(NOTES, 100)).isEqualTo(new Workspace.Text("fresh"));
  }

  @Test
  void aNoteReplacedInPlaceIsReadAsItIsNowNeverAsItWas() throws IOException {
    Path note = Files.writeString(root.resolve("notes.txt"), "old");
    Rules.waitOutMargin();
    assertThat(workspace.read(NOTES, 100)).isEqualTo(new Workspace.Text("old"));

    Files.writeString(note, "new"); // the same inode, a new change time

    assertThat(workspace.read(NOTES, 100)).isEqualTo(new Workspace.Text("new"));
  }

  @Test
  void aChangeToTheFolderAloneIsWaitedOutBeforeItsNotesAreRead() throws IOException {
    Files.writeString(root.resolve("notes.txt"), "settled");
    Rules.waitOutMargin();

    // The read must come while the folder's change is fresh; a machine too busy to make it within
    // half the margin proves nothing either way, so that round is run again.
    for (int round = 0; ; round++) {
      Files.writeString(root.resolve("other-" + round + ".txt"), "a name made beside it");
      long made = System.nanoTime();
      boolean refused;
      try (OpenedFile note = workspace.rootFolder().open("notes.txt")) {
        note.readAll(100);
        refused = false;
      } catch (IOException e) {
        assertThat(e).hasMessage(REFUSED);
        refused = true;
      }
      if (refused) {
        break;
      }
      if (System.nanoTime() - made > ChangeRule.MARGIN.toNanos() / 2 && round < 20) {
        continue;
      }
      assertThat(refused).as("a read while the folder's change is fresh").isTrue();
    }
    Rules.waitOutMargin();

    assertThat(workspace.read(NOTES, 100)).isEqualTo(new Workspace.Text("settled"));
  }

  @Test
  void aNoteThatKeepsChangingIsRefusedAfterOneRetry() throws Exception {
    // A writer that changes the note every 5 ms. Should the machine stall it for longer than the
    // margin while a read runs, the note really was quiet that long and the read may answer: that
    // round proves nothing, and is run again.
    Path note = Files.writeString(root.resolve("notes.txt"), "0");
    for (int round = 0; ; round++) {
      AtomicBoolean stop = new AtomicBoolean();
      List<Long> writes = new CopyOnWriteArrayList<>();
      Thread writer =
          new Thread(
              () -> {
                for (int i = 1; !stop.get(); i++) {
                  try {
                    Files.writeString(note, Integer.toString(i));
                    writes.add(System.nanoTime());
                    Thread.sleep(5);
                  } catch (IOException | InterruptedException e) {
                    return;
                  }
                }
              });
      writer.start();
      Workspace.Read read;
      long start;
      long end;
      try {
        while (writes.size() < 2) {
          Thread.onSpinWait();
        }
        start = System.nanoTime();
        read = workspace.read(NOTES, 100);
        end = System.nanoTime();
      } finally {
        stop.set(true);
        writer.join();
      }
      if (!read.equals(new Workspace.Unreadable(REFUSED))
          && longestQuiet(writes, start, end) > ChangeRule.MARGIN.toNanos() / 2
          && round < 20) {
        continue;
      }
      assertThat(read).isEqualTo(new Workspace.Unreadable(REFUSED));
      return;
    }
  }

  /** The longest time without a write that overlaps {@code [from, to]}. */
  private static long longestQuiet(List<Long> writes, long from, long to) {
    long longest = 0;
    long last = from;
    for (long at : writes) {
      if (at < from) {
        last = at; // the quiet time a read finds starts at the last write before it
        continue;
      }
      longest = Math.max(longest, Math.min(at, to) - last);
      last = at;
      if (at >= to) {
        return longest;
      }
    }
    return Math.max(longest, to - last);
  }

  @Test
  void aQuietNoteIsNeverRefused() throws IOException {
    Files.writeString(root.resolve("notes.txt"), "quiet");
    Rules.waitOutMargin();

    for (int i = 0; i < 20_000; i++) {
      assertThat(workspace.read(NOTES, 100)).isEqualTo(new Workspace.Text("quiet"));
    }
  }

  @Test
  void theBytesOfAReadComeWithTheIdentityTheyWereReadAs() throws IOException {
    Path note = Files.writeString(root.resolve("notes.txt"), "twelve bytes");
    Rules.waitOutMargin();

    Workspace.Bytes read = (Workspace.Bytes) workspace.readBytes("notes.txt", 100);

    long[] now = workspace.rootFolder().attributesOf("notes.txt");
    assertThat(read.identity())
        .isEqualTo(
            new OpenedFile.Identity(
                now[Posix.DEVICE], now[Posix.INODE], 12, now[Posix.CHANGED], now[Posix.MODIFIED]));
    assertThat(read.identity().inode()).isEqualTo(Files.getAttribute(note, "unix:ino"));
  }

  /**
   * The server's hook (Workspace.beforeEachWait): run on the reading thread before every wait for
   * the margin, a tool's read or a patient reader's, and never for a read that does not wait.
   */
  @Test
  void everyWaitForTheMarginRunsTheHookFirstOnTheWaitingThreadAndAQuietReadNever()
      throws IOException {
    List<Thread> ran = new CopyOnWriteArrayList<>();
    Workspace.beforeEachWait(() -> ran.add(Thread.currentThread()));
    try {
      Path note = Files.writeString(root.resolve("notes.txt"), "fresh");

      assertThat(workspace.read(NOTES, 100)).isEqualTo(new Workspace.Text("fresh"));
      assertThat(ran).as("a tool's read, once").containsExactly(Thread.currentThread());

      ran.clear();
      assertThat(workspace.read(NOTES, 100)).isEqualTo(new Workspace.Text("fresh"));
      assertThat(ran).as("the margin has passed: no wait").isEmpty();

      Files.writeString(note, "again");
      assertThat(workspace.holdsExactly(NOTES, "again".getBytes(StandardCharsets.UTF_8), null))
          .isTrue();
      assertThat(ran)
          .as("a patient reader's wait")
          .isNotEmpty()
          .containsOnly(Thread.currentThread());
    } finally {
      Workspace.beforeEachWait(() -> {});
    }
  }

  @Test
  void withHardLinksUnprotectedAWorkspaceOthersMayWriteIsRefusedAtStartUpSayingWhy()
      throws IOException {
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxr-x"));
    ChangeRule unprotected = new ChangeRule(false, ChangeRule.MARGIN);

    assertThatThrownBy(() -> Workspace.at(root, unprotected))
        .hasMessage(
            "it is writable by its group (mode 0775), and this system does not protect hard links"
                + " (fs.protected_hardlinks is not 1), so another user could link into it a file"
                + " only you can read; make it writable only by you (chmod go-w "
                + root
                + "), or set fs.protected_hardlinks = 1");
    assertThat(Workspace.at(root, new ChangeRule(true, ChangeRule.MARGIN)).root()).isEqualTo(root);
  }

  @Test
  void withHardLinksUnprotectedAWorkspaceMadeWritableLaterIsRefusedAtTheRead() throws IOException {
    Files.writeString(root.resolve("notes.txt"), "x");
    Workspace strict = Workspace.at(root, new ChangeRule(false, Duration.ZERO));
    assertThat(strict.read(NOTES, 100)).isEqualTo(new Workspace.Text("x"));

    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));

    assertThat(strict.read(NOTES, 100))
        .isEqualTo(
            new Workspace.Unreadable(
                "notes.txt cannot be read: its folder is writable by every user (mode 0777), and"
                    + " this system does not protect hard links (fs.protected_hardlinks is not 1),"
                    + " so another user could link into it a file only you can read"));
  }

  @Test
  void aKernelWithoutMountIdsIsSaidAtStartUp() {
    assertThat(workspace.mountLimitation()).as("this kernel has both").isNull();
    assertThat(Workspace.mountLimitation(false, true))
        .isEqualTo(
            "this kernel reports no mount ids (statx STATX_MNT_ID): folders are compared by"
                + " device, and openat2 refuses mount points");
    assertThat(Workspace.mountLimitation(false, false))
        .endsWith("so a bind mount of the same file system inside the workspace is not told apart");
  }
}

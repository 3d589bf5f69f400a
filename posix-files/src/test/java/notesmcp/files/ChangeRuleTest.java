package notesmcp.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The change rule with the real margin, as the files layer keeps it: a patient reader ({@link
 * OpenedFile#patiently}) waits a change within the margin out and gives up after its attempts; a
 * change time far ahead of the clock counts as old. And the hard-link protection's side: who else
 * may write a folder, and the system's protection as /proc tells it.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ChangeRuleTest {
  private static final String REFUSED = "notes.txt changed while it was being read; try again";

  @TempDir Path dir;
  private Path root;
  private Folder folder;

  @BeforeEach
  void openRoot() throws IOException {
    root = Files.createDirectory(dir.resolve("root")).toRealPath();
    folder = Folder.open(root, new ChangeRule(true, ChangeRule.MARGIN));
    // The first lambda and the first careful read of a JVM cost tens of milliseconds, as much as
    // the margin: taken before a test writes, so that its read of a fresh change is still fresh.
    assertThat(OpenedFile.patiently(() -> "warm")).isEqualTo("warm");
    assertThatThrownBy(() -> folder.open("missing")).isInstanceOf(NoSuchFileException.class);
  }

  @Test
  void aPatientReaderWaitsOutTheMarginInsteadOfFailing() throws IOException {
    // The first attempt must come while the note is fresh; a machine too busy to make it within
    // half the margin of the write proves nothing either way, so that round is run again.
    for (int round = 0; ; round++) {
      Files.writeString(root.resolve("notes.txt"), "fresh " + round);
      long written = System.nanoTime();
      AtomicInteger tries = new AtomicInteger();
      long[] firstTry = new long[1];

      String text =
          OpenedFile.patiently(
              () -> {
                if (tries.incrementAndGet() == 1) {
                  firstTry[0] = System.nanoTime();
                }
                try (OpenedFile note = folder.open("notes.txt")) {
                  return new String(note.readAll(100), StandardCharsets.UTF_8);
                }
              });

      assertThat(text).isEqualTo("fresh " + round);
      if (firstTry[0] - written > ChangeRule.MARGIN.toNanos() / 2 && round < 20) {
        continue;
      }
      assertThat(tries.get()).isBetween(2, OpenedFile.ATTEMPTS);
      assertThat(System.nanoTime() - written).isLessThan(Duration.ofSeconds(2).toNanos());
      return;
    }
  }

  @Test
  void aPatientReaderGivesUpAfterItsAttemptsWhenTheFileKeepsChanging() throws IOException {
    Path note = Files.writeString(root.resolve("notes.txt"), "0");
    AtomicInteger tries = new AtomicInteger();

    assertThatThrownBy(
            () ->
                OpenedFile.patiently(
                    () -> {
                      Files.writeString(note, Integer.toString(tries.incrementAndGet()));
                      try (OpenedFile open = folder.open("notes.txt")) {
                        return open.readAll(100);
                      }
                    }))
        .isInstanceOf(OpenedFile.ChangedWhileReading.class)
        .hasMessage(REFUSED);
    assertThat(tries.get()).isEqualTo(OpenedFile.ATTEMPTS);
  }

  @Test
  void aChangeStampedFarAheadOfTheClockCountsAsOldAndOneWithinTheMarginAsNew() {
    long margin = ChangeRule.MARGIN.toNanos();
    long now = 1_000_000_000_000L;

    assertThat(OpenedFile.left(now - margin, now, margin)).isZero();
    assertThat(OpenedFile.left(now - margin + 1, now, margin)).isEqualTo(1);
    assertThat(OpenedFile.left(now, now, margin)).isEqualTo(margin);
    assertThat(OpenedFile.left(now + margin / 2, now, margin)).as("just ahead").isPositive();
    assertThat(OpenedFile.left(now + margin + 1, now, margin))
        .as("the clock was set back")
        .isZero();
  }

  @Test
  void whoElseMayWriteAFolderIsToldByOwnerGroupAndOthers() {
    long me = 1000;
    assertThat(ChangeRule.writableByOthers(folder(0700, me), me)).isNull();
    assertThat(ChangeRule.writableByOthers(folder(0755, 0), me)).as("root's").isNull();
    assertThat(ChangeRule.writableByOthers(folder(0700, 1001), me))
        .isEqualTo("it is owned by another user (uid 1001)");
    assertThat(ChangeRule.writableByOthers(folder(0770, me), me))
        .isEqualTo("it is writable by its group (mode 0770)");
    assertThat(ChangeRule.writableByOthers(folder(01777, me), me))
        .as("the sticky bit does not stop a hard link")
        .isEqualTo("it is writable by every user (mode 1777)");
    assertThat(new ChangeRule(true, Duration.ZERO).othersMayWrite(folder(0777, 1001))).isNull();
  }

  @Test
  void theSystemsProtectionIsReadFromProc() throws IOException {
    String value = Files.readString(ChangeRule.PROTECTED_HARDLINKS).strip();

    assertThat(ChangeRule.hardLinksProtectedBySystem()).isEqualTo(value.equals("1"));
    assertThat(ChangeRule.ofSystem().margin()).isEqualTo(Duration.ofMillis(50));
  }

  private static long[] folder(int mode, long owner) {
    long[] attributes = new long[Posix.ATTRIBUTES];
    attributes[Posix.MODE] = Posix.S_IFDIR | mode;
    attributes[Posix.OWNER] = owner;
    return attributes;
  }
}

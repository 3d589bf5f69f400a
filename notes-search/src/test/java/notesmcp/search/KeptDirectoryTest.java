package notesmcp.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.Lock;
import org.apache.lucene.store.LockObtainFailedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A kept index's folder as Lucene sees it: in place of any file, a FIFO, a link or a folder is
 * refused at once by every open Lucene makes (to read, to sync, to lock), never waited on or
 * followed, also when it appears after the engine opened the folder; SearchNotesIT runs the same
 * against a real server.
 */
class KeptDirectoryTest {
  private static final Duration AT_ONCE = Duration.ofSeconds(10);

  @TempDir Path dir;

  private Path folder() throws IOException {
    Path folder = dir.toRealPath();
    Files.writeString(folder.resolve("plain"), "kept bytes");
    return folder;
  }

  private static void mkfifo(Path path) throws Exception {
    assertThat(new ProcessBuilder("mkfifo", path.toString()).inheritIO().start().waitFor())
        .isZero();
  }

  private void put(Path folder, String kind, String name) throws Exception {
    Path path = folder.resolve(name);
    switch (kind) {
      case "fifo" -> mkfifo(path);
      case "link" -> Files.createSymbolicLink(path, folder.resolve("plain"));
      default -> Files.createDirectory(path);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"fifo", "link", "folder"})
  void everyOpenRefusesItAtOnce(String kind) throws Exception {
    Path folder = folder();
    try (KeptDirectory directory = new KeptDirectory(folder)) {
      put(folder, kind, "_0.si");
      put(folder, kind, "write.lock");

      assertTimeoutPreemptively(
          AT_ONCE,
          () -> {
            assertThatThrownBy(() -> directory.openInput("_0.si", IOContext.DEFAULT))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("_0.si");
            assertThatThrownBy(
                    () -> directory.openChecksumInput("_0.si", IOContext.READONCE).close())
                .isInstanceOf(IOException.class);
            assertThatThrownBy(() -> directory.sync(List.of("_0.si")))
                .isInstanceOf(IOException.class);
            assertThatThrownBy(() -> directory.obtainLock("write.lock").close())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("write.lock");
          });
      try (IndexInput plain = directory.openInput("plain", IOContext.DEFAULT)) {
        assertThat(plain.length()).isEqualTo(10);
        assertThat(plain.readByte()).isEqualTo((byte) 'k');
      }
      directory.sync(List.of("plain"));
      directory.syncMetaData();
    }
  }

  @Test
  void theWriteLockIsHeldOnceAndValidWhileItsFileIsTheOneLocked() throws Exception {
    Path folder = folder();
    try (KeptDirectory one = new KeptDirectory(folder);
        KeptDirectory two = new KeptDirectory(folder)) {
      Lock lock = one.obtainLock("write.lock");
      assertThatThrownBy(() -> two.obtainLock("write.lock"))
          .isInstanceOf(LockObtainFailedException.class);
      lock.ensureValid();
      Files.delete(folder.resolve("write.lock"));
      Files.writeString(folder.resolve("write.lock"), "");
      assertThatThrownBy(lock::ensureValid).hasMessageContaining("removed or replaced");
      lock.close();
      two.obtainLock("write.lock").close();
    }
  }

  @Test
  void strayNamesTheFirstEntryThatIsNotARegularFileOfThisUser() throws Exception {
    long uid =
        ((Number)
                Files.readAttributes(dir, "unix:uid", java.nio.file.LinkOption.NOFOLLOW_LINKS)
                    .get("uid"))
            .longValue();
    Path folder = folder();
    assertThat(KeptDirectory.stray(folder, uid)).isNull();
    assertThat(KeptDirectory.stray(folder, uid + 1))
        .isEqualTo("plain is owned by uid " + uid + ", not by this user (uid " + (uid + 1) + ")");
    for (Map.Entry<String, String> kind :
        Map.of("fifo", "a FIFO", "link", "a symbolic link", "folder", "a directory").entrySet()) {
      Path alone = Files.createDirectory(dir.resolve("alone-" + kind.getKey()));
      put(alone, kind.getKey(), "x");
      assertThat(KeptDirectory.stray(alone, uid))
          .isEqualTo("x is " + kind.getValue() + ", not a regular file");
    }
  }
}

package notesmcp.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each native function of {@code libnotesmcp.so} on its own, against the real kernel: what it
 * returns, its {@code -errno} for each refusal, and that no descriptor is left open.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PosixTest {
  @TempDir Path dir;
  private Path root;
  private int rootFd;
  private final List<Integer> open = new ArrayList<>();

  @BeforeEach
  void openRoot() throws IOException {
    Posix.require();
    root = Files.createDirectory(dir.resolve("root")).toRealPath();
    rootFd = keep(Posix.openDirectory(bytes(root.toString()), new long[Posix.ATTRIBUTES]));
  }

  @AfterEach
  void closeWhatWasOpened() {
    for (int fd : open) {
      Posix.close(fd);
    }
  }

  private int keep(int fd) {
    assertThat(fd).as("a descriptor").isGreaterThanOrEqualTo(0);
    open.add(fd);
    return fd;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  // --- attributes ---

  @Test
  void attributesCarryNanosecondTimesTheMountAndTheOwner() throws IOException {
    Path file = Files.writeString(root.resolve("note"), "four");
    Instant modified = Instant.parse("2026-01-02T03:04:05.123456789Z");
    Files.setLastModifiedTime(file, FileTime.from(modified));
    long before = Posix.now();

    long[] named = new long[Posix.ATTRIBUTES];
    assertThat(Posix.statAt(rootFd, bytes("note"), named)).isZero();

    assertThat(named[Posix.MODIFIED])
        .isEqualTo(modified.getEpochSecond() * 1_000_000_000L + 123456789);
    assertThat(named[Posix.SIZE]).isEqualTo(4);
    assertThat(named[Posix.LINKS]).isEqualTo(1);
    assertThat(named[Posix.OWNER]).isEqualTo(Posix.userId());
    assertThat(named[Posix.INODE]).isEqualTo(Files.getAttribute(file, "unix:ino"));
    assertThat(named[Posix.DEVICE]).isEqualTo(Files.getAttribute(file, "unix:dev"));
    assertThat(named[Posix.CHANGED])
        .as("the change time: setting the modification time changed the file just now")
        .isBetween(before - 100_000_000L, Posix.now());
    assertThat(named[Posix.MOUNT]).as("this kernel reports mount ids").isPositive();
    assertThat(named[Posix.MOUNT]).isEqualTo(mountIdOf(root));
  }

  /** The mount id of the mount {@code path} is on, from /proc/self/mountinfo (longest prefix). */
  private static long mountIdOf(Path path) throws IOException {
    long id = -1;
    int longest = -1;
    for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
      String[] fields = line.split(" ");
      String point = fields[4];
      if ((path.toString().startsWith(point.endsWith("/") ? point : point + "/")
              || path.toString().equals(point))
          && point.length() > longest) {
        longest = point.length();
        id = Long.parseLong(fields[0]);
      }
    }
    return id;
  }

  @Test
  void aDescriptorsAttributesAreTheFileOpenedNotTheNameNow() throws IOException {
    Files.writeString(root.resolve("note"), "x");
    long[] opened = new long[Posix.ATTRIBUTES];
    int fd = keep(Posix.openAt(rootFd, bytes("note"), opened));
    Files.move(root.resolve("note"), root.resolve("moved"));
    Files.writeString(root.resolve("note"), "another file");

    long[] now = new long[Posix.ATTRIBUTES];
    assertThat(Posix.stat(fd, now)).isZero();

    assertThat(now[Posix.INODE]).isEqualTo(opened[Posix.INODE]);
    assertThat(now[Posix.SIZE]).isEqualTo(1);
  }

  @Test
  void aLinkIsDescribedNeverFollowed() throws IOException {
    Files.createSymbolicLink(root.resolve("link"), dir);
    long[] named = new long[Posix.ATTRIBUTES];

    assertThat(Posix.statAt(rootFd, bytes("link"), named)).isZero();

    assertThat((int) named[Posix.MODE] & Posix.S_IFMT).isEqualTo(Posix.S_IFLNK);
  }

  @Test
  void namesThatAreNotOneComponentAreRefusedBeforeAnyCall() {
    long[] attributes = new long[Posix.ATTRIBUTES];
    for (String name : new String[] {"a/b", ".", "..", "/etc"}) {
      assertThat(Posix.statAt(rootFd, bytes(name), attributes)).as(name).isEqualTo(-Posix.EINVAL);
      assertThat(Posix.openAt(rootFd, bytes(name), attributes)).as(name).isEqualTo(-Posix.EINVAL);
      assertThat(Posix.createAt(rootFd, bytes(name), attributes)).as(name).isEqualTo(-Posix.EINVAL);
    }
    assertThat(Posix.statAt(rootFd, new byte[] {'a', 0, 'b'}, attributes)).isEqualTo(-Posix.EINVAL);
    assertThat(Posix.statAt(rootFd, new byte[256], attributes)).isLessThan(0);
    assertThat(
            Posix.statAt(rootFd, "x".repeat(256).getBytes(StandardCharsets.US_ASCII), attributes))
        .as("longer than NAME_MAX")
        .isNegative();
  }

  // --- folders ---

  @Test
  void aFolderIsOpenedRelativeToItsParentNeverThroughALink() throws IOException {
    Files.createDirectory(root.resolve("sub"));
    Files.createSymbolicLink(root.resolve("link"), root.resolve("sub"));
    Files.writeString(root.resolve("file"), "x");
    long[] attributes = new long[Posix.ATTRIBUTES];

    for (boolean beneath : new boolean[] {false, true}) {
      int sub = keep(Posix.openFolderAt(rootFd, bytes("sub"), beneath, attributes));
      assertThat((int) attributes[Posix.MODE] & Posix.S_IFMT).isEqualTo(Posix.S_IFDIR);
      assertThat(attributes[Posix.INODE])
          .isEqualTo(Files.getAttribute(root.resolve("sub"), "unix:ino"));
      assertThat(sub).isNotEqualTo(rootFd);
      // O_DIRECTORY|O_NOFOLLOW says "not a directory" for a link as the last part, openat2 too.
      assertThat(Posix.openFolderAt(rootFd, bytes("link"), beneath, attributes))
          .as("a link, beneath=" + beneath)
          .isEqualTo(-Posix.ENOTDIR);
      assertThat(Posix.openFolderAt(rootFd, bytes("file"), beneath, attributes))
          .isEqualTo(-Posix.ENOTDIR);
      assertThat(Posix.openFolderAt(rootFd, bytes("missing"), beneath, attributes))
          .isEqualTo(-Posix.ENOENT);
    }
  }

  @Test
  void aPlaceIsAFolderToLookUpFromNeverALink() throws IOException {
    Files.createDirectory(root.resolve("sub"));
    Files.writeString(root.resolve("sub/note"), "x");
    Files.createSymbolicLink(root.resolve("link"), root.resolve("sub"));
    long[] attributes = new long[Posix.ATTRIBUTES];

    int place = keep(Posix.openPlaceAt(rootFd, bytes("sub"), attributes));

    assertThat((int) attributes[Posix.MODE] & Posix.S_IFMT).isEqualTo(Posix.S_IFDIR);
    assertThat(Posix.stat(place, attributes)).isZero();
    keep(Posix.openAt(place, bytes("note"), attributes));
    assertThat(attributes[Posix.SIZE]).isEqualTo(1);
    assertThat(Posix.openPlaceAt(rootFd, bytes("link"), attributes)).isEqualTo(-Posix.ENOTDIR);
    assertThat(Posix.openPlaceAt(rootFd, bytes("sub/note"), attributes)).isEqualTo(-Posix.EINVAL);
  }

  @Test
  void aFifoIsNeverOpenedAsAFolderNorWaitedOn() throws Exception {
    assertThat(new ProcessBuilder("mkfifo", root.resolve("fifo").toString()).start().waitFor())
        .isZero();
    long[] attributes = new long[Posix.ATTRIBUTES];

    assertThat(Posix.openFolderAt(rootFd, bytes("fifo"), false, attributes))
        .isEqualTo(-Posix.ENOTDIR);
    assertThat(Posix.openFolderAt(rootFd, bytes("fifo"), true, attributes))
        .isEqualTo(-Posix.ENOTDIR);
  }

  @Test
  void aPathBeneathIsOpenedInOneCallWithoutLinksOrEscapes() throws IOException {
    Files.createDirectories(root.resolve("a/b/c"));
    Files.createSymbolicLink(root.resolve("a/link"), root.resolve("a/b"));
    long[] attributes = new long[Posix.ATTRIBUTES];
    assertThat(Posix.HAS_OPENAT2).as("this kernel has openat2").isTrue();

    keep(Posix.openFolderBeneath(rootFd, bytes("a/b/c"), attributes));
    assertThat(attributes[Posix.INODE])
        .isEqualTo(Files.getAttribute(root.resolve("a/b/c"), "unix:ino"));
    assertThat(Posix.openFolderBeneath(rootFd, bytes("a/link/c"), attributes))
        .isEqualTo(-Posix.ELOOP);
    assertThat(Posix.openFolderBeneath(rootFd, bytes("a/../../"), attributes))
        .as("above the start")
        .isEqualTo(-Posix.EXDEV);
    assertThat(Posix.openFolderBeneath(rootFd, bytes("/etc"), attributes)).isEqualTo(-Posix.EINVAL);
  }

  @Test
  void aMountPointIsRefusedByOpenat2AndToldApartByItsMountId() throws Exception {
    // A bind mount needs a mount namespace of our own: `unshare -m` (root only) runs a child that
    // binds a folder inside and calls the real natives on it through this test class's twin.
    Path inside = Files.createDirectory(root.resolve("mounted"));
    Path outside = Files.createDirectory(dir.resolve("outside"));
    Files.writeString(outside.resolve("secret"), "TOP SECRET");
    String classpath = System.getProperty("java.class.path");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process child =
        new ProcessBuilder(
                "unshare",
                "-m",
                "--propagation",
                "private",
                "sh",
                "-c",
                "mount --bind \"$1\" \"$2\" && exec \"$3\" -cp \"$4\" notesmcp.files.MountProbe \"$5\"",
                "sh",
                outside.toString(),
                inside.toString(),
                java.toString(),
                classpath,
                root.toString())
            .redirectErrorStream(true)
            .start();
    String said = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.waitFor()).as(said).isZero();
    assertThat(said.strip().split("\n"))
        .containsExactly(
            "openat=ok",
            "same-device=true",
            "same-mount=false",
            "openat2=" + (-Posix.EXDEV),
            "beneath=" + (-Posix.EXDEV));
  }

  @Test
  void aListingGivesEveryEntryOnceInBoundedChunks() throws IOException {
    Set<String> made = new HashSet<>();
    for (int i = 0; i < 3000; i++) {
      String name = "note " + i + (i % 7 == 0 ? " caf\u00e9" : "") + ".md";
      Files.createFile(root.resolve(name));
      made.add(name);
    }
    Files.createDirectory(root.resolve("folder"));
    Files.createSymbolicLink(root.resolve("link"), root.resolve("folder"));
    made.add("folder");
    made.add("link");
    int fd = keep(Posix.reopenFolder(rootFd));

    Set<String> seen = new HashSet<>();
    List<Integer> chunks = new ArrayList<>();
    byte[] buffer = new byte[4096];
    int length;
    while ((length = Posix.readDirectory(fd, buffer)) > 0) {
      chunks.add(length);
      for (int at = 0; at < length; ) {
        int type = buffer[at + 8] & 0xff;
        int nameLength = ((buffer[at + 9] & 0xff) << 8) | (buffer[at + 10] & 0xff);
        String name = new String(buffer, at + 11, nameLength, StandardCharsets.UTF_8);
        assertThat(seen.add(name)).as("once: " + name).isTrue();
        if (name.equals("folder")) {
          assertThat(type).isEqualTo(Posix.DT_DIR);
        } else if (name.equals("link")) {
          assertThat(type).isEqualTo(Posix.DT_LNK);
        } else {
          assertThat(type).isEqualTo(Posix.DT_REG);
        }
        at += 11 + nameLength;
      }
    }

    assertThat(length).isZero();
    assertThat(seen).isEqualTo(made);
    assertThat(chunks).hasSizeGreaterThan(10).allMatch(n -> n <= 4096);
    assertThat(Posix.rewindDirectory(fd)).isZero();
    assertThat(Posix.readDirectory(fd, buffer)).as("again from the start").isPositive();
    assertThat(Posix.readDirectory(fd, new byte[8]))
        .as("too small for one entry")
        .isEqualTo(-Posix.EINVAL);
  }

  @Test
  void aListingOfAFolderWithNothingButDotsIsEmpty() throws IOException {
    int fd = keep(Posix.reopenFolder(rootFd));

    assertThat(Posix.readDirectory(fd, new byte[4096])).isZero();
  }

  // --- inotify ---

  @Test
  void aWatchedFolderTellsOfNamesMadeMovedAndRemovedWherEverItIsMoved() throws IOException {
    Path watched = Files.createDirectory(root.resolve("watched"));
    int folder =
        keep(Posix.openFolderAt(rootFd, bytes("watched"), false, new long[Posix.ATTRIBUTES]));
    int inotify = keep(Posix.watchInit());
    int watch = Posix.watchAdd(inotify, folder, Watcher.NAMES);
    assertThat(watch).isPositive();
    byte[] buffer = new byte[Posix.MIN_EVENT_BUFFER];
    assertThat(Posix.watchRead(inotify, buffer)).as("nothing yet").isEqualTo(-Posix.EAGAIN);
    assertThat(Posix.poll(inotify, 0)).isZero();

    Files.move(watched, root.resolve("moved")); // the watch follows the folder, not the path
    Files.createFile(root.resolve("moved/new.md"));

    assertThat(Posix.poll(inotify, 5000)).isEqualTo(1);
    List<String> events = new ArrayList<>();
    int length;
    while ((length = Posix.watchRead(inotify, buffer)) > 0) {
      for (int at = 0; at < length; ) {
        int mask =
            ((buffer[at + 4] & 0xff) << 24)
                | ((buffer[at + 5] & 0xff) << 16)
                | ((buffer[at + 6] & 0xff) << 8)
                | (buffer[at + 7] & 0xff);
        int nameLength = ((buffer[at + 12] & 0xff) << 8) | (buffer[at + 13] & 0xff);
        events.add(mask + ":" + new String(buffer, at + 14, nameLength, StandardCharsets.UTF_8));
        at += 14 + nameLength;
      }
    }
    assertThat(events).containsExactly(Posix.IN_MOVE_SELF + ":", Posix.IN_CREATE + ":new.md");
    assertThat(Posix.watchRemove(inotify, watch)).isZero();
    assertThat(Posix.watchRemove(inotify, watch)).isEqualTo(-Posix.EINVAL);
  }

  @Test
  void aWatchIsOnlyForAFolder() throws IOException {
    Files.writeString(root.resolve("file"), "x");
    int file = keep(Posix.openAt(rootFd, bytes("file"), new long[Posix.ATTRIBUTES]));
    int inotify = keep(Posix.watchInit());

    assertThat(Posix.watchAdd(inotify, file, Watcher.NAMES)).isEqualTo(-Posix.ENOTDIR);
  }

  @Test
  void aPollWaitsNoLongerThanAskedWhenNothingComes() {
    int inotify = keep(Posix.watchInit());
    long start = System.nanoTime();

    assertThat(Posix.poll(inotify, 200)).isZero();

    long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertThat(waited).isBetween(150L, 5000L);
  }

  // --- writes ---

  @Test
  void aFileIsCreatedExclusivelyOwnerOnlyWrittenSyncedAndLinked() throws IOException {
    long[] created = new long[Posix.ATTRIBUTES];
    int fd = keep(Posix.createAt(rootFd, bytes(".tmp"), created));
    byte[] text = bytes("x".repeat(20_000) + " the end");

    assertThat(Posix.write(fd, text, 0, text.length)).isEqualTo(text.length);
    assertThat(Posix.sync(fd)).isZero();
    assertThat(Posix.linkAt(rootFd, bytes(".tmp"), rootFd, bytes("note"))).isZero();
    assertThat(Posix.sync(rootFd)).as("a folder is synced too").isZero();

    assertThat(Files.readAllBytes(root.resolve("note"))).isEqualTo(text);
    assertThat((int) created[Posix.MODE] & 0777).isEqualTo(0600);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("note"))))
        .isEqualTo("rw-------");
    assertThat(Posix.createAt(rootFd, bytes("note"), created)).isEqualTo(-Posix.EEXIST);
    assertThat(Posix.linkAt(rootFd, bytes(".tmp"), rootFd, bytes("note"))).isEqualTo(-Posix.EEXIST);
  }

  @Test
  void creationNeverGoesThroughALinkNotEvenADanglingOne() throws IOException {
    Files.createSymbolicLink(root.resolve("dangling"), dir.resolve("would-be-created"));

    assertThat(Posix.createAt(rootFd, bytes("dangling"), new long[Posix.ATTRIBUTES]))
        .isEqualTo(-Posix.EEXIST);
    assertThat(Files.exists(dir.resolve("would-be-created"), LinkOption.NOFOLLOW_LINKS)).isFalse();
  }

  @Test
  void aLinkIsLinkedItselfNeverItsTarget() throws IOException {
    Path secret = Files.writeString(dir.resolve("secret"), "TOP SECRET");
    Files.createSymbolicLink(root.resolve("link"), secret);

    assertThat(Posix.linkAt(rootFd, bytes("link"), rootFd, bytes("second"))).isZero();

    assertThat(Files.isSymbolicLink(root.resolve("second"))).isTrue();
    assertThat(Files.getAttribute(secret, "unix:nlink")).isEqualTo(1);
  }

  @Test
  void renamesReplaceRefuseOrExchangeAsAsked() throws IOException {
    Files.writeString(root.resolve("a"), "A");
    Files.writeString(root.resolve("b"), "B");
    Path other = Files.createDirectory(root.resolve("other"));
    int otherFd =
        keep(Posix.openFolderAt(rootFd, bytes("other"), false, new long[Posix.ATTRIBUTES]));

    assertThat(Posix.renameAt(rootFd, bytes("a"), rootFd, bytes("b"), Posix.RENAME_NOREPLACE))
        .isEqualTo(-Posix.EEXIST);
    assertThat(Posix.renameAt(rootFd, bytes("a"), rootFd, bytes("b"), Posix.RENAME_EXCHANGE))
        .isZero();
    assertThat(Files.readString(root.resolve("a"))).isEqualTo("B");
    assertThat(Posix.renameAt(rootFd, bytes("a"), otherFd, bytes("c"), Posix.RENAME_NOREPLACE))
        .isZero();
    assertThat(Files.readString(other.resolve("c"))).isEqualTo("B");
    assertThat(Posix.renameAt(otherFd, bytes("c"), rootFd, bytes("b"), Posix.RENAME_REPLACE))
        .isZero();
    assertThat(Files.readString(root.resolve("b"))).isEqualTo("B");
    assertThat(Posix.renameAt(rootFd, bytes("b"), rootFd, bytes("x"), 7)).isEqualTo(-Posix.EINVAL);
  }

  @Test
  void unlinkRemovesANameAndAnEmptyFolderOnlyWhenAskedFor() throws IOException {
    Files.writeString(root.resolve("file"), "x");
    assertThat(Posix.makeFolderAt(rootFd, bytes("folder"))).isZero();
    assertThat(Posix.makeFolderAt(rootFd, bytes("folder"))).isEqualTo(-Posix.EEXIST);
    Files.writeString(root.resolve("folder/inside"), "x");

    assertThat(Posix.unlinkAt(rootFd, bytes("folder"), false)).isEqualTo(-Posix.EISDIR);
    assertThat(Posix.unlinkAt(rootFd, bytes("folder"), true)).isEqualTo(-Posix.ENOTEMPTY);
    assertThat(Posix.unlinkAt(rootFd, bytes("file"), true)).isEqualTo(-Posix.ENOTDIR);
    assertThat(Posix.unlinkAt(rootFd, bytes("file"), false)).isZero();
    assertThat(Posix.unlinkAt(rootFd, bytes("file"), false)).isEqualTo(-Posix.ENOENT);
    Files.delete(root.resolve("folder/inside"));
    assertThat(Posix.unlinkAt(rootFd, bytes("folder"), true)).isZero();
    assertThat(Files.exists(root.resolve("folder"))).isFalse();
  }

  @Test
  void aLockFileIsNeverAFifosWaitAndItsLockIsExclusive() throws Exception {
    assertThat(new ProcessBuilder("mkfifo", root.resolve("fifo").toString()).start().waitFor())
        .isZero();
    long[] attributes = new long[Posix.ATTRIBUTES];

    assertThat(Posix.openLockAt(rootFd, bytes("fifo"), attributes)).isEqualTo(-Posix.ENXIO);
    int first = keep(Posix.openLockAt(rootFd, bytes("lock"), attributes));
    int second = keep(Posix.openLockAt(rootFd, bytes("lock"), attributes));
    assertThat((int) attributes[Posix.MODE] & 0777).isEqualTo(0600);
    assertThat(Posix.lock(first, false)).isZero();
    assertThat(Posix.lock(second, false)).isEqualTo(-Posix.EAGAIN);
    Posix.close(first);
    open.remove(Integer.valueOf(first));
    assertThat(Posix.lock(second, true)).isZero();
  }

  @Test
  void everyDescriptorOpenedIsClosedOnEveryRefusal() throws Exception {
    Files.writeString(root.resolve("note"), "x");
    Files.createSymbolicLink(root.resolve("link"), root.resolve("note"));
    Files.createDirectory(root.resolve("folder"));
    long[] attributes = new long[Posix.ATTRIBUTES];

    for (int i = 0; i < 500; i++) {
      for (String name : new String[] {"link", "missing", "note"}) {
        Posix.openFolderAt(rootFd, bytes(name), i % 2 == 0, attributes);
        Posix.openFolderBeneath(rootFd, bytes(name + "/x"), attributes);
        Posix.createAt(rootFd, bytes("note"), attributes);
        Posix.openLockAt(rootFd, bytes("folder"), attributes);
      }
    }

    assertThat(descriptorsInside(root)).isEmpty();
  }

  /** This process's open descriptors of files or folders below {@code folder}. */
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

  @Test
  void theClockIsTheOneFileTimesAreStampedFrom() throws IOException {
    long before = Posix.now();
    Path file = Files.writeString(root.resolve("note"), "x");
    long after = Posix.now();
    long[] named = new long[Posix.ATTRIBUTES];
    Posix.statAt(rootFd, bytes("note"), named);

    // The kernel stamps from a coarse copy of the same clock: at most a tick behind.
    assertThat(named[Posix.CHANGED]).isBetween(before - 20_000_000L, after);
    assertThat(Files.exists(file)).isTrue();
  }

  /**
   * A folder, a file and a closed descriptor are no terminal ({@code IndexCommandIT} runs the
   * program on a pseudo-terminal, where it is one).
   */
  @Test
  void onlyATerminalIsATerminal() throws IOException {
    assertThat(Posix.isTerminalDescriptor(rootFd)).isFalse();
    Files.writeString(root.resolve("note"), "x");
    int fd = Posix.openAt(rootFd, bytes("note"), new long[Posix.ATTRIBUTES]);
    assertThat(fd).isNotNegative();
    assertThat(Posix.isTerminalDescriptor(fd)).isFalse();
    Posix.close(fd);
    assertThat(Posix.isTerminalDescriptor(fd)).isFalse();
    assertThat(Posix.isTerminalDescriptor(-1)).isFalse();
  }
}

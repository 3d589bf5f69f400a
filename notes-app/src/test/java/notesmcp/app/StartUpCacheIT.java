package notesmcp.app;

import static notesmcp.app.LocalUsers.OTHER;
import static notesmcp.app.LocalUsers.OWNER;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkout launcher's start-up cache ({@code notes-app/target/jvm-cache}) against another local
 * user (docs/packaging.md, "The start-up cache"): made under umask 000, nothing in it can be
 * changed by anyone but its owner; an archive another user put in a cache folder they could write
 * (as an older launcher left it, or made writable after the fact), or a cache folder they planted,
 * is never mapped by the owner's JVM (read from {@code /proc/PID/maps}). (FirstUseIT checks that a
 * checkout in a folder whose name holds a newline uses its cache from the second run on.)
 *
 * <p>The checkout is a copy of this one's program (the jar, its native library, the training input
 * and workspace, the launcher) owned by {@link LocalUsers#OWNER}; the steps run in order on that
 * one copy, each from the state the last left.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StartUpCacheIT {
  @TempDir static Path dir;
  static Path checkout;
  static Path caches;
  static Path cache;
  static LocalUsers.Result first;

  @BeforeAll
  static void copyTheProgramAndRunItOnceUnderUmask000() throws Exception {
    Assumptions.assumeTrue(LocalUsers.areAvailable(), "runs as root: it needs a second uid");
    Path repo = Path.of(System.getProperty("notesmcp.repo"));
    Path folder = Files.createDirectory(dir.resolve("owner's folder"));
    checkout = folder.resolve("checkout");
    for (String path :
        List.of(
            "notes-mcp",
            "notes-app/target/notes-mcp.jar",
            "notes-app/target/native/libnotesmcp.so",
            "notes-app/src/main/jvm-cache/training.jsonl",
            "examples/workspace/notes.txt",
            "examples/workspace/project.txt")) {
      Path to = checkout.resolve(path);
      Files.createDirectories(to.getParent());
      Files.copy(repo.resolve(path), to, StandardCopyOption.COPY_ATTRIBUTES);
    }
    LocalUsers.chown(folder, OWNER);
    LocalUsers.sh("chmod 755 \"$1\" \"$2\"", dir.toString(), folder.toString());
    caches = checkout.resolve("notes-app/target/jvm-cache");

    first = owner("--version");

    try (Stream<Path> folders = Files.list(caches)) {
      cache = folders.filter(Files::isDirectory).filter(p -> !p.endsWith("java")).findFirst().get();
    }
  }

  @Test
  @Order(1)
  void aFirstRunUnderUmask000LeavesACacheThatOnlyItsOwnerCanChange() throws Exception {
    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(first.err()).contains("preparing the JVM start-up cache");
    Map<String, String> all = LocalUsers.ownersAndModes(caches);
    assertThat(all)
        .containsEntry("", OWNER + " 755")
        .containsEntry(cache.getFileName() + ".lock", OWNER + " 600")
        .containsEntry(cache.getFileName().toString(), OWNER + " 755")
        .containsEntry(cache.getFileName() + "/made-for", OWNER + " 644")
        .containsEntry(cache.getFileName() + "/server.jsa", OWNER + " 444")
        .containsEntry(cache.getFileName() + "/client.jsa", OWNER + " 444");
    assertThat(all.values())
        .as("everything in %s", all)
        .allMatch(ownerAndMode -> ownerAndMode.matches(OWNER + " [0-7][0145][0145]"));

    // The other user's own copy of an archive cannot be put in its place, nor the lock opened.
    long before = LocalUsers.inode(cache.resolve("client.jsa"));
    LocalUsers.Result swap =
        other(
            "t=$(mktemp) && cp \"$1/server.jsa\" \"$t\" && mv -f \"$t\" \"$1/client.jsa\";"
                + " r=$?; rm -f \"$t\"; exit $r");
    LocalUsers.Result lock = other("exec 9<\"$1.lock\"");
    assertThat(swap.exit()).as(swap.err()).isNotZero();
    assertThat(swap.err()).contains("Permission denied");
    assertThat(lock.exit()).isNotZero();
    assertThat(LocalUsers.inode(cache.resolve("client.jsa"))).isEqualTo(before);
  }

  @Test
  @Order(2)
  void theSecondRunAndItsServerChildUseTheCacheWithoutMakingItAgain() throws Exception {
    long before = LocalUsers.inode(cache.resolve("server.jsa"));

    LocalUsers.Served served = serve();
    LocalUsers.Result call =
        owner(
            "-root",
            checkout.resolve("examples/workspace").toString(),
            "-tool",
            "read_note",
            "-args",
            "{\"path\":\"notes.txt\"}");

    assertThat(served.err()).doesNotContain("preparing").doesNotContain("start-up cache");
    assertThat(served.mapped()).as("the owner's server archive is mapped").contains(before);
    assertThat(call.exit()).as(call.err()).isZero();
    assertThat(call.err())
        .doesNotContain("preparing")
        .doesNotContainIgnoringCase("warning")
        .doesNotContain("[cds");
    assertThat(LocalUsers.inode(cache.resolve("server.jsa"))).isEqualTo(before);
  }

  /**
   * What an older launcher left under umask 000: folders 0777, the record (then {@code jar-path})
   * 0666. The other user renames their own copy of the server's archive over it; the owner's next
   * server must not map it, and makes the cache again, owner-only.
   */
  @Test
  @Order(3)
  void anotherUsersArchiveInACacheLeftWritableByAnOlderLauncherIsNeverMapped() throws Exception {
    LocalUsers.sh(
        "if [ -e \"$2/made-for\" ]; then mv \"$2/made-for\" \"$2/jar-path\"; fi"
            + " && chmod 666 \"$2/jar-path\" \"$2.lock\" && chmod 777 \"$1\" \"$2\"",
        caches.toString(),
        cache.toString());
    long planted = plantOthersArchive();

    LocalUsers.Served served = serve();

    assertThat(served.mapped()).as("mapped inodes").doesNotContain(planted);
    assertThat(served.exit()).as(served.err()).isZero();
    assertThat(served.err()).contains("preparing the JVM start-up cache");
    assertThat(LocalUsers.ownerAndMode(caches)).isEqualTo(OWNER + " 755");
    assertThat(LocalUsers.ownerAndMode(cache.resolve("server.jsa"))).isEqualTo(OWNER + " 444");
    assertThat(cache.resolve("jar-path")).doesNotExist();
  }

  /** Made by this launcher, then made writable by others: a name changed in it is noticed. */
  @Test
  @Order(4)
  void anArchiveRenamedIntoACacheMadeWritableAfterwardsIsNeverMapped() throws Exception {
    LocalUsers.sh("chmod 777 \"$1\"", cache.toString());
    long planted = plantOthersArchive();

    LocalUsers.Served served = serve();

    assertThat(served.mapped()).as("mapped inodes").doesNotContain(planted);
    assertThat(served.err()).contains("preparing the JVM start-up cache");
    assertThat(LocalUsers.ownerAndMode(cache)).isEqualTo(OWNER + " 755");
  }

  /**
   * jvm-cache/ left writable by others (as a Maven build under umask 000 made it): the other user
   * moves the owner's cache aside and puts a folder of their own, with copies of the owner's
   * archives and record, in its place. It is never used; the owner's run cannot remove it, so it
   * runs without a cache and says so.
   */
  @Test
  @Order(5)
  void aCacheFolderAnotherUserPutInAWritableJvmCacheIsNeverUsed() throws Exception {
    LocalUsers.sh("chmod 777 \"$1\"", caches.toString());
    LocalUsers.Result planted =
        other(
            "mv \"$1\" \"$1.old\" && mkdir \"$1\" && cp -p \"$1.old\"/* \"$1/\""
                + " && chmod 755 \"$1\" && touch \"$1/made-for\"");
    assertThat(planted.exit()).as(planted.err()).isZero();
    long theirs = LocalUsers.inode(cache.resolve("server.jsa"));

    LocalUsers.Served served = serve();

    assertThat(served.mapped()).as("mapped inodes").doesNotContain(theirs);
    assertThat(served.exit()).as(served.err()).isZero();
    assertThat(served.err())
        .contains(
            "notes-mcp: "
                + caches
                + " is not this user's, or holds what others can change and cannot be emptied;"
                + " running without the JVM start-up cache");
    assertThat(LocalUsers.ownerAndMode(caches)).isEqualTo(OWNER + " 755");
  }

  /**
   * The other user's own copy of the owner's server archive, renamed over it; its inode. A second
   * link to it is kept outside the cache for the rest of the run, so that its inode stays taken: an
   * archive the launcher makes after removing the planted one could otherwise get the same number,
   * and a server mapping that new archive would look as if it mapped the planted one.
   */
  private static long plantOthersArchive() throws Exception {
    LocalUsers.Result planted =
        other("cp \"$1/server.jsa\" \"$1/x.$$\" && mv -f \"$1/x.$$\" \"$1/server.jsa\"");
    assertThat(planted.exit()).as(planted.err()).isZero();
    assertThat(LocalUsers.ownerAndMode(cache.resolve("server.jsa"))).startsWith(OTHER + " ");
    long inode = LocalUsers.inode(cache.resolve("server.jsa"));
    Files.createLink(dir.resolve("planted-" + inode), cache.resolve("server.jsa"));
    return inode;
  }

  private static LocalUsers.Served serve() throws Exception {
    List<String> command =
        LocalUsers.as(
            OWNER,
            "000",
            List.of(
                checkout.resolve("notes-mcp").toString(),
                "-serve",
                "-root",
                checkout.resolve("examples/workspace").toString()));
    return LocalUsers.serve(command, checkout, LocalUsers.DISCOVER, "DiscoverResultResponse");
  }

  private static LocalUsers.Result owner(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(checkout.resolve("notes-mcp").toString()));
    command.addAll(List.of(args));
    return LocalUsers.run(LocalUsers.as(OWNER, "000", command), checkout, Map.of());
  }

  /** A shell script as the other user, with the cache folder as {@code $1}. */
  private static LocalUsers.Result other(String script) throws Exception {
    return LocalUsers.run(
        LocalUsers.as(OTHER, "000", List.of("bash", "-c", script, "bash", cache.toString())),
        Path.of("/"),
        Map.of());
  }
}

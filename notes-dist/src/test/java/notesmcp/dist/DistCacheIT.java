package notesmcp.dist;

import static notesmcp.app.LocalUsers.OTHER;
import static notesmcp.app.LocalUsers.OWNER;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import notesmcp.app.LocalUsers;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged launcher's start-up cache ({@code lib/cache}) against another local user
 * (docs/packaging.md, "The start-up cache"). The {@code .tar.gz}, unpacked by {@link
 * LocalUsers#OWNER}: its first run under umask 000 leaves a cache only its owner can change, the
 * second run uses it, and an archive the other user renames into a cache an older launcher left
 * writable is never mapped (read from {@code /proc/PID/maps}). The {@code .deb}, unpacked as root,
 * its cache made by root under umask 000 as its install script makes it: every user's server maps
 * it; once root has left it writable and the other user has put an archive of their own in it, no
 * user's server maps that, and each says it runs without.
 *
 * <p>The steps run in order, each from the state the last left. (DistIT checks that an image in a
 * folder whose name holds a newline uses its cache from the second run on.)
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DistCacheIT {
  @TempDir static Path dir;
  static Path tarImage;
  static Path debImage;
  static Path workspace;
  static LocalUsers.Result first;

  @BeforeAll
  static void unpackAndRunTheTarOnceUnderUmask000() throws Exception {
    Assumptions.assumeTrue(LocalUsers.areAvailable(), "runs as root: it needs a second uid");
    Path dist = Path.of(System.getProperty("notesmcp.dist"));
    String version = System.getProperty("notesmcp.version");
    Path folder = Files.createDirectory(dir.resolve("owner's folder"));
    LocalUsers.sh(
        "tar -xzf \"$1\" -C \"$2\"",
        dist.resolve("notes-mcp-" + version + "-linux-x64.tar.gz").toString(),
        folder.toString());
    LocalUsers.chown(folder, OWNER);
    Path deb = Files.createDirectory(dir.resolve("deb"));
    LocalUsers.sh(
        "dpkg-deb -x \"$1\" \"$2\"",
        dist.resolve("notes-mcp_" + version + "_amd64.deb").toString(),
        deb.toString());
    workspace = Files.createDirectory(dir.resolve("workspace"));
    Files.writeString(workspace.resolve("notes.txt"), "Monday: ship the preview.\n");
    LocalUsers.sh(
        "chmod 755 \"$1\" \"$2\" \"$3\"", dir.toString(), folder.toString(), deb.toString());
    tarImage = folder.resolve("notes-mcp");
    debImage = deb.resolve("opt/notes-mcp");

    first = LocalUsers.run(as(OWNER, tarImage, "--version"), dir, Map.of());
  }

  @Test
  @Order(1)
  void aFirstRunUnderUmask000LeavesACacheThatOnlyItsOwnerCanChange() throws Exception {
    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(first.err()).contains("preparing the JVM start-up cache for this location");
    Path lib = tarImage.resolve("lib");
    assertThat(LocalUsers.ownersAndModes(lib.resolve("cache")))
        .containsOnly(
            Map.entry("", OWNER + " 755"),
            Map.entry("made-for", OWNER + " 644"),
            Map.entry("server.jsa", OWNER + " 444"),
            Map.entry("client.jsa", OWNER + " 444"));
    assertThat(LocalUsers.ownerAndMode(lib.resolve("cache.lock"))).isEqualTo(OWNER + " 600");

    LocalUsers.Result swap =
        other(
            lib.resolve("cache"),
            "t=$(mktemp) && cp \"$1/server.jsa\" \"$t\" && mv -f \"$t\" \"$1/client.jsa\";"
                + " r=$?; rm -f \"$t\"; exit $r");
    assertThat(swap.exit()).isNotZero();
    assertThat(swap.err()).contains("Permission denied");
    assertThat(other(lib, "exec 9<\"$1/cache.lock\"").exit()).isNotZero();
  }

  @Test
  @Order(2)
  void theSecondRunUsesTheCache() throws Exception {
    Path archive = tarImage.resolve("lib/cache/server.jsa");
    long made = LocalUsers.inode(archive);

    LocalUsers.Served served = serve(OWNER, tarImage);

    assertThat(served.exit()).as(served.err()).isZero();
    assertThat(served.err()).doesNotContain("start-up cache");
    assertThat(served.mapped()).contains(made);
    assertThat(LocalUsers.inode(archive)).isEqualTo(made);
  }

  /**
   * As an older launcher left it under umask 000 (lib/cache 0777, the record then {@code jar-path}
   * and the lock 0666), with the other user's own copy of the server archive renamed over it.
   */
  @Test
  @Order(3)
  void anotherUsersArchiveInACacheLeftWritableByAnOlderLauncherIsNeverMapped() throws Exception {
    Path cache = tarImage.resolve("lib/cache");
    LocalUsers.sh(
        "if [ -e \"$1/made-for\" ]; then mv \"$1/made-for\" \"$1/jar-path\"; fi"
            + " && chmod 666 \"$1/jar-path\" \"$1.lock\" && chmod 777 \"$1\"",
        cache.toString());
    long planted = plant(cache);

    LocalUsers.Served served = serve(OWNER, tarImage);

    assertThat(served.mapped()).doesNotContain(planted);
    assertThat(served.exit()).as(served.err()).isZero();
    assertThat(served.err()).contains("preparing the JVM start-up cache");
    assertThat(LocalUsers.ownerAndMode(cache)).isEqualTo(OWNER + " 755");
    assertThat(LocalUsers.ownerAndMode(cache.resolve("server.jsa"))).isEqualTo(OWNER + " 444");
    assertThat(LocalUsers.ownerAndMode(cache.resolve("../cache.lock"))).isEqualTo(OWNER + " 600");
  }

  /** What the .deb's install script runs, as root under umask 000, then a user's server. */
  @Test
  @Order(4)
  void theDebsCacheMadeByRootUnderUmask000IsWritableByRootAloneAndUsedByEveryUser()
      throws Exception {
    LocalUsers.Result install = LocalUsers.run(as(0, debImage, "--version"), dir, Map.of());
    Path cache = debImage.resolve("lib/cache");

    LocalUsers.Served served = serve(OWNER, debImage);

    assertThat(install.exit()).as(install.err()).isZero();
    assertThat(LocalUsers.ownersAndModes(cache))
        .containsOnly(
            Map.entry("", "0 755"),
            Map.entry("made-for", "0 644"),
            Map.entry("server.jsa", "0 444"),
            Map.entry("client.jsa", "0 444"));
    assertThat(LocalUsers.ownerAndMode(cache.resolve("../cache.lock"))).isEqualTo("0 600");
    assertThat(served.exit()).as(served.err()).isZero();
    assertThat(served.err()).doesNotContain("start-up cache");
    assertThat(served.mapped()).contains(LocalUsers.inode(cache.resolve("server.jsa")));
  }

  /** Root left the .deb's cache writable (chmod 777), and the other user put an archive in it. */
  @Test
  @Order(5)
  void anArchiveAnotherUserPutInTheDebsCacheIsNeverMappedByAnyUser() throws Exception {
    Path cache = debImage.resolve("lib/cache");
    LocalUsers.sh("chmod 777 \"$1\"", cache.toString());
    long planted = plant(cache);

    LocalUsers.Served served = serve(OWNER, debImage);

    assertThat(served.mapped()).doesNotContain(planted);
    assertThat(served.exit()).as(served.err()).isZero();
    assertThat(served.err())
        .contains(
            "notes-mcp: the JVM start-up cache in "
                + cache
                + " was changed after it was made, was made for another build, or could be"
                + " changed by others; running without it");
  }

  /**
   * The other user's own copy of the server archive, renamed over it; its inode. A second link to
   * it is kept outside the cache for the rest of the run, so that its inode stays taken: an archive
   * the launcher makes after removing the planted one could otherwise get the same number, and a
   * server mapping that new archive would look as if it mapped the planted one.
   */
  private static long plant(Path cache) throws Exception {
    LocalUsers.Result planted =
        other(cache, "cp \"$1/server.jsa\" \"$1/x.$$\" && mv -f \"$1/x.$$\" \"$1/server.jsa\"");
    assertThat(planted.exit()).as(planted.err()).isZero();
    assertThat(LocalUsers.ownerAndMode(cache.resolve("server.jsa"))).startsWith(OTHER + " ");
    long inode = LocalUsers.inode(cache.resolve("server.jsa"));
    Files.createLink(dir.resolve("planted-" + inode), cache.resolve("server.jsa"));
    return inode;
  }

  private static LocalUsers.Served serve(int uid, Path image) throws Exception {
    return LocalUsers.serve(
        as(uid, image, "-serve", "-root", workspace.toString()),
        dir,
        LocalUsers.DISCOVER,
        "DiscoverResultResponse");
  }

  /** {@code image/bin/notes-mcp args...} as {@code uid} under umask 000. */
  private static List<String> as(int uid, Path image, String... args) {
    List<String> command = new ArrayList<>(List.of(image.resolve("bin/notes-mcp").toString()));
    command.addAll(List.of(args));
    return LocalUsers.as(uid, "000", command);
  }

  /** A shell script as the other user, with {@code folder} as {@code $1}. */
  private static LocalUsers.Result other(Path folder, String script) throws Exception {
    return LocalUsers.run(
        LocalUsers.as(OTHER, "000", List.of("bash", "-c", script, "bash", folder.toString())),
        Path.of("/"),
        Map.of());
  }
}

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What holds against other users ({@code docs/behaviour.md}, "What holds against other processes"),
 * with a second user ({@code nobody}, through {@code setpriv}): the kernel's protected hard links
 * stop them linking a file of ours into a workspace they may write; and where that protection is
 * off (pretended through {@link TestMain}'s seam, the machine's setting untouched), a workspace
 * another user may write is refused at start-up, and one that becomes writable while the server
 * runs is refused at the read, each saying why.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OtherUsersIT {
  private static final String SECRET = "TOP-SECRET-5f3a: the payroll file\n";

  @TempDir Path dir;
  private Path root;
  private Path secret;

  @BeforeEach
  void setUp() throws Exception {
    // nobody may pass through the test's folder (not list it) to reach the workspace.
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
    root = Fixtures.workspace(dir).toRealPath();
    Path shelf = Files.createDirectory(dir.resolve("shelf"));
    Files.setPosixFilePermissions(shelf, PosixFilePermissions.fromString("rwxr-xr-x"));
    secret = Files.writeString(shelf.resolve("secret.txt"), SECRET);
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
  }

  @Test
  void anotherUserCannotHardLinkOurSecretIntoAWorkspaceTheyMayWrite() throws Exception {
    assertThat(Files.readString(Path.of("/proc/sys/fs/protected_hardlinks")).strip())
        .as("this machine protects hard links")
        .isEqualTo("1");
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));

    Launch.Result link =
        run(
            List.of(
                "setpriv",
                "--reuid=nobody",
                "--regid=nogroup",
                "--clear-groups",
                "ln",
                secret.toString(),
                root.resolve("notes-link.txt").toString()));
    Launch.Result symlink =
        run(
            List.of(
                "setpriv",
                "--reuid=nobody",
                "--regid=nogroup",
                "--clear-groups",
                "ln",
                "-s",
                secret.toString(),
                root.resolve("draft.txt").toString()));

    assertThat(link.exit()).isNotZero();
    assertThat(link.stderr()).contains("Operation not permitted");
    assertThat(root.resolve("notes-link.txt")).doesNotExist();
    assertThat(symlink.exit()).as("a symbolic link they may make").isZero();
    try (WireServer server = WireServer.start(root)) {
      assertThat(WireServer.text(server.call("read_note", "{\"path\":\"draft.txt\"}")))
          .isEqualTo("draft.txt is a symbolic link (links are never followed), not a regular file");
      assertThat(server.closeInputAndWait()).isZero();
    }
  }

  @Test
  void withHardLinksUnprotectedAWorkspaceEveryoneMayWriteIsRefusedAtStartUp() throws Exception {
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));

    Launch.Result result =
        run(
            TestMain.command(
                "--hard-links-unprotected", "true", "-serve", "-root", root.toString()));

    assertThat(result.exit()).as(result.stderr()).isEqualTo(2);
    assertThat(result.stdout()).isEmpty();
    assertThat(result.stderr())
        .isEqualTo(
            "notes-mcp: -root "
                + root
                + ": not a usable folder (it is writable by every user (mode 0777), and this"
                + " system does not protect hard links (fs.protected_hardlinks is not 1), so"
                + " another user could link into it a file only you can read; make it writable"
                + " only by you (chmod go-w "
                + root
                + "), or set fs.protected_hardlinks = 1)\n");
  }

  @Test
  void withHardLinksUnprotectedAWorkspaceAnotherUserOwnsIsRefusedAtStartUp() throws Exception {
    assertThat(new ProcessBuilder("chown", "nobody", root.toString()).start().waitFor()).isZero();
    long nobody = ((Number) Files.getAttribute(root, "unix:uid")).longValue();

    Launch.Result unprotected =
        run(
            TestMain.command(
                "--hard-links-unprotected", "true", "-serve", "-root", root.toString()));
    Launch.Result protectedByTheKernel = run(TestMain.command("-serve", "-root", root.toString()));

    assertThat(unprotected.exit()).as(unprotected.stderr()).isEqualTo(2);
    assertThat(unprotected.stderr())
        .startsWith(
            "notes-mcp: -root "
                + root
                + ": not a usable folder (it is owned by another user (uid "
                + nobody
                + "), and this system does not protect hard links");
    assertThat(protectedByTheKernel.exit()).as(protectedByTheKernel.stderr()).isZero();
  }

  @Test
  void withHardLinksUnprotectedAWorkspaceMadeWritableWhileServingIsRefusedAtTheRead()
      throws Exception {
    Thread.sleep(100); // the fixture's notes settle: older than the change margin
    try (WireServer server =
        WireServer.startCommand(
            TestMain.command(
                "--hard-links-unprotected", "true", "-serve", "-root", root.toString()))) {
      assertThat(WireServer.text(server.call("read_note", "{\"path\":\"notes.txt\"}")))
          .contains("\"content\"");

      Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwx---"));
      Thread.sleep(100); // the chmod changed the folder: let the margin pass

      assertThat(WireServer.text(server.call("read_note", "{\"path\":\"notes.txt\"}")))
          .isEqualTo(
              "notes.txt cannot be read: its folder is writable by its group (mode 0770), and"
                  + " this system does not protect hard links (fs.protected_hardlinks is not 1),"
                  + " so another user could link into it a file only you can read");
      assertThat(server.closeInputAndWait()).isZero();
    }
  }

  /** Runs {@code command} in {@code dir}, with no terminal and nothing on stdin. */
  private Launch.Result run(List<String> command) throws Exception {
    List<String> detached = new ArrayList<>(List.of("setsid", "-w"));
    detached.addAll(command);
    Path out = Files.createTempFile("out", ".txt");
    Path err = Files.createTempFile("err", ".txt");
    Process process =
        new ProcessBuilder(detached)
            .directory(dir.toFile())
            .redirectInput(new File("/dev/null"))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("exited").isTrue();
    Launch.Result result =
        new Launch.Result(
            process.exitValue(),
            Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
    Files.delete(out);
    Files.delete(err);
    return result;
  }
}

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
 * {@code -policy FILE} is opened as a note is, in folders only the user (or root) may write ({@code
 * docs/behaviour.md}, "Command line"): a FIFO is refused at once instead of blocking the start for
 * ever, {@code /dev/zero} is refused instead of read until the heap is gone, a file that is too
 * large is refused after reading one byte past the bound, and a file someone else could have
 * written or could replace is refused saying why. Run against the real executable, stdin at its
 * end: a server that starts serves nothing and exits 0.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PolicyFileIT {
  private static final String POLICY = "{\"readable\":[\"notes.txt\"],\"maxCalls\":3}";

  @TempDir Path dir;
  private Path root;
  private Path safe;

  @BeforeEach
  void setUp() throws Exception {
    root = Fixtures.workspace(dir).toRealPath();
    safe = Files.createDirectory(dir.resolve("config")).toRealPath();
  }

  @Test
  void aFifoAsThePolicyIsRefusedAtOnceNotWaitedOn() throws Exception {
    Path fifo = safe.resolve("policy.json");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();

    Launch.Result result = serve(fifo);

    assertRefused(result, fifo, "is a special file (FIFO, socket or device), not a regular file");
  }

  @Test
  void devZeroAsThePolicyIsRefusedWithoutReadingIt() throws Exception {
    Launch.Result result = serve(Path.of("/dev/zero"));

    assertRefused(
        result,
        Path.of("/dev/zero"),
        "is a special file (FIFO, socket or device), not a regular file");
  }

  @Test
  void aPolicyOverItsLimitIsRefusedWhateverSizeItReports() throws Exception {
    Path big = Files.writeString(safe.resolve("big.json"), " ".repeat(64 * 1024 + 1) + "{}");

    assertRefused(serve(big), big, "larger than 65536 bytes");
  }

  @Test
  void aPolicyItsGroupMayWriteIsRefused() throws Exception {
    Path policy = Files.writeString(safe.resolve("policy.json"), POLICY);
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-rw-r--"));

    assertRefused(
        serve(policy), policy, "is writable by its group (mode 0664); run: chmod go-w " + policy);
  }

  @Test
  void aPolicyInAFolderEveryoneMayWriteIsRefused() throws Exception {
    Path open = Files.createDirectory(dir.resolve("open")).toRealPath();
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path policy = Files.writeString(open.resolve("policy.json"), POLICY);

    assertRefused(
        serve(policy),
        policy,
        "its folder "
            + open
            + " is writable by every user (mode 0777), so someone else could replace the file;"
            + " keep it in a folder only you can write");
  }

  @Test
  void aPolicyAnotherUserOwnsIsRefused() throws Exception {
    Path policy = Files.writeString(safe.resolve("policy.json"), POLICY);
    assertThat(new ProcessBuilder("chown", "nobody", policy.toString()).start().waitFor()).isZero();
    long nobody = ((Number) Files.getAttribute(policy, "unix:uid")).longValue();

    assertRefused(
        serve(policy),
        policy,
        "is owned by uid " + nobody + ", not by this user (uid " + uid() + ") or root");
  }

  @Test
  void aPolicyReachedThroughLinksIsReadFromItsRealPlace() throws Exception {
    Files.writeString(safe.resolve("policy.json"), POLICY);
    Path linkedFolder = Files.createSymbolicLink(dir.resolve("linked-config"), safe);
    Path linkedFile =
        Files.createSymbolicLink(
            dir.resolve("policy-link.json"), linkedFolder.resolve("policy.json"));

    Launch.Result result = serve(linkedFile);

    assertThat(result.exit()).as(result.stderr()).isZero();
    assertThat(result.stderr()).contains("readable [notes.txt]").contains("3 tool calls");
    assertThat(result.stdout()).isEmpty();
  }

  @Test
  void aPolicyOfThisUserInAStickyFolderEveryoneMayWriteIsRead() throws Exception {
    Path sticky = Files.createDirectory(dir.resolve("sticky")).toRealPath();
    Files.setPosixFilePermissions(sticky, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertThat(new ProcessBuilder("chmod", "+t", sticky.toString()).start().waitFor()).isZero();
    Path policy = Files.writeString(sticky.resolve("policy.json"), POLICY);

    Launch.Result result = serve(policy);

    assertThat(result.exit()).as(result.stderr()).isZero();
    assertThat(result.stderr()).contains("readable [notes.txt]");
  }

  @Test
  void theClientsServerRefusesTheFifoTooAndTheClientSaysSo() throws Exception {
    Path fifo = safe.resolve("policy.json");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();

    Launch.Result result =
        run(
            List.of(
                WireServer.launcher().toString(),
                "-root",
                root.toString(),
                "-policy",
                fifo.toString(),
                "-tool",
                "list_notes"));

    // The client's server could not start: a transport failure, exit 4, its stderr passed on.
    assertThat(result.exit()).as(result.stderr()).isEqualTo(4);
    assertThat(result.stdout()).isEmpty();
    assertThat(result.stderr())
        .contains(
            "policy file "
                + fifo
                + ": is a special file (FIFO, socket or device), not a regular file");
  }

  private static long uid() throws Exception {
    Process id = new ProcessBuilder("id", "-u").start();
    return Long.parseLong(
        new String(id.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip());
  }

  private static void assertRefused(Launch.Result result, Path file, String problem) {
    assertThat(result.exit()).as(result.stderr()).isEqualTo(2);
    assertThat(result.stdout()).isEmpty();
    assertThat(result.stderr()).isEqualTo("notes-mcp: policy file " + file + ": " + problem + "\n");
  }

  private Launch.Result serve(Path policy) throws Exception {
    return run(
        List.of(
            WireServer.launcher().toString(),
            "-serve",
            "-root",
            root.toString(),
            "-policy",
            policy.toString()));
  }

  /** Runs {@code command} with stdin at its end and no terminal; 30 s at most. */
  private Launch.Result run(List<String> command) throws Exception {
    List<String> detached = new ArrayList<>(List.of("setsid", "-w"));
    detached.addAll(command);
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    Process process =
        new ProcessBuilder(detached)
            .directory(dir.toFile())
            .redirectInput(new File("/dev/null"))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    boolean exited = process.waitFor(30, TimeUnit.SECONDS);
    if (!exited) {
      process.destroyForcibly();
      process.waitFor();
    }
    assertThat(exited).as("exited within 30 s: " + Files.readString(err)).isTrue();
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

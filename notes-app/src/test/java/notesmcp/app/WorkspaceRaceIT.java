package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import notesmcp.mcp.SchemaCheck;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What holds against other processes ({@code docs/behaviour.md}, "What holds against other
 * processes"): another local process renaming, exchanging, linking or unlinking files in the
 * workspace at any moment can make a read fail, but never make it return the bytes of a file
 * outside the workspace, and never make a call wait on a FIFO or device. While a client pipelines
 * {@code read_note notes.txt} to the real executable, a second process ({@code swapper.c}, built
 * here with gcc) changes what {@code notes.txt} is as fast as it can: exchanged atomically with a
 * hard link to a secret file outside the workspace, or with a FIFO nobody writes; replaced by plain
 * renames in turn with a regular file, a symbolic link and a hard link to the secret, and a
 * directory; or, the cycle a link count cannot stop, each thing made at {@code .tmp} and renamed
 * over the note, the hard link unlinked before the directory comes, while two more processes write
 * and fsync files on the same file system (journal pressure widens the kernel's window between
 * dropping the link count and removing the name). bench/race/run runs that last cycle for longer
 * and counts.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class WorkspaceRaceIT {
  private static final String SECRET = "TOP-SECRET-5f3a: the payroll file\n";
  private static final int CALLS = 10_000;

  /** Reads during the link cycle: tens of thousands, about 13 s on a busy 2-core machine. */
  private static final int CYCLE_CALLS = 30_000;

  private static final int IN_FLIGHT = 32;
  private static final String SWAP_SECONDS = "120";

  /** The answer to a read that found the note. */
  private static final String READ =
      "{\"path\":\"notes.txt\",\"content\":"
          + WireServer.JSON.writeValueAsString(Fixtures.NOTES)
          + "}";

  /** Every other answer a read may get while the name changes under it. */
  private static final Set<String> REFUSALS =
      Set.of(
          "notes.txt is a symbolic link (links are never followed), not a regular file",
          "notes.txt is a directory, not a regular file",
          "notes.txt is a special file (FIFO, socket or device), not a regular file",
          "notes.txt has 2 hard links; a note must have exactly one"
              + " (another link may lead outside the workspace)",
          "notes.txt does not exist in the workspace",
          "notes.txt changed while it was being opened; try again",
          "notes.txt changed while it was being read; try again");

  /**
   * What the link cycle adds: a link count read as 0 (the name looked at while the kernel removes
   * it, its count already dropped).
   */
  private static final Set<String> CYCLE_REFUSALS =
      Set.of(
          "notes.txt has 0 hard links; a note must have exactly one"
              + " (another link may lead outside the workspace)");

  @TempDir Path dir;
  private Path root;
  private Path outside;
  private Path secret;
  private Path swapper;

  @BeforeEach
  void setUp() throws Exception {
    root = Fixtures.workspace(dir).toRealPath();
    outside = Files.createDirectory(dir.resolve("outside")).toRealPath();
    secret = Files.writeString(outside.resolve("secret.txt"), SECRET);
    swapper = build(dir);
  }

  /** Compiles {@code swapper.c} (a test resource) with gcc into {@code dir}. */
  static Path build(Path dir) throws IOException, InterruptedException {
    Path source = dir.resolve("swapper.c");
    try (InputStream in = WorkspaceRaceIT.class.getResourceAsStream("swapper.c")) {
      Files.write(source, in.readAllBytes());
    }
    Path binary = dir.resolve("swapper");
    Process gcc =
        new ProcessBuilder("gcc", "-O2", "-o", binary.toString(), source.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(gcc.waitFor()).as("gcc: " + output).isZero();
    return binary;
  }

  @Test
  void anExchangeWithAHardLinkToASecretNeverLeaksIt() throws Exception {
    Path link = Files.createLink(outside.resolve("link-to-secret"), secret);

    List<String> refusals =
        readWhileSwapping("exchange", root.resolve("notes.txt").toString(), link.toString());

    assertThat(refusals).as("the swapper really raced the reads").isNotEmpty();
  }

  @Test
  void aPlainRenameCycleNeverLeaksTheSecret() throws Exception {
    Path staging = Files.createDirectory(dir.resolve("staging"));

    List<String> refusals =
        readWhileSwapping(
            "cycle",
            root.resolve("notes.txt").toString(),
            staging.toString(),
            secret.toString(),
            Fixtures.NOTES);

    assertThat(refusals).as("the swapper really raced the reads").isNotEmpty();
  }

  @Test
  void theLinkCycleUnderFsyncLoadNeverLeaksTheSecret() throws Exception {
    Path load = Files.createDirectory(dir.resolve("load"));
    List<Process> writers = new ArrayList<>();
    try {
      for (int i = 0; i < 2; i++) {
        Path own = Files.createDirectory(load.resolve("writer" + i));
        writers.add(
            new ProcessBuilder(swapper.toString(), "fsync", own.toString(), SWAP_SECONDS)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start());
      }

      List<String> refusals =
          readWhileSwapping(
              CYCLE_CALLS,
              "link-cycle",
              root.resolve("notes.txt").toString(),
              secret.toString(),
              Fixtures.NOTES);

      assertThat(refusals)
          .as("the cycle really raced the reads")
          .contains(
              "notes.txt is a symbolic link (links are never followed), not a regular file",
              "notes.txt is a directory, not a regular file");
    } finally {
      for (Process writer : writers) {
        writer.destroy();
        assertThat(writer.waitFor(10, TimeUnit.SECONDS)).as("a writer stopped").isTrue();
      }
    }
  }

  @Test
  void aFifoExchangedInNeverHoldsACallAndStdinStillEndsTheServer() throws Exception {
    Path fifo = outside.resolve("fifo");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();

    List<String> refusals =
        readWhileSwapping("exchange", root.resolve("notes.txt").toString(), fifo.toString());

    assertThat(refusals)
        .contains("notes.txt is a special file (FIFO, socket or device), not a regular file");
  }

  /**
   * Runs the swapper with {@code args}, pipelines {@link #CALLS} reads of notes.txt ({@link
   * #IN_FLIGHT} at a time) while it runs, stops it, checks that one more read is answered and that
   * closing stdin ends the server with 0; returns the refusals seen.
   */
  private List<String> readWhileSwapping(String... args) throws Exception {
    return readWhileSwapping(CALLS, args);
  }

  private List<String> readWhileSwapping(int calls, String... args) throws Exception {
    List<String> refusals = new ArrayList<>();
    List<String> replies = new ArrayList<>();
    try (WireServer server = WireServer.start(root, "-max-calls", "100000")) {
      server.call("list_notes", "{}"); // started and serving before the race begins
      List<String> command = new ArrayList<>(List.of(swapper.toString()));
      command.addAll(List.of(args));
      command.add(SWAP_SECONDS);
      Process swap =
          new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      try {
        BufferedReader said =
            new BufferedReader(
                new InputStreamReader(swap.getInputStream(), StandardCharsets.UTF_8));
        assertThat(said.readLine()).isEqualTo("ready");
        for (int sent = 0; sent < calls; sent += IN_FLIGHT) {
          long[] ids = new long[IN_FLIGHT];
          for (int i = 0; i < IN_FLIGHT; i++) {
            ids[i] = send(server);
          }
          for (long id : ids) {
            replies.add(WireServer.text(server.response(id)));
          }
        }
      } finally {
        swap.destroy();
        assertThat(swap.waitFor(10, TimeUnit.SECONDS)).as("the swapper stopped").isTrue();
      }
      assertThat(replies)
          .as("replies while the name changed")
          .noneMatch(r -> r.contains("TOP-SECRET"));
      for (String text : replies) {
        if (!text.equals(READ)) {
          assertThat(text)
              .as("a refusal that names its reason")
              .isIn(args[0].equals("link-cycle") ? union(REFUSALS, CYCLE_REFUSALS) : REFUSALS);
          refusals.add(text);
        }
      }
      restoreNote();
      Thread.sleep(200); // the note and the workspace settle: older than the change margin
      assertThat(WireServer.text(server.call("read_note", "{\"path\":\"notes.txt\"}")))
          .as("a later request is answered")
          .isEqualTo(READ);
      long closed = System.nanoTime();
      assertThat(server.closeInputAndWait()).isZero();
      assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - closed))
          .as("seconds from closing stdin to exit")
          .isLessThan(10);
    }
    return refusals;
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> both = new java.util.HashSet<>(a);
    both.addAll(b);
    return both;
  }

  private long send(WireServer server) {
    long id = server.nextId();
    server.expect(id, SchemaCheck.MODERN, "CallToolResult");
    server.send(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + id
            + ",\"method\":\"tools/call\",\"params\":{"
            + WireServer.META
            + ",\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}}");
    return id;
  }

  /** Puts the note back as a single-link regular file, whatever the swapper left at its name. */
  private void restoreNote() throws IOException {
    Path note = root.resolve("notes.txt");
    if (Files.isDirectory(note, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      Files.delete(note);
    }
    Path fresh = Files.writeString(root.resolve(".fresh"), Fixtures.NOTES);
    Files.move(fresh, note, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }
}

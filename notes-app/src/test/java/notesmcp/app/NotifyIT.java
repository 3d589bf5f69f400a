package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Telling the person that a proposal waits (docs/review-page.md, "Telling the person"), end to end
 * with the real executable: the command of {@code -notify-command} gets the proposal's id, the
 * note's path and the review page's address as arguments, exactly, whatever the path holds (it is
 * the client's choice: command substitutions, separators, quotes, a leading {@code -}); it runs
 * with standard input {@code /dev/null} and its output discarded, never holds the call, is killed
 * after its time, and at most four run at once; {@code notify-send} is run where a session bus is
 * there and not where none is; a command that cannot be run is a usage error before anything is
 * made on disk. The programs are scripts written here that record how they were run.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class NotifyIT {
  @TempDir Path dir;

  /** A script in {@code dir/bin} that records its arguments (NUL-separated) and its descriptors. */
  private Path recorder(String name, String extra) throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path calls = Files.createDirectories(dir.resolve("calls-" + name));
    Path script = bin.resolve(name);
    Files.writeString(
        script,
        "#!/bin/sh\n"
            + "out='"
            + calls
            + "'/$$\n"
            + "printf '%s\\0' \"$@\" > \"$out.args\"\n"
            // In a command substitution: the main shell's descriptors, not a redirection's.
            + "fds=\"$(for fd in 0 1 2; do readlink /proc/$$/fd/$fd; done)\"\n"
            + "printf '%s\\n' \"$fds\" > \"$out.fds\"\n"
            + extra,
        StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }

  /** The argument vectors the recorder named {@code name} was run with, once {@code count} ran. */
  private List<List<String>> calls(String name, int count) throws Exception {
    Path calls = dir.resolve("calls-" + name);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      List<Path> done;
      try (Stream<Path> files = Files.list(calls)) {
        done = files.filter(f -> f.toString().endsWith(".fds")).toList();
      }
      if (done.size() >= count || System.nanoTime() > deadline) {
        assertThat(done).hasSize(count);
        break;
      }
      Thread.sleep(20);
    }
    Thread.sleep(200); // a recorder that ran more than it should shows itself by now
    List<List<String>> found = new ArrayList<>();
    try (Stream<Path> files = Files.list(calls)) {
      for (Path args : files.filter(f -> f.toString().endsWith(".args")).sorted().toList()) {
        String text = Files.readString(args, StandardCharsets.UTF_8);
        found.add(Arrays.asList(text.substring(0, text.length() - 1).split("\0", -1)));
        Path fds = Path.of(args.toString().replace(".args", ".fds"));
        assertThat(Files.readAllLines(fds))
            .as("stdin, stdout and stderr of %s", name)
            .containsExactly("/dev/null", "/dev/null", "/dev/null");
      }
    }
    assertThat(found).hasSize(count);
    return found;
  }

  @Test
  void theCommandGetsIdPathAndAddressAsArgumentsAndNothingOfThePathIsInterpreted()
      throws Exception {
    String mark = "pwned-" + UUID.randomUUID().toString().substring(0, 8);
    Path script = recorder("notify", "");
    List<String> paths =
        List.of(
            "$(touch " + mark + "-a).md",
            "; touch " + mark + "-b ;.md",
            "`touch " + mark + "-c`.md",
            "-rf --help.md",
            "Inbox/a'b\"c | d && e > f.md");
    try (ReviewWire wire =
        ReviewWire.start(
            dir, Map.of(), "-notify-command", "'" + script + "' --first 'two words'")) {
      List<String> ids = new ArrayList<>();
      for (String path : paths) {
        ids.add(wire.proposeNote(path, "text\n"));
      }
      // A path with a line feed is no note's name: refused, nobody told.
      HttpWire.Reply newline =
          wire.oauth.server.call(
              wire.token, "propose_note", "{\"path\":\"a\\nb.md\",\"content\":\"x\"}");
      assertThat(WireServer.isError(newline.json())).isTrue();

      List<List<String>> calls = calls("notify", paths.size());
      List<List<String>> expected = new ArrayList<>();
      for (int i = 0; i < paths.size(); i++) {
        expected.add(
            List.of("--first", "two words", ids.get(i), paths.get(i), wire.oauth.base + "/review"));
      }
      assertThat(calls).containsExactlyInAnyOrderElementsOf(expected);
      for (Path place : List.of(dir, wire.root, Path.of("").toAbsolutePath())) {
        try (Stream<Path> files = Files.walk(place, 3)) {
          assertThat(files.map(Path::toString).filter(f -> f.contains(mark)).toList()).isEmpty();
        }
      }
      String stderr = wire.oauth.server.stderr();
      assertThat(stderr)
          .contains(
              "notes-mcp: proposal "
                  + ids.get(0)
                  + " (a new note $(touch "
                  + mark
                  + "-a).md) waits for review: "
                  + wire.oauth.base
                  + "/review, or notes-mcp review -root "
                  + wire.root
                  + " -proposals "
                  + wire.proposals
                  + " -policy "
                  + wire.policy);
      assertThat(stderr).doesNotContain("-notify-command for proposal");
    }
  }

  @Test
  void aSlowCommandNeverHoldsTheCallIsKilledInTimeAndAtMostFourRunAtOnce() throws Exception {
    Path script = recorder("slow", "sleep 60\nprintf done > \"$out.finished\"\n");
    try (ReviewWire wire = ReviewWire.start(dir, Map.of(), "-notify-command", script.toString())) {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        // Each call is answered while the commands before it are still running.
        ids.add(wire.proposeNote("Inbox/slow-" + i + ".md", "text\n"));
      }
      calls("slow", 4);
      try (Stream<Path> files = Files.list(dir.resolve("calls-slow"))) {
        assertThat(files.filter(f -> f.toString().endsWith(".finished")).toList()).isEmpty();
      }
      String stderr = awaitStderr(wire, "was killed after 10 s", 4);
      assertThat(count(stderr, "was skipped: 4 are still running")).isEqualTo(2);
      // Once they are gone, a new proposal's command runs again.
      String late = wire.proposeNote("Inbox/late.md", "text\n");
      assertThat(calls("slow", 5).stream().filter(c -> c.contains(late)).count()).isEqualTo(1);
    }
  }

  @Test
  void notifySendIsRunWhereASessionBusIsThereAndNotWhereNoneIs() throws Exception {
    Path fake = recorder("notify-send", "");
    String path = System.getenv("PATH");
    Map<String, String> withBus =
        Map.of(
            "PATH",
            fake.getParent() + ":" + path,
            "DBUS_SESSION_BUS_ADDRESS",
            "unix:path=" + dir.resolve("no-bus"));
    Path first = Files.createDirectory(dir.resolve("first"));
    try (ReviewWire wire = ReviewWire.start(first, withBus)) {
      String id = wire.proposeNote("Inbox/<i>x & y -z.md", "text\n");
      List<List<String>> calls = calls("notify-send", 1);
      assertThat(calls.get(0))
          .containsExactly(
              "--app-name=notes-mcp",
              "notes-mcp: a proposal waits for review",
              "New note Inbox/&lt;i&gt;x &amp; y -z.md\nReview it at "
                  + wire.oauth.base
                  + "/review");
      assertThat(wire.oauth.server.stderr()).contains("proposal " + id);
    }
    // No session bus: no address, and a runtime folder without one.
    Map<String, String> noBus =
        Map.of(
            "PATH",
            fake.getParent() + ":" + path,
            "DBUS_SESSION_BUS_ADDRESS",
            "",
            "XDG_RUNTIME_DIR",
            dir.toString());
    Path second = Files.createDirectory(dir.resolve("second"));
    try (ReviewWire wire = ReviewWire.start(second, noBus)) {
      String id = wire.proposeNote("Inbox/quiet.md", "text\n");
      awaitStderr(wire, "proposal " + id + " (a new note Inbox/quiet.md) waits for review", 1);
      Thread.sleep(1000);
      calls("notify-send", 1);
    }
  }

  /**
   * Over stdio the review page's address is empty; without {@code -proposals} a proposal cannot be
   * approved, so only stderr says so and no program runs.
   */
  @Test
  void overStdioTheAddressIsEmptyAndAProposalInMemoryRunsNothing() throws Exception {
    Path script = recorder("stdio", "");
    Path root = Fixtures.workspace(dir);
    Path proposals = dir.resolve("proposals");
    try (WireServer server =
        WireServer.start(
            root, "-proposals", proposals.toString(), "-notify-command", script.toString())) {
      JsonNode reply = server.call("propose_note", "{\"path\":\"draft.txt\",\"content\":\"x\"}");
      String id = WireServer.JSON.readTree(WireServer.text(reply)).get("proposal_id").asString();
      assertThat(calls("stdio", 1).get(0)).containsExactly(id, "draft.txt", "");
    }
    try (WireServer server = WireServer.start(root, "-notify-command", script.toString())) {
      JsonNode reply = server.call("propose_note", "{\"path\":\"draft.txt\",\"content\":\"y\"}");
      assertThat(WireServer.isError(reply)).isFalse();
      assertThat(server.closeInputAndWait()).isZero();
      assertThat(server.stderr())
          .contains(") is pending in memory: without -proposals it cannot be approved");
    }
    calls("stdio", 1);
  }

  @Test
  void aCommandThatCannotRunIsAUsageErrorBeforeAnythingIsMade() throws Exception {
    Path root = Fixtures.workspace(dir);
    Path proposals = dir.resolve("proposals");
    Path notExecutable = Files.writeString(dir.resolve("plain"), "#!/bin/sh\n");
    for (String command :
        List.of(
            "/no/such/program", "no-such-program-" + UUID.randomUUID(), notExecutable.toString())) {
      Launch.Result run =
          Launch.run(
              dir,
              List.of(
                  WireServer.launcher().toString(),
                  "-serve",
                  "-root",
                  root.toString(),
                  "-proposals",
                  proposals.toString(),
                  "-notify-command",
                  command));
      assertThat(run.exit()).as(run.stderr()).isEqualTo(2);
      assertThat(run.stderr())
          .contains("notes-mcp: -notify-command: ")
          .contains("is not an executable file");
      assertThat(proposals).doesNotExist();
    }
    Launch.Result review =
        Launch.run(
            dir, Launch.review(root, proposals, "-notify-command", notExecutable.toString()));
    assertThat(review.exit()).isEqualTo(2);
    assertThat(review.stderr()).contains("-notify-command goes with -serve only");
  }

  private static String awaitStderr(ReviewWire wire, String text, int times) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    String stderr = wire.oauth.server.stderr();
    while (count(stderr, text) < times) {
      assertThat(System.nanoTime())
          .as("stderr never said %s %d times:\n%s", text, times, stderr)
          .isLessThan(deadline);
      Thread.sleep(50);
      stderr = wire.oauth.server.stderr();
    }
    return stderr;
  }

  private static int count(String text, String part) {
    int n = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      n++;
    }
    return n;
  }
}

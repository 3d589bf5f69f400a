package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * docs/approvals.md's guarantees, end to end with the real executable: a proposal survives a killed
 * server, a review killed mid-commit is completed by the next one, two reviewers make one file, and
 * an existing destination or a tampered record is refused.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ApprovalsIT {
  static final String CONTENT = "Meeting moved to Friday.\n";

  @TempDir Path dir;
  private Path root;
  private Path proposals;

  @BeforeEach
  void setUp() throws Exception {
    root = Fixtures.workspace(dir).toRealPath();
    proposals = dir.resolve("proposals");
  }

  /** Proposes {@code content} for draft.txt through MCP and returns the proposal id. */
  static String propose(WireServer server, String content) {
    JsonNode reply =
        server.call(
            "propose_note",
            "{\"path\":\"draft.txt\",\"content\":"
                + WireServer.JSON.writeValueAsString(content)
                + "}");
    assertThat(WireServer.isError(reply)).as(reply.toString()).isFalse();
    return WireServer.JSON.readTree(WireServer.text(reply)).path("proposal_id").asString();
  }

  static String sha256(String content) throws Exception {
    return HexFormat.of()
        .formatHex(
            MessageDigest.getInstance("SHA-256").digest(content.getBytes(StandardCharsets.UTF_8)));
  }

  private String proposeAndClose(String content) throws Exception {
    try (WireServer server = WireServer.start(root, "-proposals", proposals.toString())) {
      String id = propose(server, content);
      assertThat(server.closeInputAndWait()).isZero();
      return id;
    }
  }

  /**
   * Approves through the real launcher, or, with {@code hooks} (flags of {@link TestMain}), through
   * the test main that stops or pauses the commit at a checkpoint.
   */
  private Launch.Result approve(String id, String sha256, List<String> hooks) throws Exception {
    return Launch.run(
        dir,
        Map.of(),
        "",
        Launch.withoutTerminal(review(hooks, "--approve", id, "--sha256", sha256)));
  }

  private List<String> review(List<String> hooks, String... more) {
    List<String> command = Launch.review(root, proposals, more);
    if (hooks.isEmpty()) {
      return command;
    }
    List<String> args = new ArrayList<>(hooks);
    args.addAll(command.subList(1, command.size())); // the words after the launcher
    return TestMain.command(args.toArray(new String[0]));
  }

  private Launch.Result list() throws Exception {
    return Launch.run(dir, Launch.withoutTerminal(Launch.review(root, proposals)));
  }

  @Test
  void fromProposeNoteToACommittedNoteReadThroughMcp() throws Exception {
    String id = proposeAndClose(CONTENT);

    Launch.Result listed = list();
    assertThat(listed.exit()).isZero();
    assertThat(listed.stdout())
        .contains("Proposal " + id + "\n")
        .contains("  destination  " + root.resolve("draft.txt") + "\n")
        .contains("  bytes        25\n")
        .contains("  sha256       " + sha256(CONTENT) + "\n")
        .contains("\"wire-test\" version \"1\" (self-reported by the MCP client, unverified)");
    assertThat(root.resolve("draft.txt")).doesNotExist();

    Launch.Result approved = approve(id, sha256(CONTENT).toUpperCase(), List.of());
    assertThat(approved.exit()).as(approved.stderr()).isZero();
    assertThat(approved.stdout())
        .isEqualTo("created " + root.resolve("draft.txt") + " (25 bytes)\n");
    Path note = root.resolve("draft.txt");
    assertThat(Files.readString(note)).isEqualTo(CONTENT);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(note)))
        .isEqualTo("rw-------");
    try (WireServer server = WireServer.start(root)) {
      JsonNode read = server.call("read_note", "{\"path\":\"draft.txt\"}");
      assertThat(WireServer.text(read))
          .isEqualTo("{\"path\":\"draft.txt\",\"content\":\"Meeting moved to Friday.\\n\"}");
    }
  }

  @Test
  void aServerKilledRightAfterTheAcknowledgementLosesNoProposal() throws Exception {
    String id;
    try (WireServer server = WireServer.start(root, "-proposals", proposals.toString())) {
      id = propose(server, CONTENT);
      server.process().destroyForcibly(); // SIGKILL: no shutdown hook, no flush
      assertThat(server.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
      assertThat(server.process().exitValue()).isEqualTo(128 + 9);
    }

    assertThat(proposals.resolve(id + ".json")).exists();
    assertThat(list().stdout()).contains("Proposal " + id + "\n");
    try (WireServer restarted = WireServer.start(root, "-proposals", proposals.toString())) {
      JsonNode again = restarted.call("propose_note", "{\"path\":\"draft.txt\",\"content\":\"2\"}");
      assertThat(WireServer.text(again))
          .isEqualTo(
              "a proposal for draft.txt is already pending ("
                  + id
                  + "); a person must approve or reject it with 'notes-mcp review' first");
    }
  }

  /** "Inject a crash between file creation and the status update" (docs/approvals.md). */
  @ParameterizedTest
  @ValueSource(strings = {"after-link", "after-unlink"})
  void aReviewKilledAfterCreatingTheNoteIsCompletedByTheNextReview(String point) throws Exception {
    String id = proposeAndClose(CONTENT);
    Path note = root.resolve("draft.txt");

    Launch.Result crashed = approve(id, sha256(CONTENT), halt(point));

    assertThat(crashed.exit()).as(crashed.stderr()).isEqualTo(TestMain.HALT_STATUS);
    assertThat(Files.readString(note)).isEqualTo(CONTENT);
    assertThat(proposals.resolve(id + ".committed")).doesNotExist();

    Launch.Result next = list();
    assertThat(next.stderr())
        .contains("notes-mcp: completed the interrupted commit of " + id + ": " + note + "\n")
        .contains("notes-mcp: no pending proposals in " + proposals);
    assertThat(Files.readString(note)).isEqualTo(CONTENT);
    assertThat(Files.getAttribute(note, "unix:nlink")).isEqualTo(1);
    assertThat(proposals.resolve(id + ".committed")).exists();
    try (var files = Files.list(root)) {
      assertThat(files.map(p -> p.getFileName().toString()).sorted())
          .containsExactly("draft.txt", "notes.txt", "project.txt");
    }
    Launch.Result again = approve(id, sha256(CONTENT), List.of());
    assertThat(again.exit()).isEqualTo(1);
    assertThat(again.stderr())
        .contains("notes-mcp: refused: proposal " + id + " is already committed; nothing changed");
  }

  @ParameterizedTest
  @ValueSource(strings = {"before-create", "after-temp"})
  void aReviewKilledBeforeTheLinkLeavesNoNoteAndThePendingProposal(String point) throws Exception {
    String id = proposeAndClose(CONTENT);

    Launch.Result crashed = approve(id, sha256(CONTENT), halt(point));

    assertThat(crashed.exit()).as(crashed.stderr()).isEqualTo(TestMain.HALT_STATUS);
    assertThat(root.resolve("draft.txt")).doesNotExist();
    assertThat(list().stdout()).contains("Proposal " + id + "\n");
    try (var files = Files.list(root)) {
      assertThat(files.map(p -> p.getFileName().toString()).sorted())
          .containsExactly("notes.txt", "project.txt");
    }
    assertThat(approve(id, sha256(CONTENT), List.of()).exit()).isZero();
    assertThat(Files.readString(root.resolve("draft.txt"))).isEqualTo(CONTENT);
  }

  @Test
  void twoReviewersApprovingAtOnceMakeOneFileAndOneRefusal() throws Exception {
    String id = proposeAndClose(CONTENT);
    Path resume = dir.resolve("resume");
    String[] approve = {"-approve", id, "-sha256", sha256(CONTENT)};
    List<String> command = Launch.withoutTerminal(review(List.of(), approve));
    List<String> pausing =
        Launch.withoutTerminal(review(pauseAt("before-create", resume), approve));

    Launch first = Launch.start(dir, Map.of(), "", pausing);
    first.awaitStderr("notes-mcp: pausing at before-create (test)");
    Launch second = Launch.start(dir, Map.of(), "", command);
    second.awaitStderr("notes-mcp: another review holds " + proposals + "; waiting");
    Files.createFile(resume);

    Launch.Result one = first.await();
    Launch.Result other = second.await();
    assertThat(one.exit()).as(one.stderr()).isZero();
    assertThat(other.exit()).isEqualTo(1);
    assertThat(other.stderr())
        .contains("notes-mcp: refused: proposal " + id + " is already committed; nothing changed");
    assertThat(Files.readString(root.resolve("draft.txt"))).isEqualTo(CONTENT);
  }

  @Test
  void anExistingDestinationIsRefusedAndLeftUntouched() throws Exception {
    String id = proposeAndClose(CONTENT);
    Files.writeString(root.resolve("draft.txt"), "the person's own draft\n");

    Launch.Result result = approve(id, sha256(CONTENT), List.of());

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.stderr())
        .contains(
            "notes-mcp: refused: "
                + root.resolve("draft.txt")
                + " already exists; it was left untouched and proposal "
                + id
                + " is still pending");
    assertThat(Files.readString(root.resolve("draft.txt"))).isEqualTo("the person's own draft\n");
  }

  @Test
  void aRecordTamperedWithIsRefused() throws Exception {
    String id = proposeAndClose(CONTENT);
    Path record = proposals.resolve(id + ".json");
    Files.writeString(record, Files.readString(record).replace("Friday", "Monday"));

    Launch.Result result = approve(id, sha256(CONTENT), List.of());

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.stderr())
        .contains(
            "notes-mcp: refused: proposal "
                + id
                + ": record content does not match its recorded SHA-256 (tampered with or"
                + " corrupted); refusing it, nothing changed");
    assertThat(root.resolve("draft.txt")).doesNotExist();
    assertThat(list().stdout()).contains("Damaged proposal " + id + "\n");
  }

  @Test
  void rejectExitsZeroAndAnApprovalAfterwardsChangesNothing() throws Exception {
    String id = proposeAndClose(CONTENT);

    Launch.Result rejected =
        Launch.run(dir, Launch.withoutTerminal(Launch.review(root, proposals, "--reject", id)));
    Launch.Result approved = approve(id, sha256(CONTENT), List.of());

    assertThat(rejected.exit()).isZero();
    assertThat(rejected.stdout()).isEqualTo("rejected proposal " + id + "\n");
    assertThat(approved.exit()).isEqualTo(1);
    assertThat(approved.stderr()).contains("is already rejected; nothing changed");
    assertThat(root.resolve("draft.txt")).doesNotExist();
  }

  private static List<String> halt(String point) {
    return List.of("--halt-at", point);
  }

  private static List<String> pauseAt(String point, Path resume) {
    return List.of("--pause-at", point, "--resume-file", resume.toString());
  }
}

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
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
 * A proposal for a note in a sub-folder ({@code Inbox/*.md}), end to end (docs/approvals.md): the
 * review creates it in that folder exactly once, through the folder's descriptor, completes or
 * clears a commit killed at any of its points, and never writes through a folder that was swapped
 * for a link to somewhere else.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class VaultApprovalsIT {
  private static final String CONTENT = "An idea for Friday.\n";
  private static final String PATH = "Inbox/idea.md";

  @TempDir Path dir;
  private Path root;
  private Path proposals;
  private Path policy;

  @BeforeEach
  void setUp() throws Exception {
    root = Files.createDirectory(dir.resolve("vault")).toRealPath();
    Files.createDirectory(root.resolve("Inbox"));
    Files.writeString(root.resolve("notes.txt"), "plain\n");
    proposals = dir.resolve("proposals");
    policy =
        Files.writeString(
            dir.resolve("policy.json"),
            "{\"readable\":[\"**/*.md\",\"notes.txt\"],\"proposable\":[\"Inbox/*.md\"]}");
  }

  private String proposeAndClose() throws Exception {
    try (WireServer server =
        WireServer.start(root, "-policy", policy.toString(), "-proposals", proposals.toString())) {
      JsonNode reply =
          server.call(
              "propose_note",
              "{\"path\":\""
                  + PATH
                  + "\",\"content\":"
                  + WireServer.JSON.writeValueAsString(CONTENT)
                  + "}");
      assertThat(WireServer.isError(reply)).as(reply.toString()).isFalse();
      assertThat(server.closeInputAndWait()).isZero();
      return WireServer.JSON.readTree(WireServer.text(reply)).path("proposal_id").asString();
    }
  }

  private Launch.Result approve(String id, List<String> hooks) throws Exception {
    List<String> command =
        Launch.review(root, proposals, "--approve", id, "--sha256", ApprovalsIT.sha256(CONTENT));
    if (!hooks.isEmpty()) {
      List<String> args = new ArrayList<>(hooks);
      args.addAll(command.subList(1, command.size()));
      command = TestMain.command(args.toArray(new String[0]));
    }
    return Launch.run(dir, Map.of(), "", Launch.withoutTerminal(command));
  }

  private Launch.Result list() throws Exception {
    return Launch.run(dir, Launch.withoutTerminal(Launch.review(root, proposals)));
  }

  private List<String> inbox() throws Exception {
    try (var files = Files.list(root.resolve("Inbox"))) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void anApprovedProposalIsCreatedInItsFolderOnceAndIsThenReadThroughMcp() throws Exception {
    String id = proposeAndClose();
    Path note = root.resolve(PATH);
    assertThat(list().stdout()).contains("  destination  " + note + "\n");
    assertThat(note).doesNotExist();

    Launch.Result approved = approve(id, List.of());

    assertThat(approved.exit()).as(approved.stderr()).isZero();
    assertThat(approved.stdout()).isEqualTo("created " + note + " (20 bytes)\n");
    assertThat(Files.readString(note)).isEqualTo(CONTENT);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(note)))
        .isEqualTo("rw-------");
    assertThat(inbox()).containsExactly("idea.md");
    Launch.Result again = approve(id, List.of());
    assertThat(again.exit()).isEqualTo(1);
    assertThat(again.stderr()).contains("is already committed; nothing changed");
    Thread.sleep(200); // older than the read's change margin
    try (WireServer server = WireServer.start(root, "-policy", policy.toString())) {
      assertThat(WireServer.text(server.call("read_note", "{\"path\":\"" + PATH + "\"}")))
          .isEqualTo("{\"path\":\"Inbox/idea.md\",\"content\":\"An idea for Friday.\\n\"}");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"after-link", "after-unlink"})
  void aReviewKilledAfterTheLinkIsCompletedByTheNextReview(String point) throws Exception {
    String id = proposeAndClose();

    Launch.Result crashed = approve(id, List.of("--halt-at", point));

    assertThat(crashed.exit()).as(crashed.stderr()).isEqualTo(TestMain.HALT_STATUS);
    assertThat(Files.readString(root.resolve(PATH))).isEqualTo(CONTENT);
    Launch.Result next = list();
    assertThat(next.stderr())
        .contains(
            "notes-mcp: completed the interrupted commit of " + id + ": " + root.resolve(PATH));
    assertThat(inbox()).containsExactly("idea.md");
    assertThat(Files.getAttribute(root.resolve(PATH), "unix:nlink")).isEqualTo(1);
    assertThat(proposals.resolve(id + ".committed")).exists();
  }

  @ParameterizedTest
  @ValueSource(strings = {"before-create", "after-temp"})
  void aReviewKilledBeforeTheLinkLeavesNoNoteAndThenCommitsOnce(String point) throws Exception {
    String id = proposeAndClose();

    Launch.Result crashed = approve(id, List.of("--halt-at", point));

    assertThat(crashed.exit()).as(crashed.stderr()).isEqualTo(TestMain.HALT_STATUS);
    assertThat(root.resolve(PATH)).doesNotExist();
    assertThat(list().stdout()).contains("Proposal " + id + "\n");
    assertThat(inbox()).as("the next review cleared the temporary file").isEmpty();
    assertThat(approve(id, List.of()).exit()).isZero();
    assertThat(inbox()).containsExactly("idea.md");
  }

  @Test
  void aFolderSwappedForALinkBeforeTheReviewGetsNothingWrittenThroughIt() throws Exception {
    String id = proposeAndClose();
    Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
    Files.move(root.resolve("Inbox"), dir.resolve("old-inbox"));
    Files.createSymbolicLink(root.resolve("Inbox"), elsewhere);

    Launch.Result result = approve(id, List.of());

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.stderr())
        .contains("notes-mcp: refused: Inbox/idea.md cannot be created: the folder Inbox is ")
        .contains("proposal " + id + " is still pending");
    try (var files = Files.list(elsewhere)) {
      assertThat(files).isEmpty();
    }
    try (var files = Files.list(dir.resolve("old-inbox"))) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void aFolderRemovedBeforeTheReviewIsReportedAndNothingIsCreated() throws Exception {
    String id = proposeAndClose();
    Files.delete(root.resolve("Inbox"));

    Launch.Result result = approve(id, List.of());

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.stderr())
        .contains(
            "notes-mcp: refused: Inbox/idea.md cannot be created: its folder Inbox does not exist"
                + " in the workspace (no folder is ever made for a note); proposal "
                + id
                + " is still pending");
    assertThat(root.resolve("Inbox")).doesNotExist();
  }
}

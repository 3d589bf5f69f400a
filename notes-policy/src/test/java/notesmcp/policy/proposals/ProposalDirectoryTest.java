package notesmcp.policy.proposals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import notesmcp.policy.review.Folders;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.tools.NoteAccess;
import notesmcp.policy.tools.Outcome;
import notesmcp.policy.vault.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The proposals folder: where it may be, what a record holds, and the pending rule. */
class ProposalDirectoryTest {
  @TempDir Path dir;

  /** The id rule as the regular expression it was, the reference for the hand-written check. */
  private static final Pattern ID =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  @Test
  void anIdIsExactlyALowerCaseUuid() {
    String uuid = UUID.randomUUID().toString();
    List<String> candidates =
        new java.util.ArrayList<>(
            List.of(
                uuid,
                "00000000-0000-0000-0000-000000000000",
                "ffffffff-ffff-ffff-ffff-ffffffffffff",
                uuid.toUpperCase(java.util.Locale.ROOT),
                uuid + "0",
                uuid.substring(1),
                "",
                "../" + uuid.substring(3),
                uuid.replace('-', '_'),
                "0000000000000-0000-0000-000000000000",
                "00000000-0000-0000-0000-00000000000g",
                "00000000-0000-0000-0000-00000000000\u0660"));
    for (int i = 0; i < uuid.length(); i++) { // every position holding every kind of character
      for (char c : new char[] {'-', '0', '9', 'a', 'f', 'g', 'A', '/', '.', '\u00e9'}) {
        candidates.add(uuid.substring(0, i) + c + uuid.substring(i + 1));
      }
    }

    for (String candidate : candidates) {
      assertThat(ProposalDirectory.isId(candidate))
          .as(candidate)
          .isEqualTo(ID.matcher(candidate).matches());
    }
    assertThat(ProposalDirectory.isId(uuid)).isTrue();
  }

  @Test
  void aMissingFolderIsCreatedOwnerOnly() throws Exception {
    Folders folders = new Folders(dir);

    assertThat(
            PosixFilePermissions.toString(Files.getPosixFilePermissions(folders.proposals.path())))
        .isEqualTo("rwx------");
  }

  @Test
  void missingParentsAreCreatedOwnerOnlyToo() throws Exception {
    Workspace workspace = Workspace.at(Files.createDirectories(dir.resolve("w")));

    ProposalDirectory opened = ProposalDirectory.open(dir.resolve("state/notes-mcp/p"), workspace);

    for (Path created :
        List.of(opened.path(), dir.resolve("state/notes-mcp"), dir.resolve("state"))) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(created)))
          .isEqualTo("rwx------");
    }
  }

  @Test
  void aFolderInsideTheWorkspaceIsRefused() throws Exception {
    Workspace workspace = Workspace.at(Files.createDirectories(dir.resolve("w")));

    assertThatThrownBy(() -> ProposalDirectory.open(dir.resolve("w/proposals"), workspace))
        .isInstanceOf(ProposalDirectory.Unusable.class)
        .hasMessageStartingWith("-proposals " + dir.resolve("w/proposals") + ": is inside the")
        .hasMessageEndingWith("; keep proposals outside it");
    assertThatThrownBy(() -> ProposalDirectory.open(dir.resolve("w"), workspace))
        .isInstanceOf(ProposalDirectory.Unusable.class);
  }

  @Test
  void aLinkThatLeadsIntoTheWorkspaceIsRefusedOnItsRealPath() throws Exception {
    Path root = Files.createDirectories(dir.resolve("w"));
    Files.createDirectory(root.resolve("hidden"));
    Path link = Files.createSymbolicLink(dir.resolve("proposals"), root.resolve("hidden"));

    assertThatThrownBy(() -> ProposalDirectory.open(link, Workspace.at(root)))
        .isInstanceOf(ProposalDirectory.Unusable.class)
        .hasMessageContaining("is inside the workspace");
  }

  @Test
  void aFolderThatWouldBeInsideTheWorkspaceIsRefusedBeforeAnythingIsCreated() throws Exception {
    Path root = Files.createDirectories(dir.resolve("w"));
    Workspace workspace = Workspace.at(root);
    Files.createSymbolicLink(dir.resolve("link"), root);
    Files.createDirectory(dir.resolve("out"));

    for (String spelled :
        List.of("w/new/sub", "link/new/sub", "out/../w/new", "missing/../link/new", "w/new/..")) {
      Path proposals = dir.resolve(spelled);
      assertThatThrownBy(() -> ProposalDirectory.open(proposals, workspace))
          .as(spelled)
          .isInstanceOf(ProposalDirectory.Unusable.class)
          .hasMessageContaining(": is inside the workspace " + root.toRealPath());
    }
    assertThat(Files.list(root)).isEmpty();
    assertThat(Files.list(dir).map(p -> p.getFileName().toString()))
        .containsExactlyInAnyOrder("w", "link", "out");
  }

  @Test
  void aLinkThatLeadsNowhereIsRefusedAndNotCreatedThrough() throws Exception {
    Path root = Files.createDirectories(dir.resolve("w"));
    Path dangling = Files.createSymbolicLink(dir.resolve("dangling"), root.resolve("new"));

    assertThatThrownBy(() -> ProposalDirectory.open(dangling.resolve("sub"), Workspace.at(root)))
        .isInstanceOf(ProposalDirectory.Unusable.class)
        .hasMessageStartingWith("-proposals " + dangling.resolve("sub") + ": cannot be used");
    assertThat(Files.list(root)).isEmpty();
  }

  @Test
  void aRecordIsJudgedByItsOpenedDescriptor() throws Exception {
    Folders folders = new Folders(dir);
    String writable = folders.propose("draft.txt", "one");
    String fifo = folders.propose("todo.txt", "two");
    Files.setPosixFilePermissions(
        folders.record(writable), PosixFilePermissions.fromString("rw-rw-rw-"));
    Files.delete(folders.record(fifo));
    Process mkfifo = new ProcessBuilder("mkfifo", folders.record(fifo).toString()).start();
    assertThat(mkfifo.waitFor()).isZero();

    assertThat(folders.approvals().pending())
        .containsExactlyInAnyOrder(
            new Recorded.Damaged(
                writable, "record is not owner-only (someone else could have changed it)"),
            new Recorded.Damaged(
                fifo,
                "record cannot be read safely ("
                    + fifo
                    + ".json is a special file (FIFO, socket or device), not a regular file)"));
  }

  @Test
  void aGroupOrWorldWritableFolderIsRefused() throws Exception {
    Workspace workspace = Workspace.at(Files.createDirectories(dir.resolve("w")));
    Path shared = Files.createDirectory(dir.resolve("shared"));
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxr-x"));

    assertThatThrownBy(() -> ProposalDirectory.open(shared, workspace))
        .isInstanceOf(ProposalDirectory.Unusable.class)
        .hasMessage(
            "-proposals "
                + shared
                + ": is writable by group or others (rwxrwxr-x); run: chmod go-w "
                + shared.toRealPath());
  }

  @Test
  void anAcceptedProposalIsAnOwnerOnlyRecordOfEverythingTheIssueNames() throws Exception {
    Folders folders = new Folders(dir);

    String id = folders.propose("draft.txt", "hi\u00e9\n");

    Path record = folders.record(id);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(record)))
        .isEqualTo("rw-------");
    String text = Files.readString(record, StandardCharsets.US_ASCII);
    assertThat(text)
        .matches(
            "\\{\"format\":\"notes-mcp/proposal/1\",\"id\":\""
                + id
                + "\",\"path\":\"draft.txt\",\"bytes\":5,\"sha256\":\""
                + Proposal.sha256("hi\u00e9\n".getBytes(StandardCharsets.UTF_8))
                + "\",\"createdAt\":\"[0-9T:.Z-]+\",\"clientInfo\":\\{\"name\":\"test-client\","
                + "\"version\":\"1.0\",\"verified\":false\\},\"content\":\"hi\\\\u00E9\\\\n\"\\}\n");
    assertThat(Files.list(folders.proposals.path()).map(p -> p.getFileName().toString()))
        .containsExactlyInAnyOrder(id + ".json", "lock");
  }

  @Test
  void onePendingProposalPerDestinationAcrossRestarts() throws Exception {
    Folders folders = new Folders(dir);
    String first = folders.propose("draft.txt", "one");
    NoteAccess restarted =
        new NoteAccess(
            Policy.of(List.of("draft.txt", "todo.txt"), List.of("draft.txt", "todo.txt"), 2048, 9),
            folders.workspace,
            Clock.systemUTC(),
            ProposalDirectory.open(folders.proposals.path(), folders.workspace));

    Outcome again = propose(restarted, "draft.txt");
    Outcome other = propose(restarted, "todo.txt");

    assertThat(again)
        .isEqualTo(
            new Outcome.Refusal(
                "a proposal for draft.txt is already pending ("
                    + first
                    + "); a person must approve or reject it with 'notes-mcp review' first"));
    assertThat(other).isInstanceOf(Outcome.Answer.class);
    folders.approvals().reject(first);
    assertThat(propose(restarted, "draft.txt")).isInstanceOf(Outcome.Answer.class);
  }

  @Test
  void aDamagedPendingRecordBlocksEveryProposal() throws Exception {
    Folders folders = new Folders(dir);
    String id = folders.propose("draft.txt", "one");
    Files.writeString(folders.record(id), "{}");

    assertThat(propose(folders.notes, "todo.txt").text())
        .isEqualTo(
            "a pending proposal record ("
                + id
                + ") cannot be read; a person must run 'notes-mcp review' before anything more"
                + " can be proposed");
    folders.approvals().reject(id);
    assertThat(propose(folders.notes, "todo.txt")).isInstanceOf(Outcome.Answer.class);
  }

  @Test
  void withoutAFolderOneProposalIsPendingPerProcessAndNothingIsWritten() throws Exception {
    Path root = Files.createDirectories(dir.resolve("w"));
    NoteAccess notes =
        new NoteAccess(
            Policy.of(List.of("draft.txt"), List.of("draft.txt", "todo.txt"), 2048, 9),
            Workspace.at(root),
            Clock.systemUTC());

    assertThat(propose(notes, "draft.txt")).isInstanceOf(Outcome.Answer.class);
    assertThat(propose(notes, "todo.txt").text()).startsWith("a proposal is already pending (");
    assertThat(notes.pending().requester()).isEqualTo(new Requester("unit", "0"));
    assertThat(Files.list(dir).map(p -> p.getFileName().toString())).containsExactly("w");
  }

  private static Outcome propose(NoteAccess notes, String name) {
    return notes.execute(
        NoteAccess.PROPOSE_NOTE,
        "{\"path\":\"" + name + "\",\"content\":\"x\"}",
        new Requester("unit", "0"),
        () -> false);
  }
}

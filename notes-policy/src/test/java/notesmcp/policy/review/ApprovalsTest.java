package notesmcp.policy.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import notesmcp.files.DurableFiles;
import notesmcp.policy.proposals.Proposal;
import notesmcp.policy.proposals.Recorded;
import notesmcp.policy.proposals.Requester;
import notesmcp.policy.review.Approvals.Decision;
import notesmcp.policy.review.Approvals.Done;
import notesmcp.policy.review.Approvals.Refused;
import notesmcp.policy.rules.NoteName;
import notesmcp.policy.tools.Outcome;
import notesmcp.policy.vault.Rules;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The commit protocol of {@link Approvals}, in process. A crash is simulated by a checkpoint that
 * throws: the commit has no cleanup on that path, so what it leaves is what a killed process leaves
 * (ApprovalsIT does the same with a real halt).
 */
class ApprovalsTest {
  private static final String CONTENT = "caf\u00e9 \u001b[2J\n";

  @TempDir Path dir;
  private Folders folders;

  @BeforeEach
  void setUp() throws Exception {
    folders = new Folders(dir);
  }

  private static String sha256(String content) {
    return Proposal.sha256(content.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void approvalCreatesTheNoteOwnerOnlyWithExactlyTheProposedBytes() throws Exception {
    String id = folders.propose("draft.txt", CONTENT);

    Decision decision = folders.approvals().approve(id, sha256(CONTENT));

    assertThat(decision).isInstanceOf(Done.class);
    assertThat(decision.message())
        .isEqualTo("created " + folders.note("draft.txt") + " (11 bytes)");
    Path note = folders.note("draft.txt");
    assertThat(Files.readAllBytes(note)).isEqualTo(CONTENT.getBytes(StandardCharsets.UTF_8));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(note)))
        .isEqualTo("rw-------");
    assertThat(Files.getAttribute(note, "unix:nlink")).isEqualTo(1);
    assertThat(workspaceNames()).containsExactly("draft.txt", "notes.txt");
    assertThat(folders.approvals().pending()).isEmpty();
    Rules.waitOutMargin(); // a client's read of a note created a moment ago is refused
    assertThat(folders.notes.execute("read_note", "{\"path\":\"draft.txt\"}", () -> false))
        .isInstanceOf(Outcome.Answer.class);
  }

  @Test
  void aSecondApprovalIsRefusedAndChangesNothing() throws Exception {
    String id = folders.propose("draft.txt", CONTENT);
    folders.approvals().approve(id, sha256(CONTENT));
    Files.writeString(folders.note("draft.txt"), "edited by the person afterwards");

    Decision again = folders.approvals().approve(id, sha256(CONTENT).toUpperCase());

    assertThat(again)
        .isEqualTo(new Refused("proposal " + id + " is already committed; nothing changed"));
    assertThat(Files.readString(folders.note("draft.txt")))
        .isEqualTo("edited by the person afterwards");
  }

  @Test
  void aWrongSha256IsRefusedAndTheProposalStaysPending() throws Exception {
    String id = folders.propose("draft.txt", CONTENT);

    Decision decision = folders.approvals().approve(id, sha256("something else"));

    assertThat(decision).isInstanceOf(Refused.class);
    assertThat(decision.message())
        .startsWith("the SHA-256 given is not that of proposal " + id)
        .endsWith("; nothing changed, it is still pending");
    assertThat(folders.note("draft.txt")).doesNotExist();
    assertThat(folders.approvals().pending()).extracting(e -> e.id()).containsExactly(id);
  }

  @Test
  void aPrefixOfTheSha256IsNeverEnough() throws Exception {
    String id = folders.propose("draft.txt", CONTENT);

    Decision decision = folders.approvals().approve(id, sha256(CONTENT).substring(0, 12));

    assertThat(decision)
        .isEqualTo(new Refused("the SHA-256 must be the full 64 hex digits; nothing changed"));
    assertThat(folders.note("draft.txt")).doesNotExist();
  }

  @Test
  void anExistingDestinationIsRefusedAndLeftUntouched() throws Exception {
    String id = folders.propose("draft.txt", CONTENT);
    Files.writeString(folders.note("draft.txt"), "written by the person meanwhile");

    Decision decision = folders.approvals().approve(id, sha256(CONTENT));

    assertThat(decision)
        .isEqualTo(
            new Refused(
                folders.note("draft.txt")
                    + " already exists; it was left untouched and proposal "
                    + id
                    + " is still pending (reject it with --reject "
                    + id
                    + ")"));
    assertThat(Files.readString(folders.note("draft.txt")))
        .isEqualTo("written by the person meanwhile");
    assertThat(workspaceNames()).containsExactly("draft.txt", "notes.txt");
  }

  @Test
  void aDanglingLinkAtTheDestinationIsRefusedAndNotFollowed() throws Exception {
    String id = folders.propose("draft.txt", CONTENT);
    Path target = dir.resolve("outside.txt");
    Files.createSymbolicLink(folders.note("draft.txt"), target);

    Decision decision = folders.approvals().approve(id, sha256(CONTENT));

    assertThat(decision).isInstanceOf(Refused.class);
    assertThat(target).doesNotExist();
    assertThat(Files.isSymbolicLink(folders.note("draft.txt"))).isTrue();
  }

  @Test
  void aRecordWhoseContentNoLongerMatchesItsSha256IsRefused() throws Exception {
    String id = folders.propose("draft.txt", "harmless\n");
    Path record = folders.record(id);
    Files.writeString(record, Files.readString(record).replace("harmless", "tampered"));

    Decision decision = folders.approvals().approve(id, sha256("harmless\n"));

    assertThat(decision)
        .isEqualTo(
            new Refused(
                "proposal "
                    + id
                    + ": record content does not match its recorded SHA-256 (tampered with or"
                    + " corrupted); refusing it, nothing changed"));
    assertThat(folders.note("draft.txt")).doesNotExist();
    assertThat(folders.approvals().pending())
        .containsExactly(
            new Recorded.Damaged(
                id,
                "record content does not match its recorded SHA-256 (tampered with or"
                    + " corrupted)"));
  }

  @Test
  void aRejectedProposalCanNeverBeApproved() throws Exception {
    String id = folders.propose("draft.txt", CONTENT);

    assertThat(folders.approvals().reject(id)).isEqualTo(new Done("rejected proposal " + id));
    assertThat(folders.approvals().approve(id, sha256(CONTENT)))
        .isEqualTo(new Refused("proposal " + id + " is already rejected; nothing changed"));
    assertThat(folders.approvals().reject(id))
        .isEqualTo(new Done("proposal " + id + " was already rejected"));
    assertThat(folders.note("draft.txt")).doesNotExist();
  }

  @Test
  void anUnknownIdIsRefused() throws Exception {
    Decision decision = folders.approvals().approve("../../etc/passwd", sha256(CONTENT));

    assertThat(decision.message())
        .isEqualTo(
            "there is no proposal \"../../etc/passwd\" in "
                + folders.proposals.path()
                + "; nothing changed");
  }

  /** A crash before the link: no note, the proposal pending, and a later approval succeeds. */
  @ParameterizedTest
  @ValueSource(strings = {"before-create", "after-temp"})
  void aCrashBeforeTheLinkLeavesNoNoteAndThePendingProposal(String point) throws Exception {
    String id = folders.propose("draft.txt", CONTENT);

    assertThatThrownBy(() -> crashingAt(point).approve(id, sha256(CONTENT)))
        .hasMessage("crash at " + point);

    assertThat(folders.note("draft.txt")).doesNotExist();
    assertThat(folders.approvals().recover()).isEmpty();
    assertThat(workspaceNames()).containsExactly("notes.txt");
    assertThat(folders.approvals().pending()).extracting(e -> e.id()).containsExactly(id);
    assertThat(folders.approvals().approve(id, sha256(CONTENT))).isInstanceOf(Done.class);
    assertThat(Files.readString(folders.note("draft.txt"))).isEqualTo(CONTENT);
  }

  /** A crash after the link: the exact note, and the next review records it committed. */
  @ParameterizedTest
  @ValueSource(strings = {"after-link", "after-unlink"})
  void aCrashAfterTheLinkIsCompletedByTheNextReview(String point) throws Exception {
    String id = folders.propose("draft.txt", CONTENT);

    assertThatThrownBy(() -> crashingAt(point).approve(id, sha256(CONTENT)))
        .hasMessage("crash at " + point);

    assertThat(Files.readString(folders.note("draft.txt"))).isEqualTo(CONTENT);
    assertThat(folders.approvals().recover())
        .containsExactly(
            "completed the interrupted commit of " + id + ": " + folders.note("draft.txt"));
    assertThat(workspaceNames()).containsExactly("draft.txt", "notes.txt");
    assertThat(Files.getAttribute(folders.note("draft.txt"), "unix:nlink")).isEqualTo(1);
    assertThat(folders.approvals().pending()).isEmpty();
    assertThat(folders.approvals().approve(id, sha256(CONTENT)))
        .isEqualTo(new Refused("proposal " + id + " is already committed; nothing changed"));
  }

  @Test
  void aNoteLeftWithTwoLinksIsUnreadableUntilRecoveryRemovesTheTemporaryLink() throws Exception {
    String id = folders.propose("draft.txt", CONTENT);
    assertThatThrownBy(() -> crashingAt("after-link").approve(id, sha256(CONTENT)))
        .hasMessage("crash at after-link");

    assertThat(read("draft.txt")).isInstanceOf(Outcome.Refusal.class);
    folders.approvals().recover();
    Rules.waitOutMargin();
    assertThat(read("draft.txt")).isInstanceOf(Outcome.Answer.class);
  }

  @Test
  void recoveryNeverClaimsANoteWithOtherBytes() throws Exception {
    String id = folders.propose("draft.txt", CONTENT);
    Files.writeString(folders.note("draft.txt"), CONTENT + "!");

    assertThat(folders.approvals().recover()).isEmpty();
    assertThat(folders.approvals().pending()).extracting(e -> e.id()).containsExactly(id);
    assertThat(Files.readString(folders.note("draft.txt"))).isEqualTo(CONTENT + "!");
  }

  @Test
  void rejectingAnInterruptedCommitCompletesItInstead() throws Exception {
    String id = folders.propose("draft.txt", CONTENT);
    assertThatThrownBy(() -> crashingAt("after-unlink").approve(id, sha256(CONTENT)))
        .hasMessage("crash at after-unlink");

    assertThat(folders.approvals().reject(id))
        .isEqualTo(new Refused("proposal " + id + " is already committed; nothing changed"));
    assertThat(Files.readString(folders.note("draft.txt"))).isEqualTo(CONTENT);
  }

  private Approvals crashingAt(String point) {
    return folders.approvals(
        reached -> {
          if (reached.equals(point)) {
            throw new IllegalStateException("crash at " + point);
          }
        });
  }

  private Outcome read(String name) {
    return folders.notes.execute("read_note", "{\"path\":\"" + name + "\"}", () -> false);
  }

  private java.util.List<String> workspaceNames() throws Exception {
    try (Stream<Path> files = Files.list(folders.root)) {
      return files
          .filter(p -> Files.exists(p, LinkOption.NOFOLLOW_LINKS))
          .map(p -> p.getFileName().toString())
          .sorted()
          .toList();
    }
  }

  /** The review lists pending proposals oldest first, whatever their ids; damaged records last. */
  @Test
  void pendingProposalsAreListedOldestFirstAndDamagedRecordsLast() throws Exception {
    String newer = "00000000-0000-4000-8000-000000000001";
    String older = "ffffffff-ffff-4fff-bfff-ffffffffffff";
    String damaged = "00000000-0000-4000-8000-000000000000";
    Requester requester = new Requester("test-client", "1.0");
    folders.proposals.store(
        new Proposal(
            newer,
            NoteName.configured("draft.txt"),
            "b",
            java.time.Instant.parse("2026-12-01T10:00:00Z"),
            requester));
    folders.proposals.store(
        new Proposal(
            older,
            NoteName.configured("todo.txt"),
            "a",
            java.time.Instant.parse("2026-12-01T09:00:00Z"),
            requester));
    Files.writeString(folders.record(damaged), "not a record");

    assertThat(folders.approvals().pending())
        .extracting(Recorded::id)
        .containsExactly(older, newer, damaged);
  }

  /** A decision's marker records which content was decided on, by its SHA-256. */
  @Test
  void aRejectionRecordsTheSha256OfWhatWasRejected() throws Exception {
    String id = folders.propose("draft.txt", CONTENT);

    folders.approvals().reject(id);

    assertThat(Files.readString(folders.proposals.path().resolve(id + ".rejected")))
        .contains("\"sha256\":\"" + sha256(CONTENT) + "\"");
  }

  /** What an interrupted write left in the proposals folder is cleared by the next review. */
  @Test
  void recoveryClearsTemporaryFilesThatAnInterruptedWriteLeft() throws Exception {
    Path stale = folders.proposals.path().resolve(DurableFiles.TEMP_PREFIX + "123.json");
    Files.writeString(stale, "half a rec");

    assertThat(folders.approvals().recover()).isEmpty();

    assertThat(stale).doesNotExist();
  }
}

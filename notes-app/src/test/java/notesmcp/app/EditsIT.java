package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * Edits of existing notes in a vault's sub-folder, end to end with the real executable
 * (docs/approvals.md, "Edits"): proposed through MCP against the sha256 read_note gave, shown by
 * {@code review -policy} as a diff, committed by exchange only while the note holds exactly the
 * base text, reported stale (the other process's bytes kept) when another process wrote the note
 * first, undone by the same rules, and completed or cleared after a kill at every point of the
 * commit.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class EditsIT {
  private static final String PATH = "Journal/2026-12-01.md";
  private static final String BASE = "# Monday\n- call the printer\n";
  private static final String ADDED = "- buy paper\n";

  @TempDir Path dir;
  private Path root;
  private Path note;
  private Path proposals;
  private Path policy;

  @BeforeEach
  void setUp() throws Exception {
    root = Files.createDirectory(dir.resolve("vault")).toRealPath();
    Files.createDirectory(root.resolve("Journal"));
    note = Files.writeString(root.resolve(PATH), BASE);
    Files.writeString(root.resolve("Inbox.md"), "inbox\n");
    proposals = dir.resolve("proposals");
    policy =
        Files.writeString(
            dir.resolve("policy.json"),
            "{\"readable\":[\"**/*.md\"],\"editable\":[\"Journal/*.md\"],\"proposable\":[],"
                + "\"maxNoteBytes\":1048576,\"maxPending\":4}");
    // The change rule waits out a note written within its margin; let this one settle.
    Thread.sleep(60);
  }

  private WireServer serve() throws Exception {
    return WireServer.start(root, "-policy", policy.toString(), "-proposals", proposals.toString());
  }

  /** The sha256 read_note gives for the note now. */
  private static String baseOf(WireServer server, String path) {
    JsonNode read = server.call("read_note", "{\"path\":\"" + path + "\"}");
    assertThat(WireServer.isError(read)).as(read.toString()).isFalse();
    return WireServer.JSON.readTree(WireServer.text(read)).path("sha256").asString();
  }

  private String proposeAppend(String appended) throws Exception {
    try (WireServer server = serve()) {
      JsonNode reply =
          server.call(
              "propose_edit",
              "{\"path\":\""
                  + PATH
                  + "\",\"base_sha256\":\""
                  + baseOf(server, PATH)
                  + "\",\"append\":"
                  + WireServer.JSON.writeValueAsString(appended)
                  + "}");
      assertThat(WireServer.isError(reply)).as(reply.toString()).isFalse();
      JsonNode result = WireServer.JSON.readTree(WireServer.text(reply));
      assertThat(result.path("status").asString()).isEqualTo("pending_approval");
      assertThat(server.closeInputAndWait()).isZero();
      return result.path("proposal_id").asString();
    }
  }

  private String status(String id) throws Exception {
    try (WireServer server = serve()) {
      JsonNode reply = server.call("proposal_status", "{\"proposal_id\":\"" + id + "\"}");
      assertThat(WireServer.isError(reply)).as(reply.toString()).isFalse();
      return WireServer.JSON.readTree(WireServer.text(reply)).path("status").asString();
    }
  }

  private Launch.Result review(List<String> hooks, String... more) throws Exception {
    List<String> words = new ArrayList<>(List.of("-policy", policy.toString()));
    words.addAll(List.of(more));
    List<String> command = Launch.review(root, proposals, words.toArray(new String[0]));
    if (!hooks.isEmpty()) {
      List<String> args = new ArrayList<>(hooks);
      args.addAll(command.subList(1, command.size()));
      command = TestMain.command(args.toArray(new String[0]));
    }
    return Launch.run(dir, Map.of(), "", Launch.withoutTerminal(command));
  }

  private Launch.Result approve(String id, String text, List<String> hooks) throws Exception {
    return review(hooks, "--approve", id, "--sha256", ApprovalsIT.sha256(text));
  }

  private List<String> journal() throws Exception {
    try (Stream<Path> files = Files.list(root.resolve("Journal"))) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void anApprovedEditChangesTheNoteInItsFolderAndUndoRestoresIt() throws Exception {
    String id = proposeAppend(ADDED);
    assertThat(Files.readString(note)).isEqualTo(BASE);
    assertThat(status(id)).isEqualTo("pending_approval");

    Launch.Result listed = review(List.of());
    assertThat(listed.exit()).as(listed.stderr()).isZero();
    assertThat(listed.stdout())
        .contains("Edit proposal " + id + "\n")
        .contains("  destination  " + note + " (an existing note)\n")
        .contains(
            "  base sha256  " + ApprovalsIT.sha256(BASE) + " (the text it replaces, 28 bytes)\n")
        .contains(
            "  new sha256   " + ApprovalsIT.sha256(BASE + ADDED) + " (the new text, 40 bytes)\n")
        .contains(
            "    @@ -1,2 +1,3 @@\n"
                + "     | # Monday\\n\n"
                + "     | - call the printer\\n\n"
                + "    +| - buy paper\\n\n")
        .contains(" --approve " + id + " --sha256 " + ApprovalsIT.sha256(BASE + ADDED) + "\n");

    Launch.Result approved = approve(id, BASE + ADDED, List.of());
    assertThat(approved.exit()).as(approved.stderr()).isZero();
    assertThat(approved.stdout())
        .isEqualTo("changed " + note + " (28 bytes to 40 bytes; undo with --undo " + id + ")\n");
    assertThat(Files.readString(note)).isEqualTo(BASE + ADDED);
    assertThat(journal()).containsExactly("2026-12-01.md");
    assertThat(status(id)).isEqualTo("approved");

    Thread.sleep(60);
    Launch.Result undone = review(List.of(), "--undo", id);
    assertThat(undone.exit()).as(undone.stderr()).isZero();
    assertThat(undone.stdout())
        .isEqualTo("restored " + note + " to the text before proposal " + id + " (28 bytes)\n");
    assertThat(Files.readString(note)).isEqualTo(BASE);
    assertThat(journal()).containsExactly("2026-12-01.md");
    assertThat(status(id)).isEqualTo("undone");
  }

  @Test
  void aRejectedEditLeavesTheNoteAsItWas() throws Exception {
    String id = proposeAppend(ADDED);

    Launch.Result rejected = review(List.of(), "--reject", id);

    assertThat(rejected.exit()).isZero();
    assertThat(rejected.stdout()).isEqualTo("rejected proposal " + id + "\n");
    assertThat(Files.readString(note)).isEqualTo(BASE);
    assertThat(status(id)).isEqualTo("rejected");
    assertThat(approve(id, BASE + ADDED, List.of()).exit()).isEqualTo(1);
    assertThat(Files.readString(note)).isEqualTo(BASE);
  }

  @Test
  void anEditMadeStaleByAnotherProcessIsRefusedAndTheOtherBytesSurvive() throws Exception {
    String id = proposeAppend(ADDED);
    Process other =
        new ProcessBuilder(
                "sh",
                "-c",
                "printf 'written by another program\\n' >> \"$1\"",
                "sh",
                note.toString())
            .start();
    assertThat(other.waitFor()).isZero();
    String theirs = BASE + "written by another program\n";

    Launch.Result approved = approve(id, BASE + ADDED, List.of());

    assertThat(approved.exit()).isEqualTo(1);
    assertThat(approved.stderr())
        .contains(
            "notes-mcp: refused: "
                + note
                + " changed since proposal "
                + id
                + " was made (it no longer holds exactly the text the edit was made against,"
                + " SHA-256 "
                + ApprovalsIT.sha256(BASE)
                + "); it was left untouched and the proposal is now stale\n");
    assertThat(Files.readString(note)).isEqualTo(theirs);
    assertThat(journal()).containsExactly("2026-12-01.md");
    assertThat(status(id)).isEqualTo("stale");
  }

  /**
   * The window between the base check and the exchange: another process rewrites the note in place
   * (same file) or replaces it by rename (a new file) while the review is paused right after its
   * check; the exchange is made, the displaced file is found not to be the one checked, and it is
   * exchanged back: the other process's bytes are the note, the edit is stale.
   */
  @ParameterizedTest
  @ValueSource(strings = {"in-place", "rename"})
  void aWriteBetweenTheCheckAndTheExchangeIsPutBackAndTheEditIsStale(String how) throws Exception {
    String id = proposeAppend(ADDED);
    Path resume = dir.resolve("resume");
    List<String> command = new ArrayList<>(List.of("--pause-at", "edit-after-check"));
    command.addAll(List.of("--resume-file", resume.toString()));
    List<String> words = new ArrayList<>(command);
    List<String> review =
        Launch.review(
            root,
            proposals,
            "-policy",
            policy.toString(),
            "--approve",
            id,
            "--sha256",
            ApprovalsIT.sha256(BASE + ADDED));
    words.addAll(review.subList(1, review.size()));
    Launch paused =
        Launch.start(
            dir,
            Map.of(),
            "",
            Launch.withoutTerminal(TestMain.command(words.toArray(new String[0]))));
    paused.awaitStderr("notes-mcp: pausing at edit-after-check (test)");
    String theirs = "# Monday, rewritten by another editor\n";
    String script =
        how.equals("in-place")
            ? "printf '%s\\n' '# Monday, rewritten by another editor' > \"$1\""
            : "printf '%s\\n' '# Monday, rewritten by another editor' > \"$1.swp\" && mv \"$1.swp\" \"$1\"";
    Process other = new ProcessBuilder("sh", "-c", script, "sh", note.toString()).start();
    assertThat(other.waitFor()).isZero();
    Files.createFile(resume);

    Launch.Result result = paused.await();

    assertThat(result.exit()).as(result.stderr()).isEqualTo(1);
    assertThat(result.stderr()).contains("the proposal is now stale");
    assertThat(Files.readString(note)).isEqualTo(theirs);
    assertThat(journal()).containsExactly("2026-12-01.md");
    assertThat(status(id)).isEqualTo("stale");
  }

  @Test
  void anUndoIsRefusedWhenTheNoteChangedAfterTheCommit() throws Exception {
    String id = proposeAppend(ADDED);
    assertThat(approve(id, BASE + ADDED, List.of()).exit()).isZero();
    Files.writeString(note, BASE + ADDED + "- later line\n");
    Thread.sleep(60);

    Launch.Result undone = review(List.of(), "--undo", id);

    assertThat(undone.exit()).isEqualTo(1);
    assertThat(undone.stderr())
        .contains(
            "notes-mcp: refused: "
                + note
                + " changed since proposal "
                + id
                + " was committed (it no longer holds exactly that text, SHA-256 "
                + ApprovalsIT.sha256(BASE + ADDED)
                + "); it was left untouched and nothing was undone\n");
    assertThat(Files.readString(note)).isEqualTo(BASE + ADDED + "- later line\n");
    assertThat(status(id)).isEqualTo("approved");
  }

  @ParameterizedTest
  @ValueSource(strings = {"edit-after-check", "edit-after-temp"})
  void aReviewKilledBeforeTheExchangeLeavesTheBaseAndThePendingEdit(String point) throws Exception {
    String id = proposeAppend(ADDED);

    Launch.Result crashed = approve(id, BASE + ADDED, List.of("--halt-at", point));

    assertThat(crashed.exit()).as(crashed.stderr()).isEqualTo(TestMain.HALT_STATUS);
    assertThat(Files.readString(note)).isEqualTo(BASE);
    Launch.Result next = review(List.of());
    assertThat(next.stdout()).contains("Edit proposal " + id + "\n");
    assertThat(journal()).containsExactly("2026-12-01.md");
    assertThat(Files.readString(note)).isEqualTo(BASE);
    Thread.sleep(60);
    assertThat(approve(id, BASE + ADDED, List.of()).exit()).isZero();
    assertThat(Files.readString(note)).isEqualTo(BASE + ADDED);
  }

  @ParameterizedTest
  @ValueSource(strings = {"edit-after-exchange", "edit-after-verify", "edit-after-unlink"})
  void aReviewKilledAfterTheExchangeIsCompletedByTheNextReview(String point) throws Exception {
    String id = proposeAppend(ADDED);

    Launch.Result crashed = approve(id, BASE + ADDED, List.of("--halt-at", point));

    assertThat(crashed.exit()).as(crashed.stderr()).isEqualTo(TestMain.HALT_STATUS);
    assertThat(Files.readString(note)).isEqualTo(BASE + ADDED);
    Thread.sleep(60);
    Launch.Result next = review(List.of());
    assertThat(next.stderr())
        .contains("notes-mcp: completed the interrupted commit of " + id + ": " + note + "\n");
    assertThat(Files.readString(note)).isEqualTo(BASE + ADDED);
    assertThat(journal()).containsExactly("2026-12-01.md");
    assertThat(status(id)).isEqualTo("approved");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "undo-after-check",
        "undo-after-temp",
        "undo-after-exchange",
        "undo-after-verify",
        "undo-after-unlink"
      })
  void anUndoKilledAtAnyPointLeavesOneOfTheTwoTextsAndIsFinishedOrCleared(String point)
      throws Exception {
    String id = proposeAppend(ADDED);
    assertThat(approve(id, BASE + ADDED, List.of()).exit()).isZero();
    Thread.sleep(60);

    Launch.Result crashed = review(List.of("--halt-at", point), "--undo", id);

    assertThat(crashed.exit()).as(crashed.stderr()).isEqualTo(TestMain.HALT_STATUS);
    boolean exchanged =
        point.endsWith("exchange") || point.endsWith("verify") || point.endsWith("unlink");
    assertThat(Files.readString(note)).isEqualTo(exchanged ? BASE : BASE + ADDED);
    Thread.sleep(60);
    Launch.Result next = review(List.of(), "--undo", id);
    assertThat(next.exit()).as(next.stderr()).isZero();
    assertThat(Files.readString(note)).isEqualTo(BASE);
    assertThat(journal()).containsExactly("2026-12-01.md");
    assertThat(status(id)).isEqualTo("undone");
  }

  @Test
  void anAppendThatWouldPassTheSizeLimitIsRefused() throws Exception {
    Files.writeString(
        policy, "{\"readable\":[\"**/*.md\"],\"editable\":[\"Journal/*.md\"],\"maxNoteBytes\":32}");
    try (WireServer server = serve()) {
      JsonNode reply =
          server.call(
              "propose_edit",
              "{\"path\":\""
                  + PATH
                  + "\",\"base_sha256\":\""
                  + baseOf(server, PATH)
                  + "\",\"append\":\"- buy paper\\n\"}");

      assertThat(WireServer.isError(reply)).isTrue();
      assertThat(WireServer.text(reply))
          .isEqualTo(
              "with the appended text, the note's content is 40 bytes of UTF-8; the limit is 32"
                  + " bytes");
    }
    try (Stream<Path> files = Files.list(proposals)) {
      assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".json"));
    }
  }

  @Test
  void aWrongBaseAndASecondEditOfTheSameNoteAreRefused() throws Exception {
    String id = proposeAppend(ADDED);
    try (WireServer server = serve()) {
      String base = baseOf(server, PATH);
      JsonNode wrong =
          server.call(
              "propose_edit",
              "{\"path\":\""
                  + PATH
                  + "\",\"base_sha256\":\""
                  + "0".repeat(64)
                  + "\",\"content\":\"x\"}");
      JsonNode second =
          server.call(
              "propose_edit",
              "{\"path\":\"" + PATH + "\",\"base_sha256\":\"" + base + "\",\"content\":\"x\"}");
      JsonNode notEditable =
          server.call(
              "propose_edit",
              "{\"path\":\"Inbox.md\",\"base_sha256\":\"" + base + "\",\"content\":\"x\"}");

      assertThat(WireServer.text(wrong))
          .isEqualTo(
              PATH
                  + " has changed: its text now has SHA-256 "
                  + ApprovalsIT.sha256(BASE)
                  + ", not the base_sha256 given; read it again and propose against what it holds"
                  + " now");
      assertThat(WireServer.text(second))
          .isEqualTo(
              "a proposal for "
                  + PATH
                  + " is already pending ("
                  + id
                  + "); a person must approve or reject it with 'notes-mcp review' first");
      assertThat(WireServer.text(notEditable))
          .isEqualTo(
              "path \"Inbox.md\" is not allowed by the policy: it matches none of its editable"
                  + " names and patterns");
    }
  }

  @Test
  void withoutThePolicyAnEditIsShownButCannotBeApproved() throws Exception {
    String id = proposeAppend(ADDED);

    Launch.Result approved =
        Launch.run(
            dir,
            Launch.withoutTerminal(
                Launch.review(
                    root,
                    proposals,
                    "--approve",
                    id,
                    "--sha256",
                    ApprovalsIT.sha256(BASE + ADDED))));

    assertThat(approved.exit()).isEqualTo(1);
    assertThat(approved.stderr())
        .contains(
            "notes-mcp: refused: an edit is checked against the server's policy: run review with"
                + " -policy FILE, the file the server was given (the default policy lets no note be"
                + " edited); proposal "
                + id
                + " is still pending");
    assertThat(Files.readString(note)).isEqualTo(BASE);
  }

  /** Escapes, invisible characters and 10,000 lines: every line inert, the output bounded. */
  @Test
  void aHostileDiffIsShownInertAndBounded() throws Exception {
    StringBuilder big = new StringBuilder();
    for (int i = 0; i < 10_000; i++) {
      big.append("line ").append(i).append(" \u001b[2J\u202e\u200b\u3164").append('\n');
    }
    Files.writeString(note, big.toString());
    Thread.sleep(60);
    String id;
    try (WireServer server = serve()) {
      JsonNode reply =
          server.call(
              "propose_edit",
              "{\"path\":\""
                  + PATH
                  + "\",\"base_sha256\":\""
                  + baseOf(server, PATH)
                  + "\",\"content\":\"short\\u001b]0;owned\\u0007\\n\"}");
      assertThat(WireServer.isError(reply)).as(reply.toString()).isFalse();
      id = WireServer.JSON.readTree(WireServer.text(reply)).path("proposal_id").asString();
    }

    Launch.Result listed = review(List.of());

    assertThat(listed.exit()).isZero();
    assertThat(listed.stdout())
        .contains("Edit proposal " + id + "\n")
        .contains("    -| line 0 \\x1b[2J\\u202e\\u200b\\u3164\\n\n")
        .contains(
            "    ... 8002 more diff lines not shown (10001 lines removed or added in all; at most"
                + " 2000 diff lines are shown)\n")
        .doesNotContain("\u001b")
        .doesNotContain("\u202e")
        .doesNotContain("\u200b")
        .doesNotContain("\u3164")
        .doesNotContain("\u0007");
    assertThat(listed.stdout().lines().count()).isLessThan(2100);
  }

  @Test
  void aFolderSwappedForALinkBetweenProposalAndCommitNeverLeadsOutside() throws Exception {
    String id = proposeAppend(ADDED);
    Path outside = Files.createDirectory(dir.resolve("outside"));
    Path bait = Files.writeString(outside.resolve("2026-12-01.md"), BASE);
    Files.move(root.resolve("Journal"), dir.resolve("Journal-moved"));
    Files.createSymbolicLink(root.resolve("Journal"), outside);
    Thread.sleep(60);

    Launch.Result approved = approve(id, BASE + ADDED, List.of());

    assertThat(approved.exit()).isEqualTo(1);
    assertThat(approved.stderr())
        .contains("notes-mcp: refused: " + PATH + " cannot be changed: ")
        .contains("proposal " + id + " is still pending");
    assertThat(Files.readString(bait)).isEqualTo(BASE);
    try (Stream<Path> files = Files.list(outside)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("2026-12-01.md");
    }
    assertThat(status(id)).isEqualTo("pending_approval");
  }

  /**
   * A call answered just before the input ends is in the audit log even when the writer is still
   * writing it at exit: here another process holds the proposals folder's lock (as a review does
   * while it writes) for a second while the server exits, so the writer has taken the call and
   * waits for the lock, and the exit waits for the writer.
   */
  @Test
  void aCallAnsweredRightBeforeTheInputEndsIsWrittenEvenWhileTheLogIsLockedAtExit()
      throws Exception {
    try (WireServer server = serve()) {
      assertThat(WireServer.isError(server.call("list_notes", null))).isFalse();
      Thread.sleep(300); // written, and the folder's lock file made
      Process holder =
          new ProcessBuilder("flock", proposals.resolve("lock").toString(), "sleep", "1")
              .redirectErrorStream(true)
              .start();
      Thread.sleep(200);
      JsonNode reply = server.call("list_notes", null);
      assertThat(WireServer.isError(reply)).as(reply.toString()).isFalse();
      Thread.sleep(100);
      assertThat(server.closeInputAndWait()).isZero();
      assertThat(holder.waitFor()).isZero();
    }

    Launch.Result log = review(List.of(), "--log");

    assertThat(log.exit()).as(log.stderr()).isZero();
    assertThat(log.stdout().lines().filter(l -> l.contains("\"tool\":\"list_notes\""))).hasSize(2);
  }

  /**
   * The exit waits for the audit writer at most 5 s: with the folder's lock held elsewhere far
   * longer, the server exits after those 5 s and says how many calls it could not write.
   */
  @Test
  void anExitWaitsAtMostFiveSecondsForTheAuditLogAndSaysWhatItCouldNotWrite() throws Exception {
    long exitTook;
    String stderr;
    Process holder = null;
    try (WireServer server = serve()) {
      assertThat(WireServer.isError(server.call("list_notes", null))).isFalse();
      // Written (the writer thread's line, a moment after the answer), and the lock file made.
      Path audit = proposals.resolve("audit.log");
      for (long deadline = System.nanoTime() + 30_000_000_000L;
          !(Files.exists(audit) && Files.readString(audit).contains("\"tool\":\"list_notes\"")); ) {
        assertThat(System.nanoTime()).as("the first call's audit line").isLessThan(deadline);
        Thread.sleep(20);
      }
      holder =
          // -o: the lock is flock's own, so ending flock ends it (sleep's copy is closed).
          new ProcessBuilder("flock", "-o", proposals.resolve("lock").toString(), "sleep", "10")
              .redirectErrorStream(true)
              .start();
      Thread.sleep(200);
      assertThat(WireServer.isError(server.call("list_notes", null))).isFalse();
      assertThat(WireServer.isError(server.call("list_notes", null))).isFalse();
      long start = System.nanoTime();
      assertThat(server.closeInputAndWait()).isZero();
      exitTook = (System.nanoTime() - start) / 1_000_000;
      stderr = server.stderr();
    } finally {
      if (holder != null) {
        holder.destroy();
        holder.waitFor();
      }
    }

    assertThat(exitTook).isBetween(4_500L, 9_000L);
    assertThat(stderr)
        .contains(
            "notes-mcp: 2 calls were not yet written to the audit log 5 s into the exit (the"
                + " proposals folder's lock held elsewhere, or a slow disk), and will not be\n");
  }

  @Test
  void theAuditLogChainsEveryCallAndDecisionAndATamperedLineIsDetected() throws Exception {
    String id = proposeAppend(ADDED);
    assertThat(approve(id, BASE + ADDED, List.of()).exit()).isZero();

    Launch.Result log = review(List.of(), "--log");

    assertThat(log.exit()).as(log.stderr()).isZero();
    assertThat(log.stderr()).contains("notes-mcp: the audit log's chain is intact\n");
    List<String> lines = log.stdout().lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0))
        .contains(
            "\"event\":\"call\",\"tool\":\"read_note\",\"path\":\""
                + PATH
                + "\",\"arguments_sha256\":\"")
        .contains(
            "\"outcome\":\"answer\","
                // Over HTTP the line names the token and the peer of the call (docs/http.md).
                + (WireServer.HTTP ? "\"token\":\"wire\",\"peer\":\"127.0.0.1\"," : "")
                + "\"prev\":\""
                + "0".repeat(64)
                + "\"");
    assertThat(lines.get(1)).contains("\"tool\":\"propose_edit\",\"path\":\"" + PATH + "\"");
    assertThat(lines.get(2))
        .contains("\"event\":\"review\",\"user\":\"" + System.getProperty("user.name") + "\"")
        .contains("\"action\":\"approve\",\"proposal_id\":\"" + id + "\"")
        .contains("\"outcome\":\"done: changed ");
    Path file = proposals.resolve("audit.log");
    String written = Files.readString(file);
    assertThat(written).doesNotContain("buy paper").doesNotContain("call the printer");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");

    Files.writeString(file, written.replaceFirst("read_note", "list_notes"));
    Launch.Result tampered = review(List.of(), "--log");

    assertThat(tampered.exit()).isEqualTo(1);
    assertThat(tampered.stderr())
        .contains(
            "notes-mcp: the audit log's chain breaks at line 2 (marked !): it does not carry the"
                + " SHA-256 of the line before it, so a line was changed, removed or inserted"
                + " there\n");
    assertThat(tampered.stdout().lines().toList().get(1)).startsWith("     2 ! ");
  }

  @Test
  void withoutAProposalsFolderProposalStatusAnswersFromMemory() throws Exception {
    try (WireServer server = WireServer.start(root, "-policy", policy.toString())) {
      JsonNode reply =
          server.call(
              "propose_edit",
              "{\"path\":\""
                  + PATH
                  + "\",\"base_sha256\":\""
                  + baseOf(server, PATH)
                  + "\",\"append\":\"x\\n\"}");
      String id = WireServer.JSON.readTree(WireServer.text(reply)).path("proposal_id").asString();

      JsonNode status = server.call("proposal_status", "{\"proposal_id\":\"" + id + "\"}");
      JsonNode unknown = server.call("proposal_status", "{\"proposal_id\":\"nope\"}");

      assertThat(WireServer.text(status))
          .isEqualTo(
              "{\"status\":\"pending_approval\",\"proposal_id\":\""
                  + id
                  + "\",\"path\":\""
                  + PATH
                  + "\",\"kind\":\"edit\",\"sha256\":\""
                  + ApprovalsIT.sha256(BASE + "x\n")
                  + "\"}");
      assertThat(WireServer.isError(unknown)).isTrue();
      assertThat(WireServer.text(unknown))
          .isEqualTo(
              "there is no proposal \"nope\" of this server; proposal_id is the id a propose_note"
                  + " or propose_edit result gave");
      JsonNode tools = server.modern("tools/list", "", "ListToolsResult");
      assertThat(tools.toString())
          .contains("\"name\":\"proposal_status\"")
          .contains("\"readOnlyHint\":true");
    }
    assertThat(Files.readString(note)).isEqualTo(BASE);
  }

  @Test
  void onATerminalOnlyYesChangesTheNote() throws Exception {
    String id = proposeAppend("\u001b[2J\u202e" + ADDED);
    List<String> command =
        Launch.inTerminal(Launch.review(root, proposals, "-policy", policy.toString()));

    Launch.Result skipped = Launch.run(dir, Map.of(), "y\n", command);

    assertThat(skipped.exit()).isZero();
    assertThat(skipped.stdout())
        .contains("Edit proposal " + id)
        .contains("    +| \\x1b[2J\\u202e- buy paper\\n")
        .contains(
            "Type yes to change "
                + note
                + " to exactly the new text shown, reject to reject it, anything else to skip: ")
        .contains("Skipped; " + id + " is still pending.")
        .doesNotContain("\u001b")
        .doesNotContain("\u202e");
    assertThat(Files.readString(note)).isEqualTo(BASE);

    Launch.Result approved = Launch.run(dir, Map.of(), "yes\n", command);

    assertThat(approved.exit()).as(approved.stdout()).isZero();
    assertThat(approved.stdout()).contains("changed " + note + " (28 bytes to 47 bytes");
    assertThat(Files.readString(note)).isEqualTo(BASE + "\u001b[2J\u202e" + ADDED);
  }
}

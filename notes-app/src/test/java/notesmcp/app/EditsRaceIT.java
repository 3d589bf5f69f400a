package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * An edit's commit against another process that keeps rewriting the note with the very bytes the
 * edit was made against (docs/approvals.md, "Edits", "What remains open"): by rename-replace (a new
 * file each time, so only the inode tells it from the one checked) or in place (the same file,
 * rewritten). Whatever the interleaving, each approval either commits once or finds the note
 * changed and leaves it (stale), the note afterwards holds one of the two whole texts, and no
 * temporary file is left.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class EditsRaceIT {
  private static final String PATH = "Journal/day.md";
  private static final String BASE = "# Monday\n- call the printer\n";
  private static final String ADDED = "- buy paper\n";
  private static final int ROUNDS = 8;

  /**
   * The writer's pause between writes: none (the note never settles, so the base check itself
   * fails), or 70 ms (the note settles past the change rule's 50 ms margin between writes, so the
   * check passes and a write can land between it and the verifying read: the exchange back).
   */
  private static final String[] PAUSES = {"0", "0.07"};

  @TempDir Path dir;
  private Path root;
  private Path note;
  private Path proposals;
  private Path policy;

  @BeforeEach
  void setUp() throws Exception {
    root = Files.createDirectory(dir.resolve("vault")).toRealPath();
    Files.createDirectory(root.resolve("Journal"));
    note = root.resolve(PATH);
    proposals = dir.resolve("proposals");
    policy =
        Files.writeString(
            dir.resolve("policy.json"),
            "{\"readable\":[\"**/*.md\"],\"editable\":[\"Journal/*.md\"],\"maxCalls\":1000}");
  }

  private String propose() throws Exception {
    try (WireServer server =
        WireServer.start(root, "-policy", policy.toString(), "-proposals", proposals.toString())) {
      JsonNode read = server.call("read_note", "{\"path\":\"" + PATH + "\"}");
      String base = WireServer.JSON.readTree(WireServer.text(read)).path("sha256").asString();
      JsonNode reply =
          server.call(
              "propose_edit",
              "{\"path\":\""
                  + PATH
                  + "\",\"base_sha256\":\""
                  + base
                  + "\",\"append\":"
                  + WireServer.JSON.writeValueAsString(ADDED)
                  + "}");
      assertThat(WireServer.isError(reply)).as(reply.toString()).isFalse();
      return WireServer.JSON.readTree(WireServer.text(reply)).path("proposal_id").asString();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"rename", "in-place"})
  void eachApprovalCommitsOnceOrIsStaleAndTheNoteIsAlwaysOneWholeText(String how) throws Exception {
    String loop =
        how.equals("rename")
            ? "while :; do printf '%s' \"$2\" > \"$1.new\" && mv \"$1.new\" \"$1\"; sleep $3; done"
            : "while :; do printf '%s' \"$2\" > \"$1\"; sleep $3; done";
    int committed = 0;
    int stale = 0;
    int keptFiles = 0;
    for (int round = 0; round < ROUNDS; round++) {
      Files.writeString(note, BASE);
      Thread.sleep(60);
      String id = propose();
      Process writer =
          new ProcessBuilder("sh", "-c", loop, "sh", note.toString(), BASE, PAUSES[round % 2])
              .redirectErrorStream(true)
              .start();
      Launch.Result approved;
      try {
        Thread.sleep(20);
        approved =
            Launch.run(
                dir,
                Map.of(),
                "",
                Launch.withoutTerminal(
                    Launch.review(
                        root,
                        proposals,
                        "-policy",
                        policy.toString(),
                        "--approve",
                        id,
                        "--sha256",
                        ApprovalsIT.sha256(BASE + ADDED))));
      } finally {
        writer.destroyForcibly();
        writer.waitFor();
      }
      Files.deleteIfExists(root.resolve(PATH + ".new"));
      String text = Files.readString(note);
      assertThat(text).isIn(BASE, BASE + ADDED, "");
      if (approved.exit() == 0) {
        committed++;
        assertThat(proposals.resolve(id + ".committed")).exists();
      } else {
        stale++;
        assertThat(approved.stderr()).as(approved.stderr()).contains("the proposal is now stale");
        assertThat(proposals.resolve(id + ".stale")).exists();
        assertThat(proposals.resolve(id + ".committed")).doesNotExist();
      }
      List<String> names;
      try (Stream<Path> files = Files.list(root.resolve("Journal"))) {
        names = files.map(p -> p.getFileName().toString()).sorted().toList();
      }
      String kept = ".notes-mcp-" + id + ".edit.tmp";
      if (names.contains(kept)) {
        // The writer replaced the note after the exchange: what it displaced is kept, whole.
        keptFiles++;
        assertThat(Files.readString(root.resolve("Journal").resolve(kept))).isIn(BASE, "");
        assertThat(approved.stderr())
            .contains(
                "another process replaced the note during the commit; what it held before"
                    + " is kept beside it as "
                    + kept);
        Files.delete(root.resolve("Journal").resolve(kept));
        names = List.of("day.md");
      }
      assertThat(names).as("round " + round).containsExactly("day.md");
    }
    assertThat(committed + stale).isEqualTo(ROUNDS);
    System.err.println(
        "EditsRaceIT "
            + how
            + ": "
            + committed
            + " committed, "
            + stale
            + " stale of "
            + ROUNDS
            + "; "
            + keptFiles
            + " displaced copies kept");
  }
}

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The audit trail, {@code DIR/audit.log}, end to end (docs/approvals.md, "The audit trail"): each
 * call's line names the note, folder, query or proposal the client sent (inert on the terminal, cut
 * when long, never a note's content nor any other argument); a log written before lines named
 * anything still verifies, and the new lines chain on it; a torn last line (a write cut short)
 * stands alone once the next line is written, is reported as torn, and the lines after it verify;
 * and a FIFO, a link, a folder or another user's file at {@code audit.log} is refused, never waited
 * on, by the server and by {@code review --log}.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AuditLogIT {
  private static final String NOTE = "Journal/Caf\u00e9.md";
  private static final String SECRET_WORDS = "xyzzy plugh";

  @TempDir Path dir;
  private Path root;
  private Path proposals;
  private Path policy;
  private Path log;

  @BeforeEach
  void setUp() throws Exception {
    root = Files.createDirectory(dir.resolve("vault")).toRealPath();
    Files.createDirectory(root.resolve("Journal"));
    Files.createDirectory(root.resolve("Drafts"));
    Files.writeString(root.resolve(NOTE), "# Monday\n" + SECRET_WORDS + "\n");
    proposals = dir.resolve("proposals");
    log = proposals.resolve("audit.log");
    policy =
        Files.writeString(
            dir.resolve("policy.json"),
            "{\"readable\":[\"**/*.md\"],\"editable\":[\"Journal/*.md\"],"
                + "\"proposable\":[\"Drafts/*.md\"],\"maxNoteBytes\":65536,\"search\":true}");
    Thread.sleep(60); // the change rule's margin: let the note settle
  }

  private WireServer serve() throws Exception {
    return WireServer.start(root, "-policy", policy.toString(), "-proposals", proposals.toString());
  }

  private Launch.Result reviewLog() throws Exception {
    return Launch.run(dir, Launch.withoutTerminal(Launch.review(root, proposals, "--log")));
  }

  /** The calls a person asks about ("what did the assistant read?"), and what the log says. */
  @Test
  void eachCallsLineNamesWhatItNamedInertAndBoundedButNeverContentNorOtherArguments()
      throws Exception {
    String hostile = "../\u001b[2J\u001b[H\rAPPROVED\u202etxt.md";
    String longQuery = "q".repeat(2000);
    try (WireServer server = serve()) {
      JsonNode read = server.call("read_note", "{\"path\":\"" + NOTE + "\"}");
      assertThat(WireServer.isError(read)).as(read.toString()).isFalse();
      String base = WireServer.JSON.readTree(WireServer.text(read)).path("sha256").asString();
      assertThat(
              WireServer.isError(
                  server.call(
                      "read_note",
                      "{\"path\":" + WireServer.JSON.writeValueAsString(hostile) + "}")))
          .isTrue();
      JsonNode edit =
          server.call(
              "propose_edit",
              "{\"path\":\""
                  + NOTE
                  + "\",\"base_sha256\":\""
                  + base
                  + "\",\"append\":\"more "
                  + SECRET_WORDS
                  + "\\n\"}");
      assertThat(WireServer.isError(edit)).as(edit.toString()).isFalse();
      String id = WireServer.JSON.readTree(WireServer.text(edit)).path("proposal_id").asString();
      assertThat(
              WireServer.isError(
                  server.call(
                      "propose_note",
                      "{\"path\":\"Drafts/new.md\",\"content\":\"" + SECRET_WORDS + "\"}")))
          .isFalse();
      assertThat(
              WireServer.isError(
                  server.call("proposal_status", "{\"proposal_id\":\"" + id + "\"}")))
          .isFalse();
      assertThat(WireServer.isError(server.call("list_notes", "{\"folder\":\"Journal\"}")))
          .isFalse();
      // Refused before any search runs: the query is over the limit.
      assertThat(
              WireServer.isError(
                  server.call(
                      "search_notes",
                      "{\"query\":\"" + longQuery + "\",\"folder\":\"Journal\",\"limit\":3}")))
          .isTrue();
      // Arguments the tools cannot decode (a duplicate key) name nothing.
      assertThat(
              WireServer.isError(
                  server.call("read_note", "{\"path\":\"Inbox.md\",\"path\":\"" + NOTE + "\"}")))
          .isTrue();
      assertThat(server.closeInputAndWait()).isZero();
    }

    Launch.Result shown = reviewLog();

    assertThat(shown.exit()).as(shown.stderr()).isZero();
    assertThat(shown.stderr()).isEqualTo("notes-mcp: the audit log's chain is intact\n");
    List<String> lines = shown.stdout().lines().toList();
    assertThat(lines).hasSize(8);
    assertThat(lines.get(0))
        .contains("\"tool\":\"read_note\",\"path\":\"" + NOTE + "\",\"arguments_sha256\":\"")
        .contains("\"outcome\":\"answer\"");
    assertThat(lines.get(1))
        .contains(
            "\"tool\":\"read_note\",\"path\":\"../\\\\u001B[2J\\\\u001B[H\\\\rAPPROVED\\u202etxt.md\"")
        .contains("\"outcome\":\"refusal\"");
    assertThat(lines.get(2)).contains("\"tool\":\"propose_edit\",\"path\":\"" + NOTE + "\"");
    assertThat(lines.get(3)).contains("\"tool\":\"propose_note\",\"path\":\"Drafts/new.md\"");
    assertThat(lines.get(4)).contains("\"tool\":\"proposal_status\",\"proposal_id\":\"");
    assertThat(lines.get(5)).contains("\"tool\":\"list_notes\",\"folder\":\"Journal\"");
    assertThat(lines.get(6))
        .contains(
            "\"tool\":\"search_notes\",\"query\":\""
                + "q".repeat(256)
                + "... (1744 more characters)\",\"folder\":\"Journal\",\"arguments_sha256\":\"");
    assertThat(lines.get(7)).contains("\"tool\":\"read_note\",\"arguments_sha256\":\"");
    for (String line : lines) {
      assertThat(line).doesNotContain("base_sha256").doesNotContain("\"limit\"");
    }
    assertThat(shown.stdout())
        .doesNotContain("\u001b")
        .doesNotContain("\u202e")
        .doesNotContain("\r")
        .doesNotContain(SECRET_WORDS);
    String written = Files.readString(log, StandardCharsets.ISO_8859_1);
    assertThat(written).doesNotContain(SECRET_WORDS).contains("Journal/Caf\\u00E9.md");
    assertThat(written.chars().allMatch(c -> c < 0x80)).as("pure ASCII").isTrue();
  }

  /**
   * A log as the program wrote it before its lines named anything (a real one, kept as a test
   * resource) verifies unchanged, and the lines appended after it chain on it.
   */
  @Test
  void aLogWrittenBeforeLinesNamedAnythingStillVerifiesAndNewLinesChainOnIt() throws Exception {
    Files.createDirectories(
        proposals,
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    try (InputStream old = AuditLogIT.class.getResourceAsStream("audit-log-before-names.log")) {
      Files.copy(old, log);
    }
    Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-------"));

    Launch.Result before = reviewLog();

    assertThat(before.exit()).as(before.stderr()).isZero();
    assertThat(before.stderr()).isEqualTo("notes-mcp: the audit log's chain is intact\n");
    assertThat(before.stdout().lines()).hasSize(5);

    try (WireServer server = serve()) {
      assertThat(WireServer.isError(server.call("read_note", "{\"path\":\"" + NOTE + "\"}")))
          .isFalse();
      assertThat(server.closeInputAndWait()).isZero();
    }
    Launch.Result after = reviewLog();

    assertThat(after.exit()).as(after.stderr()).isZero();
    assertThat(after.stderr()).isEqualTo("notes-mcp: the audit log's chain is intact\n");
    List<String> lines = after.stdout().lines().toList();
    assertThat(lines).hasSize(6);
    assertThat(lines.get(5)).contains("\"path\":\"" + NOTE + "\"");
  }

  /**
   * A last line cut short (by truncating the file in its middle, as a short write on a full disk
   * leaves it) stands alone once the next call is written: review names it torn, and the chain
   * holds across it. Changing the torn line afterwards is a break at the line after it.
   */
  @Test
  void aTornLastLineStandsAloneAndTheLinesAfterItVerify() throws Exception {
    try (WireServer server = serve()) {
      assertThat(WireServer.isError(server.call("list_notes", null))).isFalse();
      assertThat(WireServer.isError(server.call("read_note", "{\"path\":\"" + NOTE + "\"}")))
          .isFalse();
      assertThat(server.closeInputAndWait()).isZero();
    }
    long size = Files.size(log);
    try (FileChannel file = FileChannel.open(log, StandardOpenOption.WRITE)) {
      file.truncate(size - 70); // in the middle of the last line's "prev"
    }
    try (WireServer server = serve()) {
      assertThat(WireServer.isError(server.call("list_notes", null))).isFalse();
      assertThat(WireServer.isError(server.call("list_notes", null))).isFalse();
      assertThat(server.closeInputAndWait()).isZero();
    }

    Launch.Result shown = reviewLog();

    assertThat(shown.exit()).as(shown.stderr()).isZero();
    List<String> lines = shown.stdout().lines().toList();
    assertThat(lines).hasSize(4);
    assertThat(lines.get(1)).startsWith("     2 ~ ").contains("\"tool\":\"read_note\"");
    assertThat(lines.get(2)).startsWith("     3   ").contains("\"tool\":\"list_notes\"");
    assertThat(shown.stderr())
        .isEqualTo(
            "notes-mcp: the audit log has a torn line, line 2 (marked ~): a line cut short, as a"
                + " write on a full disk leaves it; the call or decision it recorded is lost as a"
                + " line, and the line after it carries its SHA-256 as after any line\n"
                + "notes-mcp: the audit log's chain is intact\n");

    String written = Files.readString(log, StandardCharsets.ISO_8859_1);
    String[] parts = written.split("\n");
    parts[1] = parts[1].replace("read_note", "list_notes");
    Files.writeString(log, String.join("\n", parts) + "\n", StandardCharsets.ISO_8859_1);
    Launch.Result tampered = reviewLog();

    assertThat(tampered.exit()).isEqualTo(1);
    assertThat(tampered.stdout().lines().toList().get(2)).startsWith("     3 ! ");
    assertThat(tampered.stderr()).contains("the audit log's chain breaks at line 3 (marked !)");
  }

  /** A FIFO at audit.log: review refuses it at once, and a server answers and exits as usual. */
  @Test
  void anAuditLogThatIsAFifoIsNeverWaitedOn() throws Exception {
    try (WireServer server = serve()) {
      assertThat(server.closeInputAndWait()).isZero(); // makes the folder
    }
    exec("mkfifo", log.toString());

    long start = System.nanoTime();
    Launch.Result shown = reviewLog();

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
    assertThat(shown.exit()).isEqualTo(1);
    assertThat(shown.stderr())
        .isEqualTo(
            "notes-mcp: the audit log in "
                + proposals
                + " cannot be read (audit.log is a special file (FIFO, socket or device), not a"
                + " regular file); it was not checked\n");

    String stderr;
    try (WireServer server = serve()) {
      for (int i = 0; i < 3; i++) {
        assertThat(WireServer.isError(server.call("list_notes", null))).isFalse();
      }
      long exiting = System.nanoTime();
      assertThat(server.closeInputAndWait()).isZero();
      assertThat(Duration.ofNanos(System.nanoTime() - exiting)).isLessThan(Duration.ofSeconds(4));
      stderr = server.stderr();
    }
    assertThat(stderr)
        .contains(
            "notes-mcp: the audit log could not be written (audit.log is a special file (FIFO,"
                + " socket or device), not a regular file)");
    assertThat(exec("stat", "-c", "%F", log.toString())).isEqualTo("fifo\n");
  }

  /**
   * A link (to a file of this user's elsewhere) or a folder at audit.log is refused, unfollowed.
   */
  @Test
  void anAuditLogThatIsALinkOrAFolderIsRefusedAndNothingIsWrittenThroughIt() throws Exception {
    try (WireServer server = serve()) {
      assertThat(server.closeInputAndWait()).isZero();
    }
    Path elsewhere = Files.writeString(dir.resolve("elsewhere.log"), "");
    Files.createSymbolicLink(log, elsewhere);

    Launch.Result linked = reviewLog();
    try (WireServer server = serve()) {
      assertThat(WireServer.isError(server.call("list_notes", null))).isFalse();
      assertThat(server.closeInputAndWait()).isZero();
      assertThat(server.stderr())
          .contains(
              "notes-mcp: the audit log could not be written (audit.log is a symbolic link (links"
                  + " are never followed), not a regular file)");
    }

    assertThat(linked.exit()).isEqualTo(1);
    assertThat(linked.stderr())
        .contains(
            "cannot be read (audit.log is a symbolic link (links are never followed), not a"
                + " regular file); it was not checked");
    assertThat(Files.size(elsewhere)).isZero();

    Files.delete(log);
    Files.createDirectory(log);
    Launch.Result folder = reviewLog();

    assertThat(folder.exit()).isEqualTo(1);
    assertThat(folder.stderr())
        .contains("cannot be read (audit.log is a directory, not a regular file); it was not");
  }

  /**
   * Another user's file at audit.log (a root-run test gives it away) is neither read nor added to.
   */
  @Test
  void anAuditLogOfAnotherUserIsRefused() throws Exception {
    Assumptions.assumeTrue(LocalUsers.areAvailable(), "runs as root: it needs a second uid");
    try (WireServer server = serve()) {
      assertThat(WireServer.isError(server.call("list_notes", null))).isFalse();
      assertThat(server.closeInputAndWait()).isZero();
    }
    LocalUsers.chown(log, LocalUsers.OTHER);
    long size = Files.size(log);

    Launch.Result shown = reviewLog();
    try (WireServer server = serve()) {
      assertThat(WireServer.isError(server.call("list_notes", null))).isFalse();
      assertThat(server.closeInputAndWait()).isZero();
      assertThat(server.stderr())
          .contains(
              "notes-mcp: the audit log could not be written (it is owned by uid "
                  + LocalUsers.OTHER
                  + ", not by this user");
    }

    assertThat(shown.exit()).isEqualTo(1);
    assertThat(shown.stderr())
        .contains("cannot be read (it is owned by uid " + LocalUsers.OTHER + ", not by this user");
    assertThat(Files.size(log)).isEqualTo(size);
  }

  private static String exec(String... command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(out).isZero();
    return out;
  }
}

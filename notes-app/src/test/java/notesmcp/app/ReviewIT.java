package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code notes-mcp review} as a person meets it: on a terminal (a pseudo-terminal from {@code
 * script}), where only {@code yes} approves and a proposal's escapes are shown inert; without one,
 * where nothing is approved even if "yes" is piped in; and the start-up checks of the folder.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReviewIT {
  /** Clears the screen, moves home, overwrites with CR, reverses with U+202E. */
  static final String HOSTILE = "Meeting\u001b[2J\u001b[H\rAPPROVED\u202etxt.exe\n\u009b31mred\n";

  static final String HOSTILE_SHOWN =
      "    | Meeting\\x1b[2J\\x1b[H\\rAPPROVED\\u202etxt.exe\\n\r\n    | \\x9b31mred\\n\r\n";

  @TempDir Path dir;
  private Path root;
  private Path proposals;

  @BeforeEach
  void setUp() throws Exception {
    root = Fixtures.workspace(dir).toRealPath();
    proposals = dir.resolve("proposals");
  }

  private String proposeAndClose(String content) throws Exception {
    try (WireServer server = WireServer.start(root, "-proposals", proposals.toString())) {
      return ApprovalsIT.propose(server, content);
    }
  }

  private Launch.Result inTerminal(String typed) throws Exception {
    return Launch.run(dir, Map.of(), typed, Launch.inTerminal(Launch.review(root, proposals)));
  }

  @Test
  void onATerminalEscapesAreShownInertAndOnlyYesApproves() throws Exception {
    String id = proposeAndClose(HOSTILE);

    Launch.Result skipped = inTerminal("y\n");

    assertThat(skipped.exit()).isZero();
    assertThat(skipped.stdout())
        .contains(HOSTILE_SHOWN)
        .contains("Skipped; " + id + " is still pending.")
        .doesNotContain("\u001b")
        .doesNotContain("\u009b")
        .doesNotContain("\u202e");
    assertThat(root.resolve("draft.txt")).doesNotExist();

    Launch.Result approved = inTerminal("yes\n");

    assertThat(approved.exit()).as(approved.stdout()).isZero();
    assertThat(approved.stdout()).contains("created " + root.resolve("draft.txt"));
    assertThat(Files.readString(root.resolve("draft.txt"))).isEqualTo(HOSTILE);
    assertThat(
            PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("draft.txt"))))
        .isEqualTo("rw-------");
  }

  /**
   * Characters that draw nothing (Hangul fillers, the combining grapheme joiner, a variation
   * selector, a tag character, a zero-width space) reach the terminal only as escapes.
   */
  @Test
  void onATerminalInvisibleCharactersAreShownAsEscapes() throws Exception {
    String content = "Pay\u3164Bob\u115f\uffa0now\u034f!\u2764\ufe0f\udb40\udc41ok\u200b\n";
    String id = proposeAndClose(content);

    Launch.Result shown = inTerminal("skip\n");

    assertThat(shown.exit()).isZero();
    assertThat(shown.stdout())
        .contains(
            "    | Pay\\u3164Bob\\u115f\\uffa0now\\u034f!\u2764\\ufe0f\\U000e0041ok\\u200b\\n\r\n")
        .contains("Skipped; " + id + " is still pending.");
    for (String invisible :
        List.of("\u3164", "\u115f", "\uffa0", "\u034f", "\ufe0f", "\udb40\udc41", "\u200b")) {
      assertThat(shown.stdout()).doesNotContain(invisible);
    }
  }

  @Test
  void onATerminalRejectRejects() throws Exception {
    String id = proposeAndClose("x\n");

    Launch.Result rejected = inTerminal("reject\n");

    assertThat(rejected.exit()).isZero();
    assertThat(rejected.stdout()).contains("rejected proposal " + id);
    assertThat(proposals.resolve(id + ".rejected")).exists();
    assertThat(inTerminal("").stdout()).contains("No pending proposals.");
  }

  @Test
  void withoutATerminalNothingIsApprovedEvenWhenYesIsPipedIn() throws Exception {
    String id = proposeAndClose(HOSTILE);

    Launch.Result result =
        Launch.run(dir, Map.of(), "yes\n", Launch.withoutTerminal(Launch.review(root, proposals)));

    assertThat(result.exit()).isZero();
    assertThat(result.stdout())
        .contains("Proposal " + id + "\n")
        .contains("  destination  " + root.resolve("draft.txt") + "\n")
        .contains("  bytes        " + HOSTILE.getBytes(StandardCharsets.UTF_8).length + "\n")
        .contains("  sha256       " + ApprovalsIT.sha256(HOSTILE) + "\n")
        .contains(HOSTILE_SHOWN.replace("\r\n", "\n"))
        .contains("--approve " + id + " --sha256 " + ApprovalsIT.sha256(HOSTILE))
        .doesNotContain("\u001b");
    assertThat(result.stderr())
        .contains(
            "notes-mcp: 1 pending; no terminal, so nothing was approved. Run review in a terminal,"
                + " or approve one with --approve ID --sha256 HEX.");
    assertThat(root.resolve("draft.txt")).doesNotExist();
    assertThat(proposals.resolve(id + ".committed")).doesNotExist();
  }

  @Test
  void theLegacyClientsSelfReportedNameIsRecordedAsUnverified() throws Exception {
    try (WireServer server = WireServer.start(root, "-proposals", proposals.toString())) {
      server.legacy(
          "initialize",
          "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
              + "\"clientInfo\":{\"name\":\"legacy-host\",\"version\":\"2.5\"}}",
          "InitializeResult");
      server.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      JsonNode reply =
          server.legacy(
              "tools/call",
              "{\"name\":\"propose_note\",\"arguments\":{\"path\":\"draft.txt\",\"content\":\"x\"}}",
              "CallToolResult");
      assertThat(WireServer.isError(reply)).isFalse();
    }

    assertThat(Launch.run(dir, Launch.withoutTerminal(Launch.review(root, proposals))).stdout())
        .contains(
            "  requested by \"legacy-host\" version \"2.5\" (self-reported by the MCP client,"
                + " unverified)\n");
  }

  @Test
  void aFolderInsideTheWorkspaceStopsServerAndReviewAtStartUp() throws Exception {
    Path inside = root.resolve("proposals");
    String why =
        ": is inside the workspace " + root + " (as " + inside + "); keep proposals outside it";

    Launch.Result serve =
        Launch.run(
            dir,
            List.of(
                WireServer.launcher().toString(),
                "-serve",
                "-root",
                root.toString(),
                "-proposals",
                inside.toString()));
    Launch.Result review = Launch.run(dir, Launch.withoutTerminal(Launch.review(root, inside)));

    assertThat(serve.exit()).isEqualTo(2);
    assertThat(serve.stderr()).contains("notes-mcp: -proposals " + inside + why);
    assertThat(serve.stdout()).isEmpty();
    assertThat(review.exit()).isEqualTo(2);
    assertThat(review.stderr()).contains("notes-mcp: -proposals " + inside + why);
  }

  @Test
  void aGroupWritableFolderStopsTheServerAtStartUp() throws Exception {
    Files.createDirectory(proposals);
    Files.setPosixFilePermissions(proposals, PosixFilePermissions.fromString("rwxrwx---"));

    Launch.Result serve =
        Launch.run(
            dir,
            List.of(
                WireServer.launcher().toString(),
                "--serve",
                "--root",
                root.toString(),
                "--proposals",
                proposals.toString()));

    assertThat(serve.exit()).isEqualTo(2);
    assertThat(serve.stderr())
        .contains(
            "notes-mcp: -proposals "
                + proposals
                + ": is writable by group or others (rwxrwx---); run: chmod go-w "
                + proposals.toRealPath());
  }
}

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The review page end to end against the real executable (docs/review-page.md): {@code -serve -http
 * 127.0.0.1:0 -auth oauth} with a tokens file's proposing token, proposals made through MCP, the
 * owner signed in with a link from {@code notes-mcp owner link}, and the page's forms posted as the
 * owner's browser posts them ({@link ReviewWire}). The page shows each proposal in exactly the text
 * the terminal's {@code review} prints, and decides through the same approvals: once, bound to the
 * SHA-256 shown, the audit trail saying it came from the page. {@code ReviewPageHostileIT} attacks
 * it; {@code BrowserReviewIT} drives it in Chromium.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ReviewPageIT {
  @TempDir Path dir;

  /**
   * Text a client may put in a proposal to hide, disguise or act on a screen: bidirectional
   * overrides and isolates, zero-width and other default-ignorable characters, C0 and C1 controls,
   * escape sequences (CSI, OSC, the 8-bit CSI), a carriage return, a tag character, a Hangul
   * filler, a no-break space, a line far wider than any screen, and markup.
   */
  static final String HOSTILE =
      "plain line\n"
          + "bidi \u202eevil\u202c and isolate \u2066x\u2069\n"
          + "zero width \u200b\u200c\u200d\ufeff|\n"
          + "controls \u0001\u0007\u007f\u0085 tab\tcr\r\n"
          + "escape \u001b[2J\u001b]0;title\u0007 csi\u009b31m\n"
          + "tag \udb40\udc41 filler \u3164 nbsp\u00a0end\n"
          + "x".repeat(5000)
          + "\n"
          + "</pre><script>alert(1)</script>&amp; \"quoted\" 'single'\n";

  /** Characters that must never reach the page raw. */
  private static final List<String> NEVER_RAW =
      List.of(
          "\u202e",
          "\u2066",
          "\u200b",
          "\u200c",
          "\u200d",
          "\ufeff",
          "\u0001",
          "\u0007",
          "\u007f",
          "\u0085",
          "\t",
          "\r",
          "\u001b",
          "\u009b",
          "\udb40\udc41",
          "\u3164",
          "\u00a0");

  @Test
  void thePageShowsEveryProposalInExactlyTheTextTheTerminalReviewPrints() throws Exception {
    try (ReviewWire wire = ReviewWire.start(dir)) {
      wire.proposeNote("Inbox/hostile.md", HOSTILE);
      wire.proposeEdit(ReviewWire.BASE + "- buy paper\n" + HOSTILE);
      // An unpaired surrogate cannot be recorded: refused, nothing kept.
      HttpWire.Reply surrogate =
          wire.oauth.server.call(
              wire.token, "propose_note", "{\"path\":\"Inbox/s.md\",\"content\":\"a\\ud800b\"}");
      assertThat(WireServer.isError(surrogate.json())).isTrue();
      assertThat(WireServer.text(surrogate.json())).contains("unpaired surrogate");

      String cookie = wire.oauth.signIn();
      String html = wire.page(cookie);
      List<String> blocks = ReviewWire.blocks(html);
      assertThat(blocks).hasSize(2);

      Launch.Result terminal = wire.review();
      assertThat(terminal.exit()).as(terminal.stderr()).isZero();
      for (String block : blocks) {
        assertThat(terminal.stdout()).contains(block);
      }
      assertThat(terminal.stdout().split("\n  approve with ", -1)).hasSize(3);
      // What the block says: the credential checked beside the self-reported name, the path in
      // the workspace, the diff; every hostile character an escape, the markup inert.
      String edit = blocks.get(0).startsWith("Edit") ? blocks.get(0) : blocks.get(1);
      String created = blocks.get(0).startsWith("Edit") ? blocks.get(1) : blocks.get(0);
      assertThat(created)
          .contains("  destination  " + wire.root.resolve("Inbox/hostile.md") + "\n")
          .contains("  requested by \"http-wire\" version \"1\" (self-reported by the MCP client,")
          .contains(
              "  credential   token \"phone\" (checked by the server, not the client's claim)")
          .contains("bidi \\u202eevil\\u202c and isolate \\u2066x\\u2069\\n")
          .contains("zero width \\u200b\\u200c\\u200d\\ufeff|\\n")
          .contains("controls \\x01\\x07\\x7f\\x85 tab\\tcr\\r\\n")
          .contains("escape \\x1b[2J\\x1b]0;title\\x07 csi\\x9b31m\\n")
          .contains("tag \\U000e0041 filler \\u3164 nbsp\\u00a0end\\n")
          .contains("x".repeat(5000) + "\\n")
          .contains("</pre><script>alert(1)</script>&amp;");
      assertThat(edit)
          .contains(
              "  destination  " + wire.root.resolve(ReviewWire.JOURNAL) + " (an existing note)")
          .contains("\n     | - call the printer\\n\n")
          .contains("\n    +| - buy paper\\n\n")
          .contains("\n    +| bidi \\u202eevil\\u202c and isolate \\u2066x\\u2069\\n\n");
      for (String raw : NEVER_RAW) {
        assertThat(html).as("U+%04X raw", (int) raw.charAt(0)).doesNotContain(raw);
      }
      assertThat(html).doesNotContain("<script>").contains("&lt;/pre&gt;&lt;script&gt;");
      assertThat(html.split("<pre class=\"view\">", -1)).hasSize(3);
    }
  }

  @Test
  void approveCommitsOnceUndoRestoresRejectEndsAndTheTrailSaysItWasThePage() throws Exception {
    try (ReviewWire wire = ReviewWire.start(dir)) {
      String note = wire.proposeNote("Inbox/idea.md", "An idea.\n");
      String cookie = wire.oauth.signIn();
      String label = sessionLabel(wire);

      OAuthWire.Page done = wire.approve(cookie, note);
      assertThat(done.status()).as(done.body()).isEqualTo(200);
      assertThat(done.body())
          .contains("created " + wire.root.resolve("Inbox/idea.md") + " (9 bytes)");
      Path idea = wire.root.resolve("Inbox/idea.md");
      assertThat(Files.readString(idea)).isEqualTo("An idea.\n");
      assertThat(wire.status(note)).isEqualTo("approved");
      assertThat(wire.page(cookie)).doesNotContain(note);

      String edit = wire.proposeEdit(ReviewWire.BASE + "- buy paper\n");
      assertThat(wire.approve(cookie, edit).status()).isEqualTo(200);
      Path journal = wire.root.resolve(ReviewWire.JOURNAL);
      assertThat(Files.readString(journal)).isEqualTo(ReviewWire.BASE + "- buy paper\n");
      String page = wire.page(cookie);
      assertThat(page).contains("<h2>Approved edits</h2>").contains(edit);
      Map<String, String> undo = ReviewWire.form(page, "/review/undo", edit);
      OAuthWire.Page undone =
          wire.post("/review/undo", cookie, "csrf", undo.get("csrf"), "id", edit);
      assertThat(undone.status()).as(undone.body()).isEqualTo(200);
      assertThat(undone.body()).contains("restored " + journal);
      assertThat(Files.readString(journal)).isEqualTo(ReviewWire.BASE);
      assertThat(wire.status(edit)).isEqualTo("undone");
      // An undo again changes nothing more.
      OAuthWire.Page again =
          wire.post("/review/undo", cookie, "csrf", undo.get("csrf"), "id", edit);
      assertThat(again.body()).contains("was already undone");
      assertThat(Files.readString(journal)).isEqualTo(ReviewWire.BASE);

      String unwanted = wire.proposeNote("Inbox/unwanted.md", "No.\n");
      Map<String, String> reject = ReviewWire.form(wire.page(cookie), "/review/reject", unwanted);
      OAuthWire.Page rejected =
          wire.post("/review/reject", cookie, "csrf", reject.get("csrf"), "id", unwanted);
      assertThat(rejected.status()).isEqualTo(200);
      assertThat(wire.status(unwanted)).isEqualTo("rejected");
      assertThat(wire.root.resolve("Inbox/unwanted.md")).doesNotExist();

      // The trail: one line per decision, from the page, its session and peer; the chain holds
      // across the server's call lines and these, as review --log checks it.
      List<String> decisions = wire.decisions();
      assertThat(decisions).hasSize(5);
      for (String line : decisions) {
        assertThat(line)
            .contains("\"via\":\"page\",\"session\":\"" + label + "\",\"peer\":\"127.0.0.1\"");
      }
      assertThat(decisions.get(0)).contains("\"action\":\"approve\"", note, "\"done: created ");
      assertThat(decisions.get(2)).contains("\"action\":\"undo\"", "\"done: restored ");
      assertThat(decisions.get(4)).contains("\"action\":\"reject\"", unwanted);
      Launch.Result log = wire.review("--log");
      assertThat(log.exit()).as(log.stderr()).isZero();
      assertThat(log.stderr()).contains("the audit log's chain is intact");

      // The page's trail is the terminal's, line for line, and says the chain is intact.
      OAuthWire.Page trail = wire.oauth.get("/review/log", cookie);
      assertThat(trail.status()).isEqualTo(200);
      assertThat(trail.body()).contains("The audit log&#39;s chain is intact.");
      String shown = trail.body().substring(trail.body().indexOf("<pre class=\"log\">") + 17);
      shown = ReviewWire.unescape(shown.substring(0, shown.indexOf("</pre>")));
      assertThat(shown).isEqualTo(log.stdout());
      assertThat(wire.oauth.server.violations()).isEmpty();
    }
  }

  /**
   * The terminal's review and the page approve the same proposal at the same moment, round after
   * round: one of them commits, the other is told it is already committed, and the note holds the
   * proposal's bytes once (the proposals folder's lock and the markers decide, as between two
   * terminals).
   */
  @Test
  void theTerminalAndThePageApprovingAtOnceCommitExactlyOnce() throws Exception {
    try (ReviewWire wire = ReviewWire.start(dir)) {
      String cookie = wire.oauth.signIn();
      ExecutorService both = Executors.newFixedThreadPool(2);
      try {
        for (int round = 0; round < 4; round++) {
          String path = "Inbox/race-" + round + ".md";
          String text = "round " + round + "\n";
          String id = wire.proposeNote(path, text);
          Map<String, String> f = ReviewWire.form(wire.page(cookie), "/review/approve", id);
          Callable<Launch.Result> terminal =
              () -> wire.review("--approve", id, "--sha256", f.get("sha256"));
          Callable<OAuthWire.Page> page =
              () ->
                  wire.post(
                      "/review/approve",
                      cookie,
                      "csrf",
                      f.get("csrf"),
                      "id",
                      id,
                      "sha256",
                      f.get("sha256"));
          Future<Launch.Result> byTerminal = both.submit(terminal);
          Future<OAuthWire.Page> byPage = both.submit(page);
          Launch.Result t = byTerminal.get(120, TimeUnit.SECONDS);
          OAuthWire.Page p = byPage.get(120, TimeUnit.SECONDS);
          boolean terminalWon = t.exit() == 0;
          boolean pageWon = p.status() == 200;
          assertThat(terminalWon ^ pageWon)
              .as("round %d: terminal %s / page %s", round, t.stderr(), p.body())
              .isTrue();
          if (terminalWon) {
            assertThat(p.status()).isEqualTo(409);
            assertThat(p.body()).contains("is already committed; nothing changed");
          } else {
            assertThat(t.exit()).isEqualTo(1);
            assertThat(t.stderr()).contains("is already committed; nothing changed");
          }
          assertThat(Files.readString(wire.root.resolve(path))).isEqualTo(text);
          assertThat(wire.status(id)).isEqualTo("approved");
        }
      } finally {
        both.shutdownNow();
      }
      // One done and one refused approval per round, in the one chain.
      List<String> decisions = wire.decisions();
      assertThat(decisions).hasSize(8);
      assertThat(decisions.stream().filter(l -> l.contains("\"outcome\":\"done: ")).count())
          .isEqualTo(4);
      assertThat(wire.review("--log").exit()).isZero();
    }
  }

  /** The session's label, as the server said it when the owner signed in. */
  static String sessionLabel(ReviewWire wire) {
    String stderr = wire.oauth.server.stderr();
    int at = stderr.lastIndexOf(", session ");
    assertThat(at).as(stderr).isPositive();
    return stderr.substring(at + ", session ".length(), at + ", session ".length() + 12);
  }
}

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The review page in a real browser (docs/review-page.md): Debian's Chromium ({@code
 * /usr/bin/chromium}, which {@code .ci/run} installs when it is missing), headless, with a fresh
 * profile, driven by playwright-core from {@code peers/interop} ({@code review-browser.mjs}) at a
 * phone's width. The owner signs in by opening an {@code owner link} URL, sees a new note's content
 * and an edit's diff rendered exactly as the terminal's review prints them, approves both, undoes
 * the edit and rejects a third proposal by clicking the page's own buttons; the notes on disk
 * change exactly once each. The page never scrolls sideways (only a proposal's own box does), runs
 * no script, and its screenshot is as wide as the phone.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class BrowserReviewIT {
  @TempDir Path dir;

  private static final String CONTENT =
      "From the phone \u202eevil\u202c \u200b\u001b[2J\n" + "y".repeat(600) + "\n";

  @Test
  void theOwnerSignsInReadsApprovesUndoesAndRejectsOnAPhoneSizedPage() throws Exception {
    Path repo = WireServer.launcher().getParent();
    Path interop = repo.resolve("peers/interop");
    assertThat(interop.resolve("node_modules/playwright-core"))
        .as("playwright-core, installed by npm ci in peers/interop")
        .isDirectory();
    assertThat(Path.of("/usr/bin/chromium")).as("Debian's chromium (.ci/run installs it)").exists();

    try (ReviewWire wire = ReviewWire.start(dir)) {
      String note = wire.proposeNote("Inbox/phone.md", CONTENT);
      String edit = wire.proposeEdit(ReviewWire.BASE + "- buy paper\n");
      String unwanted = wire.proposeNote("Inbox/no.md", "No.\n");
      Launch.Result terminal = wire.review();
      assertThat(terminal.exit()).isZero();

      Path screenshot = dir.resolve("review-phone.png");
      JsonNode report =
          run(
              interop,
              wire.oauth.base,
              wire.oauth.link(),
              note,
              edit,
              unwanted,
              screenshot.toString(),
              Files.createDirectory(dir.resolve("chromium-profile")).toString());
      assertThat(report.has("error")).as(report.toString()).isFalse();

      assertThat(report.get("afterSignIn").stringValue()).isEqualTo("/owner");
      assertThat(report.get("reviewUrl").stringValue()).isEqualTo("/review");
      // What the browser renders is the terminal's text, every hidden character an escape.
      JsonNode blocks = report.get("blocks");
      assertThat(blocks).hasSize(3);
      List<String> ids = new ArrayList<>();
      for (JsonNode block : blocks) {
        String text = block.get("text").stringValue();
        ids.add(block.get("id").stringValue());
        assertThat(terminal.stdout()).contains(text.stripTrailing());
        assertThat(text).doesNotContain("\u202e").doesNotContain("\u200b").doesNotContain("\u001b");
      }
      assertThat(ids).containsExactlyInAnyOrder(note, edit, unwanted);
      String shownNote = textOf(blocks, note);
      assertThat(shownNote)
          .contains("    | From the phone \\u202eevil\\u202c \\u200b\\x1b[2J\\n")
          .contains("  credential   token \"phone\"");
      assertThat(textOf(blocks, edit))
          .contains("    +| - buy paper\\n")
          .contains("     | - call the printer\\n");

      // A phone's width: the page does not scroll sideways; the long line scrolls in its box.
      int viewport = report.get("viewportWidth").asInt();
      assertThat(viewport).isEqualTo(390);
      assertThat(report.get("scrollWidth").asInt()).isLessThanOrEqualTo(viewport);
      boolean scrollsInside = false;
      for (JsonNode box : report.get("boxes")) {
        assertThat(box.get("right").asDouble()).isLessThanOrEqualTo(viewport);
        scrollsInside |= box.get("scroll").asInt() > box.get("client").asInt();
      }
      assertThat(scrollsInside).as("the 600-character line scrolls inside its box").isTrue();
      assertThat(report.get("scripts").asInt()).isZero();
      int[] size = pngSize(screenshot);
      assertThat(size[0]).as("the screenshot's width").isEqualTo(viewport);
      assertThat(size[1]).isGreaterThanOrEqualTo(844);

      // The clicks: each decided once, and the notes on disk say so.
      JsonNode steps = report.get("steps");
      assertThat(steps).hasSize(4);
      for (JsonNode step : steps) {
        assertThat(step.get("title").stringValue()).as(step.toString()).isEqualTo("Done");
      }
      assertThat(steps.get(0).get("message").stringValue())
          .startsWith("created " + wire.root.resolve("Inbox/phone.md"));
      assertThat(steps.get(1).get("message").stringValue())
          .startsWith("changed " + wire.root.resolve(ReviewWire.JOURNAL));
      assertThat(steps.get(2).get("message").stringValue())
          .startsWith("restored " + wire.root.resolve(ReviewWire.JOURNAL));
      assertThat(steps.get(3).get("message").stringValue())
          .isEqualTo("rejected proposal " + unwanted);
      assertThat(Files.readString(wire.root.resolve("Inbox/phone.md"), StandardCharsets.UTF_8))
          .isEqualTo(CONTENT);
      assertThat(Files.readString(wire.root.resolve(ReviewWire.JOURNAL)))
          .isEqualTo(ReviewWire.BASE);
      assertThat(wire.root.resolve("Inbox/no.md")).doesNotExist();
      assertThat(wire.status(note)).isEqualTo("approved");
      assertThat(wire.status(edit)).isEqualTo("undone");
      assertThat(wire.status(unwanted)).isEqualTo("rejected");
      assertThat(report.get("pendingAfter")).isEmpty();

      List<String> decisions = wire.decisions();
      assertThat(decisions).hasSize(4);
      for (String line : decisions) {
        assertThat(line).contains("\"outcome\":\"done: ").contains("\"via\":\"page\"");
      }
      assertThat(report.get("chain").stringValue()).isEqualTo("The audit log's chain is intact.");
      assertThat(report.get("log").stringValue()).contains("\"via\":\"page\"");
      // Signed out by the home page's own form: the review page is then the sign-in page.
      assertThat(report.get("afterSignOut").stringValue()).isEqualTo("/owner/signin");
      assertThat(report.get("reviewAfterSignOut").stringValue()).isEqualTo("/owner/signin");
      assertThat(report.get("proposalsShownAfterSignOut").asInt()).isZero();
    }
  }

  private static String textOf(JsonNode blocks, String id) {
    for (JsonNode block : blocks) {
      if (block.get("id").stringValue().equals(id)) {
        return block.get("text").stringValue();
      }
    }
    throw new AssertionError(id + " not among " + blocks);
  }

  private static JsonNode run(Path interop, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("node", "review-browser.mjs"));
    command.addAll(List.of(args));
    Process node =
        new ProcessBuilder(command)
            .directory(interop.toFile())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    byte[] out;
    try (InputStream in = node.getInputStream()) {
      out = in.readAllBytes();
    }
    assertThat(node.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String text = new String(out, StandardCharsets.UTF_8);
    assertThat(node.exitValue()).as(text).isZero();
    return HttpWire.JSON.readTree(text);
  }

  /** A PNG's width and height, from its header. */
  private static int[] pngSize(Path png) throws Exception {
    try (DataInputStream in = new DataInputStream(Files.newInputStream(png))) {
      byte[] signature = new byte[8];
      in.readFully(signature);
      assertThat(signature).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
      in.readInt(); // the IHDR chunk's length
      byte[] type = new byte[4];
      in.readFully(type);
      assertThat(new String(type, StandardCharsets.US_ASCII)).isEqualTo("IHDR");
      return new int[] {in.readInt(), in.readInt()};
    }
  }
}

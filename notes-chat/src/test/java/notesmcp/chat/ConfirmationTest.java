package notesmcp.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import notesmcp.text.TerminalText;
import org.junit.jupiter.api.Test;

class ConfirmationTest {
  private static final Path ROOT = Path.of("/home/me/notes");
  private static final Path PROPOSALS = Path.of("/home/me/proposals dir");

  @Test
  void aProposalIsShownAsReviewWillShowItAndTheFooterSaysItApprovesNothing() throws Exception {
    Confirmation confirmation = new Confirmation(Optional::empty, ROOT, PROPOSALS);
    ToolArguments arguments =
        ToolArguments.parse("{\"path\":\"draft.txt\",\"content\":\"hi\\u001b[2J\\u202e\\n\"}");

    String shown = confirmation.render("propose_note", arguments);

    assertThat(shown)
        .isEqualTo(
            "\nnotes-mcp chat: the model asks to send a call the server does not mark read-only.\n"
                + "  tool         propose_note\n"
                + "  path         draft.txt\n"
                + "  bytes        10\n"
                + "  sha256       "
                + "759b8718a16bd109216afdae4a39b60631cfef4b8e469c7513ab4d45a1f1943c\n"
                + "  content      "
                + TerminalText.KEY
                + "\n"
                + "    | hi\\x1b[2J\\u202e\\n\n"
                + "  destination  /home/me/notes/draft.txt (once approved, if the server's policy"
                + " allows the name)\n"
                + "Sending it records a proposal; it approves nothing and writes no note. Approving"
                + " stays with you, in your terminal:\n"
                + "  notes-mcp review -root /home/me/notes -proposals '/home/me/proposals dir'\n");
  }

  @Test
  void withoutAProposalsFolderItSaysTheProposalIsLostAtTheEnd() throws Exception {
    String shown =
        new Confirmation(Optional::empty, ROOT, null)
            .render(
                "propose_note", ToolArguments.parse("{\"path\":\"draft.txt\",\"content\":\"\"}"));

    assertThat(shown)
        .contains("    (empty)\n")
        .endsWith(
            "This chat's server keeps proposals in memory only, so it is discarded when the chat"
                + " ends: start the chat with -proposals DIR to review it with 'notes-mcp"
                + " review'.\n");
  }

  @Test
  void aDestinationIsShownOnlyForAPlainNoteName() throws Exception {
    String shown =
        new Confirmation(Optional::empty, ROOT, PROPOSALS)
            .render("propose_note", ToolArguments.parse("{\"path\":\"../../etc/passwd\"}"));

    assertThat(shown).contains("  path         ../../etc/passwd\n").doesNotContain("destination");
  }

  @Test
  void anyOtherToolShowsEachArgumentInertly() throws Exception {
    String shown =
        new Confirmation(Optional::empty, null, null)
            .render(
                "send_mail",
                ToolArguments.parse(
                    "{\"to\":\"a@b\\u001b]0;x\\u0007\",\"body\":\"line\\nline\",\"n\":[1,2]}"));

    assertThat(shown)
        .contains("  tool         send_mail\n")
        .contains("  to           a@b\\x1b]0;x\\x07\n")
        .contains("  body         9 bytes " + TerminalText.KEY + "\n    | line\\n\n    | line\n")
        .contains("  n            (JSON) " + TerminalText.KEY + "\n    | [1,2]\n")
        .endsWith("Sending it lets the server act on it. This host approves nothing.\n")
        .doesNotContain("\u001b")
        .doesNotContain("\u0007");
  }

  @Test
  void withoutATerminalTheAnswerIsNoTerminal() throws Exception {
    Confirmation confirmation = new Confirmation(Optional::empty, ROOT, PROPOSALS);

    assertThat(confirmation.ask("propose_note", ToolArguments.parse("{}")))
        .isEqualTo(Confirmation.Answer.NO_TERMINAL);
  }
}

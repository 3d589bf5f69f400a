package notesmcp.policy.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import notesmcp.policy.proposals.Proposal;
import notesmcp.policy.proposals.Recorded;
import notesmcp.policy.proposals.Requester;
import notesmcp.policy.rules.NoteName;
import org.junit.jupiter.api.Test;

/**
 * What {@code review} shows of a proposal (docs/approvals.md): every field in TerminalText's
 * visible form, laid out so that one proposal cannot be shown as another. The rule itself is
 * TerminalTextTest's; VisibleTextFuzzTest reads every rendering back.
 */
class ProposalViewTest {
  /**
   * The requester is shown as {@code "name" version "version"}: a quote inside either was shown
   * raw, so the name {@code a" version "b} with version {@code c} looked exactly like the name
   * {@code a} with version {@code b" version "c} (found by VisibleTextFuzzTest). A quote inside the
   * quotes is written {@code \\x22}, one of the documented escapes.
   */
  @Test
  void aRequesterCannotPassForAnotherThroughQuotes() {
    String one = requestedBy(new Requester("a\" version \"b", "c"));
    String other = requestedBy(new Requester("a", "b\" version \"c"));

    assertThat(one).isNotEqualTo(other);
    assertThat(one)
        .isEqualTo(
            "  requested by \"a\\x22 version \\x22b\" version \"c\""
                + " (self-reported by the MCP client, unverified)");
    assertThat(other)
        .isEqualTo(
            "  requested by \"a\" version \"b\\x22 version \\x22c\""
                + " (self-reported by the MCP client, unverified)");
  }

  /**
   * The credential the server checked is shown beside the client's own claim, named for what it is:
   * a token by its name, an OAuth client by its id; quotes inside are escapes, as in the
   * requester's line. A proposal made over stdio has no such line.
   */
  @Test
  void theCheckedCredentialIsShownBesideTheClaimedName() {
    assertThat(line(proposal(null, "phone"), "  credential   "))
        .isEqualTo(
            "  credential   token \"phone\" (checked by the server, not the client's claim)");
    assertThat(line(proposal(null, "oauth:https://x.example/c\"d\u202e"), "  credential   "))
        .isEqualTo(
            "  credential   OAuth client \"https://x.example/c\\x22d\\u202e\", allowed by the"
                + " owner (checked by the server, not the client's claim)");
    assertThat(
            ProposalView.render(new Recorded.Valid(proposal(null, null)), Path.of("/w/draft.txt")))
        .doesNotContain("credential");
  }

  private static Proposal proposal(Requester requester, String authenticated) {
    return new Proposal(
        "0f8b8b4e-55d5-4c1e-9b7e-3c1f7d2a9e10",
        NoteName.configured("draft.txt"),
        "x",
        Instant.parse("2026-01-02T03:04:05Z"),
        requester,
        null,
        authenticated);
  }

  private static String line(Proposal proposal, String start) {
    String block = ProposalView.render(new Recorded.Valid(proposal), Path.of("/w/draft.txt"));
    for (String line : block.split("\n")) {
      if (line.startsWith(start)) {
        return line;
      }
    }
    throw new AssertionError(block);
  }

  private static String requestedBy(Requester requester) {
    Proposal proposal =
        new Proposal(
            "0f8b8b4e-55d5-4c1e-9b7e-3c1f7d2a9e10",
            NoteName.configured("draft.txt"),
            "x",
            Instant.parse("2026-01-02T03:04:05Z"),
            requester);
    String block = ProposalView.render(new Recorded.Valid(proposal), Path.of("/w/draft.txt"));
    for (String line : block.split("\n")) {
      if (line.startsWith("  requested by ")) {
        return line;
      }
    }
    throw new AssertionError(block);
  }
}

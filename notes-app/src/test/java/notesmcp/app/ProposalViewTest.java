package notesmcp.app;

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

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The review command line: "single- and double-dash spellings both work, in any order". */
class ReviewOptionsTest {
  private static final String SHA = "ab".repeat(32);
  private static final String ID = "0c4dfe28-fdd2-4650-8628-4025a0e0ac26";

  @Test
  void reviewFlagsWorkWithEitherDashAndInAnyOrder() throws Exception {
    Options a =
        Options.parse(
            List.of("review", "-root", "w", "-proposals", "p", "--approve", ID, "--sha256", SHA));
    Options b =
        Options.parse(
            List.of("--sha256=" + SHA, "-approve", ID, "--proposals", "p", "review", "--root=w"));

    assertThat(b).isEqualTo(a);
    assertThat(a.mode()).isEqualTo(Options.Mode.REVIEW);
    assertThat(a.root()).isEqualTo(Path.of("w"));
    assertThat(a.proposals()).isEqualTo(Path.of("p"));
    assertThat(a.approve()).isEqualTo(ID);
    assertThat(a.sha256()).isEqualTo(SHA);
  }

  @Test
  void theSha256MustBeAllSixtyFourHexDigits() {
    assertThatThrownBy(
            () ->
                Options.parse(
                    List.of(
                        "review",
                        "-root",
                        "w",
                        "-proposals",
                        "p",
                        "-approve",
                        ID,
                        "-sha256",
                        SHA.substring(0, 8))))
        .hasMessage(
            "--sha256 takes the full 64 hex digits of the proposal's SHA-256 (a prefix is never"
                + " enough), not 8 characters");
  }

  @Test
  void anApprovalNeedsItsSha256() {
    assertThatThrownBy(
            () -> Options.parse(List.of("review", "-root", "w", "-proposals", "p", "-approve", ID)))
        .hasMessageStartingWith("--approve ID needs --sha256 HEX");
  }

  @Test
  void reviewNeedsTheProposalsFolder() {
    assertThatThrownBy(() -> Options.parse(List.of("review", "-root", "w")))
        .hasMessage("review needs -root PATH and -proposals DIR");
  }

  @Test
  void decisionsAreNotFlagsOfTheServerOrTheClient() {
    assertThatThrownBy(
            () -> Options.parse(List.of("-serve", "-root", "w", "-approve", ID, "-sha256", SHA)))
        .hasMessage("--approve, --sha256 and --reject go with the review command only");
    assertThatThrownBy(
            () -> Options.parse(List.of("review", "-serve", "-root", "w", "-proposals", "p")))
        .hasMessage(
            "review takes only -root, -proposals, -policy, and --approve ID --sha256 HEX, --reject"
                + " ID, --undo ID or --log");
  }
}

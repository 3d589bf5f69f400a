package notesmcp.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class InertLinesTest {
  private final ByteArrayOutputStream shown = new ByteArrayOutputStream();
  private final InertLines lines =
      new InertLines(new PrintStream(shown, true, StandardCharsets.UTF_8), "[server] ");

  private String shown() {
    return shown.toString(StandardCharsets.UTF_8);
  }

  @Test
  void eachWholeLineIsShownInertlyBehindThePrefix() {
    byte[] text = "one\u001b[2J\r\ntwo \u202e".getBytes(StandardCharsets.UTF_8);
    lines.write(text, 0, text.length);

    assertThat(shown()).isEqualTo("[server] one\\x1b[2J\n");

    lines.close();

    assertThat(shown()).isEqualTo("[server] one\\x1b[2J\n[server] two \\u202e\n");
  }

  @Test
  void aLongLineIsCutAndSaysSo() {
    byte[] text =
        ("x".repeat(InertLines.MAX_BYTES + 10) + "\nnext\n").getBytes(StandardCharsets.UTF_8);
    lines.write(text, 0, text.length);

    assertThat(shown())
        .isEqualTo(
            "[server] "
                + "x".repeat(InertLines.MAX_BYTES)
                + " [the rest of the line cut]\n[server] next\n");
  }

  @Test
  void aPrintStreamOverItRendersWhatIsPrinted() {
    lines.printStream().println("server \u001b]0;title\u0007 1.0");

    assertThat(shown()).isEqualTo("[server] server \\x1b]0;title\\x07 1.0\n");
  }
}

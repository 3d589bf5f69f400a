package notesmcp.cli;

import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The process's controlling terminal, {@code /dev/tty}: where {@code review} asks for an explicit
 * yes (docs/approvals.md), and {@code chat} for its confirmations (docs/chat.md). Not stdin: a pipe
 * into the review, such as {@code echo yes | notes-mcp review}, is never an answer. A process
 * without a controlling terminal (a daemon, a CI job, a program started with {@code setsid}) cannot
 * open it, and then nothing is approved or confirmed interactively.
 */
public final class ControllingTerminal implements AutoCloseable {
  private static final String DEVICE = "/dev/tty";

  /** The longest answer kept; the rest of a longer line is read and dropped. */
  private static final int MAX_ANSWER_BYTES = 4096;

  private final InputStream in;
  private final PrintStream out;

  private ControllingTerminal(InputStream in, PrintStream out) {
    this.in = in;
    this.out = out;
  }

  /** The controlling terminal, or empty when this process has none. */
  public static Optional<ControllingTerminal> open() {
    FileInputStream input;
    try {
      input = new FileInputStream(DEVICE);
    } catch (IOException e) {
      return Optional.empty(); // ENXIO: no controlling terminal
    }
    try {
      PrintStream output =
          new PrintStream(new FileOutputStream(DEVICE), true, StandardCharsets.UTF_8);
      return Optional.of(new ControllingTerminal(input, output));
    } catch (IOException e) {
      try {
        input.close();
      } catch (IOException ignored) {
        // nothing was read from it
      }
      return Optional.empty();
    }
  }

  /** What the terminal shows. */
  public PrintStream out() {
    return out;
  }

  /**
   * Shows {@code prompt} and returns the line typed, without its end; null at end of input.
   *
   * <p>It reads one byte at a time and never past the end of the answer: whatever was typed after
   * it stays on the terminal for whoever reads next (the chat's next message, the next question,
   * the shell). A buffered reader would take it along and lose it when the terminal is closed.
   */
  public String ask(String prompt) throws IOException {
    out.print(prompt);
    out.flush();
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0 && b != '\n') {
      if (line.size() < MAX_ANSWER_BYTES) {
        line.write(b);
      }
    }
    if (b < 0 && line.size() == 0) {
      return null;
    }
    String answer = line.toString(StandardCharsets.UTF_8);
    return answer.endsWith("\r") ? answer.substring(0, answer.length() - 1) : answer;
  }

  @Override
  public void close() throws IOException {
    out.close();
    in.close();
  }
}

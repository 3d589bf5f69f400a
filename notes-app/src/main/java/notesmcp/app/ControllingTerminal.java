package notesmcp.app;

import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The process's controlling terminal, {@code /dev/tty}: where {@code review} "asks for an explicit
 * yes on the controlling terminal" (approvals issue). Not stdin: a pipe into the review, such as
 * {@code echo yes | notes-mcp review}, is never an answer. A process without a controlling terminal
 * (a daemon, a CI job, a program started with {@code setsid}) cannot open it, and then nothing is
 * approved interactively.
 */
public final class ControllingTerminal implements AutoCloseable {
  private static final String DEVICE = "/dev/tty";

  private final BufferedReader in;
  private final PrintStream out;

  private ControllingTerminal(BufferedReader in, PrintStream out) {
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
      return Optional.of(
          new ControllingTerminal(
              new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8)), output));
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

  /** Shows {@code prompt} and returns the line typed, without its end; null at end of input. */
  public String ask(String prompt) throws IOException {
    out.print(prompt);
    out.flush();
    return in.readLine();
  }

  @Override
  public void close() throws IOException {
    out.close();
    in.close();
  }
}

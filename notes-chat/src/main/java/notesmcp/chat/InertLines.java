package notesmcp.chat;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import notesmcp.text.TerminalText;

/**
 * Lines written by someone the host does not control, passed on to its stderr rendered inertly
 * (TerminalText's visible form) behind a prefix: the MCP server's own stderr, and what our MCP
 * client reports of the server (its name, its error messages). A server, chosen with {@code
 * -server-command} or not, then cannot repaint the terminal on which the host asks for a yes. A
 * line is kept up to {@link #MAX_BYTES}; the rest of a longer one is dropped, and the line says so.
 * Only whole lines are written, each in one call. Any thread may write.
 */
final class InertLines extends OutputStream {
  static final int MAX_BYTES = 8 * 1024;

  private final PrintStream target;
  private final String prefix;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private boolean cut;

  InertLines(PrintStream target, String prefix) {
    this.target = target;
    this.prefix = prefix;
  }

  /** A print stream over this, for code that logs with {@code println}. */
  PrintStream printStream() {
    return new PrintStream(this, true, StandardCharsets.UTF_8);
  }

  @Override
  public synchronized void write(int b) {
    if (b == '\n') {
      emit();
    } else if (line.size() < MAX_BYTES) {
      line.write(b);
    } else {
      cut = true;
    }
  }

  @Override
  public synchronized void write(byte[] bytes, int offset, int length) {
    for (int i = offset; i < offset + length; i++) {
      write(bytes[i]);
    }
  }

  /** Writes what is left of an unfinished line. */
  @Override
  public synchronized void close() {
    if (line.size() > 0 || cut) {
      emit();
    }
  }

  private void emit() {
    String text = line.toString(StandardCharsets.UTF_8);
    if (text.endsWith("\r")) {
      text = text.substring(0, text.length() - 1);
    }
    target.println(
        prefix + TerminalText.visible(text) + (cut ? " [the rest of the line cut]" : ""));
    line.reset();
    cut = false;
  }
}

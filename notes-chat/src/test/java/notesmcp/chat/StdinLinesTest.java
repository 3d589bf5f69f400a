package notesmcp.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;

class StdinLinesTest {
  private static StdinLines of(String text) {
    return new StdinLines(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void linesEndWithLfOrCrLfAndTheLastNeedsNoEnd() throws Exception {
    StdinLines lines = of("one\ntwo\r\nthree");

    assertThat(lines.next()).isEqualTo("one");
    assertThat(lines.next()).isEqualTo("two");
    assertThat(lines.next()).isEqualTo("three");
    assertThat(lines.next()).isNull();
    assertThat(lines.next()).isNull();
  }

  @Test
  void invalidUtf8BecomesTheReplacementCharacter() throws Exception {
    StdinLines lines =
        new StdinLines(new ByteArrayInputStream(new byte[] {'a', (byte) 0xff, 'b', '\n'}));

    assertThat(lines.next()).isEqualTo("a\ufffdb");
  }

  @Test
  void aLineOverTheBoundIsSkippedAndTheNextIsRead() throws Exception {
    StdinLines lines = of("x".repeat(StdinLines.MAX_BYTES * 3) + "\nafter\n");

    assertThatThrownBy(lines::next)
        .isInstanceOf(StdinLines.TooLong.class)
        .hasMessage("a line longer than 16 KiB");
    assertThat(lines.next()).isEqualTo("after");
    assertThat(lines.next()).isNull();
  }

  @Test
  void aLineOfExactlyTheBoundIsKept() throws Exception {
    String line = "y".repeat(StdinLines.MAX_BYTES);

    assertThat(of(line + "\n").next()).isEqualTo(line);
  }

  /** Like a terminal: each read returns one line, and the test sees how many reads happened. */
  private static final class OneLinePerRead extends InputStream {
    final Deque<byte[]> lines = new ArrayDeque<>();
    int reads;

    @Override
    public int read() {
      throw new UnsupportedOperationException();
    }

    @Override
    public int read(byte[] buffer, int offset, int length) {
      reads++;
      byte[] line = lines.poll();
      if (line == null) {
        return -1;
      }
      System.arraycopy(line, 0, buffer, offset, line.length);
      return line.length;
    }
  }

  @Test
  void nothingIsReadBeyondTheLineAskedFor() throws Exception {
    OneLinePerRead terminal = new OneLinePerRead();
    terminal.lines.add("message\n".getBytes(StandardCharsets.UTF_8));
    terminal.lines.add("yes\n".getBytes(StandardCharsets.UTF_8));
    StdinLines lines = new StdinLines(terminal);

    assertThat(lines.next()).isEqualTo("message");
    // The "yes" typed next belongs to whoever reads the terminal next (a confirmation).
    assertThat(terminal.reads).isEqualTo(1);
    assertThat(terminal.lines).hasSize(1);
  }
}

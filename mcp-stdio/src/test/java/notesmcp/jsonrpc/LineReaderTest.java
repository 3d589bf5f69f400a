package notesmcp.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineReaderTest {

  private static InputStream stream(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  /** Every result, with the line's text for LINE. */
  private static List<String> all(LineReader reader) throws IOException {
    List<String> seen = new ArrayList<>();
    LineReader.Result result;
    do {
      result = reader.next();
      seen.add(
          result == LineReader.Result.LINE
              ? "LINE " + new String(reader.bytes(), 0, reader.length(), StandardCharsets.UTF_8)
              : result.name());
    } while (result != LineReader.Result.END);
    return seen;
  }

  @Test
  void linesAreSplitOnNewline() throws IOException {
    assertThat(all(new LineReader(stream("one\ntwo\n\nthree\n"), 100)))
        .containsExactly("LINE one", "LINE two", "LINE ", "LINE three", "END");
  }

  @Test
  void carriageReturnBeforeNewlineIsTrimmed() throws IOException {
    assertThat(all(new LineReader(stream("one\r\ntwo\r\n\r\nin\rside\n"), 100)))
        .containsExactly("LINE one", "LINE two", "LINE ", "LINE in\rside", "END");
  }

  @Test
  void lastLineWithoutNewlineIsReturnedAtEndOfStream() throws IOException {
    assertThat(all(new LineReader(stream("one\nlast"), 100)))
        .containsExactly("LINE one", "LINE last", "END");
  }

  @Test
  void emptyStreamEndsAtOnce() throws IOException {
    LineReader reader = new LineReader(InputStream.nullInputStream(), 100);

    assertThat(reader.next()).isEqualTo(LineReader.Result.END);
    assertThat(reader.next()).isEqualTo(LineReader.Result.END);
  }

  @Test
  void multiByteCharactersAreKeptAsBytes() throws IOException {
    assertThat(all(new LineReader(stream("\u20ac\u00e9\ud83d\ude00\n"), 100)))
        .containsExactly("LINE \u20ac\u00e9\ud83d\ude00", "END");
  }

  @Test
  void lineExactlyAtTheBoundIsAccepted() throws IOException {
    assertThat(all(new LineReader(stream("12345678\n"), 8)))
        .containsExactly("LINE 12345678", "END");
  }

  @Test
  void lineOneByteOverTheBoundIsTooLongAndTheNextLineIsReadCorrectly() throws IOException {
    assertThat(all(new LineReader(stream("123456789\nnext\n"), 8)))
        .containsExactly("TOO_LONG", "LINE next", "END");
  }

  @Test
  void tooLongLineAtEndOfStreamIsReportedThenEnd() throws IOException {
    assertThat(all(new LineReader(stream("ok\n123456789"), 8)))
        .containsExactly("LINE ok", "TOO_LONG", "END");
  }

  @Test
  void linesArrivingOneByteAtATimeAreAssembled() throws IOException {
    InputStream slow =
        new InputStream() {
          private final InputStream in = stream("first\r\nsecond\n0123456789\nthird");

          @Override
          public int read() throws IOException {
            return in.read();
          }

          @Override
          public int read(byte[] b, int off, int len) throws IOException {
            return len == 0 ? 0 : in.read(b, off, 1);
          }
        };

    assertThat(all(new LineReader(slow, 8)))
        .containsExactly("LINE first", "LINE second", "TOO_LONG", "LINE third", "END");
  }

  @Test
  void tenMebibyteLineIsSkippedWithoutGrowingTheBufferBeyondTheBound() throws IOException {
    int bound = 100_000; // not a power of two: doubling the buffer would overshoot it
    long huge = 10L * 1024 * 1024;
    InputStream in =
        new SequenceInputStream(
            stream("y".repeat(bound) + "\n"), new HugeLineThenNext(huge, "\n{\"next\":true}\n"));
    LineReader reader = new LineReader(in, bound);

    assertThat(reader.next()).isEqualTo(LineReader.Result.LINE);
    assertThat(reader.length()).isEqualTo(bound);
    assertThat(reader.bytes().length).isLessThanOrEqualTo(bound);
    assertThat(reader.next()).isEqualTo(LineReader.Result.TOO_LONG);
    assertThat(reader.bytes().length).isLessThanOrEqualTo(bound);
    assertThat(reader.next()).isEqualTo(LineReader.Result.LINE);
    assertThat(new String(reader.bytes(), 0, reader.length(), StandardCharsets.UTF_8))
        .isEqualTo("{\"next\":true}");
    assertThat(reader.bytes().length).isLessThanOrEqualTo(bound);
    assertThat(reader.next()).isEqualTo(LineReader.Result.END);
  }

  @Test
  void bufferGrowsForALineOfExactlyTheBoundButNotBeyondIt() throws IOException {
    int bound = 100_000;
    LineReader reader = new LineReader(stream("x".repeat(bound) + "\n"), bound);

    assertThat(reader.next()).isEqualTo(LineReader.Result.LINE);
    assertThat(reader.length()).isEqualTo(bound);
    assertThat(reader.bytes().length).isEqualTo(bound);
  }

  /** {@code count} bytes of 'x' (no newline), then {@code tail}; generated, never stored. */
  private static final class HugeLineThenNext extends InputStream {
    private long remaining;
    private final InputStream tail;

    HugeLineThenNext(long count, String tail) {
      this.remaining = count;
      this.tail = stream(tail);
    }

    @Override
    public int read() throws IOException {
      if (remaining > 0) {
        remaining--;
        return 'x';
      }
      return tail.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (remaining == 0) {
        return tail.read(b, off, len);
      }
      int n = (int) Math.min(len, remaining);
      Arrays.fill(b, off, off + n, (byte) 'x');
      remaining -= n;
      return n;
    }
  }
}

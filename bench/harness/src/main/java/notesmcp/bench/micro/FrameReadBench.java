package notesmcp.bench.micro;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;
import notesmcp.jsonrpc.LineReader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Frame read: {@link LineReader#next()} splitting a stream of typical {@code tools/call} lines, the
 * server's first step for every request. The stream repeats the same lines forever, so one
 * operation is one line, with the copy out of the stream counted as the pipe's read would be.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FrameReadBench {
  @Param({"modern", "legacy"})
  public String era;

  private LineReader reader;

  @Setup
  public void setUp() {
    byte[] line = Samples.utf8(Samples.call(era) + "\n");
    byte[] block = new byte[line.length * 64];
    for (int i = 0; i < 64; i++) {
      System.arraycopy(line, 0, block, i * line.length, line.length);
    }
    reader = new LineReader(new Repeating(block), 1024 * 1024);
  }

  @Benchmark
  public int readLine() throws IOException {
    if (reader.next() != LineReader.Result.LINE) {
      throw new IllegalStateException("not a line");
    }
    return reader.length();
  }

  /** An endless stream of the same block, handed out in reads of at most 64 KiB, like a pipe. */
  static final class Repeating extends InputStream {
    private final byte[] block;
    private int position;

    Repeating(byte[] block) {
      this.block = block;
    }

    @Override
    public int read() {
      byte b = block[position];
      position = (position + 1) % block.length;
      return b & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) {
      int count = Math.min(length, block.length - position);
      System.arraycopy(block, position, buffer, offset, count);
      position = (position + count) % block.length;
      return count;
    }
  }
}

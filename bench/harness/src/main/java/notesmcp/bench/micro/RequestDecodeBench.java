package notesmcp.bench.micro;

import java.util.concurrent.TimeUnit;
import notesmcp.jsonrpc.Codec;
import notesmcp.jsonrpc.Message;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Request decode: {@link Codec#decode} of one {@code tools/call read_note} line into a {@link
 * Message}, as the server's reader thread does for every line (with {@code arguments} kept raw).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RequestDecodeBench {
  @Param({"modern", "legacy"})
  public String era;

  private final Codec codec = new Codec("arguments");
  private byte[] line;

  @Setup
  public void setUp() {
    line = Samples.utf8(Samples.call(era));
  }

  @Benchmark
  public Message decode() throws Codec.Malformed {
    return codec.decode(line, line.length);
  }
}

package notesmcp.bench.micro;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import notesmcp.app.NoteTools;
import notesmcp.mcp.Protocol.Implementation;
import notesmcp.mcp.server.Server;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.tools.NoteAccess;
import notesmcp.policy.vault.Workspace;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The whole server in one process, without pipes: {@link Server#serve} over an in-memory stream of
 * {@value #CALLS} pipelined {@code read_note} calls, every reply written to a counting sink. Per
 * operation, it is one call through frame read, decode, dispatch, the program's own adapter ({@link
 * NoteTools}) and the policy, encode and the outbox, on the thread that read it (see
 * mcp-stdio/CONCURRENCY.md): compare it with the process-level CPU per call to see what the pipes
 * and the JVM around it add, and with the sum of the other benchmarks to see what the server's own
 * bookkeeping (the lead, the watch, admission) costs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ServerPipelineBench {
  static final int CALLS = 10_000;

  private Path root;
  private NoteAccess notes;
  private byte[] input;
  private final PrintStream log = new PrintStream(OutputStream.nullOutputStream());

  @Setup
  public void setUp() throws IOException {
    root = Samples.workspace();
    notes =
        new NoteAccess(
            Policy.defaults().withMaxCalls(Integer.MAX_VALUE),
            Workspace.at(root),
            Clock.systemUTC());
    StringBuilder lines = new StringBuilder();
    for (int id = 1; id <= CALLS; id++) {
      lines.append(Samples.MODERN_CALL.replace("\"id\":12345", "\"id\":" + id)).append('\n');
    }
    input = Samples.utf8(lines.toString());
  }

  @TearDown
  public void tearDown() {
    Samples.delete(root);
  }

  @Benchmark
  @OperationsPerInvocation(CALLS)
  public long serve() throws IOException, InterruptedException {
    Server server =
        new Server(
            new NoteTools(notes),
            Server.Options.defaults(new Implementation("notes-mcp", "0.1.0"), null),
            log);
    LineCounter out = new LineCounter();
    server.serve(new ByteArrayInputStream(input), out);
    if (out.lines != CALLS) {
      throw new IllegalStateException(out.lines + " replies to " + CALLS + " calls");
    }
    return out.bytes;
  }

  /** Counts reply lines and bytes; keeps nothing. */
  static final class LineCounter extends OutputStream {
    long lines;
    long bytes;

    @Override
    public void write(int b) {
      bytes++;
      if (b == '\n') {
        lines++;
      }
    }

    @Override
    public void write(byte[] buffer, int offset, int length) {
      bytes += length;
      for (int i = offset; i < offset + length; i++) {
        if (buffer[i] == '\n') {
          lines++;
        }
      }
    }
  }
}

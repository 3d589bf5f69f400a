package notesmcp.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.util.BitSet;
import java.util.concurrent.ScheduledFuture;

/**
 * Pipelined {@code tools/call read_note}: one thread writes all the requests as fast as the pipe
 * takes them while this thread reads the replies, in whatever order they come. Measures calls per
 * second from the first write to the last reply, and the server's CPU time over the same span (the
 * whole process, so threads, JIT and GC all count). Every id must come back exactly once.
 */
final class PipelinedThroughput {
  /**
   * @param calls the number of calls
   * @param wallNanos first write to last reply
   * @param serverCpuNanos the server process's user + system CPU time over the phase
   * @param clientCpuNanos the harness's own, to show it was not the bottleneck
   */
  record Result(int calls, long wallNanos, long serverCpuNanos, long clientCpuNanos) {
    double callsPerSecond() {
      return calls * 1e9 / wallNanos;
    }

    double serverCpuMicrosPerCall() {
      return serverCpuNanos / 1e3 / calls;
    }

    double clientCpuMicrosPerCall() {
      return clientCpuNanos / 1e3 / calls;
    }
  }

  private PipelinedThroughput() {}

  static Result run(Session session, int calls) {
    ServerProcess server = session.server();
    long first = session.reserve(calls);
    Writer writer = new Writer(session, first, calls);
    BitSet answered = new BitSet(calls);
    ScheduledFuture<?> watchdog =
        server.watch("a pipelined run of " + calls + " calls", session.stall());
    try {
      long cpuBefore = ProcFs.cpuNanos(server.handle());
      long selfBefore = ProcFs.selfCpuNanos();
      long start = System.nanoTime();
      writer.start();
      for (int received = 0; received < calls; received++) {
        Reply reply;
        try {
          reply = server.read("during the pipelined run");
        } catch (BenchFailure f) {
          throw lost(server, calls, received, writer, f);
        }
        long index = reply.id() - first;
        if (index < 0 || index >= calls || answered.get((int) index)) {
          throw server.failure(
              "a reply with id " + reply.id() + " that is unknown or answered twice: " + reply);
        }
        answered.set((int) index);
        session.check().call(reply);
      }
      long wall = System.nanoTime() - start;
      long cpu = ProcFs.cpuNanos(server.handle()) - cpuBefore;
      long self = ProcFs.selfCpuNanos() - selfBefore;
      join(writer);
      if (writer.failure != null) {
        throw server.failure("writing the requests failed: " + writer.failure);
      }
      return new Result(calls, wall, cpu, self);
    } finally {
      watchdog.cancel(false);
    }
  }

  private static void join(Thread writer) {
    try {
      writer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BenchFailure("interrupted", e);
    }
  }

  private static BenchFailure lost(
      ServerProcess server, int calls, int received, Writer writer, BenchFailure cause) {
    return new BenchFailure(
        "LOST REPLIES: "
            + (calls - received)
            + " of "
            + calls
            + " pipelined calls never answered"
            + (writer.failure == null ? "" : " (writing failed too: " + writer.failure + ")")
            + "\n"
            + cause.getMessage(),
        cause);
  }

  /** Writes the requests, then flushes; a failed write is kept for the reader to report. */
  private static final class Writer extends Thread {
    private final Session session;
    private final long first;
    private final int calls;
    private volatile IOException failure;

    Writer(Session session, long first, int calls) {
      super("bench pipelined writer");
      setDaemon(true);
      this.session = session;
      this.first = first;
      this.calls = calls;
    }

    @Override
    public void run() {
      OutputStream out = session.server().stdin();
      try {
        for (int i = 0; i < calls; i++) {
          Requests.writeCall(out, first + i);
        }
        out.flush();
      } catch (IOException e) {
        failure = e;
      }
    }
  }
}

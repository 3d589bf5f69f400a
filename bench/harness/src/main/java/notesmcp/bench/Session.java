package notesmcp.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;

/**
 * The harness's side of one MCP session with one server process: it opens the session with a {@code
 * tools/list} request (timing spawn to its reply: the cold start), then makes {@code read_note}
 * calls with increasing ids, checking every reply.
 */
final class Session implements AutoCloseable {
  private static final Duration START_DEADLINE = Duration.ofSeconds(60);

  private final ServerProcess server;
  private final ReplyCheck check;
  private final Duration stall;
  private final long coldStartNanos;
  private long nextId = 2;
  private long calls;

  private Session(ServerProcess server, ReplyCheck check, Duration stall, long coldStartNanos) {
    this.server = server;
    this.check = check;
    this.stall = stall;
    this.coldStartNanos = coldStartNanos;
  }

  /**
   * Spawns the server and sends one {@code tools/list} with 2026-07-28 {@code _meta}; the clock
   * stops at its reply, the moment a host could first call a tool.
   */
  static Session open(ServerSpec spec, Path stderrFile, String noteContent, Duration stall) {
    ReplyCheck check = new ReplyCheck(spec.name(), noteContent);
    byte[] opening = Requests.toolsList(1);
    long start = System.nanoTime();
    ServerProcess server = ServerProcess.start(spec.name(), spec.command(), stderrFile);
    ScheduledFuture<?> watch = server.watch("start-up", START_DEADLINE);
    try {
      server.send(opening);
      check.toolList(server.read("before the tools/list reply"), 1);
      return new Session(server, check, stall, System.nanoTime() - start);
    } catch (RuntimeException e) {
      server.close();
      throw e;
    } finally {
      watch.cancel(false);
    }
  }

  long coldStartNanos() {
    return coldStartNanos;
  }

  ServerProcess server() {
    return server;
  }

  ReplyCheck check() {
    return check;
  }

  /**
   * How long the server may stay silent while replies are owed (see {@link ServerProcess#watch}).
   */
  Duration stall() {
    return stall;
  }

  /** Tool calls made so far in this process (the memory metrics say after how many). */
  long calls() {
    return calls;
  }

  /** Reserves {@code count} consecutive ids for calls made by the caller; returns the first. */
  long reserve(int count) {
    long first = nextId;
    nextId += count;
    calls += count;
    return first;
  }

  /**
   * One call, and its round trip in nanoseconds: write and flush the request, read and check the
   * reply. No watch of its own: the caller's phase holds one.
   */
  long call() {
    long id = reserve(1);
    long start = System.nanoTime();
    try {
      Requests.writeCall(server.stdin(), id);
      server.stdin().flush();
    } catch (IOException e) {
      throw server.failure("writing call " + id + " failed (" + e.getMessage() + ")");
    }
    Reply reply = server.read(id);
    long elapsed = System.nanoTime() - start;
    check.call(reply, id);
    return elapsed;
  }

  /** Closes stdin and waits for the server's exit; returns a note when it did not exit 0. */
  String finish() {
    return server.finish();
  }

  @Override
  public void close() {
    server.close();
  }
}

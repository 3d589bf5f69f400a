package notesmcp.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;

/**
 * The harness's side of one MCP session with one server process: it opens the session the way the
 * server's era wants (timing spawn to the {@code tools/list} reply: the cold start), then makes
 * {@code read_note} calls with increasing ids, checking every reply.
 */
final class Session implements AutoCloseable {
  private static final Duration START_DEADLINE = Duration.ofSeconds(60);

  private final ServerProcess server;
  private final Requests requests;
  private final ReplyCheck check;
  private final long coldStartNanos;
  private long nextId = 2;
  private long calls;

  private Session(ServerProcess server, Requests requests, ReplyCheck check, long coldStartNanos) {
    this.server = server;
    this.requests = requests;
    this.check = check;
    this.coldStartNanos = coldStartNanos;
  }

  /**
   * Spawns the server and opens a session: a modern server gets one {@code tools/list} request with
   * {@code _meta}; a legacy-only server gets {@code initialize}, {@code notifications/initialized}
   * and {@code tools/list}. Either way the clock stops at the {@code tools/list} reply, the moment
   * a host could first call a tool.
   */
  static Session open(ServerSpec spec, Path stderrFile, String noteContent) {
    Requests requests = new Requests(spec.era());
    ReplyCheck check = new ReplyCheck(spec.name(), noteContent);
    byte[] opening = requests.opening(0, 1);
    long start = System.nanoTime();
    ServerProcess server = ServerProcess.start(spec.name(), spec.command(), stderrFile);
    ScheduledFuture<?> watch = server.watch("start-up", START_DEADLINE);
    try {
      server.send(opening);
      if (spec.era() == ServerSpec.Era.LEGACY) {
        Reply initialized = server.read("before the initialize reply");
        if (initialized.id() != 0 || initialized.error() != null) {
          throw server.failure("initialize failed: " + initialized);
        }
        server.send(requests.afterInitialize(1));
      }
      check.toolList(server.read("before the tools/list reply"), 1);
      return new Session(server, requests, check, System.nanoTime() - start);
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

  Requests requests() {
    return requests;
  }

  ReplyCheck check() {
    return check;
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
   * One call, and its round trip: write and flush the request, read and check the reply. No watch
   * of its own: the caller's phase holds one (see {@link ServerProcess#watch}).
   */
  long call() {
    long id = reserve(1);
    long start = System.nanoTime();
    try {
      requests.writeCall(server.stdin(), id);
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

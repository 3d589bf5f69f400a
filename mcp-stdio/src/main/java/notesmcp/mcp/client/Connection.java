package notesmcp.mcp.client;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import notesmcp.jsonrpc.Codec;
import notesmcp.jsonrpc.Message;
import notesmcp.jsonrpc.Message.Failure;
import notesmcp.jsonrpc.Message.Id;
import notesmcp.jsonrpc.Message.Notification;
import notesmcp.jsonrpc.Message.Request;
import notesmcp.jsonrpc.Message.Success;
import notesmcp.jsonrpc.RpcException;
import notesmcp.mcp.Protocol;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client end of MCP's stdio transport: JSON-RPC over a child process's stdin and stdout. It
 * correlates responses with requests by id, bounds every request by its deadline (cancelling it on
 * the wire when it passes), and closes the child the way the stdio binding says: close its input,
 * wait, then terminate, then kill.
 *
 * <p>"Every client operation, including writing a large request to a server that stopped reading
 * and closing a server that ignores stdin, is bounded by the deadline" (docs/behaviour.md,
 * "Limits"). Threads and what each may block on:
 *
 * <ul>
 *   <li>callers of {@link #request}: wait for room in the input queue and then for the reply, both
 *       within the request's deadline, which starts before anything is queued;
 *   <li>"notes-mcp client writer" ({@link Sender}): owns the child's stdin and is the only thread
 *       that writes to it; a server that stops reading stalls this thread alone;
 *   <li>"notes-mcp client reader" ({@link Receiver}): owns the child's stdout, hands each response
 *       to its request; never writes and never waits for room: its answers to the server's own
 *       requests are dropped when the server does not read them;
 *   <li>{@link #close}: never waits for the writer; each of its waits for the child is bounded.
 * </ul>
 *
 * No lock is held across I/O. The child's stderr is the caller's business (see {@link StderrTail}).
 */
public final class Connection {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final Process process;
  private final Codec codec = new Codec();
  private final Sender input;
  private final Receiver output;

  /** The request got no answer before its deadline; it was cancelled on the wire. */
  public static final class Timeout extends IOException {
    private static final long serialVersionUID = 1L;

    Timeout(String message) {
      super(message);
    }
  }

  /**
   * The server broke the protocol: it answered an id this client never sent, or sent a malformed
   * reply to a request in flight. The connection is unusable afterwards.
   */
  public static final class Violation extends IOException {
    private static final long serialVersionUID = 1L;

    Violation(String message) {
      super(message);
    }
  }

  private Connection(Process process, PrintStream log) {
    this.process = process;
    this.input = new Sender(process.getOutputStream());
    this.output = new Receiver(process, input, log);
  }

  /**
   * Starts {@code command} as a child process; its stderr goes to ours.
   *
   * @throws IOException if it cannot be started (missing, not executable): never an empty answer
   */
  public static Connection start(List<String> command, PrintStream log) throws IOException {
    return start(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT), log);
  }

  /**
   * Starts a child prepared by the caller (its environment, where its stderr goes). A stderr left
   * as a pipe must be read by the caller, e.g. with {@link StderrTail#follow}.
   */
  public static Connection start(ProcessBuilder builder, PrintStream log) throws IOException {
    return attach(builder.start(), log);
  }

  /** Talks to a child the caller already started (so it could start it before anything else). */
  public static Connection attach(Process process, PrintStream log) {
    return new Connection(process, log);
  }

  /**
   * Sends a request and waits for its result. Everything, queueing the request behind a server that
   * does not read included, happens within {@code deadline}.
   *
   * @throws Timeout if no answer came in time (the request is then cancelled on the wire)
   * @throws Violation if the server broke the protocol
   * @throws IOException if the server is gone or the connection is closed
   * @throws RpcException if the server answered with a JSON-RPC error
   */
  public JsonNode request(String method, JsonNode params, Duration deadline)
      throws RpcException, IOException {
    long start = System.nanoTime();
    long budget = nanos(deadline);
    long end = start + budget;
    IOException closed = output.failure();
    if (closed != null) {
      throw closed;
    }
    if (budget <= 0) {
      throw new Timeout("no time was left to send " + method + " before the deadline");
    }
    Id id = output.nextId();
    CompletableFuture<Message> answer = output.expect(id);
    Sender.Line line = null;
    try {
      line = input.send(codec.encode(new Request(id, method, params)), end);
      if (line == null) {
        throw new TimeoutException();
      }
      Message reply = answer.get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (reply instanceof Failure) {
        throw new RpcException(((Failure) reply).error());
      }
      return ((Success) reply).result();
    } catch (TimeoutException e) {
      if (line != null) {
        cancel(id, "no answer within " + millis(budget) + " ms");
      }
      throw new Timeout(
          line != null && line.written
              ? "the server did not answer " + method + " within " + millis(budget) + " ms"
              : "the server did not read "
                  + method
                  + " within "
                  + millis(budget)
                  + " ms: it stopped reading its input");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) {
        throw (IOException) cause;
      }
      throw new IOException("the connection failed: " + cause, cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for " + method, e);
    } finally {
      output.forget(id);
    }
  }

  /**
   * Sends a notification if there is room to queue it now; never waits.
   *
   * @throws Timeout if the server is not reading its input
   */
  public void notify(String method, JsonNode params) throws IOException {
    notify(method, params, Duration.ZERO);
  }

  /** Sends a notification, waiting at most {@code within} for room to queue it. */
  public void notify(String method, JsonNode params, Duration within) throws IOException {
    IOException closed = output.failure();
    if (closed != null) {
      throw closed;
    }
    try {
      if (input.send(
              codec.encode(new Notification(method, params)), System.nanoTime() + nanos(within))
          == null) {
        throw new Timeout("the server is not reading its input; " + method + " was not sent");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while sending " + method, e);
    }
  }

  /** "The client MUST send a notifications/cancelled" (stdio, "Cancellation"); never waits. */
  private void cancel(Id id, String reason) {
    ObjectNode params = NODES.objectNode();
    params.set("requestId", id.value());
    params.put("reason", reason);
    input.offer(codec.encode(new Notification(Protocol.CANCELLED, params)));
  }

  /** See {@link Receiver#stopAnsweringRequests}: called once the era is known to be modern. */
  void stopAnsweringRequests() {
    output.stopAnsweringRequests();
  }

  /** Whether the child is still running. */
  public boolean isAlive() {
    return process.isAlive();
  }

  /** The child's process id, for diagnostics. */
  public long pid() {
    return process.pid();
  }

  /** How long a killed server is waited for after SIGKILL, whatever the grace. */
  private static final long KILLED_REAP_MILLIS = 2_000;

  /**
   * Closes the child as the stdio binding says (transports/stdio, "Shutdown"): close its input,
   * wait up to {@code grace} for it to exit; then SIGTERM, and wait again; then SIGKILL, and wait
   * again. When it has to be terminated, so are the processes it started, which would otherwise
   * keep its pipes open. Never waits on a stuck write, and takes at most about twice {@code grace}
   * and then, only after SIGKILL, up to {@link #KILLED_REAP_MILLIS} more for the kernel to reap it.
   * Returns the exit status, or -1 if the child outlived even that.
   *
   * <p>The signals go through the {@link ProcessHandle}, never {@link Process#destroy()}: on Linux
   * that closes the child's stdin stream after signalling it, and the close waits for the stream's
   * lock, which the writer thread holds while it is blocked writing to a server that does not read.
   * A server that ignores SIGTERM, or whose stdin a child of its own keeps open, would then hold
   * this close, and the client, forever. The streams are the writer's and the reader's; their pipes
   * close when the last process holding them is gone.
   */
  public int close(Duration grace) throws InterruptedException {
    output.fail(new IOException("the connection to the server is closed"));
    input.close();
    long wait = Math.max(1, millis(nanos(grace)));
    if (!process.waitFor(wait, TimeUnit.MILLISECONDS)) {
      List<ProcessHandle> descendants = descendants();
      ProcessHandle server = process.toHandle();
      server.destroy();
      for (ProcessHandle descendant : descendants) {
        descendant.destroy();
      }
      if (!process.waitFor(wait, TimeUnit.MILLISECONDS)) {
        server.destroyForcibly();
        for (ProcessHandle descendant : descendants) {
          descendant.destroyForcibly();
        }
        // SIGKILL cannot be ignored: what is left is the kernel's and the scheduler's time to reap
        // it, which a loaded machine stretches past a short grace; a bounded wait, not the grace.
        process.waitFor(Math.max(wait, KILLED_REAP_MILLIS), TimeUnit.MILLISECONDS);
      }
    }
    return process.isAlive() ? -1 : process.exitValue();
  }

  private List<ProcessHandle> descendants() {
    List<ProcessHandle> all = new ArrayList<>();
    try {
      Iterator<ProcessHandle> found = process.descendants().iterator();
      while (found.hasNext()) {
        all.add(found.next());
      }
    } catch (UnsupportedOperationException | SecurityException e) {
      // the child alone, then
    }
    return all;
  }

  /**
   * A duration in nanoseconds, saturated rather than overflowing (a deadline of years is "long").
   */
  static long nanos(Duration duration) {
    if (duration.isNegative()) {
      return 0;
    }
    return duration.compareTo(Duration.ofNanos(Long.MAX_VALUE / 4)) > 0
        ? Long.MAX_VALUE / 4
        : duration.toNanos();
  }

  private static long millis(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(nanos);
  }
}

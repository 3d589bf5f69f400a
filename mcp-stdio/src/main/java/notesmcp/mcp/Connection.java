package notesmcp.mcp;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import notesmcp.jsonrpc.Codec;
import notesmcp.jsonrpc.ErrorCodes;
import notesmcp.jsonrpc.ErrorObject;
import notesmcp.jsonrpc.Id;
import notesmcp.jsonrpc.LineReader;
import notesmcp.jsonrpc.Message;
import notesmcp.jsonrpc.Message.Failure;
import notesmcp.jsonrpc.Message.Notification;
import notesmcp.jsonrpc.Message.Request;
import notesmcp.jsonrpc.Message.Success;
import notesmcp.jsonrpc.RpcException;
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
 * and closing a server that ignores stdin, is bounded by the deadline" (CONTRACT §5). Threads and
 * what each may block on:
 *
 * <ul>
 *   <li>callers of {@link #request}: wait for room in the input queue and then for the reply, both
 *       within the request's deadline, which starts before anything is queued;
 *   <li>"notes-mcp client writer" ({@link ServerInput}): owns the child's stdin and is the only
 *       thread that writes to it; a server that stops reading stalls this thread alone;
 *   <li>"notes-mcp client reader": owns the child's stdout; never writes and never waits for room:
 *       its answers to the server's own requests are dropped when the server does not read them;
 *   <li>{@link #close}: never waits for the writer; each of its waits for the child is bounded.
 * </ul>
 *
 * No lock is held across I/O. The child's stderr is the caller's business (see {@link StderrTail}).
 */
public final class Connection {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** The longest line read from the server; a longer one is skipped without being held. */
  static final int MAX_LINE_BYTES = 4 * 1024 * 1024;

  /** How many notices about the server's output the reader writes before it goes quiet. */
  private static final int MAX_NOTICES = 8;

  private final Process process;
  private final PrintStream log;
  private final Codec codec = new Codec(Set.of());
  private final ServerInput input;
  private final Map<Id, CompletableFuture<Message>> pending = new ConcurrentHashMap<>();
  private final AtomicLong nextId = new AtomicLong(1);
  private volatile IOException closedBecause;
  private int notices; // reader thread only
  private boolean droppingAnswers; // reader thread only
  private boolean toldAboutRequests; // reader thread only
  private volatile boolean answersRequests = true;

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
    this.log = log;
    this.input = new ServerInput(process.getOutputStream());
    Thread reader =
        new Thread("notes-mcp client reader") {
          @Override
          public void run() {
            read();
          }
        };
    reader.setDaemon(true);
    reader.start();
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
    IOException closed = closedBecause;
    if (closed != null) {
      throw closed;
    }
    if (budget <= 0) {
      throw new Timeout("no time was left to send " + method + " before the deadline");
    }
    Id id = Id.of(nextId.getAndIncrement());
    CompletableFuture<Message> answer = new CompletableFuture<>();
    pending.put(id, answer);
    ServerInput.Line line = null;
    try {
      closed = closedBecause; // closed while we registered: fail now, not at the deadline
      if (closed != null) {
        throw closed;
      }
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
      pending.remove(id);
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
    IOException closed = closedBecause;
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
    input.offer(codec.encode(new Notification(Methods.CANCELLED, params)));
  }

  private void read() {
    LineReader lines = new LineReader(process.getInputStream(), MAX_LINE_BYTES);
    try {
      LineReader.Result result;
      while ((result = lines.next()) != LineReader.Result.END) {
        if (closedBecause != null) {
          continue; // keep draining, so the server is never stuck writing to us while it closes
        }
        if (result == LineReader.Result.TOO_LONG) {
          notice("skipped a line from the server longer than " + MAX_LINE_BYTES + " bytes");
        } else if (lines.length() > 0) {
          receive(lines.bytes(), lines.length());
        }
      }
      closed(new IOException(exitDescription()));
    } catch (IOException e) {
      closed(new IOException("reading from the server failed: " + e.getMessage(), e));
    } catch (RuntimeException | Error e) {
      // A fault here must fail the requests at once, not leave them waiting for their deadline.
      closed(new IOException("the client failed reading the server's output: " + e, e));
    }
  }

  private void receive(byte[] line, int length) {
    Message message;
    try {
      message = codec.decode(line, length);
    } catch (Codec.Malformed e) {
      Id id = e.failure().id();
      if (id != null && wasSent(id)) {
        closed(
            new Violation(
                "the server's reply to request "
                    + id
                    + " is not a valid JSON-RPC response: "
                    + ServerText.shown(e.getMessage())));
      } else {
        notice(
            "ignoring a line from the server that is not JSON-RPC ("
                + ServerText.shown(e.getMessage())
                + ")");
      }
      return;
    }
    if (message instanceof Success || message instanceof Failure) {
      Id id = message instanceof Success ? ((Success) message).id() : ((Failure) message).id();
      if (id == null) {
        notice(
            "the server reported an error about no request in particular: "
                + ServerText.shown(((Failure) message).error().message()));
      } else if (!wasSent(id)) {
        closed(
            new Violation(
                "the server answered request id "
                    + ServerText.shown(id.toString())
                    + ", which this client never sent"));
      } else {
        CompletableFuture<Message> answer = pending.get(id);
        if (answer != null) {
          answer.complete(message);
        }
        // else: a late answer to a request that timed out and was cancelled; nobody waits for it
      }
    } else if (message instanceof Request) {
      if (answersRequests) {
        refuse((Request) message);
      } else if (!toldAboutRequests) {
        toldAboutRequests = true;
        notice(
            "ignoring requests from the server ("
                + ServerText.shown(((Request) message).method())
                + "): in 2026-07-28 a server sends none, and a client answers none");
      }
    }
    // Notifications (progress, log messages) need no answer and are not shown.
  }

  /**
   * From now on, requests from the server are ignored, not answered: in revision 2026-07-28 "the
   * server MUST NOT write JSON-RPC requests to stdout" and "the client MUST NOT write JSON-RPC
   * responses" (transports/stdio). Until the era is known, a legacy server's {@code ping} is
   * answered.
   */
  void stopAnsweringRequests() {
    answersRequests = false;
  }

  /** Ids are 1, 2, 3, ... in the order requests were made. */
  private boolean wasSent(Id id) {
    JsonNode value = id.value();
    return value.isIntegralNumber()
        && value.canConvertToLong()
        && value.longValue() >= 1
        && value.longValue() < nextId.get();
  }

  /**
   * This client serves nothing: {@code ping} is answered, any other request from the server is an
   * unknown method. The answer is dropped, never waited for, when the server is not reading.
   */
  private void refuse(Request request) {
    String method = request.method();
    Message reply =
        Methods.PING.equals(method)
            ? new Success(request.id(), NODES.objectNode())
            : new Failure(
                request.id(),
                new ErrorObject(
                    ErrorCodes.METHOD_NOT_FOUND,
                    "Method not found: "
                        + (method.length() > 100 ? method.substring(0, 100) + "..." : method)));
    if (!input.offer(codec.encode(reply)) && !droppingAnswers) {
      droppingAnswers = true;
      notice("the server is not reading its input; answers to its requests are dropped");
    }
  }

  private void notice(String text) {
    if (notices < MAX_NOTICES) {
      log.println("notes-mcp: " + text);
    } else if (notices == MAX_NOTICES) {
      log.println("notes-mcp: (further notices about the server's output are not shown)");
    }
    notices++;
  }

  /** The first reason wins; every request still waiting fails with it. */
  private synchronized void closed(IOException why) {
    if (closedBecause == null) {
      closedBecause = why;
    }
    for (CompletableFuture<Message> answer : pending.values()) {
      answer.completeExceptionally(closedBecause);
    }
  }

  private String exitDescription() {
    try {
      if (process.waitFor(200, TimeUnit.MILLISECONDS)) {
        return "the server exited with status " + process.exitValue() + " before answering";
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return "the server closed its output before answering";
  }

  /** Whether the child is still running. */
  public boolean isAlive() {
    return process.isAlive();
  }

  /** The child's process id, for diagnostics. */
  public long pid() {
    return process.pid();
  }

  /**
   * Closes the child as the stdio binding says (transports/stdio, "Shutdown"): close its input,
   * wait up to {@code grace} for it to exit; then SIGTERM, and wait again; then SIGKILL, and wait
   * again. When it has to be terminated, so are the processes it started, which would otherwise
   * keep its pipes open. Never waits on a stuck write, and takes at most about three times {@code
   * grace}. Returns the exit status, or -1 if the child outlived even that.
   */
  public int close(Duration grace) throws InterruptedException {
    closed(new IOException("the connection to the server is closed"));
    input.close();
    long wait = Math.max(1, millis(nanos(grace)));
    if (!process.waitFor(wait, TimeUnit.MILLISECONDS)) {
      List<ProcessHandle> descendants = descendants();
      process.destroy();
      for (ProcessHandle descendant : descendants) {
        descendant.destroy();
      }
      if (!process.waitFor(wait, TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        for (ProcessHandle descendant : descendants) {
          descendant.destroyForcibly();
        }
        process.waitFor(wait, TimeUnit.MILLISECONDS);
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

package notesmcp.mcp;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Duration;
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
import notesmcp.jsonrpc.LineWriter;
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
 * The client end of MCP's stdio transport: JSON-RPC over a child process's stdin and stdout: it
 * starts the process, correlates responses with requests by id, enforces a deadline per request
 * (cancelling the request on the wire when it passes), and closes the child the way the stdio
 * binding says: close its input, wait, then terminate, then kill.
 *
 * <p>Threads: any thread may send; one reader thread owns the child's stdout. The child's stderr is
 * passed through to ours, so its diagnostics stay visible.
 */
public final class Connection {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final Process process;
  private final PrintStream log;
  private final Codec codec = new Codec(Set.of());
  private final LineWriter output;
  private final Map<Id, CompletableFuture<Message>> pending = new ConcurrentHashMap<>();
  private final AtomicLong nextId = new AtomicLong(1);
  private volatile IOException closedBecause;

  /** The request got no answer before its deadline; it was cancelled on the wire. */
  public static final class Timeout extends IOException {
    private static final long serialVersionUID = 1L;

    Timeout(String message) {
      super(message);
    }
  }

  private Connection(Process process, PrintStream log) {
    this.process = process;
    this.log = log;
    this.output = new LineWriter(process.getOutputStream(), 256, log);
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
   * Starts {@code command} as a child process.
   *
   * @throws IOException if it cannot be started (missing, not executable): never an empty answer
   */
  public static Connection start(List<String> command, PrintStream log) throws IOException {
    return start(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT), log);
  }

  /** Starts a child prepared by the caller (its environment, where its stderr goes). */
  public static Connection start(ProcessBuilder builder, PrintStream log) throws IOException {
    return attach(builder.start(), log);
  }

  /** Talks to a child the caller already started (so it could start it before anything else). */
  public static Connection attach(Process process, PrintStream log) {
    return new Connection(process, log);
  }

  /** Sends a request and waits for its result. */
  public JsonNode request(String method, JsonNode params, Duration deadline)
      throws RpcException, IOException {
    Id id = Id.of(nextId.getAndIncrement());
    CompletableFuture<Message> answer = new CompletableFuture<>();
    pending.put(id, answer);
    try {
      send(new Request(id, method, params));
      Message reply = answer.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
      if (reply instanceof Failure) {
        throw new RpcException(((Failure) reply).error());
      }
      return ((Success) reply).result();
    } catch (TimeoutException e) {
      cancel(id, "no answer within " + deadline.toMillis() + " ms");
      throw new Timeout(
          "the server did not answer " + method + " within " + deadline.toMillis() + " ms");
    } catch (ExecutionException e) {
      throw (IOException) e.getCause();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for " + method, e);
    } finally {
      pending.remove(id);
    }
  }

  /** Sends a notification. */
  public void notify(String method, JsonNode params) throws IOException {
    send(new Notification(method, params));
  }

  private void cancel(Id id, String reason) {
    ObjectNode params = NODES.objectNode();
    params.set("requestId", id.value());
    params.put("reason", reason);
    try {
      notify(Methods.CANCELLED, params);
    } catch (IOException e) {
      // the server is gone; there is nothing left to cancel
    }
  }

  private void send(Message message) throws IOException {
    IOException closed = closedBecause;
    if (closed != null) {
      throw closed;
    }
    try {
      output.send(codec.encode(message));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while sending", e);
    }
  }

  private void read() {
    InputStream in = process.getInputStream();
    LineReader lines = new LineReader(in, 16 * 1024 * 1024);
    try {
      LineReader.Result result;
      while ((result = lines.next()) != LineReader.Result.END) {
        if (result == LineReader.Result.LINE && lines.length() > 0) {
          receive(lines.bytes(), lines.length());
        }
      }
      closed(new IOException(exitDescription()));
    } catch (IOException e) {
      closed(new IOException("reading from the server failed: " + e.getMessage(), e));
    }
  }

  private void receive(byte[] line, int length) {
    Message message;
    try {
      message = codec.decode(line, length);
    } catch (Codec.Malformed e) {
      log.println(
          "notes-mcp: ignoring a line from the server that is not JSON-RPC ("
              + e.getMessage()
              + ")");
      return;
    }
    if (message instanceof Success || message instanceof Failure) {
      Id id = message instanceof Success ? ((Success) message).id() : ((Failure) message).id();
      CompletableFuture<Message> answer = id == null ? null : pending.get(id);
      if (answer != null) {
        answer.complete(message);
      } else if (message instanceof Failure) {
        log.println(
            "notes-mcp: the server reported an error: " + ((Failure) message).error().message());
      }
    } else if (message instanceof Request) {
      refuse((Request) message);
    }
    // Notifications (progress, log messages) need no answer and are not shown.
  }

  /** This client serves nothing: a request from the server is answered as an unknown method. */
  private void refuse(Request request) {
    Message reply =
        Methods.PING.equals(request.method())
            ? new Success(request.id(), NODES.objectNode())
            : new Failure(
                request.id(),
                new ErrorObject(
                    ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + request.method()));
    try {
      send(reply);
    } catch (IOException e) {
      // closing anyway
    }
  }

  private void closed(IOException why) {
    closedBecause = why;
    for (CompletableFuture<Message> answer : pending.values()) {
      answer.completeExceptionally(why);
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

  /**
   * Closes the child as the stdio binding says: close its input, wait up to {@code grace}, then
   * SIGTERM and wait again, then SIGKILL. Returns its exit status.
   */
  public int close(Duration grace) throws InterruptedException {
    output.close();
    if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroy();
      if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        process.waitFor();
      }
    }
    return process.exitValue();
  }
}

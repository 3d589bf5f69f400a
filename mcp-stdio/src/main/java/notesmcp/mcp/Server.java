package notesmcp.mcp;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
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
import notesmcp.jsonrpc.Outbox;
import notesmcp.jsonrpc.RpcException;
import tools.jackson.databind.JsonNode;

/**
 * An MCP server on one pair of byte streams (stdin and stdout), serving both eras.
 *
 * <p>Threads: one reader (the caller of {@link #serve}) owns the input. It reads bounded lines,
 * decodes them, answers {@code -32700}/{@code -32600} itself and keeps reading, applies {@code
 * notifications/cancelled} at once, and hands requests to a few workers through a bounded queue; it
 * never runs a tool. Workers answer requests; every line out goes through one {@link Outbox}. When
 * the queue stays full, the request is answered {@code -32000} (CONTRACT §5); memory stays bounded
 * whatever a client sends. On end of input, in-flight work finishes, output is flushed, and {@link
 * #serve} returns.
 */
public final class Server {
  /** Tunables; every duration is a parameter so tests can shorten it. */
  public record Options(
      Implementation info,
      String instructions,
      int workers,
      int maxQueued,
      Duration enqueueWait,
      int maxLineBytes,
      Duration holdBeforeCall) {

    public static Options defaults(Implementation info, String instructions) {
      return new Options(
          info, instructions, 4, 64, Duration.ofSeconds(1), 1024 * 1024, Duration.ZERO);
    }

    public Options withHoldBeforeCall(Duration hold) {
      return new Options(info, instructions, workers, maxQueued, enqueueWait, maxLineBytes, hold);
    }
  }

  private static final Runnable STOP = () -> {};

  private final Options options;
  private final PrintStream log;
  private final Dispatcher dispatcher;
  private final Codec codec = new Codec(Set.of("arguments"));
  private final Map<Id, CancelToken> inFlight = new ConcurrentHashMap<>();
  private final BlockingQueue<Runnable> queue;
  private volatile Outbox outbox;

  public Server(Tools tools, Options options, PrintStream log) {
    this.options = options;
    this.log = log;
    this.dispatcher = new Dispatcher(tools, options, log);
    this.queue = new ArrayBlockingQueue<>(options.maxQueued());
  }

  /** Serves until {@code in} ends, then lets in-flight requests finish and flushes {@code out}. */
  public void serve(InputStream in, OutputStream out) throws IOException, InterruptedException {
    outbox = new Outbox(out, 1024, "notes-mcp writer", log);
    List<Thread> workers = startWorkers();
    LineReader lines = new LineReader(in, options.maxLineBytes());
    try {
      LineReader.Result result;
      while ((result = lines.next()) != LineReader.Result.END && !outbox.isBroken()) {
        if (result == LineReader.Result.TOO_LONG) {
          send(
              new Failure(
                  null,
                  new ErrorObject(
                      ErrorCodes.INVALID_REQUEST,
                      "Invalid Request: line longer than " + options.maxLineBytes() + " bytes")));
        } else if (!isBlank(lines.bytes(), lines.length())) {
          receive(lines.bytes(), lines.length());
        }
      }
    } finally {
      for (int i = 0; i < workers.size(); i++) {
        queue.put(STOP);
      }
      for (Thread worker : workers) {
        worker.join();
      }
      outbox.close(5_000);
    }
  }

  /** Flushes what is already queued; for a shutdown hook (SIGTERM). */
  public void flush(long timeoutMillis) throws InterruptedException {
    Outbox current = outbox;
    if (current != null) {
      current.close(timeoutMillis);
    }
  }

  private List<Thread> startWorkers() {
    List<Thread> workers = new ArrayList<>();
    for (int i = 1; i <= options.workers(); i++) {
      Thread worker = new Thread(this::work, "notes-mcp worker-" + i);
      worker.setDaemon(true);
      worker.start();
      workers.add(worker);
    }
    return workers;
  }

  private void work() {
    try {
      Runnable task;
      while ((task = queue.take()) != STOP) {
        task.run();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void receive(byte[] line, int length) throws InterruptedException {
    Message message;
    try {
      message = codec.decode(line, length);
    } catch (Codec.Malformed malformed) {
      send(malformed.failure());
      return;
    }
    if (message instanceof Request) {
      accept((Request) message);
    } else if (message instanceof Notification) {
      notice((Notification) message);
    } else if (message instanceof Success || message instanceof Failure) {
      log.println("notes-mcp: ignoring a response; this server sends no requests");
    } else {
      throw new AssertionError(message);
    }
  }

  private void accept(Request request) throws InterruptedException {
    CancelToken token = new CancelToken();
    if (inFlight.putIfAbsent(request.id(), token) != null) {
      send(
          new Failure(
              request.id(),
              new ErrorObject(
                  ErrorCodes.INVALID_REQUEST,
                  "Invalid Request: id " + request.id() + " is already in flight")));
      return;
    }
    Runnable task = () -> answer(request, token);
    if (!queue.offer(task, options.enqueueWait().toNanos(), TimeUnit.NANOSECONDS)) {
      inFlight.remove(request.id(), token);
      send(
          new Failure(
              request.id(),
              new ErrorObject(
                  ErrorCodes.OVERLOADED,
                  "Server overloaded: "
                      + options.maxQueued()
                      + " requests already waiting; retry later")));
    }
  }

  private void notice(Notification notification) {
    if (!Methods.CANCELLED.equals(notification.method())) {
      return; // notifications/initialized and anything else need no action
    }
    JsonNode params = notification.params();
    JsonNode requestId = params == null ? null : params.get("requestId");
    if (!Id.isValid(requestId)) {
      return; // "Invalid cancellation notifications SHOULD be ignored"
    }
    CancelToken token = inFlight.get(new Id(requestId));
    if (token != null) {
      JsonNode reason = params.get("reason");
      token.cancel(reason != null && reason.isString() ? reason.stringValue() : null);
      log.println(
          "notes-mcp: cancellation received for request "
              + new Id(requestId)
              + (token.reason() == null ? "" : " (" + token.reason() + ")"));
    }
  }

  private void answer(Request request, CancelToken token) {
    Message reply;
    try {
      reply = new Success(request.id(), dispatcher.handle(request, token));
    } catch (RpcException e) {
      reply = new Failure(request.id(), e.error());
    } catch (CancellationException e) {
      log.println("notes-mcp: request " + request.id() + " cancelled before it ran; no reply");
      reply = null;
    } catch (RuntimeException e) {
      log.println("notes-mcp: internal error answering request " + request.id() + ":");
      e.printStackTrace(log);
      reply =
          new Failure(
              request.id(),
              new ErrorObject(
                  ErrorCodes.INTERNAL_ERROR, "Internal error; see the server's stderr"));
    }
    try {
      // "Servers ... MUST NOT send any further messages for it" once cancelled.
      if (reply != null && !token.isCancelled()) {
        send(reply);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      inFlight.remove(request.id(), token);
    }
  }

  private void send(Message message) throws InterruptedException {
    outbox.send(codec.encode(message));
  }

  private static boolean isBlank(byte[] bytes, int length) {
    for (int i = 0; i < length; i++) {
      byte b = bytes[i];
      if (b != ' ' && b != '\t' && b != '\r') {
        return false;
      }
    }
    return true;
  }
}

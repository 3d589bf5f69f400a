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
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
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

/**
 * An MCP server on one pair of byte streams (stdin and stdout), serving both eras.
 *
 * <p>Threads, leader and followers: a few threads take turns at the input. The one holding the lead
 * reads the lines already there (blocking only for the first), answers {@code -32700}/{@code
 * -32600} itself, applies {@code notifications/cancelled} at once (so a cancellation read with its
 * request stops it before it runs), admits the requests and answers them itself, then reads again.
 * It hands the lead to the next thread only when it would stop reading for long: when a request is
 * about to wait, or when it has been answering for 20 ms ({@link Lead}). So the input is always
 * read, and requests are answered concurrently exactly when one of them is slow; a lone request
 * costs no hand-off at all. Replies leave through one {@link LineWriter}, which no thread waits on.
 * The policy behind the tools serializes its own state.
 *
 * <p>Bounds (CONTRACT §5): at most {@code maxInFlight} requests are admitted and unanswered; a
 * request that finds no room within {@code admissionWait} is answered {@code -32000}. Memory stays
 * bounded whatever a client sends. On end of input, admitted work finishes and {@link #serve}
 * returns.
 */
public final class Server {
  /** Tunables; every duration is a parameter so tests can shorten it. */
  public record Options(
      Implementation info,
      String instructions,
      int threads,
      int maxInFlight,
      Duration admissionWait,
      int maxLineBytes,
      Duration holdBeforeCall) {

    public static Options defaults(Implementation info, String instructions) {
      return new Options(
          info, instructions, 4, 64, Duration.ofSeconds(1), 1024 * 1024, Duration.ZERO);
    }

    public Options withHoldBeforeCall(Duration hold) {
      return new Options(
          info, instructions, threads, maxInFlight, admissionWait, maxLineBytes, hold);
    }
  }

  /** Requests one thread reads before it hands the lead on, at most. */
  private static final int MAX_BATCH = 64;

  private final Options options;
  private final PrintStream log;
  private final Dispatcher dispatcher;
  private final Codec codec = new Codec(Set.of("arguments"));
  private final Map<Id, CancelToken> inFlight = new ConcurrentHashMap<>();
  private final Lead lead = new Lead(Duration.ofMillis(20));
  private final Semaphore room;
  private LineReader lines; // guarded by lead
  private boolean ended; // guarded by lead
  private volatile LineWriter output;

  public Server(Tools tools, Options options, PrintStream log) {
    this.options = options;
    this.log = log;
    this.dispatcher = new Dispatcher(tools, options, log);
    this.room = new Semaphore(options.maxInFlight());
  }

  /** A request let in, with the token its cancellation sets. */
  private record Admitted(Request request, CancelToken token) {}

  /** Serves until {@code in} ends and every admitted request is answered. */
  public void serve(InputStream in, OutputStream out) throws InterruptedException {
    output = new LineWriter(out, 1024, log);
    lines = new LineReader(in, options.maxLineBytes());
    List<Thread> threads = new ArrayList<>();
    for (int i = 1; i <= options.threads(); i++) {
      Thread thread =
          new Thread("notes-mcp " + i) {
            @Override
            public void run() {
              takeTurns();
            }
          };
      thread.setDaemon(true);
      thread.start();
      threads.add(thread);
    }
    for (Thread thread : threads) {
      thread.join();
    }
    lead.close();
    output.close();
  }

  /** Writes what is queued and closes the output; for a shutdown hook (SIGTERM). */
  public void flush() {
    LineWriter current = output;
    if (current != null) {
      current.close();
    }
  }

  /**
   * One thread's life: take the lead, read, and answer what it read, keeping the lead; then read
   * again. Requests are read and answered by the same thread, with no queue and no hand-off, which
   * on a small machine is what a burst costs least with too (the policy serializes the calls
   * anyway). Another thread takes over the input only when this one would stop reading for long: a
   * request about to wait hands the lead on itself, and the {@link Lead}'s watch hands it on for a
   * thread that has been answering for 20 ms. So cancellations and other requests are always read,
   * and requests are answered concurrently exactly when one of them is slow.
   */
  private void takeTurns() {
    Lead.Turn turn = lead.turn();
    List<Admitted> batch = new ArrayList<>();
    boolean end = false;
    while (!end) {
      turn.take();
      try {
        end = read(batch);
        if (end) {
          turn.handOff();
        }
      } catch (InterruptedException e) {
        end = true;
        turn.handOff();
      }
      turn.answering();
      for (Admitted admitted : batch) {
        admitted.token().beforeWaiting(turn);
        answer(admitted.request(), admitted.token());
      }
      turn.answered();
      batch.clear();
    }
  }

  /**
   * Reads one line, blocking for it, and then the lines already buffered while there is room to
   * admit them; true at end of input. Only the thread holding the lead calls it.
   */
  private boolean read(List<Admitted> batch) throws InterruptedException {
    // lines and ended are guarded by the lead, which the caller holds
    while (!ended && !output.isBroken()) {
      if (!batch.isEmpty()
          && (batch.size() >= MAX_BATCH
              || !lines.hasCompleteLine()
              || room.availablePermits() == 0)) {
        return false;
      }
      LineReader.Result result;
      try {
        result = lines.next();
      } catch (IOException e) {
        log.println("notes-mcp: reading stdin failed: " + e.getMessage());
        result = LineReader.Result.END;
      }
      if (result == LineReader.Result.END) {
        ended = true;
      } else if (result == LineReader.Result.TOO_LONG) {
        send(
            new Failure(
                null,
                new ErrorObject(
                    ErrorCodes.INVALID_REQUEST,
                    "Invalid Request: line longer than " + options.maxLineBytes() + " bytes")));
      } else if (!isBlank(lines.bytes(), lines.length())) {
        receive(lines.bytes(), lines.length(), batch);
      }
    }
    return true;
  }

  private void receive(byte[] line, int length, List<Admitted> batch) throws InterruptedException {
    Message message;
    try {
      message = codec.decode(line, length);
    } catch (Codec.Malformed malformed) {
      send(malformed.failure());
      return;
    }
    if (message instanceof Request) {
      admit((Request) message, batch);
    } else if (message instanceof Notification) {
      notice((Notification) message);
    } else if (message instanceof Success || message instanceof Failure) {
      log.println("notes-mcp: ignoring a response; this server sends no requests");
    } else {
      throw new AssertionError(message);
    }
  }

  /**
   * Lets a request in when there is room. Only the leader takes room, so room seen free before
   * reading a line is still free for it; a leader with nothing admitted yet waits for room.
   */
  private void admit(Request request, List<Admitted> batch) throws InterruptedException {
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
    if (!room.tryAcquire(options.admissionWait().toNanos(), TimeUnit.NANOSECONDS)) {
      inFlight.remove(request.id(), token);
      send(
          new Failure(
              request.id(),
              new ErrorObject(
                  ErrorCodes.OVERLOADED,
                  "Server overloaded: "
                      + options.maxInFlight()
                      + " requests already in flight; retry later")));
      return;
    }
    batch.add(new Admitted(request, token));
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
      room.release();
    }
  }

  private void send(Message message) throws InterruptedException {
    output.send(codec.encode(message));
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

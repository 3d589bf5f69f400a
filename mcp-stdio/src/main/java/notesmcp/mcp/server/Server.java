package notesmcp.mcp.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import notesmcp.jsonrpc.Codec;
import notesmcp.jsonrpc.ErrorCodes;
import notesmcp.jsonrpc.LineReader;
import notesmcp.jsonrpc.Message;
import notesmcp.jsonrpc.Message.Failure;
import notesmcp.jsonrpc.Message.Id;
import notesmcp.jsonrpc.Message.Notification;
import notesmcp.jsonrpc.Message.Request;
import notesmcp.jsonrpc.Message.Success;
import notesmcp.jsonrpc.Outbox;
import notesmcp.jsonrpc.RpcException;
import notesmcp.mcp.Protocol;
import notesmcp.mcp.Protocol.Implementation;
import notesmcp.text.TerminalText;
import tools.jackson.databind.JsonNode;

/**
 * An MCP server on one pair of byte streams (stdin and stdout), serving both eras. The threads,
 * what each owns and may block on, and how cancellation, back-pressure and shutdown flow are
 * written down in {@code mcp-stdio/CONCURRENCY.md}; in short:
 *
 * <p>Threads "notes-mcp 1", "notes-mcp 2", ... take turns at stdin ({@link Lead}). The one holding
 * the lead reads a line, answers {@code -32700}/{@code -32600} itself, applies {@code
 * notifications/cancelled} at once, and answers a request itself, then reads again; replies wait in
 * the {@link Outbox} and are written before the thread would block for more input. A thread whose
 * answer or write takes longer than 20 ms loses the lead to the next thread (started on demand),
 * and one whose call is about to wait gives it up at once ({@link #aboutToWait}), so stdin keeps
 * being read while calls are slow.
 *
 * <p>Bounds (docs/behaviour.md, "Limits"): at most {@code maxInFlight} requests are admitted and
 * not yet answered; a request that finds no room within {@code admissionWait}, because that many
 * calls are still being worked on, is answered {@code -32000}. A reply counts as answered once it
 * waits in the outbox: replies a slow client has not read never take room. Instead, while more than
 * {@code maxPendingBytes} of replies wait, stdin is not read (back-pressure, not refusal).
 *
 * <p>On end of input, every admitted request is answered and {@link #serve} returns once the
 * replies are written, or once stdout has taken nothing for {@code closeGrace}.
 */
public final class Server {
  /** Tunables; every duration is a parameter so tests can shorten it. */
  public record Options(
      Implementation info,
      String instructions,
      int maxInFlight,
      Duration admissionWait,
      int maxLineBytes,
      long maxPendingBytes,
      Duration closeGrace) {

    public static Options defaults(Implementation info, String instructions) {
      return new Options(
          info,
          instructions,
          64,
          Duration.ofSeconds(1),
          1024 * 1024,
          4 * 1024 * 1024,
          Duration.ofSeconds(5));
    }
  }

  /** How long a thread may answer or write while it holds the lead. */
  private static final Duration STUCK_AFTER = Duration.ofMillis(20);

  /** The turn of each thread that takes turns at a server's input; none on any other thread. */
  private static final ThreadLocal<Lead.Turn> TURN = new ThreadLocal<>();

  /** Replies gathered before they are written while more input is already buffered. */
  private static final long FLUSH_AT = 64 * 1024;

  /**
   * Bytes of change notifications waiting in the outbox above which the notifier waits (it writes
   * itself when nobody writes).
   */
  static final long NOTIFY_ROOM = 1024 * 1024;

  private final Options options;
  private final PrintStream log;
  private final Core core;
  private final StdoutOutlet stdout = new StdoutOutlet();
  private final Session session = new Session(stdout);
  private final Codec codec = new Codec(Protocol.ARGUMENTS);
  private final InFlight inFlight;
  private final AtomicInteger threads = new AtomicInteger();
  private final CountDownLatch inputEnded = new CountDownLatch(1);
  private Lead lead;
  private LineReader lines; // guarded by the lead
  private boolean ended; // guarded by the lead
  private volatile Outbox outbox;

  public Server(Tools tools, Options options, PrintStream log) {
    this(tools, null, options, log);
  }

  /**
   * A server of tools and, unless {@code resources} is null, resources with their change streams
   * ({@link Subscriptions}).
   */
  public Server(Tools tools, Resources resources, Options options, PrintStream log) {
    this(new Core(tools, resources, options.info(), options.instructions(), log), options, log);
  }

  /** The stdio door of {@code core}: its one session is the process's. */
  public Server(Core core, Options options, PrintStream log) {
    this.options = options;
    this.log = log;
    this.core = core;
    this.inFlight = new InFlight(options.maxInFlight(), options.admissionWait());
  }

  /**
   * Every change stream of a stdio server writes to stdout: the one {@link Outbox}, shared with the
   * replies. It always has room to queue; its flush writes, and then waits while more than {@link
   * #NOTIFY_ROOM} bytes wait (writing itself whenever nobody writes): the notifier's back-pressure.
   */
  private final class StdoutOutlet implements Outlet {
    @Override
    public boolean hasRoom() {
      return true;
    }

    @Override
    public void add(byte[] message) {
      outbox.add(message);
    }

    @Override
    public void flush() {
      Outbox current = outbox;
      current.flush();
      try {
        current.awaitRoom(NOTIFY_ROOM);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public void end() {
      // stdout outlives every stream: it ends with the process
    }
  }

  /**
   * Serves until {@code in} ends (or {@code out} breaks) and every admitted request is answered;
   * returns once the replies are written or {@code out} took nothing for {@code closeGrace}.
   */
  public void serve(InputStream in, OutputStream out) throws InterruptedException {
    outbox = new Outbox(out, log);
    lines = new LineReader(in, options.maxLineBytes());
    lead =
        new Lead(
            STUCK_AFTER,
            new Runnable() {
              @Override
              public void run() {
                startThread();
              }
            });
    startThread();
    inputEnded.await();
    inFlight.awaitAllAnswered();
    core.endAllStreams(); // each open stream gets its closing result, written by the notifier
    // "Stdin closing ends it once admitted work is answered or, if stdout is blocked, within a
    // bounded grace period" (docs/behaviour.md, "Limits").
    if (!outbox.awaitWritten(options.closeGrace(), Duration.ofDays(1))) {
      log.println(
          "notes-mcp: stdout takes nothing; "
              + outbox.pendingBytes()
              + " bytes of replies are not written");
    }
    lead.close();
  }

  /**
   * For a shutdown hook (SIGTERM): waits at most {@code atMost} for the replies already made to be
   * written by the threads that write them; never writes, so it never waits for a peer that stopped
   * reading. True if none was left.
   */
  public boolean awaitRepliesWritten(Duration atMost) {
    core.endAllStreams();
    Outbox current = outbox;
    return current == null || current.awaitWritten(atMost, atMost);
  }

  /**
   * Called by a tool on the thread answering it, just before that thread waits for a known while (a
   * note that changed a moment ago, read once its change margin has passed): if the thread holds
   * the lead, the next thread reads on now, as it would once the watch found the call slow, 20 ms
   * into it; so the requests behind a call that waits are never held up by it. Does nothing on a
   * thread that is not answering a request of a server.
   */
  public static void aboutToWait() {
    Lead.Turn turn = TURN.get();
    if (turn != null) {
      turn.letGo();
    }
  }

  /**
   * Starts one more thread to take turns, unless enough exist: the most that can be busy at once is
   * every admitted call, one writer stuck on stdout, and one reader.
   */
  private void startThread() {
    int number = threads.incrementAndGet();
    if (number > options.maxInFlight() + 2) {
      threads.decrementAndGet();
      return;
    }
    Thread thread =
        new Thread("notes-mcp " + number) {
          @Override
          public void run() {
            takeTurns(lead.turn());
          }
        };
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * One thread's life: take the lead; read a line; answer it and write replies while keeping the
   * lead (that is work, watched by the {@link Lead}); read the next. A thread that lost the lead
   * while it worked writes what waits (the reader may be blocked on stdin, waiting for that very
   * reply) and waits for its next turn.
   */
  private void takeTurns(Lead.Turn turn) {
    TURN.set(turn);
    while (true) {
      turn.take();
      if (ended) { // read under the lead
        turn.handOff();
        break;
      }
      long pending = outbox.pendingBytes();
      if (pending > 0 && (pending >= FLUSH_AT || !lines.hasCompleteLine())) {
        // About to block for input, or enough gathered: the replies go first.
        turn.working();
        outbox.flush();
        turn.worked();
        if (!turn.isLeading()) {
          continue; // stdout was slow and the lead went on: wait for the next turn
        }
      }
      InFlight.Work work = nextOrNull();
      if (work == END) {
        ended = true;
        inputEnded.countDown();
        turn.handOff();
        break;
      }
      if (work != null) {
        turn.working();
        if (work instanceof InFlight.Batch) {
          answer((InFlight.Batch) work);
        } else {
          answer((InFlight.Call) work);
        }
        turn.worked();
        if (!turn.isLeading()) {
          outbox.flush();
        }
      }
    }
    outbox.flush();
  }

  /**
   * {@link #next}, surviving a bug: a thread that died holding the lead would leave stdin unread
   * for good, so an unexpected exception is logged with its stack trace and the line is dropped.
   */
  private InFlight.Work nextOrNull() {
    try {
      return next();
    } catch (RuntimeException e) {
      log.println("notes-mcp: internal error reading a line; the line is dropped:");
      e.printStackTrace(log);
      return null;
    }
  }

  /** What {@link #next} answers at the end of input (or when stdout is gone). */
  private static final InFlight.Work END = new InFlight.Call(null);

  /**
   * Reads one line and handles it, unless it is a request let in: that is returned, to be answered.
   * Null when the line needed nothing more; {@link #END} at the end of input. While more than
   * {@code maxPendingBytes} of replies wait it does not read at all. Only the lead's holder calls
   * it.
   */
  private InFlight.Work next() {
    LineReader.Result result;
    try {
      // "the server stops reading stdin until they can be written" (docs/behaviour.md, "Limits")
      outbox.awaitRoom(options.maxPendingBytes());
      result = outbox.isBroken() ? LineReader.Result.END : lines.next();
    } catch (IOException e) {
      log.println("notes-mcp: reading stdin failed: " + e.getMessage());
      result = LineReader.Result.END;
    } catch (InterruptedException e) {
      result = LineReader.Result.END;
    }
    if (result == LineReader.Result.END) {
      return END;
    } else if (result == LineReader.Result.TOO_LONG) {
      send(ProtocolErrors.reply(null, ProtocolErrors.lineTooLong(options.maxLineBytes())));
    } else if (!isBlank(lines.bytes(), lines.length())) {
      return receive(lines.bytes(), lines.length());
    }
    return null;
  }

  private InFlight.Work receive(byte[] line, int length) {
    if (core.servesBatches(session) && Codec.isBatch(line, length)) {
      return receiveBatch(line, length);
    }
    Message message;
    try {
      message = codec.decode(line, length);
    } catch (Codec.Malformed malformed) {
      send(ProtocolErrors.reply(malformed.id(), malformed.error()));
      return null;
    }
    if (message instanceof Request) {
      return admit((Request) message);
    } else if (message instanceof Notification) {
      notice((Notification) message);
    } else if (message instanceof Success || message instanceof Failure) {
      log.println("notes-mcp: ignoring a response; this server sends no requests");
    } else {
      throw new AssertionError(message);
    }
    return null;
  }

  /**
   * A batch of a 2025-03-26 session: at most {@code maxInFlight} messages, each handled as it would
   * be alone, and each request let in with room of its own (docs/protocol.md, "Batches"). Once room
   * runs out, the batch's further requests are refused {@code -32000} at once. Null when it holds
   * no request that was let in and nothing to answer.
   */
  private InFlight.Work receiveBatch(byte[] line, int length) {
    Codec.Batch batch;
    try {
      batch = codec.decodeBatch(line, length, options.maxInFlight());
    } catch (Codec.Malformed malformed) {
      send(ProtocolErrors.reply(malformed.id(), malformed.error()));
      return null;
    }
    InFlight.Batch work = new InFlight.Batch();
    for (Codec.Malformed malformed : batch.malformed()) {
      work.replies.add(ProtocolErrors.reply(malformed.id(), malformed.error()));
    }
    boolean roomLeft = true;
    for (Message message : batch.messages()) {
      if (message instanceof Request) {
        Request request = (Request) message;
        try {
          work.calls.add(inFlight.admit(request, roomLeft));
        } catch (RpcException refused) {
          roomLeft &= refused.error().code() != ErrorCodes.OVERLOADED;
          work.replies.add(ProtocolErrors.reply(request.id(), refused.error()));
        }
      } else if (message instanceof Notification) {
        notice((Notification) message);
      } else {
        log.println("notes-mcp: ignoring a response in a batch; this server sends no requests");
      }
    }
    if (work.calls.isEmpty()) {
      if (!work.replies.isEmpty()) {
        sendBatch(work.replies);
      }
      return null;
    }
    return work;
  }

  /**
   * Lets a request in when there is room, waiting up to {@code admissionWait} for it (holding the
   * lead: while the bound is full of calls being worked on, there is nothing else to take in).
   */
  private InFlight.Call admit(Request request) {
    if (core.isStreamOpen(stdout, request.id())) {
      // The id of an open subscriptions/listen stream stays in use until the stream ends.
      send(ProtocolErrors.reply(request.id(), ProtocolErrors.idInFlight(request.id())));
      return null;
    }
    boolean initialize = Protocol.INITIALIZE.equals(request.method());
    if (initialize) {
      session.initializeRead(); // in the order read, before any thread can read on
    }
    try {
      return inFlight.admit(request);
    } catch (RpcException refused) {
      if (initialize) {
        session.initializeAnswered();
      }
      send(ProtocolErrors.reply(request.id(), refused.error()));
      return null;
    }
  }

  private void notice(Notification notification) {
    if (!Protocol.CANCELLED.equals(notification.method())) {
      return; // notifications/initialized and anything else need no action
    }
    JsonNode params = notification.params();
    JsonNode requestId = params == null ? null : params.get("requestId");
    if (!Id.isValid(requestId)) {
      return; // "Invalid cancellation notifications SHOULD be ignored"
    }
    JsonNode reason = params.get("reason");
    Id id = new Id(requestId);
    InFlight.Call call =
        inFlight.cancel(id, reason != null && reason.isString() ? reason.stringValue() : null);
    if (core.cancelStream(stdout, id)) {
      log.println("notes-mcp: subscription " + id + " cancelled by the client");
    }
    if (call != null) {
      log.println(
          "notes-mcp: cancellation received for request "
              + new Id(requestId)
              + (call.reason() == null
                  ? ""
                  : " (" + TerminalText.quoted(call.reason(), 200) + ")"));
    }
  }

  /** Answers one admitted request: its reply waits in the outbox, then its room is free. */
  private void answer(InFlight.Call call) {
    try {
      Message reply = core.reply(call.request, exchange(call));
      // "Servers ... MUST NOT send any further messages for it" once cancelled.
      if (reply != null && !call.isCancelled()) {
        send(reply);
      }
    } finally {
      inFlight.answered(call);
    }
  }

  /**
   * Answers a batch's calls one after another, then queues its one reply, the array of every reply
   * made (a cancelled call has none; a batch of notifications only has no reply at all).
   */
  private void answer(InFlight.Batch batch) {
    for (InFlight.Call call : batch.calls) {
      try {
        Message reply = core.reply(call.request, exchange(call));
        if (reply != null && !call.isCancelled()) {
          batch.replies.add(reply);
        }
      } finally {
        inFlight.answered(call);
      }
    }
    if (!batch.replies.isEmpty()) {
      sendBatch(batch.replies);
    }
  }

  /** A call's circumstances: the process's session, no authenticated caller, stdout. */
  private Exchange exchange(InFlight.Call call) {
    return new Exchange(session, null, stdout, call);
  }

  /** Queues a batch's replies as one line; {@link #send}'s rule for a bug holds for each. */
  private void sendBatch(List<Message> replies) {
    byte[] line;
    try {
      line = codec.encodeBatch(replies);
    } catch (RuntimeException e) {
      log.println("notes-mcp: internal error encoding a batch's replies:");
      e.printStackTrace(log);
      List<Message> errors = new ArrayList<>();
      for (Message reply : replies) {
        errors.add(ProtocolErrors.reply(idOf(reply), ProtocolErrors.internalError()));
      }
      line = codec.encodeBatch(errors);
    }
    outbox.add(line);
  }

  private static Id idOf(Message reply) {
    return reply instanceof Success
        ? ((Success) reply).id()
        : reply instanceof Failure ? ((Failure) reply).id() : null;
  }

  /**
   * Queues one message for stdout. Encoding a tree we built cannot fail unless we have a bug; then
   * the request still gets an answer, {@code -32603}, and the details go to stderr.
   */
  private void send(Message message) {
    byte[] line;
    try {
      line = codec.encode(message);
    } catch (RuntimeException e) {
      log.println("notes-mcp: internal error encoding a reply:");
      e.printStackTrace(log);
      Id id =
          message instanceof Success
              ? ((Success) message).id()
              : message instanceof Failure ? ((Failure) message).id() : null;
      line = codec.encode(ProtocolErrors.reply(id, ProtocolErrors.internalError()));
    }
    outbox.add(line);
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

  /**
   * The lead over the server's input: one thread at a time holds it and reads stdin; the others
   * wait for their turn (see CONCURRENCY.md). The thread holding the lead also does the work its
   * reading brings, an answer or a write to stdout, without giving the lead up, so a lone request
   * is read, answered and written by one thread with no hand-off. While it works it is watched: a
   * thread that has been working for longer than {@code stuckAfter} has the lead taken from it by
   * the watch, and another thread reads on. So a slow call or a stdout nobody reads never keeps
   * cancellations and other requests from being read. Work that knows it is about to wait gives the
   * lead up itself, at once ({@link Turn#letGo}).
   *
   * <p>The watch, thread "notes-mcp watch", sleeps until the working thread's deadline, so it wakes
   * at most once per {@code stuckAfter} while requests come, and parks for good after about a
   * second without work (the next work wakes it). When it takes the lead and no thread is waiting
   * for it, it calls {@code noFollower}, which may start one.
   *
   * <p>Every change of a turn's state is a compare-and-set: when the thread finishing its work and
   * the watch finding it slow act at once, exactly one wins, so the lead is never released twice
   * and never held by two readers.
   */
  static final class Lead {
    /** Watch wake-ups without any work after which the watch parks until work comes. */
    private static final int QUIET_WAKES = 50;

    private final Semaphore permit = new Semaphore(1);
    private final long stuckNanos;
    private final Runnable noFollower;
    private final AtomicReference<Turn> working = new AtomicReference<>();
    private final Thread watch;
    private volatile long works; // a sign of life for the watch; only the lead's holder writes it
    private volatile boolean watchParked;
    private volatile boolean closed;

    /**
     * @param stuckAfter how long a thread may work while holding the lead
     * @param noFollower run by the watch when it took the lead and no thread waits to take it
     */
    Lead(Duration stuckAfter, Runnable noFollower) {
      this.stuckNanos = stuckAfter.toNanos();
      this.noFollower = noFollower;
      this.watch =
          new Thread("notes-mcp watch") {
            @Override
            public void run() {
              watch();
            }
          };
      watch.setDaemon(true);
      watch.start();
    }

    /** One thread's hold on the lead: used by that thread, and by the watch to take the lead. */
    final class Turn {
      private static final int WAITING = 0;
      private static final int READING = 1;
      private static final int WORKING = 2;

      private final AtomicInteger state = new AtomicInteger(WAITING);
      private volatile long since;

      /** Takes the lead, waiting for it, unless this turn holds it already. */
      void take() {
        if (state.get() == WAITING) {
          permit.acquireUninterruptibly();
          state.set(READING);
        }
      }

      /** Gives the lead to the next thread, if this turn holds it. */
      void handOff() {
        int now;
        while ((now = state.get()) != WAITING) {
          if (state.compareAndSet(now, WAITING)) {
            permit.release();
            return;
          }
        }
      }

      boolean isLeading() {
        return state.get() != WAITING;
      }

      /** This turn starts work while it keeps the lead: from now on it is watched. */
      void working() {
        if (state.compareAndSet(READING, WORKING)) {
          since = System.nanoTime();
          working.set(this);
          works++; // only the lead's holder writes it, and a lost increment would do no harm
          if (watchParked) {
            LockSupport.unpark(watch);
          }
        }
      }

      /**
       * This turn's work is done. If the watch took the lead meanwhile, the turn no longer leads
       * ({@link #isLeading}); the registration is cleared only if it is still this turn's, never a
       * newer turn's.
       */
      void worked() {
        state.compareAndSet(WORKING, READING);
        working.compareAndSet(this, null);
      }

      /**
       * This turn's work is about to wait: it gives the lead up now, as the watch would once the
       * work was slow (the same compare-and-set, so exactly one of the two moves wins). The work
       * goes on; {@link #worked} then finds the turn no longer leading.
       */
      void letGo() {
        lost(this);
      }

      /** The watch's move: only a turn still working loses the lead. */
      private boolean takeAway() {
        if (state.compareAndSet(WORKING, WAITING)) {
          permit.release();
          return true;
        }
        return false;
      }
    }

    /**
     * Takes the lead from {@code turn} if it is still working, asking for a follower when nobody
     * waits for the lead; then clears the registration if it is still that turn's.
     */
    private void lost(Turn turn) {
      if (turn.takeAway() && !permit.hasQueuedThreads()) {
        noFollower.run();
      }
      working.compareAndSet(turn, null);
    }

    Turn turn() {
      return new Turn();
    }

    private void watch() {
      long seen = works;
      int quiet = 0;
      while (!closed) {
        Turn turn = working.get();
        if (turn != null && turn.state.get() == Turn.WORKING) {
          long late = System.nanoTime() - (turn.since + stuckNanos);
          if (late < 0) {
            LockSupport.parkNanos(this, -late);
          } else {
            lost(turn);
          }
          continue;
        }
        if (works != seen) {
          seen = works;
          quiet = 0;
        } else if (++quiet > QUIET_WAKES) {
          watchParked = true;
          if (works == seen && working.get() == null && !closed) {
            LockSupport.park(this);
          }
          watchParked = false;
          continue;
        }
        LockSupport.parkNanos(this, stuckNanos);
      }
    }

    /** Stops the watch. */
    void close() {
      closed = true;
      LockSupport.unpark(watch);
    }
  }
}

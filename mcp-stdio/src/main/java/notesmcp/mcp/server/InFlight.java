package notesmcp.mcp.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import notesmcp.jsonrpc.Message;
import notesmcp.jsonrpc.Message.Id;
import notesmcp.jsonrpc.Message.Request;
import notesmcp.jsonrpc.RpcException;

/**
 * The requests admitted and not yet answered: for each, one {@link Call}, which carries the request
 * and its cancellation, and the room it takes. At most {@code max} calls are worked on at once
 * (docs/behaviour.md, "Limits"); a request that finds no room within {@code admissionWait} is
 * refused {@code -32000}. A request holds its room until its reply is made (queued, not written),
 * so replies waiting for a slow client never take room.
 *
 * <p>Thread-safe without a lock of its own: a {@code ConcurrentHashMap} and a {@code Semaphore}.
 * Only the lead's holder admits and cancels; whichever thread answers a request marks it answered.
 */
final class InFlight {
  /** What the lead's holder hands itself to answer: one call, or a batch of them. */
  sealed interface Work permits Call, Batch {}

  /**
   * The requests of one JSON-RPC batch, admitted together before the first is answered, each with
   * its own {@link Call} and room; and the replies made so far (the errors of elements that were no
   * acceptable request are there from the start). Answered one after another by one thread; the
   * batch's reply, one array, leaves once every call is answered.
   */
  static final class Batch implements Work {
    final List<Call> calls = new ArrayList<>();
    final List<Message> replies = new ArrayList<>();
  }

  /**
   * One admitted request, the server's whole state of it while it is in flight. Its cancellation is
   * set by the thread holding the lead when {@code notifications/cancelled} names the request, and
   * read by the thread answering it, before the tool runs and again before the reply is sent (as a
   * {@link BooleanSupplier}, "cancelled?", it is what a tool is given). Not an interrupt: an
   * interrupt would close a {@code FileChannel} in the middle of a read.
   */
  static final class Call implements Work, BooleanSupplier {
    final Request request;
    private volatile boolean cancelled;
    private volatile String reason;

    Call(Request request) {
      this.request = request;
    }

    void cancel(String why) {
      reason = why;
      cancelled = true;
    }

    boolean isCancelled() {
      return cancelled;
    }

    @Override
    public boolean getAsBoolean() {
      return cancelled;
    }

    /** The reason the client gave, or null. */
    String reason() {
      return reason;
    }
  }

  private final Map<Id, Call> calls = new ConcurrentHashMap<>();
  private final Semaphore room;
  private final int max;
  private final Duration admissionWait;

  InFlight(int max, Duration admissionWait) {
    this.room = new Semaphore(max);
    this.max = max;
    this.admissionWait = admissionWait;
  }

  /**
   * Admits {@code request}, waiting up to {@code admissionWait} for room.
   *
   * @return its call, which its cancellation sets
   * @throws RpcException {@code -32600} if its id is in flight already, {@code -32000} if there was
   *     no room
   */
  Call admit(Request request) throws RpcException {
    return admit(request, true);
  }

  /**
   * Admits {@code request}; with {@code wait} false, only if there is room now (the rest of a batch
   * whose room ran out is refused at once, not a second at a time).
   */
  Call admit(Request request, boolean wait) throws RpcException {
    Call call = new Call(request);
    Id id = request.id();
    if (calls.putIfAbsent(id, call) != null) {
      throw new RpcException(ProtocolErrors.idInFlight(id));
    }
    if (!room.tryAcquire() && !(wait && waitForRoom())) {
      calls.remove(id, call);
      throw new RpcException(ProtocolErrors.overloaded(max));
    }
    return call;
  }

  private boolean waitForRoom() {
    try {
      return room.tryAcquire(admissionWait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Cancels the request with exactly this id, if it is in flight; returns its call, or null. */
  Call cancel(Id id, String reason) {
    Call call = calls.get(id);
    if (call != null) {
      call.cancel(reason);
    }
    return call;
  }

  /** The call's reply is made (or, cancelled, will never be): its id and room are free. */
  void answered(Call call) {
    calls.remove(call.request.id(), call);
    room.release();
  }

  /** Waits until every admitted request is answered; for the end of input. */
  void awaitAllAnswered() throws InterruptedException {
    room.acquire(max);
    room.release(max);
  }
}

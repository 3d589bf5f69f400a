package notesmcp.mcp.server;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import notesmcp.jsonrpc.Id;
import notesmcp.jsonrpc.RpcException;

/**
 * The requests admitted and not yet answered: their ids, the token each one's cancellation sets,
 * and the room they take. CONTRACT §5: at most {@code max} calls are worked on at once; a request
 * that finds no room within {@code admissionWait} is refused {@code -32000}. A request holds its
 * room until its reply is made (queued, not written), so replies waiting for a slow client never
 * take room.
 *
 * <p>Thread-safe without a lock of its own: a {@code ConcurrentHashMap} and a {@code Semaphore}.
 * Only the lead's holder admits and cancels; whichever thread answers a request marks it answered.
 */
final class InFlight {
  private final Map<Id, CancelToken> tokens = new ConcurrentHashMap<>();
  private final Semaphore room;
  private final int max;
  private final Duration admissionWait;

  InFlight(int max, Duration admissionWait) {
    this.room = new Semaphore(max);
    this.max = max;
    this.admissionWait = admissionWait;
  }

  /**
   * Admits the request {@code id}, waiting up to {@code admissionWait} for room.
   *
   * @return the token its cancellation sets
   * @throws RpcException {@code -32600} if the id is in flight already, {@code -32000} if there was
   *     no room
   */
  CancelToken admit(Id id) throws RpcException {
    CancelToken token = new CancelToken();
    if (tokens.putIfAbsent(id, token) != null) {
      throw new RpcException(ProtocolErrors.idInFlight(id));
    }
    if (!room.tryAcquire() && !waitForRoom()) {
      tokens.remove(id, token);
      throw new RpcException(ProtocolErrors.overloaded(max));
    }
    return token;
  }

  private boolean waitForRoom() {
    try {
      return room.tryAcquire(admissionWait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Cancels the request with exactly this id, if it is in flight; returns its token, or null. */
  CancelToken cancel(Id id, String reason) {
    CancelToken token = tokens.get(id);
    if (token != null) {
      token.cancel(reason);
    }
    return token;
  }

  /** The request's reply is made (or, cancelled, will never be): its id and room are free. */
  void answered(Id id, CancelToken token) {
    tokens.remove(id, token);
    room.release();
  }

  /** Waits until every admitted request is answered; for the end of input. */
  void awaitAllAnswered() throws InterruptedException {
    room.acquire(max);
    room.release(max);
  }
}

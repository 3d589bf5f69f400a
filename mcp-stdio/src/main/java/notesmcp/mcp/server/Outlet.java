package notesmcp.mcp.server;

/**
 * Where the messages of a change stream go: stdout for every stream of a stdio server; one SSE
 * response for each {@code subscriptions/listen} stream of an HTTP server, and a session's GET
 * stream for its legacy subscriptions. Only the notifier thread of {@link Subscriptions} and the
 * thread that opens a stream add to an outlet, under the subscriptions lock; so {@link #add} and
 * {@link #hasRoom} must never block.
 */
public interface Outlet {
  /** Whether more may be queued now; an outlet without room keeps its changes coalesced. */
  boolean hasRoom();

  /** Queues one encoded JSON-RPC message; never blocks. */
  void add(byte[] message);

  /**
   * Sends what is queued. Called by the notifier with no lock held: stdio's writes, and returns
   * once at most its room's worth of bytes waits (back-pressure); an HTTP outlet starts its writes
   * and returns at once, and tells {@link Core#roomMade} when it has room again.
   */
  void flush();

  /** The stream's last message is queued: once it is sent, the stream ends (HTTP: the response). */
  void end();
}

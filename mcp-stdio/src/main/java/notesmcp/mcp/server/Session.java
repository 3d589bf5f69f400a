package notesmcp.mcp.server;

import notesmcp.mcp.Protocol.Implementation;

/**
 * The state of one legacy (2025) session: the revision its {@code initialize} negotiated and the
 * client's self-reported {@code clientInfo}, both null until then. A stdio server has one session
 * for its whole life; an HTTP server one per {@code Mcp-Session-Id}. Requests of 2026-07-28 are
 * served statelessly and read nothing here. The session's {@code resources/subscribe} URIs are kept
 * by {@link Subscriptions}, keyed by this object, and told on {@link #outlet} (null while an HTTP
 * session has no GET stream open).
 *
 * <p>Written by the thread answering {@code initialize}, read by any: the fields are volatile. A
 * request read after an {@code initialize} that is still being answered waits for it ({@link
 * #versionOnceInitialized}): a client that sends its next requests right behind {@code initialize}
 * gets them answered in the session it negotiated, whichever thread answers first.
 */
public final class Session {
  private volatile String version;
  private volatile Implementation client;
  volatile Outlet outlet; // written under the subscriptions lock
  private int initializing; // initialize requests read and not yet answered; guarded by this

  Session(Outlet outlet) {
    this.outlet = outlet;
  }

  /** The legacy revision {@code initialize} negotiated, or null before it. */
  public String version() {
    return version;
  }

  /** The client's self-reported identity from {@code initialize}, or null. */
  public Implementation client() {
    return client;
  }

  void initialized(String version, Implementation client) {
    this.client = client;
    this.version = version;
  }

  /** An {@code initialize} was read: requests read after it wait for its answer. */
  synchronized void initializeRead() {
    initializing++;
  }

  /** That {@code initialize} is answered (negotiated, refused or dropped). */
  synchronized void initializeAnswered() {
    if (initializing > 0) {
      initializing--;
    }
    notifyAll();
  }

  /**
   * The negotiated revision; while an {@code initialize} read before is still being answered, waits
   * for it, at most {@code maxMillis}. Null when none was negotiated.
   */
  String versionOnceInitialized(long maxMillis) {
    String known = version;
    if (known != null) {
      return known;
    }
    long deadline = System.nanoTime() + maxMillis * 1_000_000L;
    synchronized (this) {
      while (version == null && initializing > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        try {
          wait(Math.max(1, left / 1_000_000L));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    return version;
  }
}

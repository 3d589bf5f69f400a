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
 * <p>Written by the thread answering {@code initialize}, read by any: the fields are volatile.
 */
public final class Session {
  private volatile String version;
  private volatile Implementation client;
  volatile Outlet outlet; // written under the subscriptions lock

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
}

package notesmcp.mcp.server;

import java.util.function.BooleanSupplier;

/**
 * One request's circumstances, as its transport hands them to the {@link Core} with the request:
 * the session it belongs to (the legacy era's state; stdio has one), the caller the transport
 * authenticated (null over stdio), where a {@code subscriptions/listen} stream it opens sends its
 * messages, and whether the client cancelled it ({@link #getAsBoolean}: stdio's {@code
 * notifications/cancelled}, or an HTTP client closing its response stream).
 */
public final class Exchange implements BooleanSupplier {
  private final Session session;
  private final Caller caller;
  private final Outlet outlet;
  private final BooleanSupplier cancelled;

  public Exchange(Session session, Caller caller, Outlet outlet, BooleanSupplier cancelled) {
    this.session = session;
    this.caller = caller;
    this.outlet = outlet;
    this.cancelled = cancelled;
  }

  public Session session() {
    return session;
  }

  /** The authenticated caller, or null (stdio). */
  public Caller caller() {
    return caller;
  }

  public Outlet outlet() {
    return outlet;
  }

  /** True once the client cancelled the request. */
  @Override
  public boolean getAsBoolean() {
    return cancelled.getAsBoolean();
  }
}

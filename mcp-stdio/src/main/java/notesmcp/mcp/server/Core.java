package notesmcp.mcp.server;

import java.io.PrintStream;
import notesmcp.jsonrpc.Message;
import notesmcp.jsonrpc.Message.ErrorObject;
import notesmcp.jsonrpc.Message.Id;
import notesmcp.jsonrpc.Message.Request;
import notesmcp.mcp.Protocol;
import notesmcp.mcp.Protocol.Implementation;

/**
 * The server behind every door: one {@link Dispatcher} with its tools and resources, one {@link
 * Subscriptions} that tells every stream of changes. A transport (stdio's {@link Server}, or the
 * Streamable HTTP transport of module mcp-http) reads messages, decides who sent them, and hands
 * each request here with its {@link Exchange}; so every tool, resource, limit and refusal is the
 * same whichever door a request came in by. Thread-safe: any transport thread may call.
 */
public final class Core {
  private final Dispatcher dispatcher;
  private final Subscriptions subscriptions; // null: no resources

  /**
   * @param resources the resources offered, or null for none (then their methods are not found)
   * @param info the server's name and version, as every reply that carries them says
   * @param instructions what discovery and {@code initialize} tell the client, or null
   */
  public Core(
      Tools tools, Resources resources, Implementation info, String instructions, PrintStream log) {
    this.subscriptions = resources == null ? null : new Subscriptions(resources, info, log);
    this.dispatcher =
        new Dispatcher(
            tools,
            resources == null ? null : new ResourceMethods(resources, subscriptions),
            info,
            instructions,
            log);
  }

  /**
   * A new legacy session, whose notifications go to {@code outlet} (stdio's stdout; null for an
   * HTTP session until it opens its GET stream: {@link #attach}).
   */
  public Session newSession(Outlet outlet) {
    return new Session(outlet);
  }

  /**
   * The reply to {@code request}: a result or an error reply; null when the request was cancelled
   * before it ran, or when it opened a {@code subscriptions/listen} stream on the exchange's outlet
   * (whose reply comes when the server ends it).
   */
  public Message reply(Request request, Exchange exchange) {
    return dispatcher.reply(request, exchange);
  }

  /** Whether {@code session} takes JSON-RPC batches now: it negotiated 2025-03-26. */
  public boolean servesBatches(Session session) {
    return Protocol.hasBatches(session.version());
  }

  /**
   * Whether the tool {@code name} may be called by a caller whose scopes allow read-only tools
   * only: true when it exists and its {@code readOnlyHint} is true; false for any other tool, which
   * such a caller is refused. Null when no tool has that name.
   */
  public Boolean isReadOnlyTool(String name) {
    Tools.Tool tool = dispatcher.tool(name);
    return tool == null ? null : tool.isReadOnly();
  }

  /**
   * The error a request earns before its method runs: an unknown method ({@code -32601}), missing
   * or malformed per-request {@code _meta} ({@code -32602}), an unsupported version ({@code
   * -32022}); null when its method may run. For a transport that answers these with a status of
   * their own (HTTP: 404 and 400) before it admits the request.
   */
  public ErrorObject precheck(Request request, Session session) {
    return dispatcher.precheck(request, session);
  }

  /** Whether {@code method} is served in that era ({@code -32601} otherwise). */
  public boolean serves(String method, boolean modern) {
    return dispatcher.serves(method, modern);
  }

  /** Whether a {@code subscriptions/listen} stream with this id is open on this outlet. */
  public boolean isStreamOpen(Outlet outlet, Id id) {
    return subscriptions != null && subscriptions.isOpen(outlet, id);
  }

  /**
   * The client ended the stream with this id on this outlet (stdio: {@code
   * notifications/cancelled}; HTTP: it closed the response): nothing more is sent on it. True if it
   * was open.
   */
  public boolean cancelStream(Outlet outlet, Id id) {
    return subscriptions != null && subscriptions.cancel(outlet, id);
  }

  /** How many {@code subscriptions/listen} streams are open in this server. */
  public int openStreams() {
    return subscriptions == null ? 0 : subscriptions.openStreams();
  }

  /** Where {@code session}'s legacy notifications go from now on; null: nowhere for now. */
  public void attach(Session session, Outlet outlet) {
    if (subscriptions != null) {
      subscriptions.attach(session, outlet);
    } else {
      session.outlet = outlet;
    }
  }

  /** The session ended: its legacy subscriptions end with it. */
  public void endSession(Session session) {
    if (subscriptions != null) {
      subscriptions.forget(session);
    }
  }

  /** An outlet that had no room has room again. */
  public void roomMade() {
    if (subscriptions != null) {
      subscriptions.roomMade();
    }
  }

  /**
   * Ends every open stream with its closing result (end of input, SIGTERM, an HTTP server's stop);
   * returns at once, the notifier sends them.
   */
  public void endAllStreams() {
    if (subscriptions != null) {
      subscriptions.endAll();
    }
  }
}

package notesmcp.mcp.server;

import java.util.List;
import java.util.concurrent.CancellationException;
import notesmcp.mcp.Implementation;

/**
 * The tools a server offers: the seam between this protocol layer, which knows no notes, and the
 * program that adapts a policy to it. Called by whichever server thread answers a request, by
 * several at once when calls are slow (see CONCURRENCY.md): an implementation serializes its own
 * state.
 */
public interface Tools {
  /** The tools, in a fixed order. */
  List<Tool> list();

  /**
   * Calls {@code name}, one of {@link #list()}.
   *
   * @param rawArguments the arguments object exactly as received, or null when omitted
   * @param client the name and version the client reported for itself, or null when it reported
   *     none: {@code _meta["io.modelcontextprotocol/clientInfo"]} of a 2026-07-28 request, or the
   *     {@code clientInfo} of a legacy session's {@code initialize}. Self-reported, never verified:
   *     fit for a record or a log, never for a decision.
   * @param token cancelled when the client cancels; checked before anything runs
   * @throws CancellationException if the call was cancelled before it ran
   */
  ToolResult call(String name, String rawArguments, Implementation client, CancelToken token);
}

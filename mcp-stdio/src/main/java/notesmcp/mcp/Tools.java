package notesmcp.mcp;

import java.util.List;
import java.util.concurrent.CancellationException;

/**
 * The tools a server offers: the seam between this protocol layer, which knows no notes, and the
 * program that adapts a policy to it. Called from several worker threads at once.
 */
public interface Tools {
  /** The tools, in a fixed order. */
  List<Tool> list();

  /**
   * Calls {@code name}, one of {@link #list()}.
   *
   * @param rawArguments the arguments object exactly as received, or null when omitted
   * @param token cancelled when the client cancels; checked before anything runs
   * @throws CancellationException if the call was cancelled before it ran
   */
  ToolResult call(String name, String rawArguments, CancelToken token);
}

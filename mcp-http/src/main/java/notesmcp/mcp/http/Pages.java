package notesmcp.mcp.http;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * What the program serves beside {@code /mcp} on the same door: every request for another path,
 * once its {@code Host} passed the door's check (its {@code Origin} is the pages' to judge: some
 * take cross-origin requests, a form takes none). The door's limits apply to them as to {@code
 * /mcp} (header size, connections, body rate, quiet connections). Called on Jetty's threads, any
 * number at once.
 */
public interface Pages {
  /**
   * Called once, when the door knows its port and before any request reaches {@link #handle} or the
   * door's authenticator.
   *
   * @param mcp where {@code /mcp} is reached, as the door says on stderr
   */
  void listening(String mcp);

  /**
   * Serves a request for a path other than {@code /mcp}; false when no page has that path (the door
   * answers 404).
   */
  boolean handle(Request request, Response response, Callback callback) throws Exception;
}

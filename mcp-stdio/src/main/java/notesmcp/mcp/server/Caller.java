package notesmcp.mcp.server;

import java.util.Set;

/**
 * Who sent a request, as its transport established it: the name of the credential that
 * authenticated it (a token's name, never the token), the scopes it grants, whether those let it
 * call only read-only tools, and the peer's address. Unlike the client's self-reported {@code
 * clientInfo}, this was checked by the transport: fit for decisions (whose session, whose proposal)
 * and for records. Null over stdio, where the one client is whoever started the process.
 *
 * @param readOnly true when the scopes lack the one that allows tools whose {@code
 *     annotations.readOnlyHint} is not true: such a caller sees and calls read-only tools only
 * @param peer the peer's address as the transport saw it (for an HTTP server, the TCP peer)
 */
public record Caller(String name, Set<String> scopes, boolean readOnly, String peer) {
  public Caller {
    scopes = Set.copyOf(scopes);
  }
}

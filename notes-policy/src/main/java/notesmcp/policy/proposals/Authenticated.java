package notesmcp.policy.proposals;

/**
 * Who a call came from as its transport authenticated it: the name of the credential (a token's
 * name, never the token; null when the HTTP server runs with {@code -auth none}) and the peer's
 * address. Unlike {@link Requester}, it was checked: it decides whose a proposal is. Null over
 * stdio.
 */
public record Authenticated(String name, String peer) {
  /** The credential's name, or null for a call no transport authenticated. */
  public static String nameOf(Authenticated who) {
    return who == null ? null : who.name();
  }
}

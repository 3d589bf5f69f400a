package notesmcp.mcp.server;

/**
 * Decides who sent an HTTP request from its credentials: the seam between a transport that carries
 * them ({@code Authorization}) and the program that knows whose they are. A bearer-token store is
 * one implementation; an OAuth resource server's check of an access token (its signature, issuer,
 * audience, expiry) is another, beside it. Called on a transport thread for every request, before
 * anything of the request is looked at but its Host and Origin: it must be quick, and thread-safe.
 */
public interface Authenticator {
  /**
   * The caller who sent {@code authorization} from {@code peer}, or why not.
   *
   * @param authorization the {@code Authorization} header's value, or null when there is none
   * @param peer the peer's address, for the caller and the records
   */
  Verdict authenticate(String authorization, String peer);

  /**
   * The {@code WWW-Authenticate} value of a 403 for a call outside the caller's scopes (a tool that
   * is not read-only, called with a credential that allows read-only tools only): {@code Bearer
   * error="insufficient_scope", scope="..."} and whatever else the scheme adds.
   */
  String insufficientScope();

  /** An authenticated caller, or a refusal with its HTTP status, challenge and reason. */
  final class Verdict {
    private final Caller caller;
    private final int status;
    private final String challenge;
    private final String reason;

    private Verdict(Caller caller, int status, String challenge, String reason) {
      this.caller = caller;
      this.status = status;
      this.challenge = challenge;
      this.reason = reason;
    }

    public static Verdict allowed(Caller caller) {
      return new Verdict(caller, 200, null, null);
    }

    /**
     * @param status 401 (no credential, or one that is not valid) or 403
     * @param challenge the {@code WWW-Authenticate} value
     * @param reason one sentence for the JSON-RPC error's message; never the credential itself
     */
    public static Verdict refused(int status, String challenge, String reason) {
      return new Verdict(null, status, challenge, reason);
    }

    /** The caller, or null when refused. */
    public Caller caller() {
      return caller;
    }

    public int status() {
      return status;
    }

    public String challenge() {
      return challenge;
    }

    public String reason() {
      return reason;
    }
  }
}

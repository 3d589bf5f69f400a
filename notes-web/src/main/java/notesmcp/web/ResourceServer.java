package notesmcp.web;

import com.nimbusds.jwt.JWTClaimsSet;
import java.text.ParseException;
import java.time.Instant;
import java.util.Set;
import notesmcp.mcp.server.Authenticator;
import notesmcp.mcp.server.Caller;

/**
 * {@code /mcp} as an OAuth resource server (docs/oauth.md, "The resource server"): a request's
 * {@code Authorization: Bearer} must hold an access token {@link AccessTokens} verifies (signature,
 * {@code typ}, issuer, audience, expiry) and, from the built-in server, of a grant that is still
 * live; its {@code scope} decides what the caller may do: {@value #PROPOSE} calls every tool,
 * {@value #READ} the read-only ones (the door answers 403 {@code insufficient_scope} for the rest),
 * and a token with neither is refused. The caller is named {@code oauth:CLIENT_ID}, which no token
 * of the tokens file can be named, so its legacy sessions and proposals are its own.
 *
 * <p>With {@code -tokens FILE} beside {@code -auth oauth}, a bearer token of that file's form
 * ({@code nmcp_...}) is checked by the tokens file instead, exactly as under {@code -auth token}. A
 * refusal answers 401 with {@code WWW-Authenticate: Bearer resource_metadata="...", scope="..."}
 * (RFC 9728, RFC 6750), from which a client finds the authorization server. Nothing else of a
 * request is read: not a cookie. Thread-safe.
 */
final class ResourceServer implements Authenticator {
  static final String READ = "notes:read";
  static final String PROPOSE = "notes:propose";
  static final String SCOPES = READ + " " + PROPOSE;
  static final String CALLER_PREFIX = "oauth:";

  private final Authenticator tokensFile; // null: OAuth only
  private final boolean builtIn;
  private volatile Issuer issuer;
  private volatile AccessTokens tokens;
  private volatile Grants grants;

  ResourceServer(Authenticator tokensFile, boolean builtIn) {
    this.tokensFile = tokensFile;
    this.builtIn = builtIn;
  }

  /** Called once the issuer is known, before any request is authenticated. */
  void ready(Issuer issuer, AccessTokens tokens, Grants grants) {
    this.grants = grants;
    this.tokens = tokens;
    this.issuer = issuer;
  }

  private String challenge(String error) {
    return "Bearer resource_metadata=\""
        + issuer.resourceMetadata()
        + "\", scope=\""
        + SCOPES
        + "\""
        + (error == null ? "" : ", error=\"" + error + "\"");
  }

  @Override
  public Verdict authenticate(String authorization, String peer) {
    if (authorization == null) {
      return Verdict.refused(401, challenge(null), "this server needs an OAuth access token");
    }
    String token = bearer(authorization);
    if (token == null) {
      return Verdict.refused(
          401, challenge("invalid_request"), "the Authorization header is not 'Bearer TOKEN'");
    }
    if (tokensFile != null && token.startsWith("nmcp_")) {
      return tokensFile.authenticate(authorization, peer);
    }
    AccessTokens.Checked checked = tokens.verify(token);
    if (checked.problem != null) {
      return Verdict.refused(401, challenge("invalid_token"), checked.problem);
    }
    JWTClaimsSet claims = checked.claims;
    String clientId;
    String scope;
    try {
      clientId = claims.getStringClaim("client_id");
      scope = claims.getStringClaim("scope");
      if (builtIn) {
        String grant = claims.getStringClaim(AccessTokens.GRANT_CLAIM);
        if (grant == null || !grants.isLive(grant, Instant.now())) {
          return Verdict.refused(
              401, challenge("invalid_token"), "the access token's grant was revoked or expired");
        }
      }
    } catch (ParseException e) {
      return Verdict.refused(
          401, challenge("invalid_token"), "the access token's claims are not strings");
    }
    if (clientId == null || clientId.isEmpty()) {
      return Verdict.refused(401, challenge("invalid_token"), "the access token names no client");
    }
    boolean read = false;
    boolean propose = false;
    for (String one : (scope == null ? "" : scope).split(" ")) {
      read |= one.equals(READ);
      propose |= one.equals(PROPOSE);
    }
    if (!read && !propose) {
      return Verdict.refused(
          403,
          "Bearer error=\"insufficient_scope\", scope=\""
              + SCOPES
              + "\", resource_metadata=\""
              + issuer.resourceMetadata()
              + "\"",
          "the access token grants neither " + READ + " nor " + PROPOSE);
    }
    // notes:propose implies notes:read: a broader scope holds the narrower one.
    Set<String> scopes = propose ? Set.of(READ, PROPOSE) : Set.of(READ);
    return Verdict.allowed(new Caller(CALLER_PREFIX + clientId, scopes, !propose, peer));
  }

  @Override
  public String insufficientScope() {
    return "Bearer error=\"insufficient_scope\", scope=\""
        + PROPOSE
        + "\", resource_metadata=\""
        + issuer.resourceMetadata()
        + "\"";
  }

  /** The token of {@code Bearer TOKEN} (the scheme in any case), or null. */
  static String bearer(String authorization) {
    String value = authorization.trim();
    int space = value.indexOf(' ');
    if (space < 0 || !value.substring(0, space).equalsIgnoreCase("Bearer")) {
      return null;
    }
    String token = value.substring(space + 1).trim();
    return token.isEmpty() || token.indexOf(' ') >= 0 ? null : token;
  }
}

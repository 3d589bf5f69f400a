package notesmcp.web;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.nimbusds.jwt.proc.ExpiredJWTException;
import java.security.SecureRandom;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import notesmcp.text.TerminalText;

/**
 * Access tokens (docs/oauth.md, "Access tokens"): JWTs of RFC 9068, {@code typ} {@code at+jwt},
 * signed ES256 by the built-in authorization server, with {@code iss}, {@code aud} (the resource's
 * canonical URI), {@code sub} (the owner), {@code client_id}, {@code scope}, {@code jti}, {@code
 * iat}, {@code nbf}, {@code exp} and {@code grant_id} (the grant they came from, which the resource
 * server checks is still live).
 *
 * <p>Every token a request presents is verified by Nimbus's {@link DefaultJWTProcessor}: the
 * header's {@code typ} must be {@code at+jwt}; the algorithm is pinned (ES256 for the built-in
 * server; for an external one, the asymmetric algorithms it may sign with), so {@code alg: none}
 * and an HMAC signed with a public key are refused before any key is looked at; then the signature;
 * then the claims: {@code iss} exactly, {@code aud} holding the resource, {@code exp} and {@code
 * nbf} with {@value #CLOCK_SKEW_SECONDS} s of skew, and every claim this server reads present.
 * Thread-safe.
 */
final class AccessTokens {
  /** How long an access token lives. */
  static final Duration LIFETIME = Duration.ofMinutes(10);

  static final int CLOCK_SKEW_SECONDS = 30;

  static final JOSEObjectType TYPE = new JOSEObjectType("at+jwt");

  /** The owner, as every token of the built-in server names its subject. */
  static final String OWNER = "owner";

  static final String GRANT_CLAIM = "grant_id";

  /** Algorithms an external authorization server may sign with; never HMAC, never none. */
  static final Set<JWSAlgorithm> EXTERNAL_ALGORITHMS =
      Set.of(
          JWSAlgorithm.RS256,
          JWSAlgorithm.PS256,
          JWSAlgorithm.ES256,
          JWSAlgorithm.ES384,
          JWSAlgorithm.EdDSA,
          JWSAlgorithm.Ed25519);

  private static final SecureRandom RANDOM = new SecureRandom();

  private final Issuer issuer;
  private final ECKey key; // null: an external server signs
  private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();

  private AccessTokens(
      Issuer issuer, ECKey key, JWKSource<SecurityContext> keys, Set<JWSAlgorithm> algorithms) {
    this.issuer = issuer;
    this.key = key;
    processor.setJWSTypeVerifier(
        new DefaultJOSEObjectTypeVerifier<>(TYPE, new JOSEObjectType("application/at+jwt")));
    processor.setJWSKeySelector(new JWSVerificationKeySelector<>(algorithms, keys));
    Set<String> required =
        new LinkedHashSet<>(List.of("iss", "aud", "exp", "iat", "sub", "client_id", "jti"));
    if (key != null) {
      required.add(GRANT_CLAIM);
      required.add("nbf");
    }
    DefaultJWTClaimsVerifier<SecurityContext> claims =
        new DefaultJWTClaimsVerifier<>(
            Set.of(issuer.resource()),
            new JWTClaimsSet.Builder().issuer(issuer.value()).build(),
            required,
            Set.of());
    claims.setMaxClockSkew(CLOCK_SKEW_SECONDS);
    processor.setJWTClaimsSetVerifier(claims);
  }

  /** The built-in server's tokens, signed and verified with {@code key}. */
  static AccessTokens builtIn(Issuer issuer, ECKey key) {
    return new AccessTokens(
        issuer,
        key,
        new ImmutableJWKSet<>(new JWKSet(key.toPublicJWK())),
        Set.of(JWSAlgorithm.ES256));
  }

  /** An external server's tokens, verified with the keys {@code keys} fetches. */
  static AccessTokens external(Issuer issuer, JWKSource<SecurityContext> keys) {
    return new AccessTokens(issuer, null, keys, EXTERNAL_ALGORITHMS);
  }

  /** A new access token of {@code grant} for {@code clientId}, with {@code scope}. */
  String mint(String grant, String clientId, String scope, Instant now) {
    byte[] id = new byte[16];
    RANDOM.nextBytes(id);
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .issuer(issuer.value())
            .audience(issuer.resource())
            .subject(OWNER)
            .claim("client_id", clientId)
            .claim("scope", scope)
            .claim(GRANT_CLAIM, grant)
            .jwtID(Base64.getUrlEncoder().withoutPadding().encodeToString(id))
            .issueTime(Date.from(now))
            .notBeforeTime(Date.from(now))
            .expirationTime(Date.from(now.plus(LIFETIME)))
            .build();
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.ES256).type(TYPE).keyID(key.getKeyID()).build(),
            claims);
    try {
      jwt.sign(new ECDSASigner(key));
    } catch (JOSEException e) {
      throw new IllegalStateException("signing an access token failed", e);
    }
    return jwt.serialize();
  }

  /** A verified token's claims, or why it was refused (one phrase, never the token). */
  static final class Checked {
    final JWTClaimsSet claims;
    final String problem;

    private Checked(JWTClaimsSet claims, String problem) {
      this.claims = claims;
      this.problem = problem;
    }
  }

  Checked verify(String token) {
    try {
      return new Checked(processor.process(token, null), null);
    } catch (ExpiredJWTException e) {
      return new Checked(null, "the access token has expired");
    } catch (BadJWTException e) {
      return new Checked(null, "the access token is not valid here (" + said(e) + ")");
    } catch (BadJOSEException e) {
      return new Checked(null, "the access token is refused (" + said(e) + ")");
    } catch (ParseException e) {
      return new Checked(null, "the access token is not a JWT");
    } catch (JOSEException e) {
      return new Checked(null, "the access token's keys could not be had (" + said(e) + ")");
    } catch (RuntimeException e) {
      return new Checked(null, "the access token is malformed");
    }
  }

  /** What Nimbus said, which may quote the token's claims: escaped and cut, for one line. */
  private static String said(Exception e) {
    return TerminalText.escaped(String.valueOf(e.getMessage()), 160, false);
  }
}

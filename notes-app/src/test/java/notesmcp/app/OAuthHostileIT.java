package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The OAuth side under attack, against the real executable (docs/oauth.md, "What is refused"): each
 * attempt is refused with the right status, nothing is redirected that should not be, and nothing
 * is written (no grant, no proposal).
 */
class OAuthHostileIT {
  @TempDir Path dir;

  private static final String REDIRECT = "http://127.0.0.1:9/callback";

  private static void nothingProposed(OAuthWire oauth) throws Exception {
    try (Stream<Path> kept = Files.list(oauth.proposals)) {
      assertThat(kept.filter(p -> p.toString().endsWith(".json"))).isEmpty();
    }
  }

  private static List<String> grantIds(OAuthWire oauth) throws Exception {
    Path file = oauth.state().resolve("grants.json");
    if (!Files.exists(file)) {
      return List.of();
    }
    return HttpWire.JSON.readTree(Files.readString(file)).get("grants").findValuesAsString("id");
  }

  @Test
  void pkceMissingOrPlainAndAnUnregisteredRedirectAreRefusedOnAPageNeverByARedirect()
      throws Exception {
    try (OAuthWire oauth = OAuthWire.start(dir)) {
      String client = oauth.register("Client", REDIRECT);
      String cookie = oauth.signIn();

      OAuthWire.Page missing =
          oauth.get(
              "/authorize?" + oauth.authorizeQuery(client, REDIRECT, null, "s", null), cookie);
      OAuthWire.Pkce pkce = OAuthWire.Pkce.make();
      OAuthWire.Page plain =
          oauth.get(
              "/authorize?"
                  + oauth
                      .authorizeQuery(client, REDIRECT, pkce, "s", null)
                      .replace("code_challenge_method=S256", "code_challenge_method=plain"),
              cookie);
      for (OAuthWire.Page page : List.of(missing, plain)) {
        assertThat(page.status()).isEqualTo(400);
        assertThat(page.header("Location")).isNull();
        assertThat(page.body()).doesNotContain("name=\"approve\"");
        // The error goes back only by a link the owner follows, with iss and state.
        assertThat(page.body())
            .contains("href=\"http://127.0.0.1:9/callback?")
            .contains("error=invalid_request")
            .contains("state=s")
            .contains("iss=" + java.net.URLEncoder.encode(oauth.base, StandardCharsets.UTF_8));
      }

      OAuthWire.Page elsewhere =
          oauth.get(
              "/authorize?"
                  + oauth.authorizeQuery(client, "https://attacker.example/cb", pkce, "s", null),
              cookie);
      assertThat(elsewhere.status()).isEqualTo(400);
      assertThat(elsewhere.header("Location")).isNull();
      assertThat(elsewhere.body()).doesNotContain("href=").doesNotContain("attacker.example");

      OAuthWire.Page unknown =
          oauth.get(
              "/authorize?" + oauth.authorizeQuery("c_nobody", REDIRECT, pkce, "s", null), cookie);
      assertThat(unknown.status()).isEqualTo(400);
      assertThat(unknown.header("Location")).isNull();

      OAuthWire.Page otherResource =
          oauth.get(
              "/authorize?"
                  + oauth
                      .authorizeQuery(client, REDIRECT, pkce, "s", null)
                      .replace("resource=", "resource=https%3A%2F%2Fother.example%2Fmcp&x="),
              cookie);
      assertThat(otherResource.status()).isEqualTo(400);
      assertThat(otherResource.body()).contains("error=invalid_target");
      assertThat(grantIds(oauth)).isEmpty();
    }
  }

  @Test
  void aReplayedCodeFailsAndRevokesWhatItIssuedAndAWrongVerifierGetsNothing() throws Exception {
    try (OAuthWire oauth = OAuthWire.start(dir)) {
      String client = oauth.register("Client", REDIRECT);
      String cookie = oauth.signIn();

      OAuthWire.Pkce pkce = OAuthWire.Pkce.make();
      Map<String, String> back =
          oauth.approve(
              cookie,
              oauth.consent(cookie, oauth.authorizeQuery(client, REDIRECT, pkce, "a", null)),
              true);
      OAuthWire.Page wrong =
          oauth.exchange(client, REDIRECT, back.get("code"), OAuthWire.Pkce.make().verifier());
      assertThat(wrong.status()).isEqualTo(400);
      assertThat(wrong.json().get("error").stringValue()).isEqualTo("invalid_grant");
      // The code is used up by that attempt: the right verifier after it gets nothing either.
      assertThat(oauth.exchange(client, REDIRECT, back.get("code"), pkce.verifier()).status())
          .isEqualTo(400);
      assertThat(grantIds(oauth)).isEmpty();

      OAuthWire.Pkce second = OAuthWire.Pkce.make();
      Map<String, String> again =
          oauth.approve(
              cookie,
              oauth.consent(cookie, oauth.authorizeQuery(client, REDIRECT, second, "b", null)),
              true);
      OAuthWire.Page first = oauth.exchange(client, REDIRECT, again.get("code"), second.verifier());
      assertThat(first.status()).isEqualTo(200);
      String access = first.json().get("access_token").stringValue();
      assertThat(grantIds(oauth)).hasSize(1);

      OAuthWire.Page replayed =
          oauth.exchange(client, REDIRECT, again.get("code"), second.verifier());
      assertThat(replayed.status()).isEqualTo(400);
      assertThat(replayed.json().get("error").stringValue()).isEqualTo("invalid_grant");
      assertThat(grantIds(oauth)).isEmpty();
      assertThat(oauth.server.call(access, "read_note", "{\"path\":\"notes.txt\"}").status())
          .isEqualTo(401);
      assertThat(
              oauth
                  .refresh(client, first.json().get("refresh_token").stringValue())
                  .json()
                  .get("error")
                  .stringValue())
          .isEqualTo("invalid_grant");
    }
  }

  @Test
  void aRefreshTokenUsedAgainAfterRotationKillsTheWholeGrant() throws Exception {
    try (OAuthWire oauth = OAuthWire.start(dir)) {
      JsonNode tokens = oauth.authorize("Client", REDIRECT, true);
      String client = tokens.get("client_id").stringValue();
      String r1 = tokens.get("refresh_token").stringValue();
      OAuthWire.Page rotated = oauth.refresh(client, r1);
      assertThat(rotated.status()).isEqualTo(200);
      String r2 = rotated.json().get("refresh_token").stringValue();
      String access = rotated.json().get("access_token").stringValue();

      OAuthWire.Page reused = oauth.refresh(client, r1);
      assertThat(reused.status()).isEqualTo(400);
      assertThat(reused.json().get("error").stringValue()).isEqualTo("invalid_grant");
      assertThat(oauth.refresh(client, r2).json().get("error").stringValue())
          .isEqualTo("invalid_grant");
      assertThat(oauth.server.call(access, "read_note", "{\"path\":\"notes.txt\"}").status())
          .isEqualTo(401);
      assertThat(grantIds(oauth)).isEmpty();
      assertThat(oauth.server.stderr()).contains("was presented again: the grant is revoked");
    }
  }

  @Test
  void forgedAccessTokensAreRefused() throws Exception {
    try (OAuthWire oauth = OAuthWire.start(dir)) {
      JsonNode tokens = oauth.authorize("Client", REDIRECT, true);
      String real = tokens.get("access_token").stringValue();
      JWTClaimsSet claims = SignedJWT.parse(real).getJWTClaimsSet();
      ECKey key = ECKey.parse(Files.readString(oauth.state().resolve("signing-key.jwk")));
      Instant now = Instant.now();

      List<String> forged =
          List.of(
              // Signed with the server's own key: the claims alone must refuse them.
              sign(key, new JWTClaimsSet.Builder(claims).audience("https://other.example/mcp")),
              sign(key, new JWTClaimsSet.Builder(claims).issuer("https://other.example")),
              sign(
                  key,
                  new JWTClaimsSet.Builder(claims)
                      .issueTime(Date.from(now.minusSeconds(7200)))
                      .notBeforeTime(Date.from(now.minusSeconds(7200)))
                      .expirationTime(Date.from(now.minusSeconds(3600)))),
              sign(
                  key,
                  new JWTClaimsSet.Builder(claims).notBeforeTime(Date.from(now.plusSeconds(3600)))),
              sign(key, new JWTClaimsSet.Builder(claims).claim("grant_id", "g_revoked")),
              signTyped(key, claims, JOSEObjectType.JWT),
              // Another key under the server's key id.
              sign(
                  new ECKeyGenerator(Curve.P_256).keyID(key.getKeyID()).generate(),
                  new JWTClaimsSet.Builder(claims)),
              // alg none, and HS256 keyed with the server's public key (algorithm confusion).
              unsigned(claims),
              hmacWithPublicKey(key, claims));
      for (String token : forged) {
        HttpWire.Reply reply =
            oauth.server.call(
                token, "propose_note", "{\"path\":\"draft.txt\",\"content\":\"forged\"}");
        assertThat(reply.status()).as(token).isEqualTo(401);
        assertThat(reply.header("WWW-Authenticate")).contains("error=\"invalid_token\"");
        assertThat(reply.body()).doesNotContain(token);
      }
      nothingProposed(oauth);
      assertThat(oauth.server.call(real, "read_note", "{\"path\":\"notes.txt\"}").status())
          .isEqualTo(200);
      assertThat(oauth.server.stderr()).doesNotContain(real);
      assertThat(oauth.server.violations()).isEmpty();
    }
  }

  private static String sign(ECKey key, JWTClaimsSet.Builder claims) throws Exception {
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.ES256)
                .type(new JOSEObjectType("at+jwt"))
                .keyID(key.getKeyID())
                .build(),
            claims.build());
    jwt.sign(new ECDSASigner(key));
    return jwt.serialize();
  }

  private static String signTyped(ECKey key, JWTClaimsSet claims, JOSEObjectType type)
      throws Exception {
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.ES256).type(type).keyID(key.getKeyID()).build(),
            claims);
    jwt.sign(new ECDSASigner(key));
    return jwt.serialize();
  }

  private static String unsigned(JWTClaimsSet claims) {
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    return b64.encodeToString(
            "{\"alg\":\"none\",\"typ\":\"at+jwt\"}".getBytes(StandardCharsets.UTF_8))
        + "."
        + b64.encodeToString(claims.toString().getBytes(StandardCharsets.UTF_8))
        + ".";
  }

  private static String hmacWithPublicKey(ECKey key, JWTClaimsSet claims) throws Exception {
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.HS256)
                .type(new JOSEObjectType("at+jwt"))
                .keyID(key.getKeyID())
                .build(),
            claims);
    jwt.sign(new MACSigner(key.toPublicJWK().toJSONString().getBytes(StandardCharsets.UTF_8)));
    return jwt.serialize();
  }

  @Test
  void aConsentFormWithoutItsSessionsCsrfTokenOrFromAnotherSiteApprovesNothing() throws Exception {
    try (OAuthWire oauth = OAuthWire.start(dir)) {
      String client = oauth.register("Client", REDIRECT);
      String cookie = oauth.signIn();
      OAuthWire.Consent consent =
          oauth.consent(
              cookie, oauth.authorizeQuery(client, REDIRECT, OAuthWire.Pkce.make(), "c", null));
      String request = consent.request();
      List<OAuthWire.Page> refused =
          List.of(
              oauth.post("/authorize", cookie, OAuthWire.form("request", request, "approve", "1")),
              oauth.post(
                  "/authorize",
                  cookie,
                  OAuthWire.form("csrf", "guess", "request", request, "approve", "1")),
              oauth.post(
                  "/authorize",
                  null,
                  OAuthWire.form("csrf", consent.csrf(), "request", request, "approve", "1")),
              oauth.send(
                  "POST",
                  "/authorize",
                  OAuthWire.form("csrf", consent.csrf(), "request", request, "approve", "1"),
                  "Content-Type",
                  "application/x-www-form-urlencoded",
                  "Origin",
                  "https://attacker.example",
                  "Cookie",
                  OAuthWire.COOKIE + "=" + cookie),
              oauth.send(
                  "POST",
                  "/authorize",
                  OAuthWire.form("csrf", consent.csrf(), "request", request, "approve", "1"),
                  "Content-Type",
                  "application/x-www-form-urlencoded",
                  "Sec-Fetch-Site",
                  "cross-site",
                  "Cookie",
                  OAuthWire.COOKIE + "=" + cookie));
      for (OAuthWire.Page page : refused) {
        assertThat(page.status()).isEqualTo(403);
        assertThat(page.header("Location")).isNull();
        assertThat(page.body()).doesNotContain("code=");
      }
      // The request still waits for the owner's real decision.
      assertThat(oauth.approve(cookie, consent, true)).containsKey("code");
    }
  }

  @Test
  void everyPageRefusesToBeFramed() throws Exception {
    try (OAuthWire oauth = OAuthWire.start(dir)) {
      String client = oauth.register("Client", REDIRECT);
      String cookie = oauth.signIn();
      List<OAuthWire.Page> pages =
          List.of(
              oauth.get("/owner/signin", null),
              oauth.get("/owner", cookie),
              oauth.get("/owner/link?t=nothing", null),
              oauth.get(
                  "/authorize?"
                      + oauth.authorizeQuery(client, REDIRECT, OAuthWire.Pkce.make(), "f", null),
                  cookie),
              oauth.get("/authorize?client_id=x", cookie));
      for (OAuthWire.Page page : pages) {
        assertThat(page.header("Content-Security-Policy"))
            .contains("frame-ancestors 'none'")
            .contains("default-src 'none'");
        assertThat(page.header("X-Frame-Options")).isEqualTo("DENY");
        assertThat(page.header("Cache-Control")).isEqualTo("no-store");
      }
    }
  }

  @Test
  void wrongPassphrasesAreThrottledWithAGrowingWaitAndTheRightOneWaitsToo() throws Exception {
    try (OAuthWire oauth = OAuthWire.start(dir)) {
      String passphrase = "correct horse battery staple";
      // Never from stdin: without a terminal nothing is asked and nothing is kept.
      Launch.Result piped =
          Launch.run(
              dir,
              Map.of(),
              passphrase + "\n" + passphrase + "\n",
              Launch.withoutTerminal(
                  List.of(
                      WireServer.launcher().toString(),
                      "owner",
                      "passphrase",
                      "-proposals",
                      oauth.proposals.toString())));
      assertThat(piped.exit()).isEqualTo(2);
      assertThat(piped.stderr()).contains("asks on the terminal (/dev/tty)");
      assertThat(oauth.state().resolve("owner.json")).doesNotExist();
      Launch.Result set =
          Launch.run(
              dir,
              Map.of(),
              passphrase + "\n" + passphrase + "\n",
              Launch.inTerminal(
                  List.of(
                      WireServer.launcher().toString(),
                      "owner",
                      "passphrase",
                      "-proposals",
                      oauth.proposals.toString())));
      assertThat(set.exit()).as(set.stdout() + set.stderr()).isZero();
      String kept = Files.readString(oauth.state().resolve("owner.json"));
      assertThat(kept).contains("PBKDF2WithHmacSHA256").contains("600000").doesNotContain("horse");

      List<Long> waits = new java.util.ArrayList<>();
      for (int i = 0; i < 3; i++) {
        OAuthWire.Page wrong =
            oauth.post("/owner/signin", null, OAuthWire.form("passphrase", "guess " + i));
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.cookie()).isNull();
        OAuthWire.Page locked =
            oauth.post("/owner/signin", null, OAuthWire.form("passphrase", passphrase));
        assertThat(locked.status()).isEqualTo(429);
        assertThat(locked.cookie()).isNull();
        long wait = Long.parseLong(locked.header("Retry-After"));
        waits.add(wait);
        Thread.sleep(wait * 1000 + 200);
      }
      assertThat(waits).containsExactly(1L, 2L, 4L);
      OAuthWire.Page right =
          oauth.post(
              "/owner/signin", null, OAuthWire.form("passphrase", passphrase, "next", "/owner"));
      assertThat(right.status()).isEqualTo(303);
      assertThat(right.cookie()).isNotNull();
      assertThat(oauth.get("/owner", right.cookie()).status()).isEqualTo(200);
      assertThat(oauth.server.stderr()).doesNotContain(passphrase).doesNotContain("guess 0");
    }
  }

  @Test
  void aSessionIdFixedBeforeSignInIsNotHonoured() throws Exception {
    try (OAuthWire oauth = OAuthWire.start(dir)) {
      String fixed = "attacker-chosen-session-id";
      String cookie = oauth.signIn(oauth.link(), fixed);
      assertThat(cookie).isNotEqualTo(fixed);
      assertThat(oauth.get("/owner", fixed).status()).isEqualTo(303);
      // A live session brought to a second sign-in is ended and replaced.
      String again = oauth.signIn(oauth.link(), cookie);
      assertThat(again).isNotEqualTo(cookie);
      assertThat(oauth.get("/owner", cookie).status()).isEqualTo(303);
      assertThat(oauth.get("/owner", again).status()).isEqualTo(200);
      // A link works once.
      String link = oauth.link();
      oauth.signIn(link, null);
      assertThat(oauth.send("GET", link, null, "Sec-Fetch-Mode", "navigate").status())
          .isEqualTo(400);
    }
  }

  @Test
  void noMcpTokenOpensAnOwnerPageAndNoOwnerCookieOpensMcp() throws Exception {
    Path tokens = HttpWire.tokensFile(dir);
    String fileToken = HttpWire.addToken(tokens, "laptop", "propose");
    try (OAuthWire oauth = OAuthWire.start(dir, "-tokens", tokens.toString())) {
      JsonNode granted = oauth.authorize("Client", REDIRECT, true);
      String access = granted.get("access_token").stringValue();
      // Both kinds of token work at /mcp ...
      assertThat(oauth.server.call(access, "read_note", "{\"path\":\"notes.txt\"}").status())
          .isEqualTo(200);
      assertThat(oauth.server.call(fileToken, "read_note", "{\"path\":\"notes.txt\"}").status())
          .isEqualTo(200);
      // ... and neither opens an owner page.
      for (String token : List.of(access, fileToken)) {
        OAuthWire.Page home = oauth.send("GET", "/owner", null, "Authorization", "Bearer " + token);
        assertThat(home.status()).isEqualTo(303);
        assertThat(home.header("Location")).contains("/owner/signin");
        OAuthWire.Page revoke =
            oauth.send(
                "POST",
                "/owner/revoke",
                OAuthWire.form("grant", grantIds(oauth).get(0)),
                "Content-Type",
                "application/x-www-form-urlencoded",
                "Authorization",
                "Bearer " + token);
        assertThat(revoke.status()).isEqualTo(403);
      }
      assertThat(grantIds(oauth)).hasSize(1);

      String cookie = oauth.signIn();
      HttpWire.Reply withCookie =
          oauth.server.post(
              "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{"
                  + HttpWire.META
                  + "}}",
              "Content-Type",
              "application/json",
              "MCP-Protocol-Version",
              "2026-07-28",
              "Mcp-Method",
              "tools/list",
              "Cookie",
              OAuthWire.COOKIE + "=" + cookie);
      assertThat(withCookie.status()).isEqualTo(401);
      assertThat(withCookie.body()).doesNotContain("notes.txt");
    }
  }

  @Test
  void clientMetadataDocumentsAtPrivateAddressesRedirectsOrTooLargeAreRefused() throws Exception {
    HttpServer hostile = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    String at = "http://127.0.0.1:" + hostile.getAddress().getPort();
    hostile.createContext(
        "/redirect.json",
        exchange -> {
          exchange.getResponseHeaders().add("Location", at + "/elsewhere.json");
          exchange.sendResponseHeaders(302, -1);
          exchange.close();
        });
    java.util.concurrent.atomic.AtomicLong sent = new java.util.concurrent.atomic.AtomicLong();
    hostile.createContext(
        "/huge.json",
        exchange -> {
          exchange.sendResponseHeaders(200, 0);
          byte[] chunk = new byte[64 * 1024];
          java.util.Arrays.fill(chunk, (byte) ' ');
          try {
            for (int i = 0; i < 160; i++) {
              exchange.getResponseBody().write(chunk);
              sent.addAndGet(chunk.length);
            }
          } catch (java.io.IOException e) {
            // the server hung up: what this test wants
          }
          exchange.close();
        });
    hostile.createContext(
        "/impostor.json",
        exchange -> {
          byte[] body =
              ("{\"client_id\":\"https://claude.ai/x\",\"client_name\":\"Claude\","
                      + "\"redirect_uris\":[\""
                      + REDIRECT
                      + "\"]}")
                  .getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    hostile.start();
    try (OAuthWire oauth = OAuthWire.start(dir)) {
      String cookie = oauth.signIn();
      OAuthWire.Pkce pkce = OAuthWire.Pkce.make();
      Map<String, String> expected =
          Map.of(
              // Refused when resolved, before any connection is made.
              "http://10.0.0.1/client.json",
              "a private address",
              "http://169.254.169.254/latest/meta-data",
              "a link-local address",
              at + "/redirect.json",
              "redirect",
              at + "/huge.json",
              "larger than 65536 bytes",
              at + "/impostor.json",
              "client_id is not exactly its URL");
      for (Map.Entry<String, String> entry : expected.entrySet()) {
        OAuthWire.Page page =
            oauth.get(
                "/authorize?" + oauth.authorizeQuery(entry.getKey(), REDIRECT, pkce, "x", null),
                cookie);
        assertThat(page.status()).as(entry.getKey()).isEqualTo(400);
        assertThat(page.header("Location")).isNull();
        assertThat(page.body()).as(entry.getKey()).contains(entry.getValue());
        assertThat(page.body()).doesNotContain("name=\"approve\"");
      }
      assertThat(sent.get()).isLessThan(10L * 1024 * 1024);
      assertThat(grantIds(oauth)).isEmpty();
    } finally {
      hostile.stop(0);
    }
  }

  @Test
  void registrationsWithUnsafeRedirectUrisOrSecretsAreRefused() throws Exception {
    try (OAuthWire oauth = OAuthWire.start(dir)) {
      for (String body :
          List.of(
              "{\"client_name\":\"x\",\"redirect_uris\":[\"javascript:alert(1)\"]}",
              "{\"client_name\":\"x\",\"redirect_uris\":[\"http://example.com/cb\"]}",
              "{\"client_name\":\"x\",\"redirect_uris\":[\"https://example.com/cb#f\"]}",
              "{\"client_name\":\"x\"}",
              "{\"client_name\":\"x\",\"redirect_uris\":[\"https://example.com/cb\"],"
                  + "\"token_endpoint_auth_method\":\"client_secret_basic\"}",
              "{\"client_name\":\"x\",\"redirect_uris\":[\"https://example.com/cb\"],"
                  + "\"grant_types\":[\"client_credentials\"]}",
              "not json")) {
        OAuthWire.Page page =
            oauth.send("POST", "/register", body, "Content-Type", "application/json");
        assertThat(page.status()).as(body).isEqualTo(400);
        assertThat(page.json().get("error").stringValue())
            .as(body)
            .isIn("invalid_redirect_uri", "invalid_client_metadata");
      }
      assertThat(oauth.state().resolve("clients.json")).doesNotExist();
    }
  }
}

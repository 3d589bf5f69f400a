package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * OAuth end to end against the real executable (docs/oauth.md): {@code -serve -http 127.0.0.1:0
 * -auth oauth} with its loopback issuer, driven by hand ({@link OAuthWire}) through every message a
 * client and the owner's browser exchange with it: the metadata, the 401 that leads to it,
 * registration (DCR) and a client ID metadata document, the owner's sign-in by link, the consent
 * form, the code and its {@code iss} and {@code state}, the token, MCP calls with it (every MCP
 * message checked against the schema), a refresh, and a revoked grant.
 */
class OAuthIT {
  @TempDir Path dir;

  private static final String REDIRECT = "http://127.0.0.1:9/callback";

  @Test
  void theMetadataAndThe401LeadAClientToTheAuthorizationServer() throws Exception {
    try (OAuthWire oauth = OAuthWire.start(dir)) {
      HttpWire.Reply refused = oauth.server.modern(null, "tools/list", "", "ListToolsResult");
      assertThat(refused.status()).isEqualTo(401);
      assertThat(refused.header("WWW-Authenticate"))
          .isEqualTo(
              "Bearer resource_metadata=\""
                  + oauth.base
                  + "/.well-known/oauth-protected-resource/mcp\", scope=\"notes:read"
                  + " notes:propose\"");

      JsonNode prm = oauth.get("/.well-known/oauth-protected-resource/mcp", null).json();
      assertThat(prm.get("resource").stringValue()).isEqualTo(oauth.base + "/mcp");
      assertThat(prm.get("authorization_servers").get(0).stringValue()).isEqualTo(oauth.base);
      assertThat(prm.get("scopes_supported").toString())
          .isEqualTo("[\"notes:read\",\"notes:propose\"]");

      OAuthWire.Page page = oauth.get("/.well-known/oauth-authorization-server", null);
      assertThat(page.status()).isEqualTo(200);
      JsonNode as = page.json();
      assertThat(as.get("issuer").stringValue()).isEqualTo(oauth.base);
      assertThat(as.get("authorization_endpoint").stringValue())
          .isEqualTo(oauth.base + "/authorize");
      assertThat(as.get("token_endpoint").stringValue()).isEqualTo(oauth.base + "/token");
      assertThat(as.get("registration_endpoint").stringValue()).isEqualTo(oauth.base + "/register");
      assertThat(as.get("code_challenge_methods_supported").toString()).isEqualTo("[\"S256\"]");
      assertThat(as.get("token_endpoint_auth_methods_supported").toString())
          .isEqualTo("[\"none\"]");
      assertThat(as.get("grant_types_supported").toString())
          .isEqualTo("[\"authorization_code\",\"refresh_token\"]");
      assertThat(as.get("scopes_supported").toString())
          .isEqualTo("[\"notes:read\",\"notes:propose\"]");
      assertThat(as.get("authorization_response_iss_parameter_supported").asBoolean()).isTrue();
      assertThat(as.get("client_id_metadata_document_supported").asBoolean()).isTrue();
      assertThat(as.get("response_types_supported").toString()).isEqualTo("[\"code\"]");
      assertThat(oauth.get("/.well-known/oauth-protected-resource", null).status()).isEqualTo(404);
      assertThat(oauth.server.violations()).isEmpty();
    }
  }

  @Test
  void aRegisteredClientGetsTokensOnTheOwnersApprovalAndListsReadsAndProposes() throws Exception {
    try (OAuthWire oauth = OAuthWire.start(dir)) {
      OAuthWire.Page registered =
          oauth.send(
              "POST",
              "/register",
              "{\"client_name\":\"Phone\\u202e app\",\"redirect_uris\":[\"" + REDIRECT + "\"]}",
              "Content-Type",
              "application/json");
      assertThat(registered.status()).isEqualTo(201);
      JsonNode client = registered.json();
      String clientId = client.get("client_id").stringValue();
      assertThat(client.get("token_endpoint_auth_method").stringValue()).isEqualTo("none");
      assertThat(client.get("grant_types").toString())
          .isEqualTo("[\"authorization_code\",\"refresh_token\"]");
      assertThat(client.get("redirect_uris").get(0).stringValue()).isEqualTo(REDIRECT);

      // Not signed in: the consent is behind the sign-in page, which comes back to it.
      OAuthWire.Pkce pkce = OAuthWire.Pkce.make();
      String query = oauth.authorizeQuery(clientId, REDIRECT, pkce, "st-1", null);
      OAuthWire.Page anonymous = oauth.get("/authorize?" + query, null);
      assertThat(anonymous.status()).isEqualTo(200);
      assertThat(anonymous.body()).doesNotContain("name=\"approve\"");
      assertThat(anonymous.body()).contains("notes-mcp owner link");
      assertThat(anonymous.header("Set-Cookie"))
          .startsWith("__Host-notes-mcp-next=")
          .contains("; Path=/; Max-Age=600; Secure; HttpOnly; SameSite=Strict");

      // A link opened in that browser signs in and comes back to the request it was asked for.
      String next = anonymous.header("Set-Cookie").split(";")[0];
      OAuthWire.Page linked =
          oauth.send("GET", oauth.link(), null, "Sec-Fetch-Mode", "navigate", "Cookie", next);
      assertThat(linked.status()).isEqualTo(303);
      assertThat(linked.header("Location")).isEqualTo(oauth.base + "/authorize?" + query);
      String cookie = linked.cookie();
      OAuthWire.Consent consent = oauth.consent(cookie, query);
      String html = consent.page().body();
      // The name is inert: its right-to-left override shown as an escape, never acted on.
      assertThat(html).contains("Phone\\u202e app").doesNotContain("\u202e");
      assertThat(html)
          .contains("http://127.0.0.1:9")
          .contains("notes:read")
          .contains("notes:propose");
      assertThat(consent.page().header("Content-Security-Policy"))
          .contains("frame-ancestors 'none'");
      assertThat(consent.page().header("X-Frame-Options")).isEqualTo("DENY");

      Map<String, String> back = oauth.approve(cookie, consent, true);
      assertThat(back).containsEntry("state", "st-1").containsEntry("iss", oauth.base);
      String code = back.get("code");
      assertThat(code).isNotEmpty();

      OAuthWire.Page token = oauth.exchange(clientId, REDIRECT, code, pkce.verifier());
      assertThat(token.status()).as(token.body()).isEqualTo(200);
      assertThat(token.header("Cache-Control")).isEqualTo("no-store");
      JsonNode tokens = token.json();
      assertThat(tokens.get("token_type").stringValue()).isEqualTo("Bearer");
      assertThat(tokens.get("expires_in").asLong()).isEqualTo(600);
      assertThat(tokens.get("scope").stringValue()).isEqualTo("notes:read notes:propose");
      String access = tokens.get("access_token").stringValue();
      assertThat(tokens.get("refresh_token").stringValue()).startsWith("nmcr_");
      JsonNode header =
          HttpWire.JSON.readTree(
              java.util.Base64.getUrlDecoder().decode(access.substring(0, access.indexOf('.'))));
      assertThat(header.get("typ").stringValue()).isEqualTo("at+jwt");
      assertThat(header.get("alg").stringValue()).isEqualTo("ES256");

      HttpWire.Reply listed = oauth.server.modern(access, "tools/list", "", "ListToolsResult");
      assertThat(listed.status()).isEqualTo(200);
      assertThat(listed.json().at("/result/tools").findValuesAsString("name"))
          .contains("read_note", "propose_note");
      HttpWire.Reply read = oauth.server.call(access, "read_note", "{\"path\":\"notes.txt\"}");
      assertThat(WireServer.text(read.json())).contains("Monday: ship the preview.");
      HttpWire.Reply proposed =
          oauth.server.call(access, "propose_note", "{\"path\":\"draft.txt\",\"content\":\"hi\"}");
      assertThat(proposed.status()).isEqualTo(200);
      String id =
          HttpWire.JSON.readTree(WireServer.text(proposed.json())).get("proposal_id").stringValue();
      assertThat(Files.readString(oauth.proposals.resolve(id + ".json"), StandardCharsets.UTF_8))
          .contains("\"authenticatedRequester\":\"oauth:" + clientId + "\"");
      assertThat(oauth.root.resolve("draft.txt")).doesNotExist();
      assertThat(oauth.server.violations()).isEmpty();
    }
  }

  @Test
  void aGrantNarrowedToReadingCannotProposeAndIsToldWhichScopeIsMissing() throws Exception {
    try (OAuthWire oauth = OAuthWire.start(dir)) {
      JsonNode tokens = oauth.authorize("Reader", REDIRECT, false);
      assertThat(tokens.get("scope").stringValue()).isEqualTo("notes:read");
      String access = tokens.get("access_token").stringValue();

      HttpWire.Reply listed = oauth.server.modern(access, "tools/list", "", "ListToolsResult");
      assertThat(listed.json().at("/result/tools").findValuesAsString("name"))
          .doesNotContain("propose_note");
      HttpWire.Reply proposed =
          oauth.server.call(access, "propose_note", "{\"path\":\"draft.txt\",\"content\":\"x\"}");
      assertThat(proposed.status()).isEqualTo(403);
      assertThat(proposed.header("WWW-Authenticate"))
          .isEqualTo(
              "Bearer error=\"insufficient_scope\", scope=\"notes:propose\", resource_metadata=\""
                  + oauth.base
                  + "/.well-known/oauth-protected-resource/mcp\"");
      try (Stream<Path> kept = Files.list(oauth.proposals)) {
        assertThat(kept.filter(p -> p.toString().endsWith(".json"))).isEmpty();
      }
      assertThat(oauth.server.violations()).isEmpty();
    }
  }

  @Test
  void aRefreshRotatesTheTokenAndTheOwnerRevokingTheGrantEndsItsAccessAtOnce() throws Exception {
    try (OAuthWire oauth = OAuthWire.start(dir)) {
      JsonNode first = oauth.authorize("Laptop", REDIRECT, true);
      String client = first.get("client_id").stringValue();

      OAuthWire.Page refreshed = oauth.refresh(client, first.get("refresh_token").stringValue());
      assertThat(refreshed.status()).as(refreshed.body()).isEqualTo(200);
      String access = refreshed.json().get("access_token").stringValue();
      String rotated = refreshed.json().get("refresh_token").stringValue();
      assertThat(rotated).isNotEqualTo(first.get("refresh_token").stringValue());
      assertThat(refreshed.json().get("scope").stringValue()).isEqualTo("notes:read notes:propose");
      assertThat(oauth.server.call(access, "read_note", "{\"path\":\"notes.txt\"}").status())
          .isEqualTo(200);

      Launch.Result grants = oauth.owner("grants");
      assertThat(grants.exit()).isZero();
      assertThat(grants.stdout()).contains(client).contains("notes:read,notes:propose");
      Launch.Result revoked = oauth.owner("revoke", client);
      assertThat(revoked.exit()).as(revoked.stderr()).isZero();

      HttpWire.Reply after = oauth.server.call(access, "read_note", "{\"path\":\"notes.txt\"}");
      assertThat(after.status()).isEqualTo(401);
      assertThat(after.header("WWW-Authenticate")).contains("error=\"invalid_token\"");
      assertThat(oauth.refresh(client, rotated).json().get("error").stringValue())
          .isEqualTo("invalid_grant");
      assertThat(oauth.owner("revoke", client).exit()).isEqualTo(1);
      assertThat(oauth.server.violations()).isEmpty();
    }
  }

  @Test
  void withAnExternalAuthorizationServerItsTokensAreCheckedTheSameWay() throws Exception {
    com.nimbusds.jose.jwk.ECKey key =
        new com.nimbusds.jose.jwk.gen.ECKeyGenerator(com.nimbusds.jose.jwk.Curve.P_256)
            .keyID("external-1")
            .generate();
    HttpServer as = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    String issuer = "http://127.0.0.1:" + as.getAddress().getPort();
    byte[] jwks =
        ("{\"keys\":[" + key.toPublicJWK().toJSONString() + "]}").getBytes(StandardCharsets.UTF_8);
    as.createContext(
        "/jwks",
        exchange -> {
          exchange.sendResponseHeaders(200, jwks.length);
          exchange.getResponseBody().write(jwks);
          exchange.close();
        });
    as.start();
    int port;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    String resource = "http://127.0.0.1:" + port + "/mcp";
    try (OAuthWire oauth =
        OAuthWire.start(
            dir,
            "-http",
            "127.0.0.1:" + port,
            "-issuer",
            issuer,
            "-jwks",
            issuer + "/jwks",
            "-resource",
            resource)) {
      JsonNode prm = oauth.get("/.well-known/oauth-protected-resource/mcp", null).json();
      assertThat(prm.get("resource").stringValue()).isEqualTo(resource);
      assertThat(prm.get("authorization_servers").get(0).stringValue()).isEqualTo(issuer);
      assertThat(oauth.get("/.well-known/oauth-authorization-server", null).status())
          .isEqualTo(404);
      assertThat(oauth.get("/authorize?client_id=x", null).status()).isEqualTo(404);

      java.time.Instant now = java.time.Instant.now();
      com.nimbusds.jwt.JWTClaimsSet.Builder claims =
          new com.nimbusds.jwt.JWTClaimsSet.Builder()
              .issuer(issuer)
              .audience(resource)
              .subject("someone")
              .claim("client_id", "their-client")
              .claim("scope", "notes:read")
              .jwtID("j1")
              .issueTime(java.util.Date.from(now))
              .expirationTime(java.util.Date.from(now.plusSeconds(300)));
      String good = sign(key, claims);
      HttpWire.Reply read = oauth.server.call(good, "read_note", "{\"path\":\"notes.txt\"}");
      assertThat(read.status()).isEqualTo(200);
      assertThat(
              oauth
                  .server
                  .call(good, "propose_note", "{\"path\":\"draft.txt\",\"content\":\"x\"}")
                  .status())
          .isEqualTo(403);
      for (String bad :
          new String[] {
            sign(key, claims.audience("http://127.0.0.1:1/mcp")),
            sign(key, claims.audience(resource).issuer("http://127.0.0.1:2")),
            sign(
                new com.nimbusds.jose.jwk.gen.ECKeyGenerator(com.nimbusds.jose.jwk.Curve.P_256)
                    .keyID("external-1")
                    .generate(),
                claims.issuer(issuer))
          }) {
        assertThat(oauth.server.call(bad, "read_note", "{\"path\":\"notes.txt\"}").status())
            .isEqualTo(401);
      }
      assertThat(oauth.state().resolve("signing-key.jwk")).doesNotExist();
      assertThat(oauth.server.violations()).isEmpty();
    } finally {
      as.stop(0);
    }
  }

  private static String sign(
      com.nimbusds.jose.jwk.ECKey key, com.nimbusds.jwt.JWTClaimsSet.Builder claims)
      throws Exception {
    com.nimbusds.jwt.SignedJWT jwt =
        new com.nimbusds.jwt.SignedJWT(
            new com.nimbusds.jose.JWSHeader.Builder(com.nimbusds.jose.JWSAlgorithm.ES256)
                .type(new com.nimbusds.jose.JOSEObjectType("at+jwt"))
                .keyID(key.getKeyID())
                .build(),
            claims.build());
    jwt.sign(new com.nimbusds.jose.crypto.ECDSASigner(key));
    return jwt.serialize();
  }

  @Test
  void aClientIdMetadataDocumentIsFetchedAndItsClientServed() throws Exception {
    HttpServer documents = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    String url = "http://127.0.0.1:" + documents.getAddress().getPort() + "/client.json";
    byte[] document =
        ("{\"client_id\":\""
                + url
                + "\",\"client_name\":\"Document client\",\"redirect_uris\":[\""
                + REDIRECT
                + "\"],\"token_endpoint_auth_method\":\"none\"}")
            .getBytes(StandardCharsets.UTF_8);
    documents.createContext(
        "/client.json",
        exchange -> {
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, document.length);
          exchange.getResponseBody().write(document);
          exchange.close();
        });
    documents.start();
    try (OAuthWire oauth = OAuthWire.start(dir)) {
      String cookie = oauth.signIn();
      OAuthWire.Pkce pkce = OAuthWire.Pkce.make();
      OAuthWire.Consent consent =
          oauth.consent(cookie, oauth.authorizeQuery(url, REDIRECT, pkce, "d", "notes:read"));
      assertThat(consent.page().body()).contains("Document client").contains(url);
      assertThat(consent.page().body()).doesNotContain("name=\"propose\"");
      Map<String, String> back = oauth.approve(cookie, consent, false);
      OAuthWire.Page token = oauth.exchange(url, REDIRECT, back.get("code"), pkce.verifier());
      assertThat(token.status()).as(token.body()).isEqualTo(200);
      String access = token.json().get("access_token").stringValue();
      HttpWire.Reply read = oauth.server.call(access, "read_note", "{\"path\":\"notes.txt\"}");
      assertThat(read.status()).isEqualTo(200);
      assertThat(oauth.server.violations()).isEmpty();
    } finally {
      documents.stop(0);
    }
  }
}

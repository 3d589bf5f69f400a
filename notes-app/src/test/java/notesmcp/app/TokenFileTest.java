package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import notesmcp.mcp.server.Authenticator;
import org.junit.jupiter.api.Test;

/** The tokens file's format and the bearer check, without a server (docs/http.md, "Tokens"). */
class TokenFileTest {
  private static final String HASH = "a".repeat(64);

  private static byte[] file(String tokens) {
    return ("{\"format\":\"notes-mcp/tokens/1\",\"tokens\":[" + tokens + "]}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static String entry(String name, String scope, String hash) {
    return "{\"name\":\""
        + name
        + "\",\"scope\":\""
        + scope
        + "\",\"created\":\"2026-12-07T00:00:00Z\",\"sha256\":\""
        + hash
        + "\"}";
  }

  @Test
  void aTokenIs256RandomBitsAfterItsPrefixAndTheFileKeepsOnlyItsHash() throws Exception {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      String token = TokenFile.newToken();
      assertThat(token).matches("nmcp_[A-Za-z0-9_-]{43}");
      assertThat(seen.add(token)).isTrue();
    }
    String token = TokenFile.newToken();
    String hash = TokenFile.hex(TokenFile.digest(token));
    byte[] bytes = TokenFile.format(List.of(new TokenFile.Entry("phone", "read", "t", hash)));
    assertThat(new String(bytes, StandardCharsets.UTF_8)).contains(hash).doesNotContain(token);
    assertThat(TokenFile.parse(bytes))
        .containsExactly(new TokenFile.Entry("phone", "read", "t", hash));
  }

  @Test
  void aFileIsReadStrictly() {
    for (byte[] bad :
        List.of(
            file(entry("phone", "write", HASH)),
            file(entry("ph one", "read", HASH)),
            file(entry("phone", "read", "ABC")),
            file(entry("phone", "read", HASH) + "," + entry("phone", "propose", "b".repeat(64))),
            file(entry("phone", "read", HASH) + "," + entry("tablet", "read", HASH)),
            "{\"format\":\"notes-mcp/tokens/2\",\"tokens\":[]}".getBytes(StandardCharsets.UTF_8),
            "{\"format\":\"notes-mcp/tokens/1\",\"tokens\":[],\"extra\":1}"
                .getBytes(StandardCharsets.UTF_8),
            "{\"format\":\"notes-mcp/tokens/1\",\"format\":\"notes-mcp/tokens/1\",\"tokens\":[]}"
                .getBytes(StandardCharsets.UTF_8),
            new byte[] {(byte) 0xff})) {
      assertThatThrownBy(() -> TokenFile.parse(bad)).isInstanceOf(TokenFile.Invalid.class);
    }
  }

  @Test
  void theBearerSchemeIsReadInAnyCaseAndNothingElseIsAToken() {
    assertThat(TokenAuthenticator.bearer("Bearer abc")).isEqualTo("abc");
    assertThat(TokenAuthenticator.bearer("bearer   abc  ")).isEqualTo("abc");
    assertThat(TokenAuthenticator.bearer("Basic abc")).isNull();
    assertThat(TokenAuthenticator.bearer("Bearer")).isNull();
    assertThat(TokenAuthenticator.bearer("Bearer a b")).isNull();
    assertThat(TokenAuthenticator.bearer("Bearerabc")).isNull();
  }

  @Test
  void aVerdictNeverHoldsTheTokenItWasGiven() throws Exception {
    java.nio.file.Path missing = java.nio.file.Path.of("/nonexistent/tokens.json");
    TokenAuthenticator authenticator =
        new TokenAuthenticator(
            missing, List.of(), new java.io.PrintStream(new java.io.ByteArrayOutputStream()));
    String token = TokenFile.newToken();
    Authenticator.Verdict verdict = authenticator.authenticate("Bearer " + token, "127.0.0.1");
    assertThat(verdict.caller()).isNull();
    assertThat(verdict.status()).isEqualTo(401);
    assertThat(verdict.reason() + verdict.challenge()).doesNotContain(token);
    assertThat(authenticator.insufficientScope())
        .isEqualTo(
            "Bearer realm=\"notes-mcp\", error=\"insufficient_scope\","
                + " scope=\"notes:read notes:propose\"");
  }
}

package notesmcp.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The issuer's form, the redirect URI rule, the sign-in throttle and where a sign-in returns. */
class IssuerAndRulesTest {
  @Test
  void anIssuerIsHttpsWithNoPathOrALoopbackHttpOneOnALoopbackBind() {
    Issuer issuer = Issuer.builtIn("https://notes.example.org", false);
    assertThat(issuer.resource()).isEqualTo("https://notes.example.org/mcp");
    assertThat(issuer.resourceMetadata())
        .isEqualTo("https://notes.example.org/.well-known/oauth-protected-resource/mcp");
    assertThat(issuer.authority()).isEqualTo("notes.example.org");
    assertThat(Issuer.builtIn("http://127.0.0.1:8765", true).loopback()).isTrue();
    for (String refused :
        new String[] {
          "https://notes.example.org/",
          "https://notes.example.org/notes",
          "https://x.example?a",
          "https://x.example#f",
          "https://u@x.example",
          "ftp://x.example",
          "HTTPS://X.example",
          "notes.example.org",
          "http://notes.example.org",
          "http://127.0.0.1"
        }) {
      assertThatThrownBy(() -> Issuer.builtIn(refused, true))
          .as(refused)
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> Issuer.builtIn("http://127.0.0.1:8765", false))
        .hasMessageContaining("loopback address");
  }

  @Test
  void redirectUrisAreHttpsOrLoopbackHttpAndNothingElse() {
    for (String taken :
        new String[] {
          "https://claude.ai/api/mcp/auth_callback", "http://127.0.0.1:33418/callback",
          "http://localhost:6274/oauth/callback", "http://[::1]:9/cb"
        }) {
      assertThat(RedirectUris.problem(taken)).as(taken).isNull();
    }
    for (String refused :
        new String[] {
          "javascript:alert(1)", "data:text/html,x", "http://example.com/cb",
          "https://example.com/cb#frag", "https://user@example.com/cb", "/relative",
          "com.example.app:/callback", "http://10.0.0.1/cb", "https://" + "a".repeat(600)
        }) {
      assertThat(RedirectUris.problem(refused)).as(refused).isNotNull();
    }
  }

  @Test
  void aPeersWrongPassphrasesDoubleItsWaitAndManyFromAnyoneLockEveryone() {
    SignInThrottle throttle = new SignInThrottle();
    Instant t = Instant.parse("2026-12-07T12:00:00Z");
    assertThat(throttle.wait("a", t)).isZero();
    throttle.failed("a", t);
    assertThat(throttle.wait("a", t)).isEqualTo(1);
    assertThat(throttle.wait("b", t)).isZero();
    throttle.failed("a", t.plusSeconds(1));
    assertThat(throttle.wait("a", t.plusSeconds(1))).isEqualTo(2);
    throttle.succeeded("a");
    assertThat(throttle.wait("a", t.plusSeconds(1))).isZero();
    for (int i = 0; i < 30; i++) {
      throttle.failed("peer-" + i, t.plusSeconds(10));
    }
    // 30 failures within the hour: 10 beyond the free 20, so 2^10 s capped at 900 for everyone.
    assertThat(throttle.wait("someone-else", t.plusSeconds(10))).isEqualTo(900);
  }

  @Test
  void aSignInReturnsOnlyToAPathOfThisServer() {
    assertThat(Web.safeNext("/authorize?client_id=x")).isEqualTo("/authorize?client_id=x");
    for (String refused :
        new String[] {null, "https://evil.example/", "//evil.example/", "/\\evil", "/a b", "x"}) {
      assertThat(Web.safeNext(refused)).as(String.valueOf(refused)).isEqualTo("/owner");
    }
  }
}

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import notesmcp.cli.UsageException;
import org.junit.jupiter.api.Test;

/** The flags of {@code -auth oauth} (docs/oauth.md, "Flags"), checked together. */
class OAuthOptionsTest {
  private static Options.Http http(String... extra) throws UsageException {
    List<String> args =
        new ArrayList<>(List.of("-serve", "-root", "/w", "-proposals", "/p", "-http"));
    args.addAll(List.of(extra));
    return Options.parse(args).http();
  }

  private static String usage(String... args) {
    try {
      throw new AssertionError("parsed " + Options.parse(List.of(args)));
    } catch (UsageException e) {
      return e.getMessage();
    }
  }

  @Test
  void oauthOnLoopbackNeedsNoIssuerNorTokensAndTakesBoth() throws Exception {
    Options.Http bare = http("127.0.0.1:0", "-auth", "oauth");
    assertThat(bare.oauth()).isTrue();
    assertThat(bare.tokenAuth()).isFalse();
    assertThat(bare.issuer()).isNull();
    Options.Http both =
        http(
            "127.0.0.1:8765",
            "-auth",
            "oauth",
            "-issuer",
            "https://notes.example.org",
            "-tokens",
            "/t.json");
    assertThat(both.tokenAuth()).isTrue();
    assertThat(both.issuer()).isEqualTo("https://notes.example.org");
  }

  @Test
  void oauthFlagsAreRefusedWhereTheyMeanNothing() {
    assertThat(usage("-serve", "-root", "/w", "-http", "127.0.0.1:0", "-auth", "oauth"))
        .contains("-auth oauth needs -proposals DIR");
    assertThat(
            usage(
                "-serve",
                "-root",
                "/w",
                "-proposals",
                "/p",
                "-http",
                "[::1]:0",
                "-auth",
                "token",
                "-tokens",
                "/t",
                "-issuer",
                "https://x.example"))
        .isEqualTo("-issuer, -jwks and -resource go with -auth oauth");
    assertThat(
            usage(
                "-serve",
                "-root",
                "/w",
                "-proposals",
                "/p",
                "-http",
                "0.0.0.0:443",
                "-auth",
                "oauth",
                "-tls-cert",
                "/c",
                "-tls-key",
                "/k"))
        .contains("-auth oauth needs -issuer https://HOST");
    assertThat(
            usage(
                "-serve",
                "-root",
                "/w",
                "-proposals",
                "/p",
                "-http",
                "0.0.0.0:443",
                "-auth",
                "oauth",
                "-issuer",
                "https://notes.example.org"))
        .contains("needs TLS");
    assertThat(
            usage(
                "-serve",
                "-root",
                "/w",
                "-proposals",
                "/p",
                "-http",
                "127.0.0.1:0",
                "-auth",
                "oauth",
                "-jwks",
                "https://as.example/jwks"))
        .contains("-jwks URL (an external authorization server) needs -issuer");
    assertThat(
            usage(
                "-serve",
                "-root",
                "/w",
                "-proposals",
                "/p",
                "-http",
                "127.0.0.1:0",
                "-auth",
                "oauth",
                "-resource",
                "https://notes.example.org/mcp"))
        .contains("-resource goes with -jwks");
    assertThat(usage("-root", "/w", "-issuer", "https://x.example"))
        .contains("go with -serve only");
    assertThat(usage("-serve", "-root", "/w", "-http", "127.0.0.1:0", "-auth", "password"))
        .isEqualTo("-auth takes token, oauth or none, not \"password\"");
  }
}

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The MCP Inspector v2's CLI ({@code @modelcontextprotocol/inspector} 2.12.0, unmodified) against
 * {@code -auth oauth}: it finds the server from the 401, registers by DCR, listens on a loopback
 * callback and says where to sign in ("Please navigate to: URL", with {@code BROWSER} set to a
 * command that opens nothing); the test plays the owner's browser with the cookie of a sign-in
 * link, approves on the consent form and delivers the redirect to the CLI's callback. Then the CLI,
 * with its stored token, reads and proposes; after the owner revokes the grant it is refused. Needs
 * {@code peers/interop/node_modules} ({@code npm ci}).
 */
class InspectorOAuthIT {
  @TempDir Path dir;

  /** One CLI run: its exit, its stdout, and the authorization URL it printed (or null). */
  private record Run(int exit, String out, String err, String authorizationUrl) {}

  private Run inspector(OAuthWire oauth, String cookie, int callbackPort, String... method)
      throws Exception {
    Path repo = WireServer.launcher().getParent();
    Path home = Files.createDirectories(dir.resolve("home"));
    List<String> command =
        new ArrayList<>(
            List.of(
                "node",
                repo.resolve(
                        "peers/interop/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js")
                    .toString(),
                "--cli",
                "--server-url",
                oauth.server.uri.toString(),
                "--format",
                "json",
                "--callback-url",
                "http://127.0.0.1:" + callbackPort + "/oauth/callback"));
    command.addAll(List.of(method));
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(repo.resolve("peers/interop").toFile());
    Map<String, String> env = builder.environment();
    env.put("HOME", home.toString());
    env.put("MCP_AUTO_OPEN_ENABLED", "true");
    env.put("BROWSER", "/bin/true");
    env.put("DISPLAY", "");
    env.put("MCP_INSPECTOR_SECRET_STORE", "file");
    builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Process process = builder.start();
    CompletableFuture<String> out =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
              } catch (java.io.IOException e) {
                return "";
              }
            });
    StringBuilder err = new StringBuilder();
    String url = null;
    try (BufferedReader lines =
        new BufferedReader(
            new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        err.append(line).append('\n');
        int at = line.indexOf("Please navigate to: ");
        if (at >= 0 && url == null) {
          url = line.substring(at + "Please navigate to: ".length()).trim();
          approve(oauth, cookie, url);
        }
      }
    }
    assertThat(process.waitFor(90, TimeUnit.SECONDS)).isTrue();
    return new Run(process.exitValue(), out.get(10, TimeUnit.SECONDS), err.toString(), url);
  }

  /** The owner's browser: the consent page, Allow, and the redirect to the CLI's callback. */
  private static void approve(OAuthWire oauth, String cookie, String url) throws Exception {
    OAuthWire.Consent consent = oauth.consent(cookie, url.substring(url.indexOf('?') + 1));
    assertThat(consent.page().body()).contains("127.0.0.1:");
    OAuthWire.Page decided =
        oauth.post(
            "/authorize",
            cookie,
            OAuthWire.form(
                "csrf",
                consent.csrf(),
                "request",
                consent.request(),
                "propose",
                "1",
                "approve",
                "1"));
    assertThat(decided.status()).isEqualTo(303);
    String callback = decided.header("Location");
    assertThat(OAuthWire.query(java.net.URI.create(callback).getRawQuery()))
        .containsEntry("iss", oauth.base)
        .containsKey("code");
    OAuthWire.Page delivered = oauth.send("GET", callback, null);
    assertThat(delivered.status()).isEqualTo(200);
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Test
  void theInspectorCliSignsInByOAuthReadsAndProposesAndIsRefusedOnceRevoked() throws Exception {
    try (OAuthWire oauth = OAuthWire.start(dir)) {
      String cookie = oauth.signIn();
      int port = freePort();

      Run listed = inspector(oauth, cookie, port, "--method", "tools/list");
      assertThat(listed.exit()).as(listed.err()).isZero();
      assertThat(listed.authorizationUrl())
          .contains("code_challenge_method=S256")
          .contains("resource=" + java.net.URLEncoder.encode(oauth.server.uri.toString(), "UTF-8"));
      JsonNode tools = HttpWire.JSON.readTree(listed.out());
      assertThat(tools.at("/result/tools").findValuesAsString("name"))
          .contains("read_note", "propose_note");

      Run read =
          inspector(
              oauth,
              cookie,
              port,
              "--method",
              "tools/call",
              "--tool-name",
              "read_note",
              "--tool-args-json",
              "{\"path\":\"notes.txt\"}");
      assertThat(read.exit()).as(read.err()).isZero();
      assertThat(read.authorizationUrl()).isNull();
      assertThat(read.out()).contains("Monday: ship the preview.");

      Run proposed =
          inspector(
              oauth,
              cookie,
              port,
              "--method",
              "tools/call",
              "--tool-name",
              "propose_note",
              "--tool-args-json",
              "{\"path\":\"draft.txt\",\"content\":\"from the Inspector\\n\"}");
      assertThat(proposed.exit()).as(proposed.err()).isZero();
      assertThat(proposed.out()).contains("pending_approval");
      assertThat(oauth.root.resolve("draft.txt")).doesNotExist();

      Launch.Result grants = oauth.owner("grants");
      String client = grants.stdout().split("\t")[1];
      assertThat(oauth.owner("revoke", client).exit()).isZero();
      Run refused =
          inspector(
              oauth,
              cookie,
              port,
              "--stored-auth-only",
              "--method",
              "tools/call",
              "--tool-name",
              "read_note",
              "--tool-args-json",
              "{\"path\":\"notes.txt\"}");
      assertThat(refused.exit()).isNotZero();
      assertThat(refused.out()).doesNotContain("Monday");
    }
  }
}

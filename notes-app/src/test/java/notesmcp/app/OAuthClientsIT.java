package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.FileInputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A real OAuth client against the real executable: the official TypeScript SDK v1's {@code auth}
 * with an {@code OAuthClientProvider} ({@code peers/interop/ts-oauth-client.mjs}), unmodified, over
 * DCR and over a client ID metadata document served over https from this test; the owner's browser
 * is played with the owner's session cookie from a sign-in link. The client discovers the server
 * from its 401, is approved on the consent form, lists, reads and proposes, refreshes, and fails
 * once the owner revokes its grant on the owner's page. Needs {@code peers/interop/node_modules}
 * ({@code npm ci}).
 */
class OAuthClientsIT {
  @TempDir Path dir;

  private static final String PASSWORD = "changeit";

  private static JsonNode runClient(OAuthWire oauth, String cookie, String metadataUrl)
      throws Exception {
    Path repo = WireServer.launcher().getParent();
    List<String> command =
        new ArrayList<>(
            List.of(
                "node",
                repo.resolve("peers/interop/ts-oauth-client.mjs").toString(),
                oauth.server.uri.toString(),
                cookie));
    if (metadataUrl != null) {
      command.add(metadataUrl);
    }
    Process node =
        new ProcessBuilder(command)
            .directory(repo.resolve("peers/interop").toFile())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    byte[] out;
    try (InputStream in = node.getInputStream()) {
      out = in.readAllBytes();
    }
    assertThat(node.waitFor(90, TimeUnit.SECONDS)).isTrue();
    String text = new String(out, StandardCharsets.UTF_8);
    JsonNode report = HttpWire.JSON.readTree(text);
    assertThat(report.has("error")).as(text).isFalse();
    return report;
  }

  private static void checkReport(OAuthWire oauth, JsonNode report, String clientId)
      throws Exception {
    Map<String, JsonNode> steps = new java.util.HashMap<>();
    for (JsonNode step : report.get("steps")) {
      steps.put(step.get("name").stringValue(), step);
    }
    assertThat(steps.get("auth").get("result").stringValue()).isEqualTo("REDIRECT");
    if (clientId != null) {
      assertThat(steps.get("auth").get("clientId").stringValue()).isEqualTo(clientId);
    }
    JsonNode consent = steps.get("consent");
    assertThat(consent.get("status").asInt()).isEqualTo(303);
    assertThat(consent.get("iss").stringValue()).isEqualTo(oauth.base);
    assertThat(consent.get("state").stringValue())
        .isEqualTo(consent.get("sentState").stringValue());
    assertThat(consent.get("resource").stringValue()).isEqualTo(oauth.server.uri.toString());
    assertThat(consent.get("challengeMethod").stringValue()).isEqualTo("S256");
    assertThat(steps.get("exchange").get("result").stringValue()).isEqualTo("AUTHORIZED");
    assertThat(steps.get("exchange").get("scope").stringValue())
        .isEqualTo("notes:read notes:propose");
    JsonNode calls = steps.get("calls");
    assertThat(calls.get("tools").toString()).contains("read_note").contains("propose_note");
    assertThat(calls.get("read").stringValue()).contains("Monday: ship the preview.");
    assertThat(calls.get("proposed").stringValue()).contains("pending_approval");
    assertThat(steps.get("refresh").get("result").stringValue()).isEqualTo("AUTHORIZED");
    assertThat(steps.get("refresh").get("rotated").asBoolean()).isTrue();
    assertThat(steps.get("refresh").get("readAfter").stringValue()).contains("Monday");
    JsonNode revoked = steps.get("revoked");
    assertThat(revoked.get("grantsRevoked").asInt()).isEqualTo(1);
    assertThat(revoked.get("failed").asBoolean()).isTrue();
    assertThat(oauth.root.resolve("draft.txt")).doesNotExist();
  }

  @Test
  void theTypeScriptSdkRegistersByDcrAndWorksUntilTheGrantIsRevoked() throws Exception {
    try (OAuthWire oauth = OAuthWire.start(dir)) {
      JsonNode report = runClient(oauth, oauth.signIn(), null);
      checkReport(oauth, report, null);
      assertThat(Files.readString(oauth.state().resolve("clients.json")))
          .contains("ts-sdk-oauth-client");
    }
  }

  @Test
  void theTypeScriptSdkUsesAClientIdMetadataDocument() throws Exception {
    Path keys = Files.createDirectories(dir.resolve("tls"));
    Path store = keys.resolve("document.p12");
    Path certificate = keys.resolve("document.pem");
    Path trust = keys.resolve("trust.p12");
    keytool(
        "-genkeypair",
        "-alias",
        "document",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=localhost",
        "-ext",
        "SAN=dns:localhost,ip:127.0.0.1",
        "-validity",
        "2",
        "-keystore",
        store.toString(),
        "-storetype",
        "PKCS12",
        "-storepass",
        PASSWORD);
    keytool(
        "-exportcert",
        "-alias",
        "document",
        "-keystore",
        store.toString(),
        "-storepass",
        PASSWORD,
        "-rfc",
        "-file",
        certificate.toString());
    keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        "document",
        "-file",
        certificate.toString(),
        "-keystore",
        trust.toString(),
        "-storetype",
        "PKCS12",
        "-storepass",
        PASSWORD);

    HttpsServer documents = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    KeyStore keyStore = KeyStore.getInstance("PKCS12");
    try (FileInputStream in = new FileInputStream(store.toFile())) {
      keyStore.load(in, PASSWORD.toCharArray());
    }
    KeyManagerFactory managers = KeyManagerFactory.getInstance("SunX509");
    managers.init(keyStore, PASSWORD.toCharArray());
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(managers.getKeyManagers(), null, null);
    documents.setHttpsConfigurator(new HttpsConfigurator(tls));
    String url = "https://127.0.0.1:" + documents.getAddress().getPort() + "/oauth/client.json";
    byte[] document =
        ("{\"client_id\":\""
                + url
                + "\",\"client_name\":\"ts-sdk-oauth-client (document)\","
                + "\"redirect_uris\":[\"http://127.0.0.1:9/callback\"],"
                + "\"grant_types\":[\"authorization_code\",\"refresh_token\"],"
                + "\"response_types\":[\"code\"],\"token_endpoint_auth_method\":\"none\"}")
            .getBytes(StandardCharsets.UTF_8);
    documents.createContext(
        "/oauth/client.json",
        exchange -> {
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, document.length);
          exchange.getResponseBody().write(document);
          exchange.close();
        });
    documents.start();
    // The server trusts this test's certificate as it would a public one's.
    Map<String, String> env =
        Map.of(
            "JAVA_TOOL_OPTIONS",
            "-Djavax.net.ssl.trustStore="
                + trust
                + " -Djavax.net.ssl.trustStorePassword="
                + PASSWORD
                + " -Djavax.net.ssl.trustStoreType=PKCS12");
    try (OAuthWire oauth = OAuthWire.start(dir, env)) {
      JsonNode report = runClient(oauth, oauth.signIn(), url);
      checkReport(oauth, report, url);
      assertThat(oauth.state().resolve("clients.json")).doesNotExist();
    } finally {
      documents.stop(0);
    }
  }

  private static void keytool(String... args) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor()).as(output).isZero();
  }
}

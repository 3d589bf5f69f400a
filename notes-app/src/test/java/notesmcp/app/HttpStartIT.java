package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code -serve -http} refuses to start with, before anything is created on disk
 * (docs/http.md, "Safe by default"), each a usage error (exit 2) saying why; and HTTPS from PEM
 * files, the key read as carefully as the policy file and readable by its owner alone.
 */
class HttpStartIT {
  @TempDir Path dir;
  private Path root;
  private Path tokens;

  @BeforeEach
  void files() throws Exception {
    root = Fixtures.workspace(dir);
    tokens = HttpWire.tokensFile(dir);
    HttpWire.addToken(tokens, "phone", "read");
  }

  private Launch.Result serve(String... flags) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(WireServer.launcher().toString(), "-serve", "-root", root.toString()));
    command.addAll(List.of(flags));
    return Launch.run(dir, command);
  }

  @Test
  void unsafeOrIncompleteHttpSettingsAreUsageErrorsThatSayWhy() throws Exception {
    Path proposals = dir.resolve("never-made");
    List<String[]> cases =
        List.of(
            new String[] {"needs TLS", "-http", "0.0.0.0:0", "-tokens", tokens.toString()},
            new String[] {"only for a loopback address", "-http", "0.0.0.0:0", "-auth", "none"},
            new String[] {"needs -tokens FILE", "-http", "127.0.0.1:0"},
            new String[] {
              "-tokens goes with -auth token",
              "-http",
              "127.0.0.1:0",
              "-auth",
              "none",
              "-tokens",
              tokens.toString()
            },
            new String[] {
              "-auth takes token, oauth or none", "-http", "127.0.0.1:0", "-auth", "basic"
            },
            new String[] {"-http takes HOST:PORT", "-http", "8765"},
            new String[] {"-http takes HOST:PORT", "-http", "127.0.0.1:70000"},
            new String[] {"go with -http", "-tokens", tokens.toString()},
            new String[] {
              "-tls-cert and -tls-key go together",
              "-http",
              "127.0.0.1:0",
              "-tokens",
              tokens.toString(),
              "-tls-cert",
              "x.pem"
            },
            new String[] {
              "-allowed-host takes HOST or HOST:PORT",
              "-http",
              "127.0.0.1:0",
              "-tokens",
              tokens.toString(),
              "-allowed-host",
              "http://evil"
            },
            new String[] {
              "no such file", "-http", "127.0.0.1:0", "-tokens", dir.resolve("none.json").toString()
            });
    for (String[] c : cases) {
      List<String> flags = new ArrayList<>(List.of(c).subList(1, c.length));
      flags.add("-proposals");
      flags.add(proposals.toString());
      Launch.Result result = serve(flags.toArray(new String[0]));
      assertThat(result.exit()).as(String.join(" ", flags) + "\n" + result.stderr()).isEqualTo(2);
      assertThat(result.stderr()).as(String.join(" ", flags)).contains(c[0]);
      assertThat(result.stdout()).isEmpty();
    }
    assertThat(proposals).doesNotExist();
    Launch.Result notHttp =
        Launch.run(
            dir,
            List.of(
                WireServer.launcher().toString(),
                "review",
                "-root",
                root.toString(),
                "-proposals",
                proposals.toString(),
                "-http",
                "127.0.0.1:0"));
    assertThat(notHttp.exit()).isEqualTo(2);
  }

  @Test
  void httpsFromPemFilesAndAKeyOthersCanReadIsRefused() throws Exception {
    Path tls = Files.createDirectories(dir.resolve("tls"));
    Path store = tls.resolve("server.p12");
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    Launch.Result made =
        Launch.run(
            dir,
            List.of(
                keytool,
                "-genkeypair",
                "-alias",
                "server",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=127.0.0.1",
                "-ext",
                "san=ip:127.0.0.1",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                "changeit"));
    assertThat(made.exit()).as(made.stderr()).isZero();
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (var in = Files.newInputStream(store)) {
      keys.load(in, "changeit".toCharArray());
    }
    Certificate certificate = keys.getCertificate("server");
    Path cert = tls.resolve("cert.pem");
    Path key = tls.resolve("key.pem");
    Files.writeString(
        cert, pem("CERTIFICATE", certificate.getEncoded()), StandardCharsets.US_ASCII);
    Files.writeString(
        key,
        pem("PRIVATE KEY", keys.getKey("server", "changeit".toCharArray()).getEncoded()),
        StandardCharsets.US_ASCII);
    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));

    Launch.Result readable =
        serve(
            "-http",
            "127.0.0.1:0",
            "-tokens",
            tokens.toString(),
            "-tls-cert",
            cert.toString(),
            "-tls-key",
            key.toString());
    assertThat(readable.exit()).isEqualTo(2);
    assertThat(readable.stderr()).contains("readable by its owner alone").contains("chmod 600");

    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
    String token = HttpWire.addToken(tokens, "tls", "read");
    try (HttpWire server =
        HttpWire.start(
            root,
            "-tokens",
            tokens.toString(),
            "-tls-cert",
            cert.toString(),
            "-tls-key",
            key.toString())) {
      assertThat(server.uri.getScheme()).isEqualTo("https");
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("server", certificate);
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, factory.getTrustManagers(), null);
      HttpClient client = HttpClient.newBuilder().sslContext(context).build();
      String[] headers = HttpWire.modernHeaders(token, "tools/list", null);
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(server.uri.toString()))
              .POST(
                  HttpRequest.BodyPublishers.ofString(
                      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{"
                          + HttpWire.META
                          + "}}"));
      for (int i = 0; i < headers.length; i += 2) {
        request.header(headers[i], headers[i + 1]);
      }
      HttpResponse<String> response =
          client.send(request.build(), HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      assertThat(response.body()).contains("read_note");
    }
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }
}

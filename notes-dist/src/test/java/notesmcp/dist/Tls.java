package notesmcp.dist;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A self-signed EC certificate for 127.0.0.1, made once with the JDK's keytool: the key store the
 * scripted model server presents it from, and a trust store holding only it, which the packaged
 * program is pointed at through JAVA_TOOL_OPTIONS (read by every JVM, its server child's too).
 */
final class Tls {
  private static final String PASSWORD = "changeit";
  private static Tls made;

  private final Path keyStore;
  private final Path trustStore;

  private Tls(Path keyStore, Path trustStore) {
    this.keyStore = keyStore;
    this.trustStore = trustStore;
  }

  static synchronized Tls once(Path dir) throws Exception {
    if (made == null) {
      Path folder = Files.createDirectories(dir.resolve("tls"));
      Path keyStore = folder.resolve("server.p12");
      Path certificate = folder.resolve("server.cer");
      Path trustStore = folder.resolve("trust.p12");
      String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
      DistIT.exec(
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
              keyStore.toString(),
              "-storepass",
              PASSWORD));
      DistIT.exec(
          List.of(
              keytool,
              "-exportcert",
              "-alias",
              "server",
              "-keystore",
              keyStore.toString(),
              "-storepass",
              PASSWORD,
              "-file",
              certificate.toString()));
      DistIT.exec(
          List.of(
              keytool,
              "-importcert",
              "-noprompt",
              "-alias",
              "server",
              "-file",
              certificate.toString(),
              "-storetype",
              "PKCS12",
              "-keystore",
              trustStore.toString(),
              "-storepass",
              PASSWORD));
      made = new Tls(keyStore, trustStore);
    }
    return made;
  }

  /** The server side: the key and its certificate. */
  SSLContext context() throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keyStore)) {
      store.load(in, PASSWORD.toCharArray());
    }
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, PASSWORD.toCharArray());
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), null, null);
    return context;
  }

  /** JVM options that make the trust store the only one trusted. */
  String trustOptions() {
    return "-Djavax.net.ssl.trustStore="
        + trustStore
        + " -Djavax.net.ssl.trustStorePassword="
        + PASSWORD
        + " -Djavax.net.ssl.trustStoreType=PKCS12";
  }
}

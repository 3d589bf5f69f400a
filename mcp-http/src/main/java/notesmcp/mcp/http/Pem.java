package notesmcp.mcp.http;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;

/**
 * A TLS identity from PEM text: the certificate chain ({@code -tls-cert}, the server's certificate
 * first) and its private key ({@code -tls-key}, unencrypted PKCS#8: {@code BEGIN PRIVATE KEY}),
 * made into a key store in memory by the JDK's own factories; nothing is written to disk. The files
 * are read by the program, carefully, before this sees their text.
 */
final class Pem {
  /** The key store's password: it lives in memory only, so it protects nothing. */
  static final String PASSWORD = "in-memory";

  private static final String KEY_BEGIN = "-----BEGIN PRIVATE KEY-----";
  private static final String KEY_END = "-----END PRIVATE KEY-----";

  /** PEM that cannot be used; the message says which file and why. */
  static final class Unusable extends Exception {
    private static final long serialVersionUID = 1L;

    Unusable(String message) {
      super(message, null, false, false);
    }
  }

  private Pem() {}

  static KeyStore keyStore(String certificates, String key) throws Unusable {
    List<Certificate> chain = certificates(certificates);
    PrivateKey privateKey = privateKey(key);
    if (!chain.get(0).getPublicKey().getAlgorithm().equals(privateKey.getAlgorithm())) {
      throw new Unusable(
          "-tls-key: its key is "
              + privateKey.getAlgorithm()
              + ", the certificate's "
              + chain.get(0).getPublicKey().getAlgorithm());
    }
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry(
          "server", privateKey, PASSWORD.toCharArray(), chain.toArray(new Certificate[0]));
      return store;
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new Unusable("-tls-cert and -tls-key cannot be used together: " + e.getMessage());
    }
  }

  private static List<Certificate> certificates(String pem) throws Unusable {
    Collection<? extends Certificate> read;
    try {
      read =
          CertificateFactory.getInstance("X.509")
              .generateCertificates(
                  new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    } catch (GeneralSecurityException e) {
      throw new Unusable("-tls-cert: not PEM certificates (" + e.getMessage() + ")");
    }
    if (read.isEmpty()) {
      throw new Unusable("-tls-cert: holds no certificate (BEGIN CERTIFICATE)");
    }
    return new ArrayList<>(read);
  }

  private static PrivateKey privateKey(String pem) throws Unusable {
    int begin = pem.indexOf(KEY_BEGIN);
    int end = pem.indexOf(KEY_END);
    if (begin < 0 || end < begin) {
      throw new Unusable(
          "-tls-key: holds no unencrypted PKCS#8 key (BEGIN PRIVATE KEY); convert one with"
              + " 'openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8'");
    }
    byte[] der;
    try {
      der = Base64.getMimeDecoder().decode(pem.substring(begin + KEY_BEGIN.length(), end).strip());
    } catch (IllegalArgumentException e) {
      throw new Unusable("-tls-key: its key is not Base64");
    }
    for (String algorithm : new String[] {"RSA", "EC", "Ed25519", "EdDSA"}) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        // not this algorithm: try the next
      }
    }
    throw new Unusable("-tls-key: its key is neither RSA, EC nor Ed25519 PKCS#8");
  }
}

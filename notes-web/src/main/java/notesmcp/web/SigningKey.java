package notesmcp.web;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The built-in authorization server's signing key: an EC P-256 key (ES256), made on the first start
 * and kept in the state folder as a private JWK ({@value #FILE}, {@code 0600}); its key id is its
 * RFC 7638 thumbprint. Removing the file makes a new key at the next start, and every access token
 * signed with the old one fails from then on (refresh tokens still work: a client gets new access
 * tokens signed with the new key).
 */
final class SigningKey {
  static final String FILE = "signing-key.jwk";

  private static final int MAX_BYTES = 16 * 1024;

  private SigningKey() {}

  static ECKey load(Store store) throws IOException {
    return store.locked(
        () -> {
          byte[] bytes = store.read(FILE, MAX_BYTES);
          if (bytes != null) {
            try {
              ECKey key = ECKey.parse(new String(bytes, StandardCharsets.UTF_8));
              if (!key.isPrivate() || !Curve.P_256.equals(key.getCurve())) {
                throw new IOException(
                    store.dir().resolve(FILE)
                        + " is not a private P-256 key; remove it to make one");
              }
              return key;
            } catch (java.text.ParseException e) {
              throw new IOException(
                  store.dir().resolve(FILE) + " is not a JWK (" + e.getMessage() + ")");
            }
          }
          ECKey key;
          try {
            key =
                new ECKeyGenerator(Curve.P_256)
                    .keyUse(KeyUse.SIGNATURE)
                    .algorithm(JWSAlgorithm.ES256)
                    .keyIDFromThumbprint(true)
                    .generate();
          } catch (JOSEException e) {
            throw new IOException("cannot make a P-256 key: " + e.getMessage(), e);
          }
          store.write(FILE, (key.toJSONString() + "\n").getBytes(StandardCharsets.UTF_8));
          return key;
        });
  }
}

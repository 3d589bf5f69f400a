package notesmcp.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The owner's passphrase (docs/oauth.md, "Signing in"), kept in {@value #FILE} only as
 * PBKDF2-HMAC-SHA256 with {@value #ITERATIONS} iterations of a 128-bit random salt, 256 bits long:
 * the JDK's own slow hash (no memory-hard one ships with Java 17), at the iteration count OWASP's
 * password storage guidance gives for it. A guess costs the server 0.6 s of one core (about 4 s
 * under the launcher's C1-only JIT; BENCHMARKS.md), which is also why sign-in attempts are
 * throttled ({@link SignInThrottle}) and verified one at a time.
 */
final class Passphrase {
  static final String FILE = "owner.json";
  static final String FORMAT = "notes-mcp/owner/1";
  static final int ITERATIONS = 600_000;
  static final int MIN_LENGTH = 12;
  static final int MAX_LENGTH = 1024;

  private static final String ALGORITHM = "PBKDF2WithHmacSHA256";
  private static final SecureRandom RANDOM = new SecureRandom();

  /** What the file keeps. */
  record Hash(int iterations, byte[] salt, byte[] hash) {}

  private Passphrase() {}

  static Hash hash(char[] passphrase) {
    byte[] salt = new byte[16];
    RANDOM.nextBytes(salt);
    return new Hash(ITERATIONS, salt, derive(passphrase, salt, ITERATIONS));
  }

  static boolean matches(Hash kept, char[] passphrase) {
    return MessageDigest.isEqual(kept.hash(), derive(passphrase, kept.salt(), kept.iterations()));
  }

  private static byte[] derive(char[] passphrase, byte[] salt, int iterations) {
    PBEKeySpec spec = new PBEKeySpec(passphrase, salt, iterations, 256);
    try {
      return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this Java has no " + ALGORITHM, e);
    } finally {
      spec.clearPassword();
    }
  }

  /** The kept hash, or null when no passphrase was set. */
  static Hash read(Store store) throws IOException {
    byte[] bytes = store.read(FILE, 16 * 1024);
    if (bytes == null) {
      return null;
    }
    String what = store.dir().resolve(FILE).toString();
    JsonNode p = Json.object(bytes, FORMAT, what).get("passphrase");
    if (p == null || !p.isObject() || !ALGORITHM.equals(p.path("algorithm").asString(""))) {
      throw new IOException(what + " has no " + ALGORITHM + " passphrase");
    }
    int iterations = p.path("iterations").asInt(0);
    if (iterations < 100_000) {
      throw new IOException(what + " has too few iterations");
    }
    try {
      return new Hash(
          iterations,
          Base64.getDecoder().decode(Json.text(p, "salt", what)),
          Base64.getDecoder().decode(Json.text(p, "hash", what)));
    } catch (IllegalArgumentException e) {
      throw new IOException(what + " has a salt or hash that is not Base64");
    }
  }

  static void write(Store store, Hash hash) throws IOException {
    ObjectNode root = Json.newObject(FORMAT);
    ObjectNode p = root.putObject("passphrase");
    p.put("algorithm", ALGORITHM);
    p.put("iterations", hash.iterations());
    p.put("salt", Base64.getEncoder().encodeToString(hash.salt()));
    p.put("hash", Base64.getEncoder().encodeToString(hash.hash()));
    store.locked(
        () -> {
          store.write(FILE, Json.bytes(root));
          return null;
        });
  }

  /** Why {@code passphrase} is not acceptable, or null. */
  static String problem(char[] passphrase) {
    if (passphrase.length < MIN_LENGTH) {
      return "a passphrase has at least " + MIN_LENGTH + " characters";
    }
    if (passphrase.length > MAX_LENGTH) {
      return "a passphrase has at most " + MAX_LENGTH + " characters";
    }
    return null;
  }

  /** The bytes of a form's passphrase, as characters, for {@link #matches}. */
  static char[] chars(String text) {
    return text.toCharArray();
  }

  static void clear(char[] passphrase) {
    Arrays.fill(passphrase, '\0');
  }

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}

package notesmcp.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Random secrets (codes, refresh tokens, sign-in links, session ids, CSRF tokens): 256 bits from
 * the JDK's {@link SecureRandom}, URL-safe Base64; and the SHA-256 that is all the state files keep
 * of each.
 */
final class Secrets {
  private static final SecureRandom RANDOM = new SecureRandom();

  private Secrets() {}

  /** 256 random bits after {@code prefix}. */
  static String make(String prefix) {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** A short random identifier (128 bits) after {@code prefix}: not a secret, a name. */
  static String id(String prefix) {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  static byte[] sha256(String secret) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every Java platform has SHA-256", e);
    }
  }

  static String sha256Hex(String secret) {
    return HexFormat.of().formatHex(sha256(secret));
  }

  /** Whether two hex hashes are equal, in time that does not depend on where they differ. */
  static boolean same(String a, String b) {
    return MessageDigest.isEqual(
        a.getBytes(StandardCharsets.US_ASCII), b.getBytes(StandardCharsets.US_ASCII));
  }
}

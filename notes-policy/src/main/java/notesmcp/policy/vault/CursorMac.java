package notesmcp.policy.vault;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;

/**
 * What signs the catalog's cursors, so that a cursor holds only within the process that issued it:
 * a key of 32 random bytes, drawn at the first use, for the life of the process. Thread-safe: one
 * digest, under this object's monitor.
 */
final class CursorMac {
  // Guarded by this; made at the first use.
  private MessageDigest sha256;
  private byte[] inner;
  private byte[] outer;

  /**
   * The first 16 bytes of HMAC-SHA256 (RFC 2104) over {@code bytes[0, length)}, with a key drawn at
   * the first call, for the life of the process. Written over {@link MessageDigest} rather than
   * {@code javax.crypto.Mac}: finding {@code HmacSHA256} loads and registers every security
   * provider before the one that has it, which cost the first listing tens of milliseconds; SHA-256
   * is in the first provider, loaded at start-up already. {@code CatalogTest} checks it against
   * {@code Mac}.
   */
  synchronized byte[] of(byte[] bytes, int length) {
    if (sha256 == null) {
      byte[] key = new byte[32];
      new SecureRandom().nextBytes(key);
      inner = new byte[64];
      outer = new byte[64];
      for (int i = 0; i < 64; i++) {
        byte k = i < key.length ? key[i] : 0;
        inner[i] = (byte) (k ^ 0x36);
        outer[i] = (byte) (k ^ 0x5c);
      }
      try {
        sha256 = MessageDigest.getInstance("SHA-256");
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("every Java platform has SHA-256", e);
      }
    }
    return hmac(sha256, inner, outer, bytes, length);
  }

  /** HMAC over {@code digest} with the key's padded blocks {@code inner} and {@code outer}. */
  static byte[] hmac(MessageDigest digest, byte[] inner, byte[] outer, byte[] bytes, int length) {
    digest.reset();
    digest.update(inner);
    digest.update(bytes, 0, length);
    byte[] first = digest.digest();
    digest.update(outer);
    byte[] full = digest.digest(first);
    byte[] cut = new byte[16];
    System.arraycopy(full, 0, cut, 0, 16);
    return cut;
  }
}

package notesmcp.policy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import notesmcp.policy.Notes.Requester;

/**
 * A note a client asked to create, waiting for a person's approval. Immutable: the destination and
 * the exact content never change after the proposal is accepted.
 *
 * @param requester the client's self-reported identity, unverified; null when it gave none
 */
public record Proposal(
    String id, NoteName path, String content, Instant createdAt, Requester requester) {

  /** The exact bytes the note would hold: the content as UTF-8. */
  public byte[] bytes() {
    return content.getBytes(StandardCharsets.UTF_8);
  }

  /** The SHA-256 of {@link #bytes()}, as 64 lower-case hex digits. */
  public String sha256() {
    return sha256(bytes());
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every Java platform has SHA-256", e);
    }
  }
}

package notesmcp.policy.proposals;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import notesmcp.policy.rules.NoteName;

/**
 * A note a client asked to create, or an existing note it asked to change, waiting for a person's
 * approval. Immutable: the destination, the exact content and, for an edit, the exact text it
 * replaces never change after the proposal is accepted.
 *
 * @param content the note's whole text after the commit (for an append: the base and the appended
 *     text)
 * @param requester the client's self-reported identity, unverified; null when it gave none
 * @param base for an edit, the note's whole text the proposal was made against (the bytes the
 *     commit checks and the undo restores); null for a new note
 * @param authenticated the name of the credential its transport authenticated the requester by (a
 *     token of the HTTP server, never the token), verified; null over stdio
 */
public record Proposal(
    String id,
    NoteName path,
    String content,
    Instant createdAt,
    Requester requester,
    String base,
    String authenticated) {

  /** A proposal of a requester no transport authenticated (stdio). */
  public Proposal(
      String id,
      NoteName path,
      String content,
      Instant createdAt,
      Requester requester,
      String base) {
    this(id, path, content, createdAt, requester, base, null);
  }

  /** A proposal for a new note. */
  public Proposal(
      String id, NoteName path, String content, Instant createdAt, Requester requester) {
    this(id, path, content, createdAt, requester, null);
  }

  /** Whether this proposal changes an existing note rather than creating one. */
  public boolean isEdit() {
    return base != null;
  }

  /** The bytes an edit replaces (its base as UTF-8); null for a new note. */
  public byte[] baseBytes() {
    return base == null ? null : base.getBytes(StandardCharsets.UTF_8);
  }

  /** The SHA-256 of {@link #baseBytes()}; null for a new note. */
  public String baseSha256() {
    return base == null ? null : sha256(baseBytes());
  }

  /** The exact bytes the note would hold: the content as UTF-8. */
  public byte[] bytes() {
    return content.getBytes(StandardCharsets.UTF_8);
  }

  /** The SHA-256 of {@link #bytes()}, as 64 lower-case hex digits. */
  public String sha256() {
    return sha256(bytes());
  }

  public static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every Java platform has SHA-256", e);
    }
  }
}

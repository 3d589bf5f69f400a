package notesmcp.app;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import notesmcp.files.TrustedFile;
import notesmcp.mcp.server.Authenticator;
import notesmcp.mcp.server.Caller;

/**
 * {@code -auth token}: a request's {@code Authorization: Bearer TOKEN} names a token of the tokens
 * file when the SHA-256 of TOKEN equals one the file keeps (docs/http.md, "Tokens"). Every stored
 * hash is compared, each in constant time ({@code MessageDigest.isEqual}), so how long a refusal
 * takes says nothing about how near a guess came. A {@code read} token grants {@value #READ}; a
 * {@code propose} token grants {@value #PROPOSE} too, which tools that are not read-only need.
 *
 * <p>The file is looked at on every request: its identity (device, inode, size, change and
 * modification times) is read, and when it differs from what was read last, the file is read again,
 * carefully ({@link TokenFile#read}). So a revoked token fails on its next request. A file that can
 * no longer be used (removed, damaged, made writable by others) refuses every request until it is
 * fixed: the server fails closed, and says so on stderr once per change.
 *
 * <p>No token is ever written anywhere: not in a log line, an error, a challenge. Thread-safe.
 */
final class TokenAuthenticator implements Authenticator {
  static final String READ = "notes:read";
  static final String PROPOSE = "notes:propose";

  private static final String REALM = "Bearer realm=\"notes-mcp\"";

  private final Path file;
  private final PrintStream log;

  /** What was read last, and the identity of the file it was read from. */
  private static final class Snapshot {
    final String identity;
    final List<TokenFile.Entry> entries; // null: the file could not be used
    final byte[][] hashes;

    Snapshot(String identity, List<TokenFile.Entry> entries) {
      this.identity = identity;
      this.entries = entries;
      this.hashes = new byte[entries == null ? 0 : entries.size()][];
      for (int i = 0; i < hashes.length; i++) {
        hashes[i] = HexFormat.of().parseHex(entries.get(i).sha256());
      }
    }
  }

  private volatile Snapshot snapshot;

  /**
   * @param entries the file as read at start-up (the server refuses to start on a file it cannot
   *     use)
   */
  TokenAuthenticator(Path file, List<TokenFile.Entry> entries, PrintStream log) {
    this.file = file;
    this.log = log;
    this.snapshot = new Snapshot(identity(file), entries);
  }

  /** The file's identity: device, inode, size, change and modification times; null if gone. */
  static String identity(Path file) {
    return TrustedFile.identity(file, true);
  }

  /** The entries now: read again when the file changed since the last look. */
  private Snapshot current() {
    String now = identity(file);
    Snapshot seen = snapshot;
    if (now != null && now.equals(seen.identity)) {
      return seen;
    }
    synchronized (this) {
      seen = snapshot;
      now = identity(file);
      if (now != null && now.equals(seen.identity)) {
        return seen;
      }
      List<TokenFile.Entry> entries;
      try {
        entries = TokenFile.read(file, false);
        log.println(
            "notes-mcp: the tokens file changed; "
                + entries.size()
                + (entries.size() == 1 ? " token" : " tokens")
                + " now");
      } catch (IOException | TokenFile.Invalid e) {
        entries = null;
        if (seen.entries != null || !String.valueOf(now).equals(String.valueOf(seen.identity))) {
          log.println(
              "notes-mcp: the tokens file "
                  + file
                  + " cannot be used ("
                  + (e instanceof IOException ? StartUp.problem((IOException) e) : e.getMessage())
                  + "); every request is refused until it can");
        }
      }
      Snapshot next = new Snapshot(now, entries);
      snapshot = next;
      return next;
    }
  }

  @Override
  public Verdict authenticate(String authorization, String peer) {
    if (authorization == null) {
      return Verdict.refused(401, REALM, "this server needs Authorization: Bearer TOKEN");
    }
    String token = bearer(authorization);
    if (token == null) {
      return Verdict.refused(
          401,
          REALM + ", error=\"invalid_request\"",
          "the Authorization header is not 'Bearer TOKEN'");
    }
    Snapshot now = current();
    byte[] presented = TokenFile.digest(token);
    TokenFile.Entry found = null;
    for (int i = 0; i < now.hashes.length; i++) {
      if (java.security.MessageDigest.isEqual(presented, now.hashes[i])) {
        found = now.entries.get(i);
      }
    }
    if (found == null) {
      return Verdict.refused(
          401,
          REALM + ", error=\"invalid_token\"",
          "the bearer token is not one of this server's tokens (wrong, or revoked)");
    }
    Set<String> scopes = found.mayPropose() ? Set.of(READ, PROPOSE) : Set.of(READ);
    return Verdict.allowed(new Caller(found.name(), scopes, !found.mayPropose(), peer));
  }

  @Override
  public String insufficientScope() {
    return REALM + ", error=\"insufficient_scope\", scope=\"" + READ + " " + PROPOSE + "\"";
  }

  /** The token of {@code Bearer TOKEN} (the scheme in any case), or null. */
  static String bearer(String authorization) {
    String value = authorization.trim();
    int space = value.indexOf(' ');
    if (space < 0 || !value.substring(0, space).equalsIgnoreCase("Bearer")) {
      return null;
    }
    String token = value.substring(space + 1).trim();
    return token.isEmpty() || token.indexOf(' ') >= 0 ? null : token;
  }
}

package notesmcp.web;

import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Authorization codes (docs/oauth.md, "Codes"): kept in memory only, by their SHA-256, for {@value
 * #LIFETIME_SECONDS} s; a server that restarts forgets them (the client asks again). A code is
 * redeemed once: the first redemption, right or wrong, uses it up, and when it issued a grant the
 * code remembers which for {@link #REMEMBERED} more, so that a replay revokes that grant. At most
 * {@value #MAX} codes at once. Thread-safe.
 */
final class Codes {
  static final long LIFETIME_SECONDS = 60;

  static final Duration REMEMBERED = Duration.ofMinutes(10);

  static final int MAX = 256;

  /** What a code was issued for. */
  record Code(
      String clientId,
      String clientName,
      String redirectUri,
      String scope,
      String challenge,
      Instant expires) {}

  /** A code's record: used once redeemed, with the grant it issued (or null). */
  private static final class Entry {
    final Code code;
    boolean used;
    String grant;

    Entry(Code code) {
      this.code = code;
    }
  }

  /** What redeeming a code found. */
  static final class Redeemed {
    /** The code, when this was its first redemption and it had not expired; else null. */
    final Code code;

    /** When the code was redeemed before: the grant it issued then (null: none). */
    final String replayedGrant;

    final boolean replayed;

    private Redeemed(Code code, boolean replayed, String replayedGrant) {
      this.code = code;
      this.replayed = replayed;
      this.replayedGrant = replayedGrant;
    }
  }

  private final Map<String, Entry> entries = new LinkedHashMap<>();

  /** A new code for {@code code}, or null when {@value #MAX} are waiting already. */
  synchronized String issue(Code code, Instant now) {
    sweep(now);
    if (entries.size() >= MAX) {
      return null;
    }
    String value = Secrets.make("nmca_");
    entries.put(Secrets.sha256Hex(value), new Entry(code));
    return value;
  }

  /** Uses up {@code value}. */
  synchronized Redeemed redeem(String value, Instant now) {
    sweep(now);
    Entry entry = entries.get(Secrets.sha256Hex(value));
    if (entry == null) {
      return new Redeemed(null, false, null);
    }
    if (entry.used) {
      return new Redeemed(null, true, entry.grant);
    }
    entry.used = true;
    if (now.isAfter(entry.code.expires())) {
      return new Redeemed(null, false, null);
    }
    return new Redeemed(entry.code, false, null);
  }

  /** Records the grant a redeemed code issued, for a replay to revoke. */
  synchronized void issued(String value, String grant) {
    Entry entry = entries.get(Secrets.sha256Hex(value));
    if (entry != null) {
      entry.grant = grant;
    }
  }

  private void sweep(Instant now) {
    Iterator<Entry> all = entries.values().iterator();
    while (all.hasNext()) {
      Entry entry = all.next();
      if (now.isAfter(entry.code.expires().plus(REMEMBERED))
          || (!entry.used && now.isAfter(entry.code.expires()))) {
        all.remove();
      }
    }
  }
}

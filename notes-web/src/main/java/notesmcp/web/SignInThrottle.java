package notesmcp.web;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Passphrase attempts, throttled (docs/oauth.md, "Signing in"), per peer address and over all peers
 * together:
 *
 * <ul>
 *   <li>a peer's n-th wrong passphrase in a row locks that peer out for 2^(n-1) seconds (1, 2, 4,
 *       ... capped at {@value #CAP_SECONDS} s); a right one clears its count;
 *   <li>beyond {@value #FREE_FAILURES} wrong passphrases within an hour from anyone, the k-th one
 *       more locks every peer out for 2^k seconds (capped the same);
 *   <li>an attempt during a lock-out is refused without being looked at (no hash is computed), and
 *       does not count.
 * </ul>
 *
 * Behind a reverse proxy every request comes from the proxy's address, so the per-peer rule is the
 * global one. A sign-in link is never throttled: it is a 256-bit secret. At most {@value #PEERS}
 * peers are remembered (the oldest forgotten first). Thread-safe.
 */
final class SignInThrottle {
  static final long CAP_SECONDS = 900;
  static final int FREE_FAILURES = 20;
  static final int PEERS = 1024;

  private static final class Peer {
    int failures;
    Instant lockedUntil = Instant.MIN;
  }

  private final Map<String, Peer> peers = new LinkedHashMap<>();
  private final Deque<Instant> failures = new ArrayDeque<>();
  private Instant globalUntil = Instant.MIN;

  /** Seconds {@code peer} must wait before its next attempt; 0 when it may try now. */
  synchronized long wait(String peer, Instant now) {
    Peer p = peers.get(peer);
    Instant until = globalUntil;
    if (p != null && p.lockedUntil.isAfter(until)) {
      until = p.lockedUntil;
    }
    if (!until.isAfter(now)) {
      return 0;
    }
    // Rounded up: waiting the seconds said is always enough.
    return Math.max(1, (Duration.between(now, until).toMillis() + 999) / 1000);
  }

  synchronized void failed(String peer, Instant now) {
    Peer p = peers.remove(peer);
    if (p == null) {
      p = new Peer();
    }
    p.failures++;
    p.lockedUntil = now.plusSeconds(seconds(p.failures - 1));
    peers.put(peer, p);
    while (peers.size() > PEERS) {
      peers.remove(peers.keySet().iterator().next());
    }
    while (!failures.isEmpty() && failures.peekFirst().isBefore(now.minus(Duration.ofHours(1)))) {
      failures.removeFirst();
    }
    failures.addLast(now);
    int beyond = failures.size() - FREE_FAILURES;
    if (beyond > 0) {
      globalUntil = now.plusSeconds(seconds(beyond));
    }
  }

  synchronized void succeeded(String peer) {
    peers.remove(peer);
  }

  private static long seconds(int doublings) {
    return doublings >= 10 ? CAP_SECONDS : Math.min(CAP_SECONDS, 1L << doublings);
  }
}

package notesmcp.bench;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;

/**
 * Sequential {@code tools/call read_note}: one request in flight, the next sent when the reply is
 * in. What a host that calls tools one after another waits per call, including both pipes and the
 * server's thread hand-offs. The warm-up calls are made the same way and not recorded: they let the
 * JITs of both sides settle.
 */
final class SequentialLatency {
  /** No reply for this long means a lost reply (or a hung server): generous for a busy machine. */
  static final Duration STALL = Duration.ofSeconds(15);

  private SequentialLatency() {}

  /** Round trips in nanoseconds, in call order. */
  static long[] run(Session session, int warmup, int calls) {
    ServerProcess server = session.server();
    ScheduledFuture<?> watchdog = server.watch("the sequential phase", STALL);
    try {
      for (int i = 0; i < warmup; i++) {
        session.call();
      }
      long[] nanos = new long[calls];
      for (int i = 0; i < calls; i++) {
        nanos[i] = session.call();
      }
      return nanos;
    } finally {
      watchdog.cancel(false);
    }
  }
}

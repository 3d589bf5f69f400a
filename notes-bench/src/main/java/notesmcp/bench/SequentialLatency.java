package notesmcp.bench;

import java.util.concurrent.ScheduledFuture;
import org.HdrHistogram.Histogram;

/**
 * Sequential {@code tools/call read_note}: one request in flight, the next sent when the reply is
 * in. What a host that calls tools one after another waits per call, including both pipes and the
 * server's thread hand-offs. Every recorded call's round trip goes into an HdrHistogram, so the
 * tail (p99, p99.9, the maximum) is read from every call rather than from a sample. The warm-up
 * calls are made the same way and not recorded: they let the JITs of both sides settle.
 */
final class SequentialLatency {
  private SequentialLatency() {}

  /** A histogram of round trips in nanoseconds: 3 significant digits, any range. */
  static Histogram histogram() {
    Histogram histogram = new Histogram(3);
    histogram.setAutoResize(true);
    return histogram;
  }

  /** Round trips of {@code calls} recorded calls after {@code warmup} unrecorded ones. */
  static Histogram run(Session session, int warmup, int calls) {
    ScheduledFuture<?> watchdog = session.server().watch("the sequential phase", session.stall());
    try {
      for (int i = 0; i < warmup; i++) {
        session.call();
      }
      Histogram nanos = histogram();
      for (int i = 0; i < calls; i++) {
        nanos.recordValue(session.call());
      }
      return nanos;
    } finally {
      watchdog.cancel(false);
    }
  }
}

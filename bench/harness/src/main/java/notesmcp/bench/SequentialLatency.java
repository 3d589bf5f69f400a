package notesmcp.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
    return run(session, warmup, calls, null);
  }

  /**
   * The same, and when {@code trace} is not null, every recorded call written to it as one line
   * {@code start_ns round_trip_ns}: the start on {@link System#nanoTime}'s clock (CLOCK_MONOTONIC
   * on Linux, the clock of the JVM's {@code -Xlog} decorator {@code tn}), so a slow call can be
   * lined up with what the server logged at that moment. Written after the phase, not during it.
   */
  static Histogram run(Session session, int warmup, int calls, Path trace) {
    ScheduledFuture<?> watchdog = session.server().watch("the sequential phase", session.stall());
    long[] starts = trace == null ? null : new long[calls];
    long[] trips = trace == null ? null : new long[calls];
    Histogram nanos = histogram();
    try {
      for (int i = 0; i < warmup; i++) {
        session.call();
      }
      for (int i = 0; i < calls; i++) {
        long start = System.nanoTime();
        long trip = session.call();
        nanos.recordValue(trip);
        if (trace != null) {
          starts[i] = start;
          trips[i] = trip;
        }
      }
    } finally {
      watchdog.cancel(false);
    }
    if (trace != null) {
      write(trace, starts, trips);
    }
    return nanos;
  }

  private static void write(Path trace, long[] starts, long[] trips) {
    try (Writer out = Files.newBufferedWriter(trace, StandardCharsets.US_ASCII)) {
      for (int i = 0; i < starts.length; i++) {
        out.write(starts[i] + " " + trips[i] + "\n");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the trace " + trace, e);
    }
  }
}

package notesmcp.bench;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Cold start: spawn to the first {@code tools/list} reply (see {@link Session#open}), in a process
 * that does nothing else. Every round also takes one from the process that then runs the call
 * phases; these extra samples make the median of the noisiest metric worth reading.
 */
final class ColdStart {
  private ColdStart() {}

  /**
   * @return the start-up time in nanoseconds, and a note if the server then did not exit cleanly
   */
  static Sample measure(ServerSpec spec, Path stderrFile, String noteContent, Duration stall) {
    try (Session session = Session.open(spec, stderrFile, noteContent, stall)) {
      return new Sample(session.coldStartNanos(), session.finish());
    }
  }

  record Sample(long nanos, String exitNote) {}
}

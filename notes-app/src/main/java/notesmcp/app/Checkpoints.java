package notesmcp.app;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Test hooks for the commit's named points ({@code Approvals.CHECKPOINTS}); never set in use. With
 * {@code -Dnotesmcp.test.haltAt=POINT} the review process halts there at once, as a crash or a
 * {@code kill -9} would (no shutdown hooks, no cleanup), exit status {@link #HALT_STATUS}. With
 * {@code -Dnotesmcp.test.pauseAt=POINT -Dnotesmcp.test.resumeFile=FILE} it waits there, holding the
 * proposals lock, until FILE exists, so a test can start a second reviewer at that moment.
 */
final class Checkpoints {
  static final String HALT_PROPERTY = "notesmcp.test.haltAt";
  static final String PAUSE_PROPERTY = "notesmcp.test.pauseAt";
  static final String RESUME_PROPERTY = "notesmcp.test.resumeFile";
  static final int HALT_STATUS = 86;

  private static final long MAX_PAUSE_MILLIS = 60_000;

  private Checkpoints() {}

  /** The hooks the system properties ask for: a no-op unless a test set one. */
  static Consumer<String> fromSystemProperties(PrintStream log) {
    String haltAt = System.getProperty(HALT_PROPERTY);
    String pauseAt = System.getProperty(PAUSE_PROPERTY);
    String resume = System.getProperty(RESUME_PROPERTY);
    return point -> {
      if (point.equals(haltAt)) {
        log.println("notes-mcp: halting at " + point + " (test hook)");
        log.flush();
        Runtime.getRuntime().halt(HALT_STATUS);
      }
      if (point.equals(pauseAt) && resume != null) {
        log.println("notes-mcp: pausing at " + point + " (test hook)");
        log.flush();
        pauseUntil(Path.of(resume));
      }
    };
  }

  private static void pauseUntil(Path resume) {
    long deadline = System.currentTimeMillis() + MAX_PAUSE_MILLIS;
    try {
      while (!Files.exists(resume) && System.currentTimeMillis() < deadline) {
        Thread.sleep(10);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

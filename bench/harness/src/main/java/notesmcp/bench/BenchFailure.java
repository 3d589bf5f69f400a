package notesmcp.bench;

/**
 * A lost, wrong or late reply, or a server that died: the run stops here, loudly. A benchmark that
 * quietly skips failures would report the speed of a server that does not work.
 */
final class BenchFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  BenchFailure(String message) {
    super(message);
  }

  BenchFailure(String message, Throwable cause) {
    super(message, cause);
  }
}

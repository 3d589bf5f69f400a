package notesmcp.bench;

/**
 * A long run in one process: pipelined batches of calls, VmRSS sampled after each batch. A server
 * that keeps something per call (a map entry, a log buffer, a cache) grows here, where a short run
 * would not show it.
 */
final class Soak {
  /** Above this growth of the peak from the first half to the second, memory is not flat. */
  static final long FLAT_TOLERANCE_BYTES = 2L * 1024 * 1024;

  static final double FLAT_TOLERANCE_FRACTION = 0.02;

  /**
   * @param callsAt calls made in the process when each sample was taken
   * @param rssBytes VmRSS at each sample
   * @param peakBytes VmHWM at the end
   * @param callsPerSecond over the whole soak
   */
  record Result(long[] callsAt, long[] rssBytes, long peakBytes, double callsPerSecond) {
    /**
     * The highest sample of the second half minus the highest of the first: a leak raises every
     * peak, while a garbage-collected heap's saw-tooth (high, then low after a collection) does
     * not, wherever the last sample happens to fall.
     */
    long secondHalfGrowth() {
      return max(middle() + 1, rssBytes.length) - max(0, middle() + 1);
    }

    /** The last sample of the first half. */
    int middle() {
      return (rssBytes.length - 1) / 2;
    }

    /**
     * Flat: the second half's peak is at most 2 MiB or 2 % (whichever is more) above the first
     * half's. Growth inside the first half is allowed on purpose: heaps and JIT caches reach their
     * working size early, and that is not a leak.
     */
    boolean flat() {
      long reference = max(0, middle() + 1);
      return secondHalfGrowth()
          <= Math.max(FLAT_TOLERANCE_BYTES, (long) (reference * FLAT_TOLERANCE_FRACTION));
    }

    private long max(int from, int to) {
      long max = Long.MIN_VALUE;
      for (int i = from; i < Math.max(to, from + 1) && i < rssBytes.length; i++) {
        max = Math.max(max, rssBytes[i]);
      }
      return max;
    }
  }

  private Soak() {}

  static Result run(Session session, int calls, int every) {
    int samples = Math.max(1, calls / every);
    long[] callsAt = new long[samples];
    long[] rss = new long[samples];
    ProcessHandle process = session.server().handle();
    long start = System.nanoTime();
    for (int i = 0; i < samples; i++) {
      PipelinedThroughput.run(session, every);
      callsAt[i] = session.calls();
      rss[i] = ProcFs.statusBytes(process, "VmRSS");
    }
    double perSecond = (double) samples * every * 1e9 / (System.nanoTime() - start);
    return new Result(callsAt, rss, ProcFs.statusBytes(process, "VmHWM"), perSecond);
  }
}

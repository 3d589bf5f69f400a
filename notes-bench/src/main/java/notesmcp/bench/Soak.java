package notesmcp.bench;

/**
 * A long run in one process: pipelined batches of calls, VmRSS sampled after each batch. A server
 * that keeps something per call (a map entry, a log buffer, a cache) grows here, where a short run
 * would not show it.
 */
final class Soak {
  /** Above this growth over the second half of the run, memory is not flat. */
  static final long FLAT_TOLERANCE_BYTES = 2L * 1024 * 1024;

  static final double FLAT_TOLERANCE_FRACTION = 0.02;

  /**
   * @param callsAt calls made in the process when each sample was taken
   * @param rssBytes VmRSS at each sample
   * @param peakBytes VmHWM at the end
   * @param callsPerSecond over the whole soak
   */
  record Result(long[] callsAt, long[] rssBytes, long peakBytes, double callsPerSecond) {
    /** RSS at the end minus RSS at the sample nearest the middle of the run. */
    long secondHalfGrowth() {
      return rssBytes[rssBytes.length - 1] - rssBytes[middle()];
    }

    int middle() {
      return (rssBytes.length - 1) / 2;
    }

    /**
     * Flat: the second half grew by at most 2 MiB or 2 %, whichever is more. The first half is left
     * out on purpose: heaps and JIT caches grow to their working size early, and that is not a
     * leak.
     */
    boolean flat() {
      long end = rssBytes[rssBytes.length - 1];
      return secondHalfGrowth()
          <= Math.max(FLAT_TOLERANCE_BYTES, (long) (end * FLAT_TOLERANCE_FRACTION));
    }
  }

  private Soak() {}

  static Result run(Session session, int calls, int every) {
    int samples = Math.max(1, calls / every);
    long[] callsAt = new long[samples];
    long[] rss = new long[samples];
    long pid = session.server().pid();
    long start = System.nanoTime();
    for (int i = 0; i < samples; i++) {
      PipelinedThroughput.run(session, every);
      callsAt[i] = session.calls();
      rss[i] = ProcFs.statusBytes(pid, "VmRSS");
    }
    double perSecond = (double) samples * every * 1e9 / (System.nanoTime() - start);
    return new Result(callsAt, rss, ProcFs.statusBytes(pid, "VmHWM"), perSecond);
  }
}

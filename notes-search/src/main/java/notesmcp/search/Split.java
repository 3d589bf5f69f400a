package notesmcp.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A list's work split over one thread or two (the index build, the first search's scan): part
 * {@code t} of {@code n} takes items {@code t}, {@code t + n}, {@code t + 2n}, ... on a daemon
 * thread of its own; one part runs on the caller's thread.
 */
final class Split {
  /** One part of the work: items {@code first}, {@code first + step}, ... */
  interface Part<T> {
    T run(int first, int step) throws IOException;
  }

  private Split() {}

  /** One thread for fewer than 64 items, else two where there are two cores. */
  static int threadsFor(int items) {
    return items < 64 ? 1 : Math.min(2, Runtime.getRuntime().availableProcessors());
  }

  /** Each part's result, in part order (null results kept). */
  static <T> List<T> run(int threads, String name, Part<T> part) throws IOException {
    List<T> results = new ArrayList<>(threads);
    if (threads == 1) {
      results.add(part.run(0, 1));
      return results;
    }
    ExecutorService pool =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread thread = new Thread(r, name);
              thread.setDaemon(true);
              return thread;
            });
    try {
      List<Future<T>> parts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        parts.add(pool.submit(() -> part.run(first, threads)));
      }
      for (Future<T> future : parts) {
        results.add(future.get());
      }
      return results;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while working on " + name);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException
          ? (IOException) e.getCause()
          : new IOException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }
}

package notesmcp.mcp.server;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The lead over the server's input: one thread at a time holds it and reads stdin; the others wait
 * for their turn (see CONCURRENCY.md). The thread holding the lead also does the work its reading
 * brings, an answer or a write to stdout, without giving the lead up, so a lone request is read,
 * answered and written by one thread with no hand-off. While it works it is watched: a thread that
 * has been working for longer than {@code stuckAfter} has the lead taken from it by the watch, and
 * another thread reads on. So a slow call or a stdout nobody reads never keeps cancellations and
 * other requests from being read.
 *
 * <p>The watch, thread "notes-mcp watch", sleeps until the working thread's deadline, so it wakes
 * at most once per {@code stuckAfter} while requests come, and parks for good after about a second
 * without work (the next work wakes it). When it takes the lead and no thread is waiting for it, it
 * calls {@code noFollower}, which may start one.
 *
 * <p>Every change of a turn's state is a compare-and-set: when the thread finishing its work and
 * the watch finding it slow act at once, exactly one wins, so the lead is never released twice and
 * never held by two readers.
 */
final class Lead {
  /** Watch wake-ups without any work after which the watch parks until work comes. */
  private static final int QUIET_WAKES = 50;

  private final Semaphore permit = new Semaphore(1);
  private final long stuckNanos;
  private final Runnable noFollower;
  private final AtomicReference<Turn> working = new AtomicReference<>();
  private final Thread watch;
  private volatile long works; // a sign of life for the watch; only the lead's holder writes it
  private volatile boolean watchParked;
  private volatile boolean closed;

  /**
   * @param stuckAfter how long a thread may work while holding the lead
   * @param noFollower run by the watch when it took the lead and no thread waits to take it
   */
  Lead(Duration stuckAfter, Runnable noFollower) {
    this.stuckNanos = stuckAfter.toNanos();
    this.noFollower = noFollower;
    this.watch =
        new Thread("notes-mcp watch") {
          @Override
          public void run() {
            watch();
          }
        };
    watch.setDaemon(true);
    watch.start();
  }

  /** One thread's hold on the lead: used by that thread, and by the watch to take the lead. */
  final class Turn {
    private static final int WAITING = 0;
    private static final int READING = 1;
    private static final int WORKING = 2;

    private final AtomicInteger state = new AtomicInteger(WAITING);
    private volatile long since;

    /** Takes the lead, waiting for it, unless this turn holds it already. */
    void take() {
      if (state.get() == WAITING) {
        permit.acquireUninterruptibly();
        state.set(READING);
      }
    }

    /** Gives the lead to the next thread, if this turn holds it. */
    void handOff() {
      int now;
      while ((now = state.get()) != WAITING) {
        if (state.compareAndSet(now, WAITING)) {
          permit.release();
          return;
        }
      }
    }

    boolean isLeading() {
      return state.get() != WAITING;
    }

    /** This turn starts work while it keeps the lead: from now on it is watched. */
    void working() {
      if (state.compareAndSet(READING, WORKING)) {
        since = System.nanoTime();
        working.set(this);
        works++; // only the lead's holder writes it, and a lost increment would do no harm
        if (watchParked) {
          LockSupport.unpark(watch);
        }
      }
    }

    /**
     * This turn's work is done. If the watch took the lead meanwhile, the turn no longer leads
     * ({@link #isLeading}); the registration is cleared only if it is still this turn's, never a
     * newer turn's.
     */
    void worked() {
      state.compareAndSet(WORKING, READING);
      working.compareAndSet(this, null);
    }

    /** The watch's move: only a turn still working loses the lead. */
    private boolean takeAway() {
      if (state.compareAndSet(WORKING, WAITING)) {
        permit.release();
        return true;
      }
      return false;
    }
  }

  Turn turn() {
    return new Turn();
  }

  private void watch() {
    long seen = works;
    int quiet = 0;
    while (!closed) {
      Turn turn = working.get();
      if (turn != null && turn.state.get() == Turn.WORKING) {
        long late = System.nanoTime() - (turn.since + stuckNanos);
        if (late < 0) {
          LockSupport.parkNanos(this, -late);
        } else {
          if (turn.takeAway() && !permit.hasQueuedThreads()) {
            noFollower.run();
          }
          working.compareAndSet(turn, null);
        }
        continue;
      }
      if (works != seen) {
        seen = works;
        quiet = 0;
      } else if (++quiet > QUIET_WAKES) {
        watchParked = true;
        if (works == seen && working.get() == null && !closed) {
          LockSupport.park(this);
        }
        watchParked = false;
        continue;
      }
      LockSupport.parkNanos(this, stuckNanos);
    }
  }

  /** Stops the watch. */
  void close() {
    closed = true;
    LockSupport.unpark(watch);
  }
}

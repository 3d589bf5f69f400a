package notesmcp.mcp;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The lead over the server's input: one thread at a time holds it and reads; the others wait for
 * their turn. A thread may keep the lead while it answers what it read (a lone request is then read
 * and answered with no hand-off at all), but it is watched: one that answers for longer than {@code
 * stuckAfter} has its lead handed on by the watch, so a slow or stuck call never stops the server
 * from reading cancellations and other requests.
 *
 * <p>The watch costs nothing on a request's path but a few volatile writes: it polls every few
 * milliseconds while requests come, and parks for good after a second without any.
 */
final class Lead {
  private static final long MAX_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
  private static final int QUIET_POLLS = 200;

  private final Semaphore permit = new Semaphore(1);
  private final long stuckNanos;
  private final long pollNanos;
  private final Thread watch;
  private volatile Turn answering;
  private volatile long answeringSince;
  private volatile long answers;
  private volatile boolean watchParked;
  private volatile boolean closed;

  Lead(Duration stuckAfter) {
    this.stuckNanos = stuckAfter.toNanos();
    this.pollNanos = Math.max(1, Math.min(MAX_POLL_NANOS, stuckNanos / 4));
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

  /**
   * One thread's hold on the lead; used by that thread, and by the watch to hand it on. As a {@link
   * Runnable} it hands the lead on. Its state moves between not leading, reading and answering; the
   * thread and the watch change it only by compare-and-set, so when both act at once (the thread
   * finishing its answers, the watch finding it slow), exactly one of them wins and the lead is
   * never released twice nor held by two readers.
   */
  final class Turn implements Runnable {
    private static final int IDLE = 0;
    private static final int READING = 1;
    private static final int ANSWERING = 2;

    private final AtomicInteger state = new AtomicInteger(IDLE);

    /** Takes the lead, waiting for it, unless this turn holds it already. */
    void take() {
      if (state.get() == IDLE) {
        permit.acquireUninterruptibly();
        state.set(READING);
      }
    }

    /** Gives the lead to the next thread, if this turn holds it. */
    void handOff() {
      int now;
      while ((now = state.get()) != IDLE) {
        if (state.compareAndSet(now, IDLE)) {
          permit.release();
          return;
        }
      }
    }

    @Override
    public void run() {
      handOff();
    }

    boolean isLeading() {
      return state.get() != IDLE;
    }

    /** This turn starts answering while it keeps the lead: from now on it is watched. */
    void answering() {
      if (state.compareAndSet(READING, ANSWERING)) {
        answeringSince = System.nanoTime();
        answering = this;
        answers++; // only a sign of life for the watch: a lost increment does no harm
        if (watchParked) {
          LockSupport.unpark(watch);
        }
      }
    }

    /** This turn is done answering; if the watch took the lead meanwhile, it no longer leads. */
    void answered() {
      state.compareAndSet(ANSWERING, READING);
      if (answering == this) {
        answering = null;
      }
    }

    /** The watch's hand-off: only a turn still answering loses the lead. */
    private void takeAwayIfAnswering() {
      if (state.compareAndSet(ANSWERING, IDLE)) {
        permit.release();
      }
    }
  }

  Turn turn() {
    return new Turn();
  }

  private void watch() {
    long seen = answers;
    int quiet = 0;
    while (!closed) {
      Turn turn = answering;
      if (turn != null && System.nanoTime() - answeringSince > stuckNanos) {
        turn.takeAwayIfAnswering();
      }
      if (answers != seen) {
        seen = answers;
        quiet = 0;
      } else if (++quiet > QUIET_POLLS && answering == null) {
        watchParked = true;
        if (answers == seen && !closed) {
          LockSupport.park(this);
        }
        watchParked = false;
        continue;
      }
      LockSupport.parkNanos(this, pollNanos);
    }
  }

  /** Stops the watch. */
  void close() {
    closed = true;
    LockSupport.unpark(watch);
  }
}

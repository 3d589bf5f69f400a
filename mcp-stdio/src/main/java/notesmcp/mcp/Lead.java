package notesmcp.mcp;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
  private static final int QUIET_POLLS = 200;

  private final Semaphore permit = new Semaphore(1);
  private final long stuckNanos;
  private final Thread watch;
  private volatile Turn answering;
  private volatile long answeringSince;
  private volatile long answers;
  private volatile boolean watchParked;
  private volatile boolean closed;

  Lead(Duration stuckAfter) {
    this.stuckNanos = stuckAfter.toNanos();
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
   * Runnable} it hands the lead on.
   */
  final class Turn implements Runnable {
    private final AtomicBoolean leading = new AtomicBoolean();

    /** Takes the lead, waiting for it, unless this turn holds it already. */
    void take() {
      if (!leading.get()) {
        permit.acquireUninterruptibly();
        leading.set(true);
      }
    }

    /** Gives the lead to the next thread, if this turn holds it. */
    void handOff() {
      if (leading.compareAndSet(true, false)) {
        permit.release();
      }
    }

    @Override
    public void run() {
      handOff();
    }

    boolean isLeading() {
      return leading.get();
    }

    /** This turn starts answering while it keeps the lead: from now on it is watched. */
    void answering() {
      answeringSince = System.nanoTime();
      answering = this;
      answers++; // only a sign of life for the watch: a lost increment does no harm
      if (watchParked) {
        LockSupport.unpark(watch);
      }
    }

    /** This turn is done answering. */
    void answered() {
      if (answering == this) {
        answering = null;
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
        turn.answered();
        turn.handOff();
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
      LockSupport.parkNanos(this, POLL_NANOS);
    }
  }

  /** Stops the watch. */
  void close() {
    closed = true;
    LockSupport.unpark(watch);
  }
}

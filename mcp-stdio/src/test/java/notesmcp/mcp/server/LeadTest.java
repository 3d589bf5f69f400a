package notesmcp.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import notesmcp.mcp.server.Server.Lead;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LeadTest {
  private static final Runnable NOTHING = () -> {};

  @Test
  void neverTwoReadersEvenWhenTheWatchTakesTheLeadFromSlowWork() throws Exception {
    Lead lead = new Lead(Duration.ofNanos(1), NOTHING); // all work is "slow": the watch always acts
    AtomicInteger readers = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    AtomicInteger reads = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Thread thread =
          new Thread("lead-test-" + t) {
            @Override
            public void run() {
              Lead.Turn turn = lead.turn();
              for (int i = 0; i < 5_000; i++) {
                turn.take();
                if (readers.incrementAndGet() > 1) {
                  overlaps.incrementAndGet();
                }
                reads.incrementAndGet();
                readers.decrementAndGet();
                turn.working();
                if (ThreadLocalRandom.current().nextInt(100) == 0) {
                  turn.handOff(); // the end of input
                }
                Thread.onSpinWait();
                turn.worked();
              }
              turn.handOff();
            }
          };
      thread.start();
      threads.add(thread);
    }
    for (Thread thread : threads) {
      thread.join();
    }
    lead.close();

    assertThat(overlaps).hasValue(0);
    assertThat(reads).hasValue(20_000);
  }

  @Test
  void aTurnThatKeepsWorkingLosesTheLeadToTheWatch() throws Exception {
    Lead lead = new Lead(Duration.ofMillis(20), NOTHING);
    Lead.Turn slow = lead.turn();
    slow.take();
    slow.working();

    Lead.Turn next = lead.turn();
    Thread taker = new Thread(next::take, "lead-test-taker");
    taker.start();
    taker.join(5_000);

    assertThat(taker.isAlive()).as("the watch handed the lead on").isFalse();
    assertThat(next.isLeading()).isTrue();
    slow.worked();
    assertThat(slow.isLeading()).as("the slow turn knows it lost the lead").isFalse();
    lead.close();
  }

  /**
   * Work about to wait gives the lead up at once (Server.aboutToWait), long before the watch would
   * take it: the next thread reads on while the work goes on, and the work's end finds the turn no
   * longer leading.
   */
  @Test
  void aTurnAboutToWaitGivesTheLeadToTheNextThreadAtOnce() throws Exception {
    Lead lead = new Lead(Duration.ofHours(1), NOTHING); // the watch never acts here
    Lead.Turn waiting = lead.turn();
    waiting.take();
    waiting.working();
    Lead.Turn next = lead.turn();
    Thread taker = new Thread(next::take, "lead-test-taker");
    taker.start();

    waiting.letGo();

    taker.join(5_000);
    assertThat(taker.isAlive()).as("the lead went on").isFalse();
    assertThat(next.isLeading()).isTrue();
    waiting.worked();
    assertThat(waiting.isLeading()).isFalse();
    waiting.letGo(); // again, and not leading: nothing happens
    assertThat(next.isLeading()).isTrue();
    lead.close();
  }

  @Test
  void aTurnAboutToWaitAsksForAFollowerWhenNobodyWaitsAndAReaderNeverLetsGo() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    Lead lead = new Lead(Duration.ofHours(1), asked::incrementAndGet);
    Lead.Turn turn = lead.turn();
    turn.take();

    turn.letGo(); // reading, not working: a thread blocked on stdin keeps the lead
    assertThat(turn.isLeading()).isTrue();
    assertThat(asked).hasValue(0);

    turn.working();
    turn.letGo();
    assertThat(turn.isLeading()).isFalse();
    assertThat(asked).as("noFollower ran").hasValue(1);
    lead.close();
  }

  @Test
  void readingIsNeverWatched() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    Lead lead = new Lead(Duration.ofMillis(1), asked::incrementAndGet);
    Lead.Turn reader = lead.turn();
    reader.take(); // a thread blocked on stdin, or waiting for the outbox to drain

    Thread.sleep(100);

    assertThat(reader.isLeading()).isTrue();
    assertThat(asked).hasValue(0);
    lead.close();
  }

  @Test
  void theWatchAsksForAFollowerWhenNobodyWaitsForTheLead() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    Lead lead = new Lead(Duration.ofMillis(5), asked::countDown);
    Lead.Turn slow = lead.turn();
    slow.take();
    slow.working();

    assertThat(asked.await(5, TimeUnit.SECONDS)).as("noFollower ran").isTrue();
    assertThat(slow.isLeading()).isFalse();
    lead.close();
  }

  /**
   * A turn that finishes late must not clear the registration of the turn working after it, or that
   * one would never be watched again.
   */
  @Test
  void aLateFinishNeverUnwatchesTheTurnThatWorksAfterIt() throws Exception {
    Lead lead = new Lead(Duration.ofMillis(20), NOTHING);
    Lead.Turn first = lead.turn();
    first.take();
    first.working();
    Lead.Turn second = lead.turn();
    Thread takeSecond = new Thread(second::take, "lead-test-second");
    takeSecond.start();
    takeSecond.join(5_000);
    assertThat(second.isLeading()).as("the watch handed the lead to the second turn").isTrue();
    second.working();

    first.worked(); // late: its work ended after the lead moved on

    Lead.Turn third = lead.turn();
    Thread takeThird = new Thread(third::take, "lead-test-third");
    takeThird.start();
    takeThird.join(5_000);
    assertThat(third.isLeading()).as("the second turn was still watched").isTrue();
    assertThat(second.isLeading()).isFalse();
    lead.close();
  }

  /** The watch thread of a lead made now (the threads of other tests' leads share its name). */
  private static Lead leadWithItsWatch(
      Duration stuckAfter, Runnable noFollower, List<Thread> watch) {
    Set<Thread> before = Thread.getAllStackTraces().keySet();
    Lead lead = new Lead(stuckAfter, noFollower);
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().equals("notes-mcp watch") && !before.contains(thread)) {
        watch.add(thread);
      }
    }
    assertThat(watch).hasSize(1);
    return lead;
  }

  /**
   * After a quiet spell the watch sleeps until work starts (no wake-ups every 20 ms for an idle
   * server), and work that starts then is watched all the same.
   */
  @Test
  void workAfterAQuietSpellIsStillWatched() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    List<Thread> watch = new ArrayList<>();
    Lead lead = leadWithItsWatch(Duration.ofMillis(20), asked::countDown, watch);
    Thread.sleep(1_500); // more than 50 quiet wakes of 20 ms: the watch parks

    Lead.Turn slow = lead.turn();
    slow.take();
    slow.working();

    assertThat(asked.await(5, TimeUnit.SECONDS)).as("noFollower ran").isTrue();
    assertThat(slow.isLeading()).isFalse();
    lead.close();
  }

  /**
   * Closing ends the watch, even one asleep after a quiet spell; it never keeps a process alive.
   */
  @Test
  void closingEndsTheWatchWhichIsADaemon() throws Exception {
    List<Thread> watch = new ArrayList<>();
    Lead lead = leadWithItsWatch(Duration.ofMillis(20), NOTHING, watch);
    assertThat(watch.get(0).isDaemon()).isTrue();
    Thread.sleep(1_500);

    lead.close();

    watch.get(0).join(3_000);
    assertThat(watch.get(0).isAlive()).isFalse();
  }
}

package notesmcp.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LeadTest {
  @Test
  void neverTwoReadersEvenWhenTheWatchTakesTheLeadFromSlowAnswers() throws Exception {
    Lead lead =
        new Lead(Duration.ofNanos(1)); // every answer is "slow": the watch acts all the time
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
                turn.answering();
                if (ThreadLocalRandom.current().nextInt(100) == 0) {
                  turn.handOff(); // a request about to wait
                }
                Thread.onSpinWait();
                turn.answered();
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
  void aTurnThatKeepsAnsweringLosesTheLeadToTheWatch() throws Exception {
    Lead lead = new Lead(Duration.ofMillis(20));
    Lead.Turn slow = lead.turn();
    slow.take();
    slow.answering();

    Lead.Turn next = lead.turn();
    Thread taker = new Thread(next::take, "lead-test-taker");
    taker.start();
    taker.join(5_000);

    assertThat(taker.isAlive()).as("the watch handed the lead on").isFalse();
    assertThat(next.isLeading()).isTrue();
    slow.answered();
    assertThat(slow.isLeading()).as("the slow turn knows it lost the lead").isFalse();
    lead.close();
  }
}

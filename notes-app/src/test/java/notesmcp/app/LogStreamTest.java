package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class LogStreamTest {
  @Test
  void aStderrNobodyReadsNeverMakesTheWriterWait() throws Exception {
    Gate stderr = new Gate();
    LogStream log = new LogStream(stderr, 4096);
    PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);

    for (int i = 0; i < 20_000; i++) {
      out.println("notes-mcp: ignoring a response; this server sends no requests " + i);
    }

    assertThat(stderr.blocked.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(log.dropped()).isGreaterThan(19_000);
    stderr.open();
  }

  @Test
  void whenStderrTakesLinesAgainItSaysHowManyWereDropped() throws Exception {
    Gate stderr = new Gate();
    LogStream log = new LogStream(stderr, 64);
    PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
    out.println("first");
    assertThat(stderr.blocked.await(5, TimeUnit.SECONDS)).isTrue(); // the thread holds "first"
    out.println("kept while stderr is stuck");
    for (int i = 0; i < 10; i++) {
      out.println("a line that no longer fits in the sixty-four bytes kept " + i);
    }

    stderr.open();
    assertThat(log.drain(Duration.ofSeconds(5))).isTrue();

    assertThat(stderr.text())
        .isEqualTo(
            "first\n"
                + "kept while stderr is stuck\n"
                + "notes-mcp: 10 log line(s) dropped: stderr was not being read\n");
  }

  @Test
  void linesAreKeptWholeWhateverPiecesTheyAreWrittenIn() throws Exception {
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    LogStream log = new LogStream(stderr, 1024);

    log.write("one ".getBytes(StandardCharsets.UTF_8));
    log.write("line\ntwo".getBytes(StandardCharsets.UTF_8));
    log.write('\n');
    log.write("unfinished".getBytes(StandardCharsets.UTF_8));
    assertThat(log.drain(Duration.ofSeconds(5))).isTrue();

    assertThat(stderr.toString(StandardCharsets.UTF_8)).isEqualTo("one line\ntwo\nunfinished\n");
  }

  /** A progress line rewritten in place ({@code IndexCommand}) reaches the terminal as it is. */
  @Test
  void aLineEndedByACarriageReturnIsWrittenWithoutWaitingForALineFeed() throws Exception {
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    LogStream log = new LogStream(stderr, 1024);

    log.write("indexing: 1 of 2\r".getBytes(StandardCharsets.UTF_8));
    assertThat(log.drain(Duration.ofSeconds(5))).isTrue();
    assertThat(stderr.toString(StandardCharsets.UTF_8)).isEqualTo("indexing: 1 of 2\r");

    log.write("indexing: 2 of 2\r                \rdone\n".getBytes(StandardCharsets.UTF_8));
    assertThat(log.drain(Duration.ofSeconds(5))).isTrue();
    assertThat(stderr.toString(StandardCharsets.UTF_8))
        .isEqualTo("indexing: 1 of 2\rindexing: 2 of 2\r                \rdone\n");
  }

  @Test
  void aLineLongerThanTheQueueIsDroppedWhole() throws Exception {
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    LogStream log = new LogStream(stderr, 16);

    log.write(("x".repeat(40) + "\nshort\n").getBytes(StandardCharsets.UTF_8));
    assertThat(log.drain(Duration.ofSeconds(5))).isTrue();

    assertThat(stderr.toString(StandardCharsets.UTF_8))
        .isEqualTo("short\nnotes-mcp: 1 log line(s) dropped: stderr was not being read\n");
  }

  @Test
  void drainingAtExitIsBoundedWhenStderrTakesNothing() throws Exception {
    Gate stderr = new Gate();
    LogStream log = new LogStream(stderr, 1024);
    log.write("stuck\n".getBytes(StandardCharsets.UTF_8));

    long start = System.nanoTime();
    boolean drained = log.drain(Duration.ofMillis(100));

    assertThat(drained).isFalse();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    stderr.open();
  }

  /** The queue holds exactly its capacity: a line of that size is kept, as are lines filling it. */
  @Test
  void linesFillingTheQueueExactlyAreKept() throws Exception {
    Gate stderr = new Gate();
    LogStream log = new LogStream(stderr, 16);
    log.write("held\n".getBytes(StandardCharsets.UTF_8));
    assertThat(stderr.blocked.await(5, TimeUnit.SECONDS)).isTrue(); // the thread holds "held"
    log.write("1234567\n".getBytes(StandardCharsets.UTF_8)); // 8 bytes
    log.write("abcdefg\n".getBytes(StandardCharsets.UTF_8)); // 16 in the queue
    log.write("x\n".getBytes(StandardCharsets.UTF_8)); // 18: dropped
    assertThat(log.dropped()).isEqualTo(1);

    stderr.open();
    assertThat(log.drain(Duration.ofSeconds(5))).isTrue();
    assertThat(stderr.text())
        .isEqualTo(
            "held\n1234567\nabcdefg\n"
                + "notes-mcp: 1 log line(s) dropped: stderr was not being read\n");

    ByteArrayOutputStream whole = new ByteArrayOutputStream();
    LogStream exact = new LogStream(whole, 16);
    exact.write(("y".repeat(15) + "\n").getBytes(StandardCharsets.UTF_8));
    assertThat(exact.drain(Duration.ofSeconds(5))).isTrue();
    assertThat(whole.toString(StandardCharsets.UTF_8)).isEqualTo("y".repeat(15) + "\n");
  }

  /** A long line written in small pieces arrives whole (the line buffer grows as it is written). */
  @Test
  void aLongLineWrittenInPiecesArrivesWhole() throws Exception {
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    LogStream log = new LogStream(stderr, 1 << 16);
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < 1000; i++) {
      String piece = "piece " + i + ";";
      line.append(piece);
      log.write(piece.getBytes(StandardCharsets.UTF_8));
    }
    log.write('\n');
    log.write("next\n".getBytes(StandardCharsets.UTF_8));
    assertThat(log.drain(Duration.ofSeconds(5))).isTrue();

    assertThat(stderr.toString(StandardCharsets.UTF_8)).isEqualTo(line + "\nnext\n");
  }

  /** The writing thread, once idle, wakes for each new line, and flushes what it writes. */
  @Test
  void eachLineIsWrittenAndFlushedEvenAfterTheThreadWentIdle() throws Exception {
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    LogStream log = new LogStream(new BufferedOutputStream(stderr, 1 << 16), 1024);
    log.write("first\n".getBytes(StandardCharsets.UTF_8));
    assertThat(log.drain(Duration.ofSeconds(5))).isTrue();
    assertThat(stderr.toString(StandardCharsets.UTF_8)).isEqualTo("first\n");

    log.write("second\n".getBytes(StandardCharsets.UTF_8));
    assertThat(log.drain(Duration.ofSeconds(5))).isTrue();
    assertThat(stderr.toString(StandardCharsets.UTF_8)).isEqualTo("first\nsecond\n");
  }

  /** The writing thread never keeps the process alive: a stuck stderr must not stop an exit. */
  @Test
  void theWritingThreadIsADaemon() throws Exception {
    Gate stderr = new Gate();
    LogStream log = new LogStream(stderr, 64);
    log.write("stuck\n".getBytes(StandardCharsets.UTF_8));
    assertThat(stderr.blocked.await(5, TimeUnit.SECONDS)).isTrue();

    List<Thread> writers = new ArrayList<>();
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().equals("notes-mcp stderr")) {
        writers.add(thread);
      }
    }
    assertThat(writers).isNotEmpty().allMatch(Thread::isDaemon);
    stderr.open();
  }

  /** An interrupted drain gives up at once, and the interrupt stays set for the caller. */
  @Test
  void anInterruptedDrainGivesUpAndKeepsTheInterrupt() throws Exception {
    Gate stderr = new Gate();
    LogStream log = new LogStream(stderr, 64);
    log.write("stuck\n".getBytes(StandardCharsets.UTF_8));
    assertThat(stderr.blocked.await(5, TimeUnit.SECONDS)).isTrue();

    Thread.currentThread().interrupt();
    long start = System.nanoTime();
    boolean drained = log.drain(Duration.ofSeconds(30));

    assertThat(Thread.interrupted()).isTrue();
    assertThat(drained).isFalse();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    stderr.open();
  }
}

package notesmcp.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
}

package notesmcp.mcp.client;

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

@Timeout(value = 20, unit = TimeUnit.SECONDS)
class StderrTailTest {
  private static Process writing(String script) throws Exception {
    return new ProcessBuilder(List.of("sh", "-c", script)).start();
  }

  @Test
  void onlyTheLastLinesOfALongStderrAreKept() throws Exception {
    StderrTail tail = new StderrTail(null);
    Process server =
        writing(
            "i=0; while [ $i -lt 5000 ]; do echo \"line $i\" >&2; i=$((i+1)); done; echo end >&2");
    tail.follow(server);

    assertThat(tail.awaitEnd(Duration.ofSeconds(10))).isTrue();
    String text = tail.text();
    assertThat(text).endsWith("line 4999\nend").doesNotContain("line 0\n");
    assertThat(text.length()).isLessThanOrEqualTo(StderrTail.KEEP);
    assertThat(text.split("\n")[0]).as("no partial first line").startsWith("line ");
    server.waitFor();
  }

  @Test
  void everythingIsPassedThroughWhenAsked() throws Exception {
    ByteArrayOutputStream copy = new ByteArrayOutputStream();
    StderrTail tail = new StderrTail(new PrintStream(copy, true, StandardCharsets.UTF_8));
    Process server = writing("echo 'a banner' >&2; echo 'a warning' >&2");
    tail.follow(server);

    assertThat(tail.awaitEnd(Duration.ofSeconds(10))).isTrue();
    assertThat(copy.toString(StandardCharsets.UTF_8)).isEqualTo("a banner\na warning\n");
    assertThat(tail.text()).isEqualTo("a banner\na warning");
  }

  @Test
  void theTailIsMadeSafeToShow() throws Exception {
    StderrTail tail = new StderrTail(null);
    tail.follow(writing("printf 'boom \\033]0;title\\007\\r\\n' >&2"));

    assertThat(tail.awaitEnd(Duration.ofSeconds(10))).isTrue();
    assertThat(tail.text()).isEqualTo("boom \\u001b]0;title\\u0007");
  }

  @Test
  void waitingForTheEndIsBounded() throws Exception {
    StderrTail tail = new StderrTail(null);
    Process server = writing("exec sleep 30");
    tail.follow(server);

    assertThat(tail.awaitEnd(Duration.ofMillis(100))).isFalse();
    assertThat(tail.text()).isEmpty();
    server.destroyForcibly().waitFor();
  }

  /** A stderr of exactly the kept size was not cut, so its first line is whole and is shown. */
  @Test
  void aStderrOfExactlyTheKeptSizeIsShownFromItsFirstLine() throws Exception {
    StderrTail tail = new StderrTail(null);
    tail.follow(
        writing("printf 'first\\n' >&2; yes line | head -c " + (StderrTail.KEEP - 6) + " >&2"));

    assertThat(tail.awaitEnd(Duration.ofSeconds(10))).isTrue();
    assertThat(tail.text()).startsWith("first\nline\n");
  }

  /** What is passed through is flushed as it comes, even into a buffered stream. */
  @Test
  void thePassedThroughTextIsFlushedAsItComes() throws Exception {
    ByteArrayOutputStream copy = new ByteArrayOutputStream();
    StderrTail tail = new StderrTail(new PrintStream(new BufferedOutputStream(copy, 1 << 16)));
    tail.follow(writing("echo 'a warning' >&2"));

    assertThat(tail.awaitEnd(Duration.ofSeconds(10))).isTrue();
    assertThat(copy.toString(StandardCharsets.UTF_8)).isEqualTo("a warning\n");
  }

  /** Following a server's stderr never keeps the client's process alive. */
  @Test
  void theReadingThreadIsADaemon() throws Exception {
    StderrTail tail = new StderrTail(null);
    Process server = writing("exec sleep 30");
    tail.follow(server);

    List<Thread> readers = new ArrayList<>();
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().equals("notes-mcp server stderr")) {
        readers.add(thread);
      }
    }
    assertThat(readers).isNotEmpty().allMatch(Thread::isDaemon);
    server.destroyForcibly().waitFor();
  }
}

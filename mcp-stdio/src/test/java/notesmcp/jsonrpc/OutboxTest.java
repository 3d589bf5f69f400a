package notesmcp.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class OutboxTest {
  private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
  private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static Thread flushInBackground(Outbox outbox) {
    Thread thread = new Thread(outbox::flush, "outbox-test-writer");
    thread.start();
    return thread;
  }

  @Test
  void waitingLinesAreCountedInBytesAndLeaveInOneFlush() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Outbox outbox = new Outbox(out, log);

    outbox.add(utf8("{\"id\":1}"));
    outbox.add(utf8("{\"id\":\"\u20ac\"}"));
    assertThat(outbox.pendingBytes()).isEqualTo(9 + 13);
    assertThat(out.size()).as("adding never writes").isZero();

    outbox.flush();

    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("{\"id\":1}\n{\"id\":\"\u20ac\"}\n");
    assertThat(outbox.pendingBytes()).isZero();
  }

  @Test
  void aLineLargerThanOneWriteLeavesWholeAndInOrder() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Outbox outbox = new Outbox(out, log);
    String big = "b".repeat(200 * 1024);

    outbox.add(utf8("small"));
    outbox.add(utf8(big));
    outbox.add(utf8("after"));
    outbox.flush();

    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("small\n" + big + "\nafter\n");
  }

  @Test
  void aFlushWhileAnotherThreadWritesLeavesTheLinesToThatThread() throws Exception {
    Gate out = new Gate();
    Outbox outbox = new Outbox(out, log);
    outbox.add(utf8("first"));
    Thread writer = flushInBackground(outbox);
    assertThat(out.blocked.await(5, TimeUnit.SECONDS)).isTrue();

    outbox.add(utf8("second"));
    outbox.flush(); // returns at once: the writer is busy, and will take "second" too

    assertThat(outbox.pendingBytes()).isEqualTo(6 + 7);
    out.open();
    writer.join();
    assertThat(out.text()).isEqualTo("first\nsecond\n");
    assertThat(outbox.pendingBytes()).isZero();
  }

  @Test
  void awaitRoomWaitsForTheWriterToGetBelowTheLimit() throws Exception {
    Gate out = new Gate();
    Outbox outbox = new Outbox(out, log);
    outbox.add(utf8("x".repeat(100)));
    Thread writer = flushInBackground(outbox);
    assertThat(out.blocked.await(5, TimeUnit.SECONDS)).isTrue();
    Thread waiting =
        new Thread(
            () -> {
              try {
                outbox.awaitRoom(10);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "outbox-test-reader");
    waiting.start();

    waiting.join(200);
    assertThat(waiting.isAlive()).as("no room while the writer is stuck").isTrue();
    out.open();
    waiting.join(5_000);
    writer.join();
    assertThat(waiting.isAlive()).isFalse();
  }

  @Test
  void awaitRoomWritesItselfWhenNobodyElseIs() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Outbox outbox = new Outbox(out, log);
    outbox.add(utf8("x".repeat(100)));

    outbox.awaitRoom(10);

    assertThat(out.size()).isEqualTo(101);
  }

  @Test
  void awaitWrittenNeverWritesAndGivesUpWhenNothingMoves() throws Exception {
    Gate out = new Gate();
    Outbox outbox = new Outbox(out, log);
    outbox.add(utf8("never read"));
    Thread writer = flushInBackground(outbox);
    assertThat(out.blocked.await(5, TimeUnit.SECONDS)).isTrue();

    long start = System.nanoTime();
    boolean written = outbox.awaitWritten(Duration.ofMillis(100), Duration.ofSeconds(30));

    assertThat(written).isFalse();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    out.open();
    writer.join();
    assertThat(outbox.awaitWritten(Duration.ofMillis(100), Duration.ofSeconds(30))).isTrue();
  }

  @Test
  void aClosedPeerBreaksTheOutboxAndLaterLinesAreDiscarded() {
    OutputStream closed =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            throw new IOException("Broken pipe");
          }

          @Override
          public void write(byte[] bytes, int offset, int length) throws IOException {
            throw new IOException("Broken pipe");
          }
        };
    Outbox outbox = new Outbox(closed, log);
    outbox.add(utf8("lost"));

    outbox.flush();
    outbox.add(utf8("discarded"));

    assertThat(outbox.isBroken()).isTrue();
    assertThat(outbox.pendingBytes()).isZero();
    assertThat(logBytes.toString(StandardCharsets.UTF_8))
        .isEqualTo("notes-mcp: stdout closed by the peer (Broken pipe)\n");
  }

  /** An output that records the size of each write, and may take its time over each. */
  private static final class Recording extends OutputStream {
    final List<Integer> writes = new ArrayList<>();
    final ByteArrayOutputStream taken = new ByteArrayOutputStream();
    private final long pauseMillis;

    Recording(long pauseMillis) {
      this.pauseMillis = pauseMillis;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
      try {
        Thread.sleep(pauseMillis);
      } catch (InterruptedException e) {
        throw new IOException(e);
      }
      writes.add(length);
      taken.write(bytes, offset, length);
    }
  }

  /** Whole lines are gathered into one write of up to 4096 bytes (PIPE_BUF), the last byte too. */
  @Test
  void linesFillingOneWriteExactlyLeaveInOneWrite() {
    Recording out = new Recording(0);
    Outbox outbox = new Outbox(out, log);

    outbox.add(utf8("a".repeat(4095)));
    outbox.flush();
    outbox.add(utf8("b".repeat(2047)));
    outbox.add(utf8("c".repeat(2047)));
    outbox.flush();

    assertThat(out.writes).containsExactly(4096, 4096);
    assertThat(outbox.pendingBytes()).isZero();
  }

  @Test
  void aLineLargerThanOneWriteIsCountedAndFlushedWhenItLeaves() {
    ByteArrayOutputStream taken = new ByteArrayOutputStream();
    Outbox outbox = new Outbox(new BufferedOutputStream(taken, 1 << 20), log);

    outbox.add(utf8("b".repeat(10_000)));
    assertThat(outbox.pendingBytes()).isEqualTo(10_001);
    outbox.flush();

    assertThat(outbox.pendingBytes()).isZero();
    assertThat(taken.size()).isEqualTo(10_001);
  }

  /** awaitRoom(limit) lets exactly limit bytes wait: it neither writes nor waits for them. */
  @Test
  void exactlyTheLimitWaitingIsRoomEnough() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Outbox outbox = new Outbox(out, log);
    outbox.add(utf8("x".repeat(10)));

    outbox.awaitRoom(11);

    assertThat(out.size()).isZero();
    assertThat(outbox.pendingBytes()).isEqualTo(11);
  }

  /** A writer that is slow but keeps going is waited for: only a stall ends the wait early. */
  @Test
  void awaitWrittenWaitsForASlowWriterThatKeepsGoing() throws Exception {
    // Ten writes of 250 ms: 2.5 s in all, twice the stall allowed, so only a wait that starts again
    // at each write's progress sees them through; a stall of 1.2 s leaves a loaded machine room to
    // schedule the writer late.
    Recording out = new Recording(250);
    Outbox outbox = new Outbox(out, log);
    for (int i = 0; i < 5; i++) {
      outbox.add(utf8(Integer.toString(i).repeat(5000))); // each larger than one write
    }
    Thread writer = flushInBackground(outbox);

    boolean written = outbox.awaitWritten(Duration.ofMillis(1200), Duration.ofSeconds(20));

    assertThat(written).isTrue();
    assertThat(out.writes).hasSize(10);
    writer.join();
  }

  /** An interrupted wait gives up, says whether anything is left, and keeps the interrupt. */
  @Test
  void anInterruptedAwaitWrittenGivesUpAndKeepsTheInterrupt() throws Exception {
    Gate out = new Gate();
    Outbox outbox = new Outbox(out, log);
    outbox.add(utf8("stuck"));
    Thread writer = flushInBackground(outbox);
    assertThat(out.blocked.await(5, TimeUnit.SECONDS)).isTrue();

    Thread.currentThread().interrupt();
    boolean written = outbox.awaitWritten(Duration.ofSeconds(30), Duration.ofSeconds(30));

    assertThat(Thread.interrupted()).isTrue();
    assertThat(written).isFalse();
    out.open();
    writer.join();
  }
}

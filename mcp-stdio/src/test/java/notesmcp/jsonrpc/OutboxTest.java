package notesmcp.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class OutboxTest {
  private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
  private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void linesAreWrittenInOrderEachFollowedByNewline() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Outbox outbox = new Outbox(out, 4, "test writer", log);

    for (int i = 0; i < 100; i++) {
      outbox.send(bytes("{\"n\":" + i + "}"));
    }
    outbox.close(5_000);

    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      expected.append("{\"n\":").append(i).append("}\n");
    }
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(expected.toString());
    assertThat(outbox.isBroken()).isFalse();
  }

  @Test
  void closeFlushesABufferedStream() throws Exception {
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    OutputStream buffered = new java.io.BufferedOutputStream(sink, 1 << 16);
    Outbox outbox = new Outbox(buffered, 4, "test writer", log);

    outbox.send(bytes("last"));
    outbox.close(5_000);

    assertThat(sink.toString(StandardCharsets.UTF_8)).isEqualTo("last\n");
  }

  @Test
  void slowConsumerMakesSendBlockAndNothingIsDropped() throws Exception {
    PipedInputStream consumer = new PipedInputStream(64);
    PipedOutputStream producer = new PipedOutputStream(consumer);
    Outbox outbox = new Outbox(producer, 2, "test writer", log);
    int lines = 200;
    String line = "0123456789".repeat(3); // 31 bytes with its newline

    CompletableFuture<Void> sender =
        CompletableFuture.runAsync(
            () -> {
              try {
                for (int i = 0; i < lines; i++) {
                  outbox.send(bytes(line));
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });

    // Nobody reads: the pipe (64 bytes) and the queue (2 lines) fill, and send waits.
    try {
      sender.get(300, TimeUnit.MILLISECONDS);
      throw new AssertionError("send returned although nobody read");
    } catch (TimeoutException expected) {
      // still blocked: back-pressure, not a drop
    }
    assertThat(outbox.isBroken()).isFalse();

    byte[] all = consumer.readNBytes(lines * (line.length() + 1));
    sender.get(5, TimeUnit.SECONDS);

    assertThat(new String(all, StandardCharsets.UTF_8)).isEqualTo((line + "\n").repeat(lines));
    outbox.close(5_000);
  }

  @Test
  void closedStreamMarksTheOutboxBrokenAndSendNoLongerBlocks() throws Exception {
    OutputStream closed =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            throw new IOException("Broken pipe");
          }
        };
    Outbox outbox = new Outbox(closed, 1, "test writer", log);

    outbox.send(bytes("lost"));
    while (!outbox.isBroken()) {
      Thread.onSpinWait();
    }
    // The queue holds one line, and nobody takes lines any more: send must not wait for room.
    for (int i = 0; i < 10_000; i++) {
      outbox.send(bytes("discarded"));
    }
    outbox.close(1_000);

    assertThat(outbox.isBroken()).isTrue();
    assertThat(logBytes.toString(StandardCharsets.UTF_8))
        .isEqualTo("notes-mcp: output closed by the peer (Broken pipe)" + System.lineSeparator());
  }
}

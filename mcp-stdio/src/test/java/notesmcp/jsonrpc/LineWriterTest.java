package notesmcp.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class LineWriterTest {
  private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
  private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void linesFromOneSenderArriveInOrderEachFollowedByNewline() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    LineWriter writer = new LineWriter(out, 4, log);

    for (int i = 0; i < 100; i++) {
      writer.send(bytes("{\"n\":" + i + "}"));
    }

    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      expected.append("{\"n\":").append(i).append("}\n");
    }
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(expected.toString());
    assertThat(writer.isBroken()).isFalse();
  }

  @Test
  void aSentLineIsFlushedWithoutWaitingForClose() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    LineWriter writer = new LineWriter(out, 4, log);

    writer.send(bytes("now"));

    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("now\n");
  }

  @Test
  void manySendersAtOnceLoseNothingAndNeverInterleaveWithinALine() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    LineWriter writer = new LineWriter(out, 8, log);
    int senders = 8;
    int each = 2_000;
    List<CompletableFuture<Void>> running = new ArrayList<>();
    for (int s = 0; s < senders; s++) {
      String line = ("sender-" + s + "-").repeat(20);
      running.add(
          CompletableFuture.runAsync(
              () -> {
                try {
                  for (int i = 0; i < each; i++) {
                    writer.send(bytes(line));
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }));
    }
    for (CompletableFuture<Void> sender : running) {
      sender.get(10, TimeUnit.SECONDS);
    }

    List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines).hasSize(senders * each);
    for (int s = 0; s < senders; s++) {
      String line = ("sender-" + s + "-").repeat(20);
      assertThat(lines.stream().filter(line::equals).count()).isEqualTo(each);
    }
  }

  @Test
  void slowConsumerMakesSendBlockAndNothingIsDropped() throws Exception {
    PipedInputStream consumer = new PipedInputStream(64);
    PipedOutputStream producer = new PipedOutputStream(consumer);
    LineWriter writer = new LineWriter(producer, 2, log);
    int lines = 200;
    String line = "0123456789".repeat(3); // 31 bytes with its newline

    CompletableFuture<Void> sender =
        CompletableFuture.runAsync(
            () -> {
              try {
                for (int i = 0; i < lines; i++) {
                  writer.send(bytes(line));
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });

    // Nobody reads: the pipe (64 bytes) fills, and the sender, writing, waits.
    try {
      sender.get(300, TimeUnit.MILLISECONDS);
      throw new AssertionError("send returned although nobody read");
    } catch (TimeoutException expected) {
      // still blocked: back-pressure, not a drop
    }
    assertThat(writer.isBroken()).isFalse();

    byte[] all = consumer.readNBytes(lines * (line.length() + 1));
    sender.get(5, TimeUnit.SECONDS);

    assertThat(new String(all, StandardCharsets.UTF_8)).isEqualTo((line + "\n").repeat(lines));
  }

  @Test
  void closedStreamMarksTheWriterBrokenAndSendNoLongerBlocks() throws Exception {
    OutputStream closed =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            throw new IOException("Broken pipe");
          }
        };
    LineWriter writer = new LineWriter(closed, 1, log);

    writer.send(bytes("lost"));
    assertThat(writer.isBroken()).isTrue();
    for (int i = 0; i < 10_000; i++) {
      writer.send(bytes("discarded"));
    }

    assertThat(logBytes.toString(StandardCharsets.UTF_8))
        .isEqualTo("notes-mcp: output closed by the peer (Broken pipe)" + System.lineSeparator());
  }
}

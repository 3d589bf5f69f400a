package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * docs/behaviour.md, "Limits", "Back-pressure, not refusal" and "Nothing on the side blocks the
 * protocol", against the real executable with real pipes that the test deliberately leaves unread.
 * Unlike {@link WireServer}, which always drains both of the child's output pipes, these tests
 * decide when (and whether) stdout and stderr are read.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BlockedPipesIT {
  /** A liveness bound, not a measurement: docs/behaviour.md says "within a second". */
  private static final Duration SIGTERM_BOUND = Duration.ofSeconds(3);

  /** How long a test waits for all its replies before it kills the server and fails. */
  private static final Duration READ_BOUND = Duration.ofSeconds(60);

  @TempDir Path dir;
  private final List<Process> started = new ArrayList<>();

  /**
   * Signals through the process handle: {@code Process.destroy()} first closes the child's stdin
   * stream, which waits for a writer blocked on a full pipe, the very situation these tests make.
   */
  @AfterEach
  void stop() {
    for (Process process : started) {
      process.toHandle().destroyForcibly();
    }
  }

  private Process serve(String... extra) throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(
                WireServer.launcher().toString(),
                "-serve",
                "-root",
                Fixtures.workspace(dir).toString(),
                "-max-calls",
                "1000000"));
    command.addAll(List.of(extra));
    Process process = new ProcessBuilder(command).start();
    started.add(process);
    return process;
  }

  private static String readNote(String id) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":\"tools/call\",\"params\":{"
        + WireServer.META
        + ",\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}}\n";
  }

  /** A response to a request this server never sent: the server logs it and answers nothing. */
  private static String strayResponse(int n) {
    return "{\"jsonrpc\":\"2.0\",\"id\":\"stray-" + n + "\",\"result\":{}}\n";
  }

  /**
   * Writes {@code text} to the child's stdin on a thread of its own (the write blocks while the
   * server, rightly, stops reading), closing stdin afterwards if asked.
   */
  private static Thread writeInBackground(Process process, String text, boolean thenClose) {
    Thread writer =
        new Thread(
            () -> {
              OutputStream stdin = process.getOutputStream();
              try {
                stdin.write(text.getBytes(StandardCharsets.UTF_8));
                stdin.flush();
                if (thenClose) {
                  stdin.close();
                }
              } catch (IOException e) {
                // the process ended under the write: what a SIGTERM test expects
              }
            },
            "blocked-pipes-writer");
    writer.setDaemon(true);
    writer.start();
    return writer;
  }

  /** Reads every reply line until the process closes stdout. */
  private static List<JsonNode> readAll(Process process) throws IOException {
    return read(process, Integer.MAX_VALUE);
  }

  /**
   * Reads reply lines until {@code count} arrived or stdout ends. A process still running after
   * {@link #READ_BOUND} is killed, so a server that stopped answering fails the test (with fewer
   * replies) instead of hanging it.
   */
  private static List<JsonNode> read(Process process, int count) throws IOException {
    Thread watchdog =
        new Thread(
            () -> {
              try {
                if (!process.waitFor(READ_BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
                  process.toHandle().destroyForcibly();
                }
              } catch (InterruptedException e) {
                // the reading finished first
              }
            },
            "blocked-pipes-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
    List<JsonNode> replies = new ArrayList<>();
    BufferedReader reader =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while (replies.size() < count && (line = reader.readLine()) != null) {
      replies.add(WireServer.JSON.readTree(line));
    }
    watchdog.interrupt();
    return replies;
  }

  /** Drains stderr on a daemon thread, keeping the text. */
  private static StringBuffer drainStderr(Process process) {
    StringBuffer text = new StringBuffer();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(
                      new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                  text.append(line).append('\n');
                }
              } catch (IOException e) {
                // gone
              }
            },
            "blocked-pipes-stderr");
    reader.setDaemon(true);
    reader.start();
    return text;
  }

  private static void assertRealResults(List<JsonNode> replies, int count) {
    Set<String> ids = new HashSet<>();
    for (JsonNode reply : replies) {
      assertThat(reply.has("error")).as("a real result, not an error: " + reply).isFalse();
      assertThat(reply.at("/result/isError").asBoolean()).as(reply.toString()).isFalse();
      assertThat(reply.at("/result/content/0/text").asString())
          .startsWith("{\"path\":\"notes.txt\"");
      ids.add(reply.get("id").toString());
    }
    assertThat(ids).hasSize(count);
    assertThat(replies).hasSize(count);
  }

  /** Defect 3: a server that logs into a stderr nobody reads still answers every request. */
  @Test
  void stderrThatNobodyReadsNeverStopsTheAnswers() throws Exception {
    Process server = serve();
    int requests = 3_000;
    StringBuilder input = new StringBuilder();
    for (int i = 1; i <= requests; i++) {
      input
          .append(strayResponse(i))
          .append(strayResponse(-i))
          .append(readNote(Integer.toString(i)));
      input.append("this line is not JSON\n");
    }
    writeInBackground(server, input.toString(), true);

    List<JsonNode> replies = readAll(server);

    List<JsonNode> results = new ArrayList<>();
    for (JsonNode reply : replies) {
      if (reply.has("id")) {
        results.add(reply);
      } else {
        assertThat(reply.at("/error/code").asInt()).isEqualTo(-32700);
      }
    }
    assertRealResults(results, requests);
    assertThat(replies).hasSize(2 * requests);
    assertThat(server.waitFor(10, TimeUnit.SECONDS)).as("exits after stdin closes").isTrue();
    assertThat(server.exitValue()).isZero();
  }

  /**
   * Defect 4: SIGTERM ends the process within a second whatever the pipes do, with the JVM's usual
   * status 143. The liveness bound asserted is looser ({@link #SIGTERM_BOUND}) for a loaded build
   * machine; the time measured is printed.
   */
  @ParameterizedTest
  @ValueSource(strings = {"stdout", "stderr", "both"})
  void sigtermEndsTheServerPromptlyWhatever(String unread) throws Exception {
    Process server = serve();
    boolean readStdout = unread.equals("stderr");
    boolean readStderr = unread.equals("stdout");
    AtomicLong answered = new AtomicLong();
    if (readStdout) {
      Thread reader =
          new Thread(
              () -> {
                try {
                  answered.addAndGet(readAll(server).size());
                } catch (IOException | RuntimeException e) {
                  // the process is gone
                }
              },
              "blocked-pipes-stdout");
      reader.setDaemon(true);
      reader.start();
    }
    if (readStderr) {
      drainStderr(server);
    }
    StringBuilder input = new StringBuilder();
    for (int i = 1; i <= 5_000; i++) {
      input.append(readNote(Integer.toString(i))).append(strayResponse(i));
    }
    Thread writer = writeInBackground(server, input.toString(), false);
    writer.join(2_000); // thousands of replies (or log lines) now wait on an unread pipe

    long start = System.nanoTime();
    server.toHandle().destroy(); // SIGTERM
    boolean exited = server.waitFor(30, TimeUnit.SECONDS);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    System.out.println("BlockedPipesIT: SIGTERM with " + unread + " unread: exit after " + took);

    assertThat(exited).as("the process exits after SIGTERM").isTrue();
    assertThat(took).isLessThan(SIGTERM_BOUND);
    assertThat(server.exitValue()).isEqualTo(143);
  }

  /**
   * Defect 5: replies waiting for a client that stopped reading stdout are back-pressure, never
   * {@code -32000}: once it reads again, every request gets its real result.
   */
  @Test
  void repliesWaitingForAPausedReaderAllArriveAsRealResults() throws Exception {
    Process server = serve();
    drainStderr(server);
    int requests = 5_000;
    StringBuilder input = new StringBuilder();
    for (int i = 1; i <= requests; i++) {
      input.append(readNote(Integer.toString(i)));
    }
    writeInBackground(server, input.toString(), true); // and closes stdin, as many clients do
    Thread.sleep(2_500); // the client does not read stdout for 2.5 s

    List<JsonNode> replies = readAll(server);

    assertRealResults(replies, requests);
    assertThat(server.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(server.exitValue()).isZero();
  }

  /**
   * Memory stays bounded while replies wait (counted in bytes, not lines): each request's 256 KiB
   * id is echoed in its reply, so holding the replies of these 1,000 requests would take 250 MiB;
   * the server must instead stop reading its input. The bound checked, the process's peak resident
   * set, is generous: a JVM and a few MiB of waiting replies fit well under it.
   */
  @Test
  void memoryStaysBoundedWhileRepliesWait() throws Exception {
    Process server = serve();
    drainStderr(server);
    int requests = 1_000;
    String padding = "x".repeat(256 * 1024);
    StringBuilder input = new StringBuilder();
    for (int i = 1; i <= requests; i++) {
      input.append(readNote("\"" + i + "-" + padding + "\""));
    }
    writeInBackground(server, input.toString(), false);
    Thread.sleep(2_000);
    long peakWhileBlocked = peakRssKiB(server);

    List<JsonNode> replies = read(server, requests);
    long peakAfter = peakRssKiB(server);

    assertRealResults(replies, requests);
    System.out.println(
        "BlockedPipesIT: peak RSS while blocked "
            + peakWhileBlocked / 1024
            + " MiB, after all replies "
            + peakAfter / 1024
            + " MiB");
    assertThat(peakWhileBlocked).isLessThan(100 * 1024);
    assertThat(peakAfter).isLessThan(100 * 1024);
  }

  /**
   * Stdin closing while stdout is blocked: the server exits 0 after its grace period (five seconds
   * without progress) instead of waiting forever for a reader. The replies to these 5,000 requests
   * (about 1.6 MB) are more than the stdout pipe holds and less than the server keeps (4 MiB)
   * before it stops reading, so the whole input is read and stdin can close.
   */
  @Test
  void closingStdinWhileStdoutIsBlockedExitsZeroWithinTheGracePeriod() throws Exception {
    Process server = serve();
    StringBuffer stderr = drainStderr(server);
    StringBuilder input = new StringBuilder();
    for (int i = 1; i <= 5_000; i++) {
      input.append(readNote(Integer.toString(i)));
    }
    Thread writer = writeInBackground(server, input.toString(), true);
    writer.join(20_000);
    assertThat(writer.isAlive()).as("the server read its whole input").isFalse();
    long start = System.nanoTime();

    boolean exited = server.waitFor(30, TimeUnit.SECONDS);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    System.out.println("BlockedPipesIT: stdin closed, stdout blocked: exit after " + took);

    assertThat(exited).as("exits although nobody reads stdout; stderr:\n" + stderr).isTrue();
    assertThat(server.exitValue()).isZero();
    assertThat(took).isLessThan(Duration.ofSeconds(15));
    assertThat(stderr.toString()).contains("notes-mcp: stdout takes nothing; ");
  }

  private static long peakRssKiB(Process process) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new AssertionError("no VmHWM for " + process.pid());
  }
}

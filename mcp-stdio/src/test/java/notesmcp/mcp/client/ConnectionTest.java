package notesmcp.mcp.client;

import static notesmcp.mcp.client.CannedServer.SILENT;
import static notesmcp.mcp.client.CannedServer.error;
import static notesmcp.mcp.client.CannedServer.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import notesmcp.jsonrpc.RpcException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ConnectionTest {
  private static final Duration DEADLINE = Duration.ofSeconds(5);
  private static final Duration GRACE = Duration.ofSeconds(2);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path dir;
  private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
  private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

  /** Every canned server of the test, and from which reply on it is left unchecked. */
  private final Map<CannedServer, Integer> servers = new LinkedHashMap<>();

  private CannedServer server(String... replies) {
    CannedServer server = new CannedServer(dir.resolve("received.log"), replies);
    servers.put(server, Integer.MAX_VALUE);
    return server;
  }

  /** A server whose last reply is not what a server may send, on purpose. */
  private CannedServer hostile(String... replies) {
    CannedServer server = new CannedServer(dir.resolve("received.log"), replies);
    servers.put(server, replies.length - 1);
    return server;
  }

  /**
   * What the canned servers answered is made of JSON-RPC responses the official schema allows (the
   * transport's requests are not MCP's, so only the envelopes are checked).
   */
  @AfterEach
  void everyCannedReplyIsAResponseTheSchemaAllows() throws IOException {
    for (Map.Entry<CannedServer, Integer> server : servers.entrySet()) {
      assertThat(server.getKey().violations(true, server.getValue()))
          .as("schema violations in the canned replies %s", server.getKey().replies())
          .isEmpty();
    }
  }

  @Test
  void requestIsSentAsOneLineAndAnsweredByItsResult() throws Exception {
    CannedServer server = server(result(1, "{\"ok\":true}"), result(2, "{\"n\":2}"));
    Connection connection = Connection.start(server.command(), log);

    assertThat(connection.request("ping", null, DEADLINE)).hasToString("{\"ok\":true}");
    assertThat(connection.request("tools/list", JSON.readTree("{\"a\":1}"), DEADLINE))
        .hasToString("{\"n\":2}");
    assertThat(connection.close(GRACE)).isZero();

    assertThat(server.received())
        .containsExactly(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{\"a\":1}}");
  }

  @Test
  void errorReplyIsThrownAsRpcException() throws Exception {
    Connection connection =
        Connection.start(server(error(1, -32601, "Method not found: x")).command(), log);

    assertThatThrownBy(() -> connection.request("x", null, DEADLINE))
        .isInstanceOf(RpcException.class)
        .hasMessage("-32601 Method not found: x")
        .satisfies(e -> assertThat(((RpcException) e).error().code()).isEqualTo(-32601));
    connection.close(GRACE);
  }

  @Test
  void silentServerTimesOutAndTheRequestIsCancelledOnTheWire() throws Exception {
    CannedServer server = server(SILENT);
    Connection connection = Connection.start(server.command(), log);

    assertThatThrownBy(() -> connection.request("tools/list", null, Duration.ofMillis(200)))
        .isInstanceOf(Connection.Timeout.class)
        .hasMessage("the server did not answer tools/list within 200 ms");
    assertThat(connection.close(GRACE)).isZero();

    assertThat(server.received())
        .containsExactly(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
                + "\"params\":{\"requestId\":1,\"reason\":\"no answer within 200 ms\"}}");
  }

  @Test
  void serverThatExitsBeforeAnsweringFailsThePendingRequest() throws Exception {
    Connection connection = Connection.start(server("EXIT:3").command(), log);

    assertThatThrownBy(() -> connection.request("ping", null, DEADLINE))
        .isInstanceOf(IOException.class)
        .isNotInstanceOf(Connection.Timeout.class)
        .hasMessage("the server exited with status 3 before answering");
    assertThat(connection.isAlive()).isFalse();
    assertThatThrownBy(() -> connection.request("ping", null, DEADLINE))
        .hasMessage("the server exited with status 3 before answering");
    assertThat(connection.close(GRACE)).isEqualTo(3);
  }

  @Test
  void linesThatAreNotJsonRpcAreIgnored() throws Exception {
    Connection connection =
        Connection.start(
            hostile("a banner on stdout\n\n{\"x\":1}\n" + result(1, "{}")).command(), log);

    assertThat(connection.request("ping", null, DEADLINE)).hasToString("{}");
    connection.close(GRACE);
    assertThat(logBytes.toString(StandardCharsets.UTF_8))
        .contains("ignoring a line from the server that is not JSON-RPC");
  }

  @Test
  void pingFromTheServerIsAnsweredAndOtherRequestsAreRefused() throws Exception {
    CannedServer server =
        server(
            "{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"ping\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":\"s2\",\"method\":\"sampling/createMessage\"}\n"
                + result(1, "{}"),
            SILENT,
            SILENT);
    Connection connection = Connection.start(server.command(), log);

    connection.request("tools/list", null, DEADLINE);
    assertThat(connection.close(GRACE)).isZero();

    assertThat(server.received())
        .containsExactlyInAnyOrder(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"result\":{}}",
            "{\"jsonrpc\":\"2.0\",\"id\":\"s2\",\"error\":{\"code\":-32601,"
                + "\"message\":\"Method not found: sampling/createMessage\"}}");
    assertThat(logBytes.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void executableThatCannotStartFailsLoudly() {
    assertThatThrownBy(
            () -> Connection.start(List.of(dir.resolve("no-such-server").toString()), log))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("no-such-server");
  }

  @Test
  void closeTerminatesAServerThatIgnoresItsClosedInput() throws Exception {
    Connection connection = Connection.start(List.of("sh", "-c", "exec sleep 30"), log);

    long start = System.nanoTime();
    int status = connection.close(Duration.ofMillis(100));

    assertThat(status).isEqualTo(128 + 15); // SIGTERM
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
  }

  // --- every client operation is under the deadline ---

  @Test
  void aLargeRequestToAServerThatDoesNotReadFailsAtItsDeadline() throws Exception {
    Connection connection = Connection.start(List.of("sh", "-c", "exec sleep 30"), log);
    ObjectNode params = JSON.createObjectNode().put("pad", "x".repeat(1024 * 1024));

    assertThatThrownBy(() -> connection.request("tools/call", params, Duration.ofMillis(300)))
        .isInstanceOf(Connection.Timeout.class)
        .hasMessage(
            "the server did not read tools/call within 300 ms: it stopped reading its input");
    assertThat(connection.close(Duration.ofMillis(200))).isEqualTo(128 + 15);
    assertThat(connection.isAlive()).isFalse();
  }

  @Test
  void aFloodOfPingsFromAServerThatDoesNotReadNeverStopsTheReader() throws Exception {
    // Reads our request, then sends 20,000 pings without reading their answers, then answers us.
    String script =
        """
        IFS= read -r line
        i=0
        while [ "$i" -lt 20000 ]; do
          printf '{"jsonrpc":"2.0","id":"p%d","method":"ping"}\n' "$i"
          i=$((i + 1))
        done
        printf '{"jsonrpc":"2.0","id":1,"result":{"after":"flood"}}\n'
        exec sleep 30
        """;
    Connection connection = Connection.start(List.of("sh", "-c", script), log);

    assertThat(connection.request("tools/list", null, Duration.ofSeconds(8)))
        .hasToString("{\"after\":\"flood\"}");
    assertThat(connection.close(Duration.ofMillis(200))).isEqualTo(128 + 15);
    assertThat(logBytes.toString(StandardCharsets.UTF_8))
        .contains("the server is not reading its input; answers to its requests are dropped");
  }

  @Test
  void aNotificationToAServerThatDoesNotReadNeverWaits() throws Exception {
    Connection connection = Connection.start(List.of("sh", "-c", "exec sleep 30"), log);
    ObjectNode big = JSON.createObjectNode().put("pad", "x".repeat(256 * 1024));
    int queued = 0;
    Throwable refused = null;
    while (refused == null) {
      try {
        connection.notify("notifications/message", big);
        queued++;
        assertThat(queued).as("queued lines").isLessThanOrEqualTo(Sender.CAPACITY + 2);
      } catch (Connection.Timeout e) {
        refused = e; // the queue is full behind a stuck write, and notify said so at once
      }
    }
    assertThat(refused)
        .hasMessage("the server is not reading its input; notifications/message was not sent");
    connection.close(Duration.ofMillis(100));
  }

  @Test
  void aDeadlineOfCenturiesDoesNotOverflow() throws Exception {
    Connection connection = Connection.start(server(result(1, "{}")).command(), log);

    assertThat(connection.request("ping", null, Duration.ofDays(365L * 100_000))).hasToString("{}");
    connection.close(GRACE);
  }

  // --- replies the client never asked for are protocol violations ---

  @Test
  void aResponseToAnIdNeverSentIsAViolation() throws Exception {
    Connection connection = Connection.start(server(result(7, "{}")).command(), log);

    assertThatThrownBy(() -> connection.request("ping", null, DEADLINE))
        .isInstanceOf(Connection.Violation.class)
        .hasMessage("the server answered request id 7, which this client never sent");
    assertThatThrownBy(() -> connection.request("ping", null, DEADLINE))
        .isInstanceOf(Connection.Violation.class);
    connection.close(GRACE);
  }

  @Test
  void aMalformedReplyToARequestInFlightIsAViolation() throws Exception {
    Connection connection =
        Connection.start(
            hostile("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-1,\"message\":[]}}")
                .command(),
            log);

    assertThatThrownBy(() -> connection.request("ping", null, DEADLINE))
        .isInstanceOf(Connection.Violation.class)
        .hasMessage(
            "the server's reply to request 1 is not a valid JSON-RPC response: Invalid Request:"
                + " an error needs an integer \"code\" and a string \"message\"");
    connection.close(GRACE);
  }

  @Test
  void aLateAnswerToACancelledRequestIsIgnored() throws Exception {
    CannedServer server = server(SILENT, result(1, "{\"late\":true}") + "\n" + result(2, "{}"));
    Connection connection = Connection.start(server.command(), log);

    assertThatThrownBy(() -> connection.request("slow", null, Duration.ofMillis(200)))
        .isInstanceOf(Connection.Timeout.class);
    assertThat(connection.request("ping", null, DEADLINE)).hasToString("{}");
    connection.close(GRACE);
  }

  @Test
  void closeEndsTheProcessesTheServerStartedWhenItMustBeTerminated() throws Exception {
    Path pidFile = dir.resolve("grandchild.pid");
    Connection connection =
        Connection.start(
            List.of(
                "sh",
                "-c",
                "trap '' TERM; sleep 30 & echo $! > " + pidFile + "; while :; do sleep 1; done"),
            log);
    while (!java.nio.file.Files.exists(pidFile)
        || java.nio.file.Files.readString(pidFile).isBlank()) {
      Thread.sleep(10);
    }
    long grandchild = Long.parseLong(java.nio.file.Files.readString(pidFile).trim());

    assertThat(connection.close(Duration.ofMillis(200))).isEqualTo(128 + 9); // SIGKILL
    long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (ProcessHandle.of(grandchild).map(ProcessHandle::isAlive).orElse(false)
        && System.nanoTime() < until) {
      Thread.sleep(20);
    }
    assertThat(ProcessHandle.of(grandchild).map(ProcessHandle::isAlive).orElse(false)).isFalse();
  }

  /** A deadline already spent sends nothing: the request fails before it is written. */
  @Test
  void aRequestWithNoTimeLeftIsNotSent() throws Exception {
    CannedServer server = server(result(1, "{}"));
    Connection connection = Connection.start(server.command(), log);

    assertThatThrownBy(() -> connection.request("tools/list", null, Duration.ZERO))
        .isInstanceOf(Connection.Timeout.class)
        .hasMessage("no time was left to send tools/list before the deadline");
    assertThat(connection.request("ping", null, DEADLINE)).hasToString("{}");
    connection.close(GRACE);

    assertThat(server.received())
        .containsExactly("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
  }

  /** Closing fails a request still waiting for its answer at once, saying the client closed it. */
  @Test
  void closingFailsTheRequestInFlight() throws Exception {
    CannedServer server = server(SILENT);
    Connection connection = Connection.start(server.command(), log);
    assertThat(connection.isAlive()).isTrue();
    assertThat(ProcessHandle.of(connection.pid())).isPresent();
    CompletableFuture<Throwable> failure = new CompletableFuture<>();
    Thread caller =
        new Thread(
            () -> {
              try {
                connection.request("ping", null, Duration.ofSeconds(30));
                failure.complete(null);
              } catch (Exception e) {
                failure.complete(e);
              }
            });
    caller.start();
    while (server.received().isEmpty()) { // the request was read
      Thread.sleep(5);
    }

    connection.close(GRACE);

    assertThat(failure.get(5, TimeUnit.SECONDS))
        .isInstanceOf(IOException.class)
        .hasMessage("the connection to the server is closed");
    assertThat(connection.isAlive()).isFalse();
  }

  /** Ids are 1, 2, 3, ...: an answer to the next id, not yet sent, is a violation too. */
  @Test
  void anAnswerToTheNextIdNotYetSentIsAViolation() throws Exception {
    Connection connection = Connection.start(server(result(2, "{}")).command(), log);

    assertThatThrownBy(() -> connection.request("ping", null, DEADLINE))
        .isInstanceOf(Connection.Violation.class)
        .hasMessage("the server answered request id 2, which this client never sent");
    connection.close(GRACE);
  }

  @Test
  void emptyLinesFromTheServerAreSkippedWithoutANotice() throws Exception {
    Connection connection = Connection.start(server("\n\r\n" + result(1, "{}")).command(), log);

    assertThat(connection.request("ping", null, DEADLINE)).hasToString("{}");
    connection.close(GRACE);
    assertThat(logBytes.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  /** An unknown method is named in the refusal, cut after 100 characters. */
  @Test
  void aRefusedMethodIsNamedUpTo100Characters() throws Exception {
    String hundred = "m".repeat(100);
    CannedServer server =
        server(
            "{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\""
                + hundred
                + "\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":\"s2\",\"method\":\""
                + hundred
                + "x\"}\n"
                + result(1, "{}"),
            SILENT,
            SILENT);
    Connection connection = Connection.start(server.command(), log);

    connection.request("tools/list", null, DEADLINE);
    connection.close(GRACE);

    assertThat(server.received())
        .contains(
            "{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"error\":{\"code\":-32601,"
                + "\"message\":\"Method not found: "
                + hundred
                + "\"}}",
            "{\"jsonrpc\":\"2.0\",\"id\":\"s2\",\"error\":{\"code\":-32601,"
                + "\"message\":\"Method not found: "
                + hundred
                + "...\"}}");
  }

  /** A server that fills its output with noise gets eight notices, then one line saying so. */
  @Test
  void noticesAboutTheServersOutputStopAfterEight() throws Exception {
    Connection connection =
        Connection.start(hostile("noise\n".repeat(12) + result(1, "{}")).command(), log);

    connection.request("ping", null, DEADLINE);
    connection.close(GRACE);

    assertThat(logBytes.toString(StandardCharsets.UTF_8).split("\n"))
        .hasSize(9)
        .endsWith("notes-mcp: (further notices about the server's output are not shown)")
        .filteredOn(line -> line.startsWith("notes-mcp: ignoring a line from the server"))
        .hasSize(8);
  }

  @Test
  void theReadingThreadIsADaemon() throws Exception {
    Connection connection = Connection.start(server(SILENT).command(), log);

    List<Thread> readers = new ArrayList<>();
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().equals("notes-mcp client reader")
          || thread.getName().equals("notes-mcp client writer")) {
        readers.add(thread);
      }
    }
    assertThat(readers).hasSizeGreaterThanOrEqualTo(2).allMatch(Thread::isDaemon);
    connection.close(GRACE);
  }

  /**
   * An answer to the server is queued only if it is at most 64 KiB (Sender.MAX_ANSWER_BYTES): a
   * ping whose id makes the answer one byte longer is dropped, and the drop is said once.
   */
  @Test
  void answersToTheServerAreBoundedAt64KibAndADropIsSaid() throws Exception {
    // {"jsonrpc":"2.0","id":"ID","result":{}} is 37 bytes around the id.
    String fits = "a".repeat(Sender.MAX_ANSWER_BYTES - 37);
    String over = "b".repeat(Sender.MAX_ANSWER_BYTES - 36);
    CannedServer server =
        server(
            // One argument each: an argument of sh is at most 128 KiB.
            "{\"jsonrpc\":\"2.0\",\"id\":\"" + fits + "\",\"method\":\"ping\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":\"" + over + "\",\"method\":\"ping\"}\n" + result(1, "{}"),
            SILENT);
    Connection connection = Connection.start(server.command(), log);

    connection.request("tools/list", null, DEADLINE);
    connection.close(GRACE);

    assertThat(server.received())
        .containsExactly(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":\"" + fits + "\",\"result\":{}}");
    assertThat(logBytes.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "notes-mcp: the server is not reading its input; answers to its requests are"
                + " dropped\n");
  }
}

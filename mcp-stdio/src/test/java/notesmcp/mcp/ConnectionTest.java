package notesmcp.mcp;

import static notesmcp.mcp.CannedServer.SILENT;
import static notesmcp.mcp.CannedServer.error;
import static notesmcp.mcp.CannedServer.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import notesmcp.jsonrpc.RpcException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ConnectionTest {
  private static final Duration DEADLINE = Duration.ofSeconds(5);
  private static final Duration GRACE = Duration.ofSeconds(2);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path dir;
  private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
  private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

  private CannedServer server(String... replies) {
    return new CannedServer(dir.resolve("received.log"), replies);
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
            server("a banner on stdout\n\n{\"x\":1}\n" + result(1, "{}")).command(), log);

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
}

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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import notesmcp.mcp.Protocol.Implementation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SessionTest {
  private static final Implementation CLIENT = new Implementation("test-client", "9");
  private static final Duration DEADLINE = Duration.ofSeconds(5);
  private static final Duration PROBE = Duration.ofSeconds(5);
  private static final Duration GRACE = Duration.ofSeconds(2);
  private static final String META =
      "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{},"
          + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"test-client\",\"version\":\"9\"}}";
  private static final String DISCOVERED =
      "{\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{\"tools\":{}},"
          + "\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\",\"_meta\":{\"io.modelcontextprotocol/serverInfo\":"
          + "{\"name\":\"canned\",\"version\":\"1.2\"}}}";
  private static final String TOOL = "{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"}}";
  private static final String INITIALIZED =
      "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
          + "\"serverInfo\":{\"name\":\"old\",\"version\":\"0.9\"}}";

  @TempDir Path dir;
  private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
  private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

  private String log() {
    return logBytes.toString(StandardCharsets.UTF_8);
  }

  private Session connect(CannedServer server) throws Exception {
    return Session.connect(
        () -> Connection.start(server.command(), log), CLIENT, DEADLINE, PROBE, log);
  }

  /** Every canned server of the test, and from which reply on it is left unchecked. */
  private final Map<CannedServer, Integer> servers = new LinkedHashMap<>();

  private CannedServer server(String... replies) {
    return canned(dir.resolve("received.log"), replies);
  }

  private CannedServer canned(Path log, String... replies) {
    CannedServer server = new CannedServer(log, replies);
    servers.put(server, Integer.MAX_VALUE);
    return server;
  }

  /** A server whose last reply is malformed on purpose; the ones before it are checked. */
  private CannedServer malformed(String... replies) {
    return malformed(dir.resolve("received.log"), replies);
  }

  private CannedServer malformed(Path log, String... replies) {
    CannedServer server = new CannedServer(log, replies);
    servers.put(server, replies.length - 1);
    return server;
  }

  /** What the canned servers answered is what the official schema allows a server to send. */
  @AfterEach
  void everyCannedReplyIsOneTheSchemaAllows() throws IOException {
    for (Map.Entry<CannedServer, Integer> server : servers.entrySet()) {
      assertThat(server.getKey().violations(false, server.getValue()))
          .as("schema violations in the canned replies %s", server.getKey().replies())
          .isEmpty();
    }
  }

  @Test
  void closingTakesTheTimeLeftOfTheDeadlineBetweenAFloorAndACeiling() {
    assertThat(Session.closeGrace(Duration.ofMillis(-5))).isEqualTo(Duration.ofMillis(200));
    assertThat(Session.closeGrace(Duration.ZERO)).isEqualTo(Duration.ofMillis(200));
    assertThat(Session.closeGrace(Duration.ofMillis(700))).isEqualTo(Duration.ofMillis(700));
    assertThat(Session.closeGrace(Duration.ofSeconds(9))).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void modernServerIsDiscoveredAndEveryRequestCarriesMeta() throws Exception {
    CannedServer server =
        server(
            result(1, DISCOVERED),
            result(
                2,
                "{\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\",\"tools\":["
                    + TOOL
                    + "]}"),
            result(
                3,
                "{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":\"ok\"}],"
                    + "\"isError\":false}"));
    Session session = connect(server);

    assertThat(session.isModern()).isTrue();
    assertThat(session.version()).isEqualTo("2026-07-28");
    assertThat(session.listTools().toString()).isEqualTo("[" + TOOL + "]");
    assertThat(session.callTool("t", "{\"a\":1,\"a\":2}").at("/content/0/text").stringValue())
        .isEqualTo("ok");
    assertThat(session.close(GRACE)).isZero();

    assertThat(server.received())
        .containsExactly(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{"
                + META
                + "}}",
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{" + META + "}}",
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"t\","
                + "\"arguments\":{\"a\":1,\"a\":2},"
                + META
                + "}}");
    assertThat(log()).contains("modern era, protocol 2026-07-28, server canned 1.2");
  }

  @Test
  void legacyServerIsReachedThroughInitializeAfterAnErrorToDiscover() throws Exception {
    CannedServer server =
        server(
            error(1, -32601, "Method not found: server/discover"),
            result(2, INITIALIZED),
            result(3, "{\"tools\":[]}"));
    Session session = connect(server);

    assertThat(session.isModern()).isFalse();
    assertThat(session.version()).isEqualTo("2025-11-25");
    assertThat(session.listTools().toString()).isEqualTo("[]");
    session.close(GRACE);

    List<String> received = server.received();
    assertThat(received).hasSize(4);
    assertThat(received.get(1))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"test-client\",\"version\":\"9\"}}}");
    assertThat(received.get(2))
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    assertThat(received.get(3))
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\",\"params\":{}}");
    // The words, exactly: JavaSdkPeerServerIT accepts this line or the silence's one.
    assertThat(log())
        .contains(
            "notes-mcp: server/discover answered -32601 Method not found: server/discover; falling"
                + " back to the initialize handshake\n")
        .contains("legacy era, protocol 2025-11-25, server old 0.9");
  }

  @Test
  void fallbackIsNotKeyedToOneErrorCode() throws Exception {
    Session session = connect(server(error(1, -32602, "Invalid params"), result(2, INITIALIZED)));

    assertThat(session.isModern()).isFalse();
    session.close(GRACE);
  }

  @Test
  void silenceWithinTheProbeTimeoutFallsBackToInitialize() throws Exception {
    CannedServer server = server(SILENT, result(2, INITIALIZED));
    Session session =
        Session.connect(
            () -> Connection.start(server.command(), log),
            CLIENT,
            DEADLINE,
            Duration.ofMillis(200),
            log);

    assertThat(session.isModern()).isFalse();
    session.close(GRACE);
    assertThat(log())
        .contains(
            "notes-mcp: no answer to server/discover within 200 ms; falling back to the initialize"
                + " handshake\n");
  }

  @Test
  void serverThatExitsOnTheProbeIsStartedAgainForTheHandshake() throws Exception {
    CannedServer exits = server("EXIT:1");
    CannedServer legacy = canned(dir.resolve("second.log"), result(1, INITIALIZED));
    AtomicInteger starts = new AtomicInteger();

    Session session =
        Session.connect(
            () -> Connection.start((starts.getAndIncrement() == 0 ? exits : legacy).command(), log),
            CLIENT,
            DEADLINE,
            PROBE,
            log);

    assertThat(starts).hasValue(2);
    assertThat(session.isModern()).isFalse();
    assertThat(session.version()).isEqualTo("2025-11-25");
    session.close(GRACE);
  }

  @Test
  void unsupportedVersionErrorMeansAModernServerThatRefusesUs() {
    CannedServer server =
        server(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32022,\"message\":\"Unsupported"
                + " protocol version\",\"data\":{\"supported\":[\"2027-01-01\"],"
                + "\"requested\":\"2026-07-28\"}}}");

    assertThatThrownBy(() -> connect(server))
        .isInstanceOf(Session.Incompatible.class)
        .hasMessage(
            "the server is modern but refused 2026-07-28: Unsupported protocol version (it"
                + " supports [\"2027-01-01\"])");
  }

  @Test
  void discoveryWithoutOurVersionIsIncompatible() {
    CannedServer server = server(result(1, DISCOVERED.replace("\"2026-07-28\"", "\"2027-01-01\"")));

    assertThatThrownBy(() -> connect(server))
        .isInstanceOf(Session.Incompatible.class)
        .hasMessage("the server supports [2027-01-01], not 2026-07-28");
  }

  @Test
  void unknownResultTypeIsIncompatible() {
    CannedServer server =
        server(result(1, DISCOVERED.replace("\"complete\"", "\"input_required\"")));

    assertThatThrownBy(() -> connect(server))
        .isInstanceOf(Session.Incompatible.class)
        .hasMessage(
            "the server answered with resultType \"input_required\", which this client does not"
                + " handle");
  }

  @Test
  void initializeAnsweredWithAnUnknownVersionIsIncompatible() {
    CannedServer server =
        server(error(1, -32601, "no"), result(2, INITIALIZED.replace("2025-11-25", "2024-10-07")));

    assertThatThrownBy(() -> connect(server))
        .isInstanceOf(Session.Incompatible.class)
        .hasMessage(
            "the server answered initialize with protocol version \"2024-10-07\"; this client"
                + " speaks 2026-07-28 and [2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05]");
  }

  @Test
  void callResultWithoutContentIsIncompatible() throws Exception {
    Session session =
        connect(malformed(result(1, DISCOVERED), result(2, "{\"resultType\":\"complete\"}")));

    assertThatThrownBy(() -> session.callTool("t", null))
        .isInstanceOf(Session.Incompatible.class)
        .hasMessage(
            "the server's tools/call result is malformed: \"content\" is missing, not an array");
    session.close(GRACE);
  }

  // --- a reply of the wrong shape is Incompatible, and the server is closed ---

  static Stream<Arguments> wrongShapes() {
    String call = "{\"resultType\":\"complete\",";
    return Stream.of(
        Arguments.of(
            List.of(result(1, DISCOVERED.replace("[\"2026-07-28\"]", "[{\"v\":1}]"))),
            "the server's server/discover result is malformed: \"supportedVersions\" item 0 is an"
                + " object, not a string"),
        Arguments.of(
            List.of(result(1, DISCOVERED.replace("\"complete\"", "{\"is\":\"complete\"}"))),
            "the server's server/discover result is malformed: \"resultType\" is an object, not a"
                + " string"),
        Arguments.of(
            List.of(result(1, DISCOVERED.replace("{\"name\":\"canned\",", "{\"name\":7,"))),
            "the server's server/discover result is malformed:"
                + " \"io.modelcontextprotocol/serverInfo.name\" is a number, not a string"),
        Arguments.of(
            List.of(result(1, "[\"2026-07-28\"]")),
            "the server's server/discover result is malformed: the result is an array, not an"
                + " object"),
        Arguments.of(
            List.of(
                error(1, -32601, "no"),
                result(2, INITIALIZED.replace("\"2025-11-25\"", "{\"v\":\"2025-11-25\"}"))),
            "the server's initialize result is malformed: \"protocolVersion\" is an object, not a"
                + " string"),
        Arguments.of(
            List.of(
                error(1, -32601, "no"),
                result(2, INITIALIZED.replace("\"serverInfo\"", "\"server\""))),
            "the server's initialize result is malformed: \"serverInfo\" is missing, not an object"),
        Arguments.of(
            List.of(result(1, DISCOVERED), result(2, call + "\"content\":42}")),
            "the server's tools/call result is malformed: \"content\" is a number, not an array"),
        Arguments.of(
            List.of(
                result(1, DISCOVERED), result(2, call + "\"content\":[],\"isError\":{\"no\":1}}")),
            "the server's tools/call result is malformed: \"isError\" is an object, not a boolean"),
        Arguments.of(
            List.of(result(1, DISCOVERED), result(2, call + "\"content\":[42]}")),
            "the server's tools/call result is malformed: content item 0 is a number, not an"
                + " object"),
        Arguments.of(
            List.of(
                result(1, DISCOVERED),
                result(2, call + "\"content\":[{\"type\":\"text\",\"text\":[\"hi\"]}]}")),
            "the server's tools/call result is malformed: content item 0 has a \"text\" that is"
                + " an array, not a string"),
        Arguments.of(
            List.of(
                result(1, DISCOVERED),
                result(2, call + "\"content\":[{\"type\":\"image\",\"data\":\"AA==\"}]}")),
            "the server's tools/call result is malformed: content item 0 has a \"mimeType\" that"
                + " is missing, not a string"),
        Arguments.of(
            List.of(
                result(1, DISCOVERED),
                result(2, call + "\"content\":[{\"type\":\"video\",\"url\":\"x\"}]}")),
            "the server's tools/call result is malformed: content item 0 has the unknown type"
                + " \"video\""),
        Arguments.of(
            List.of(result(1, DISCOVERED), result(2, "\"done\"")),
            "the server's tools/call result is malformed: the result is the string \"done\", not"
                + " an object"),
        Arguments.of(
            List.of(result(1, DISCOVERED), result(99, call + "\"content\":[]}")),
            "the server answered request id 99, which this client never sent"),
        Arguments.of(
            List.of(
                result(1, DISCOVERED),
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":1.5,\"message\":\"x\"}}"),
            "the server's reply to request 2 is not a valid JSON-RPC response: Invalid Request: an"
                + " error needs an integer \"code\" and a string \"message\""));
  }

  @ParameterizedTest
  @MethodSource("wrongShapes")
  void aReplyOfTheWrongShapeIsIncompatibleAndTheServerIsClosed(List<String> replies, String message)
      throws Exception {
    List<Connection> started = new ArrayList<>();
    CannedServer server = malformed(replies.toArray(new String[0]));

    assertThatThrownBy(
            () -> {
              Session session =
                  Session.connect(
                      () -> {
                        Connection connection = Connection.start(server.command(), log);
                        started.add(connection);
                        return connection;
                      },
                      CLIENT,
                      DEADLINE,
                      PROBE,
                      log);
              try {
                session.callTool("t", null);
              } finally {
                session.close(GRACE);
              }
            })
        .isInstanceOf(Session.Incompatible.class)
        .hasMessage(message);
    assertThat(started).isNotEmpty().noneMatch(Connection::isAlive);
  }

  @Test
  void everyServerStartedIsClosedWhenTheHandshakeFails() throws Exception {
    List<Connection> started = new ArrayList<>();
    CannedServer refuses =
        server("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32022,\"message\":\"no\"}}");

    assertThatThrownBy(
            () ->
                Session.connect(
                    () -> {
                      Connection connection = Connection.start(refuses.command(), log);
                      started.add(connection);
                      return connection;
                    },
                    CLIENT,
                    DEADLINE,
                    PROBE,
                    log))
        .isInstanceOf(Session.Incompatible.class);

    assertThat(started).hasSize(1).noneMatch(Connection::isAlive);
  }

  @Test
  void aSecondServerThatAlsoFailsIsClosedToo() throws Exception {
    List<Connection> started = new ArrayList<>();
    CannedServer exits = server("EXIT:1");
    CannedServer silent = canned(dir.resolve("second.log"), SILENT);

    assertThatThrownBy(
            () ->
                Session.connect(
                    () -> {
                      Connection connection =
                          Connection.start((started.isEmpty() ? exits : silent).command(), log);
                      started.add(connection);
                      return connection;
                    },
                    CLIENT,
                    Duration.ofMillis(700),
                    PROBE,
                    log))
        .isInstanceOf(Connection.Timeout.class)
        .hasMessageContaining("initialize");

    assertThat(started).hasSize(2).noneMatch(Connection::isAlive);
  }

  @Test
  void theToolListIsReadPageByPage() throws Exception {
    CannedServer server =
        server(
            result(1, DISCOVERED),
            result(
                2,
                "{\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\",\"tools\":["
                    + TOOL
                    + "],\"nextCursor\":\"p2\"}"),
            result(
                3,
                "{\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\",\"tools\":["
                    + TOOL.replace("\"t\"", "\"u\"")
                    + "]}"));
    Session session = connect(server);

    assertThat(session.listTools().findValuesAsString("name")).containsExactly("t", "u");
    session.close(GRACE);

    assertThat(server.received().get(2)).contains("\"params\":{\"cursor\":\"p2\",\"_meta\"");
  }

  @Test
  void aToolListThatRepeatsAPageIsIncompatible() throws Exception {
    String page =
        "{\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\",\"tools\":["
            + TOOL
            + "],\"nextCursor\":\"again\"}";
    Session session = connect(server(result(1, DISCOVERED), result(2, page), result(3, page)));

    assertThatThrownBy(session::listTools)
        .isInstanceOf(Session.Incompatible.class)
        .hasMessage("the server's tools/list repeats the page \"again\"");
    session.close(GRACE);
  }

  @Test
  void serverTextInTheEraLineCannotDriveTheTerminal() throws Exception {
    Session session =
        connect(server(result(1, DISCOVERED.replace("canned", "\\u001b]0;owned\\u0007canned"))));
    session.close(GRACE);

    assertThat(log()).contains("server \\u001b]0;owned\\u0007canned 1.2").doesNotContain("\u001b");
  }

  @Test
  void aModernClientAnswersNoRequestFromTheServer() throws Exception {
    CannedServer server =
        server(
            result(1, DISCOVERED),
            "{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"ping\"}\n"
                + result(
                    2,
                    "{\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\",\"tools\":[]}"));
    Session session = connect(server);

    assertThat(session.listTools().toString()).isEqualTo("[]");
    session.close(GRACE);

    assertThat(server.received()).hasSize(2).noneMatch(line -> line.contains("\"result\""));
    assertThat(log()).contains("ignoring requests from the server (ping)");
  }

  @Test
  void aLegacyServersPingIsAnswered() throws Exception {
    CannedServer server =
        server(
            error(1, -32601, "no"),
            result(2, INITIALIZED),
            "{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"ping\"}\n"
                + result(3, "{\"tools\":[]}"),
            SILENT);
    Session session = connect(server);

    assertThat(session.listTools().toString()).isEqualTo("[]");
    session.close(GRACE);

    assertThat(server.received()).contains("{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"result\":{}}");
  }

  /** A tool list may have 64 pages; a server that goes on is refused, not followed forever. */
  @Test
  void aToolListMayHave64PagesAndNoMore() throws Exception {
    for (int pages : new int[] {Session.MAX_PAGES, Session.MAX_PAGES + 1}) {
      List<String> replies = new ArrayList<>(List.of(result(1, DISCOVERED)));
      for (int page = 1; page <= pages; page++) {
        replies.add(
            result(
                page + 1,
                "{\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\",\"tools\":[]"
                    + (page < pages ? ",\"nextCursor\":\"p" + page + "\"" : "")
                    + "}"));
      }
      Session session =
          connect(canned(dir.resolve(pages + ".log"), replies.toArray(new String[0])));

      if (pages == Session.MAX_PAGES) {
        assertThat(session.listTools()).isEmpty();
      } else {
        assertThatThrownBy(session::listTools)
            .isInstanceOf(Session.Incompatible.class)
            .hasMessage("the server's tools/list goes on for more than 64 pages");
      }
      session.close(GRACE);
    }
  }

  /**
   * resultType is a 2026-07-28 member: checked on every modern result, ignored in the legacy era.
   */
  @Test
  void resultTypeIsCheckedOnlyInTheModernEra() throws Exception {
    String pending = "{\"resultType\":\"input_required\",\"tools\":[]}";
    // input_required is no tools/list result the schema allows: the client refuses it as such.
    Session modern = connect(malformed(result(1, DISCOVERED), result(2, pending)));
    assertThatThrownBy(modern::listTools)
        .isInstanceOf(Session.Incompatible.class)
        .hasMessage(
            "the server answered with resultType \"input_required\", which this client does not"
                + " handle");
    modern.close(GRACE);

    Session legacy =
        connect(
            malformed(
                dir.resolve("legacy.log"),
                error(1, -32601, "no"),
                result(2, INITIALIZED),
                result(3, pending)));
    assertThat(legacy.listTools()).isEmpty();
    legacy.close(GRACE);
  }

  /** Closing a session tells how the server ended: its exit status. */
  @Test
  void closingTellsTheServersExitStatus() throws Exception {
    Session session = connect(server(result(1, DISCOVERED), "EXIT:3"));
    assertThatThrownBy(session::listTools).isInstanceOf(IOException.class);

    assertThat(session.close(GRACE)).isEqualTo(3);
  }
}

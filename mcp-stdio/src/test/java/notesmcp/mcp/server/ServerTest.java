package notesmcp.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import notesmcp.mcp.Protocol.Implementation;
import notesmcp.mcp.server.Tools.Tool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ServerTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Implementation INFO = new Implementation("fake-server", "1.0");
  private static final String SERVER_INFO =
      "\"_meta\":{\"io.modelcontextprotocol/serverInfo\":"
          + "{\"name\":\"fake-server\",\"version\":\"1.0\"}}";

  private final FakeTools tools = new FakeTools();
  private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
  private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

  private static Server.Options options() {
    return Server.Options.defaults(INFO, "Use the tools.");
  }

  private static Server.Options options(int maxInFlight, Duration admissionWait) {
    Server.Options d = options();
    return new Server.Options(
        d.info(),
        d.instructions(),
        maxInFlight,
        admissionWait,
        d.maxLineBytes(),
        d.maxPendingBytes(),
        d.closeGrace());
  }

  private String log() {
    return logBytes.toString(StandardCharsets.UTF_8);
  }

  /** {@code params} of a 2026-07-28 request: {@code _meta} first, then {@code members}. */
  private static String modern(String members) {
    return "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}"
        + (members.isEmpty() ? "" : "," + members)
        + "}";
  }

  private static String request(Object id, String method, String params) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":\""
        + method
        + "\""
        + (params == null ? "" : ",\"params\":" + params)
        + "}";
  }

  private static String call(Object id, String tool, String arguments) {
    return request(
        id,
        "tools/call",
        modern(
            "\"name\":\""
                + tool
                + "\""
                + (arguments == null ? "" : ",\"arguments\":" + arguments)));
  }

  private static String cancel(Object id) {
    return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
        + "\"params\":{\"requestId\":"
        + id
        + ",\"reason\":\"user stopped it\"}}";
  }

  private static JsonNode json(String text) {
    return JSON.readTree(text);
  }

  /** Serves {@code lines} to the end and returns every line written, parsed, in order. */
  private List<JsonNode> serve(Server.Options options, String... lines) throws Exception {
    return serve(tools, options, lines);
  }

  private List<JsonNode> serve(Tools tools, Server.Options options, String... lines)
      throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String input = String.join("\n", lines) + "\n";
    new Server(tools, options, log)
        .serve(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), out);
    String output = out.toString(StandardCharsets.UTF_8);
    List<JsonNode> replies = new ArrayList<>();
    if (!output.isEmpty()) {
      assertThat(output).endsWith("\n");
      for (String line : output.substring(0, output.length() - 1).split("\n", -1)) {
        replies.add(json(line));
      }
    }
    return replies;
  }

  private List<JsonNode> serve(String... lines) throws Exception {
    return serve(options(), lines);
  }

  /** The one reply to a single request. */
  private JsonNode reply(String line) throws Exception {
    List<JsonNode> replies = serve(line);
    assertThat(replies).hasSize(1);
    return replies.get(0);
  }

  private static Map<String, JsonNode> byId(List<JsonNode> replies) {
    Map<String, JsonNode> map = new HashMap<>();
    for (JsonNode reply : replies) {
      map.put(String.valueOf(reply.get("id")), reply);
    }
    return map;
  }

  // --- discovery, listing, calling ---

  @Test
  void discoverAnswersVersionsCapabilitiesAndServerInfo() throws Exception {
    assertThat(reply(request(1, "server/discover", modern(""))))
        .isEqualTo(
            json(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"supportedVersions\":[\"2026-07-28\"],"
                    + "\"capabilities\":{\"tools\":{}},\"instructions\":\"Use the tools.\","
                    + "\"ttlMs\":300000,\"cacheScope\":\"public\",\"resultType\":\"complete\","
                    + SERVER_INFO
                    + "}}"));
  }

  @Test
  void toolsListAnswersTheToolsInOrderWithCachingHints() throws Exception {
    JsonNode result = reply(request("\"l\"", "tools/list", modern(""))).get("result");

    assertThat(result.get("tools").get(0))
        .isEqualTo(
            json(
                "{\"name\":\"echo\",\"description\":\"Answers its arguments as received.\","
                    + "\"inputSchema\":{\"type\":\"object\"}}"));
    assertThat(result.get("tools").findValuesAsString("name"))
        .containsExactly("echo", "refuse", "boom", "block");
    assertThat(result.get("ttlMs").longValue()).isEqualTo(300_000);
    assertThat(result.get("cacheScope").stringValue()).isEqualTo("private");
    assertThat(result.get("resultType").stringValue()).isEqualTo("complete");
    assertThat(result.get("_meta")).isEqualTo(json("{" + SERVER_INFO + "}").get("_meta"));
  }

  @Test
  void toolsListWithACursorIsInvalidParams() throws Exception {
    assertThat(reply(request(1, "tools/list", modern("\"cursor\":\"next\""))).get("error"))
        .isEqualTo(
            json(
                "{\"code\":-32602,\"message\":\"Invalid params: unknown cursor; this server lists"
                    + " every tool on one page\"}"));
  }

  @Test
  void toolsCallPassesTheArgumentsExactlyAsReceived() throws Exception {
    String arguments = "{ \"b\" : 1,\"b\":\"\\u00e9\u20ac\" }";

    assertThat(reply(call(7, "echo", arguments)))
        .isEqualTo(
            json(
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[{\"type\":\"text\","
                    + "\"text\":"
                    + JSON.writeValueAsString(arguments)
                    + "}],\"isError\":false,\"resultType\":\"complete\","
                    + SERVER_INFO
                    + "}}"));
  }

  @Test
  void omittedArgumentsReachTheToolAsNull() throws Exception {
    assertThat(reply(call(1, "echo", null)).at("/result/content/0/text").stringValue())
        .isEqualTo("(omitted)");
  }

  @Test
  void toolRefusalIsAResultWithIsErrorTrue() throws Exception {
    JsonNode result = reply(call(1, "refuse", "{}")).get("result");

    assertThat(result.at("/content/0/text").stringValue()).isEqualTo("refused: {}");
    assertThat(result.get("isError").booleanValue()).isTrue();
  }

  @Test
  void unknownToolIsInvalidParamsAndNeverReachesTheTools() throws Exception {
    assertThat(reply(call(1, "save_note", "{}")).get("error"))
        .isEqualTo(json("{\"code\":-32602,\"message\":\"Unknown tool: save_note\"}"));
    assertThat(tools.calls).hasValue(0);
  }

  @ParameterizedTest
  @MethodSource("nonObjectArguments")
  void argumentsThatAreNotAnObjectAreInvalidParams(String arguments, String type) throws Exception {
    assertThat(reply(call(1, "echo", arguments)).get("error"))
        .isEqualTo(
            json(
                "{\"code\":-32602,\"message\":\"Invalid params: \\\"arguments\\\" must be a JSON"
                    + " object, not "
                    + type
                    + "\"}"));
    assertThat(tools.calls).hasValue(0);
  }

  static Stream<Arguments> nonObjectArguments() {
    return Stream.of(
        Arguments.of("[1]", "array"),
        Arguments.of("null", "null"),
        Arguments.of("\"{}\"", "string"),
        Arguments.of("5", "number"),
        Arguments.of("true", "boolean"));
  }

  @Test
  void toolsCallWithoutANameIsInvalidParams() throws Exception {
    assertThat(reply(request(1, "tools/call", modern("\"name\":5"))).get("error"))
        .isEqualTo(
            json(
                "{\"code\":-32602,\"message\":\"Invalid params: tools/call needs a string"
                    + " \\\"name\\\"\"}"));
  }

  @Test
  void toolThatThrowsIsAnInternalErrorWithDetailsOnlyInTheLog() throws Exception {
    assertThat(reply(call(1, "boom", "{}")).get("error"))
        .isEqualTo(
            json("{\"code\":-32603,\"message\":\"Internal error; see the server's stderr\"}"));
    assertThat(log())
        .contains("notes-mcp: internal error answering request 1:")
        .contains("java.lang.IllegalStateException: the fake tool failed\n\tat ");
  }

  // --- docs/protocol.md: checks in order, the first failure answers ---

  static Stream<Arguments> firstFailureAnswers() {
    String noVersion = "{\"_meta\":{\"io.modelcontextprotocol/clientCapabilities\":{}}}";
    String oldVersion =
        "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2025-11-25\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}},\"name\":\"save_note\"}";
    String badInfoOldVersion =
        "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"1999-01-01\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{},"
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"c\"}}}";
    return Stream.of(
        Arguments.of("unknown method, bad version", "foo/bar", oldVersion, -32601),
        Arguments.of("legacy-only method with _meta", "ping", modern(""), -32601),
        Arguments.of("initialize with _meta", "initialize", modern(""), -32601),
        Arguments.of("unknown method, no params", "foo/bar", null, -32601),
        Arguments.of("missing version", "tools/list", noVersion, -32602),
        Arguments.of("discover without params", "server/discover", null, -32602),
        Arguments.of("no _meta before initialize", "tools/list", "{}", -32602),
        Arguments.of("bad clientInfo before bad version", "tools/list", badInfoOldVersion, -32602),
        Arguments.of("bad version before unknown tool", "tools/call", oldVersion, -32022),
        Arguments.of(
            "capabilities not an object",
            "tools/list",
            "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":[]}}",
            -32602),
        Arguments.of(
            "unknown log level",
            "tools/list",
            modern("").replace("{}}", "{},\"io.modelcontextprotocol/logLevel\":\"loud\"}"),
            -32602),
        Arguments.of(
            "unknown tool after good _meta", "tools/call", modern("\"name\":\"x\""), -32602));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("firstFailureAnswers")
  void checksRunInOrderAndTheFirstFailureAnswers(
      String what, String method, String params, int code) throws Exception {
    JsonNode reply = reply(request(1, method, params));

    assertThat(reply.at("/error/code").intValue()).as(reply.toString()).isEqualTo(code);
    assertThat(reply.get("id").intValue()).isEqualTo(1);
    assertThat(tools.calls).hasValue(0);
  }

  @Test
  void unsupportedVersionNamesTheSupportedAndRequestedVersions() throws Exception {
    String params = modern("\"name\":\"echo\"").replace("\"2026-07-28\"", "\"2025-11-25\"");

    assertThat(reply(request(1, "tools/call", params)).get("error"))
        .isEqualTo(
            json(
                "{\"code\":-32022,\"message\":\"Unsupported protocol version: 2025-11-25"
                    + " (supported per request: 2026-07-28; 2025 revisions through initialize)\","
                    + "\"data\":{\"supported\":[\"2026-07-28\"],\"requested\":\"2025-11-25\"}}"));
  }

  @Test
  void unknownMethodIsMethodNotFound() throws Exception {
    assertThat(reply(request(1, "resources/list", modern(""))).get("error"))
        .isEqualTo(json("{\"code\":-32601,\"message\":\"Method not found: resources/list\"}"));
    assertThat(reply(request(1, "ping", modern(""))).get("error"))
        .isEqualTo(
            json(
                "{\"code\":-32601,\"message\":\"Method not found: ping (not part of revision"
                    + " 2026-07-28)\"}"));
  }

  // --- the envelope: errors answered by the reader, serving goes on ---

  @Test
  void envelopeErrorsAreAnsweredAndServingGoesOn() throws Exception {
    List<JsonNode> replies =
        serve(
            "this is not json",
            "[" + request(1, "tools/list", modern("")) + "]",
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"method\":\"ping\"}",
            request(3, "server/discover", modern("")));

    assertThat(replies).hasSize(4);
    Map<String, JsonNode> byId = byId(replies);
    assertThat(replies.get(0).has("id")).isFalse();
    assertThat(replies.get(0).at("/error/code").intValue()).isEqualTo(-32700);
    assertThat(replies.get(1))
        .isEqualTo(
            json(
                "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"Invalid Request:"
                    + " batches are not supported; send one message per line\"}}"));
    assertThat(byId.get("2").get("error"))
        .isEqualTo(
            json(
                "{\"code\":-32600,\"message\":\"Invalid Request: duplicate key \\\"method\\\"\"}"));
    assertThat(byId.get("3").at("/result/resultType").stringValue()).isEqualTo("complete");
  }

  @Test
  void tooLongLineIsAnInvalidRequestWithoutIdAndTheNextLineIsServed() throws Exception {
    Server.Options d = options();
    Server.Options small =
        new Server.Options(
            d.info(), d.instructions(), 64, d.admissionWait(), 256, 1 << 20, d.closeGrace());

    List<JsonNode> replies =
        serve(small, call(1, "echo", "{\"x\":\"" + "y".repeat(300) + "\"}"), call(2, "echo", "{}"));

    assertThat(replies).hasSize(2);
    assertThat(replies.get(0))
        .isEqualTo(
            json(
                "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"Invalid Request:"
                    + " line longer than 256 bytes\"}}"));
    assertThat(replies.get(1).at("/result/content/0/text").stringValue()).isEqualTo("{}");
    assertThat(tools.calls).hasValue(1);
  }

  @Test
  void blankLinesNotificationsAndResponsesGetNoReply() throws Exception {
    List<JsonNode> replies =
        serve(
            "",
            "   \t",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{}}",
            cancel(99),
            "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}",
            "{\"jsonrpc\":\"2.0\",\"id\":6,\"error\":{\"code\":-1,\"message\":\"no\"}}");

    assertThat(replies).isEmpty();
    assertThat(log())
        .isEqualTo("notes-mcp: ignoring a response; this server sends no requests\n".repeat(2));
  }

  // --- legacy era ---

  @Test
  void initializeNegotiatesALegacyVersionAndThenServesWithoutMeta() throws Exception {
    List<JsonNode> replies =
        serve(
            options(),
            request(
                1,
                "initialize",
                "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                    + "\"clientInfo\":{\"name\":\"old\",\"version\":\"0\"}}"),
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
            request(2, "tools/list", null),
            request(3, "tools/call", "{\"name\":\"echo\",\"arguments\":{\"a\":1}}"),
            request(4, "ping", null));

    Map<String, JsonNode> byId = byId(replies);
    assertThat(replies).hasSize(4);
    assertThat(byId.get("1").get("result"))
        .isEqualTo(
            json(
                "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":"
                    + "{\"listChanged\":false}},\"serverInfo\":{\"name\":\"fake-server\","
                    + "\"version\":\"1.0\"},\"instructions\":\"Use the tools.\"}"));
    JsonNode list = byId.get("2").get("result");
    assertThat(list.propertyNames()).containsExactly("tools");
    assertThat(byId.get("3").get("result"))
        .isEqualTo(
            json(
                "{\"content\":[{\"type\":\"text\",\"text\":\"{\\\"a\\\":1}\"}],"
                    + "\"isError\":false}"));
    assertThat(byId.get("4").get("result")).isEqualTo(json("{}"));
    assertThat(log())
        .contains(
            "notes-mcp: legacy client \"old\" \"0\" initialized;"
                + " serving revision 2025-06-18\n");
  }

  @Test
  void initializeWithAnUnknownVersionAnswersTheLatestLegacyVersion() throws Exception {
    JsonNode reply =
        reply(request(1, "initialize", "{\"protocolVersion\":\"1999-01-01\",\"capabilities\":{}}"));

    assertThat(reply.at("/result/protocolVersion").stringValue()).isEqualTo("2025-11-25");
    assertThat(log())
        .contains(
            "notes-mcp: legacy client (no clientInfo with a string name and version) initialized;"
                + " serving revision 2025-11-25\n");
  }

  @Test
  void modernRequestsStillWorkAfterInitialize() throws Exception {
    List<JsonNode> replies =
        serve(
            options(),
            request(1, "initialize", "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{}}"),
            request(2, "tools/list", modern("")));

    assertThat(byId(replies).get("2").at("/result/resultType").stringValue()).isEqualTo("complete");
  }

  // --- cancellation, duplicate ids, overload, end of input ---

  @Test
  void cancelledHeldCallGetsNoReplyAndNeverRuns() throws Exception {
    Tools holding = new HeldTools(tools, Duration.ofSeconds(60));

    List<JsonNode> replies = serve(holding, options(), call(1, "echo", "{}"), cancel(1));

    assertThat(replies).isEmpty();
    assertThat(tools.calls).hasValue(0);
    assertThat(log())
        .contains("cancellation received for request 1 (\"user stopped it\")")
        .contains("request 1 cancelled before it ran; no reply");
  }

  @Test
  void aCancellationReasonCannotForgeALogLineOrActOnTheTerminal() throws Exception {
    Tools holding = new HeldTools(tools, Duration.ofSeconds(60));
    String forged =
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":"
            + "{\"requestId\":1,\"reason\":\"x\\nnotes-mcp: FORGED\\u001b[31m\\u202e\"}}";

    serve(holding, options(), call(1, "echo", "{}"), forged);

    assertThat(log())
        .contains(
            "cancellation received for request 1 (\"x\\u000anotes-mcp: FORGED\\u001b[31m\\u202e\")")
        .doesNotContain("\nnotes-mcp: FORGED")
        .doesNotContain("\u001b")
        .doesNotContain("\u202e");
  }

  @Test
  void aLegacyClientsNameIsLoggedQuotedAndEscaped() throws Exception {
    reply(
        request(
            1,
            "initialize",
            "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"host\\r\\nnotes-mcp: FORGED\",\"version\":\"1\"}}"));

    assertThat(log())
        .contains("legacy client \"host\\u000d\\u000anotes-mcp: FORGED\" \"1\" initialized")
        .doesNotContain("\nnotes-mcp: FORGED");
  }

  @Test
  void cancellationNamesTheIdExactlyAStringIdIsNotAnIntegerId() throws Exception {
    Tools holding = new HeldTools(tools, Duration.ofMillis(300));

    List<JsonNode> replies = serve(holding, options(), call(1, "echo", "{}"), cancel("\"1\""));

    assertThat(replies).hasSize(1);
    assertThat(replies.get(0).get("id").intValue()).isEqualTo(1);
    assertThat(tools.calls).hasValue(1);
  }

  @Test
  void duplicateInFlightIdIsRefused() throws Exception {
    Tools holding = new HeldTools(tools, Duration.ofSeconds(60));

    List<JsonNode> replies =
        serve(
            holding,
            options(),
            call(1, "echo", "{}"),
            call(1, "echo", "{\"second\":true}"),
            cancel(1));

    assertThat(replies)
        .containsExactly(
            json(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32600,"
                    + "\"message\":\"Invalid Request: id 1 is already in flight\"}}"));
    assertThat(tools.calls).hasValue(0);
  }

  @Test
  void idMayBeReusedOnceItsRequestIsAnswered() throws Exception {
    try (Wire wire = new Wire(options())) {
      wire.send(call(1, "echo", "{\"n\":1}"));
      assertThat(wire.next().at("/result/content/0/text").stringValue()).isEqualTo("{\"n\":1}");
      wire.send(call(1, "echo", "{\"n\":2}"));
      assertThat(wire.next().at("/result/content/0/text").stringValue()).isEqualTo("{\"n\":2}");
    }
  }

  @Test
  void requestsBeyondTheInFlightBoundAreAnsweredOverloaded() throws Exception {
    try (Wire wire = new Wire(options(1, Duration.ofMillis(50)))) {
      wire.send(call(1, "block", "{}"));
      tools.entered.await();
      wire.send(call(2, "echo", "{}"));
      wire.send(request(3, "server/discover", modern("")));

      JsonNode overloaded =
          json(
              "{\"code\":-32000,\"message\":\"Server overloaded: 1 requests already in flight;"
                  + " retry later\"}");
      JsonNode second = wire.next();
      JsonNode third = wire.next();
      assertThat(second.get("id").intValue()).isEqualTo(2);
      assertThat(second.get("error")).isEqualTo(overloaded);
      assertThat(third.get("id").intValue()).isEqualTo(3);
      assertThat(third.get("error")).isEqualTo(overloaded);

      tools.release.countDown();
      assertThat(wire.next().at("/result/content/0/text").stringValue()).isEqualTo("released");
      wire.send(call(4, "echo", "{}"));
      assertThat(wire.next().at("/result/content/0/text").stringValue()).isEqualTo("{}");
    }
    assertThat(tools.calls).hasValue(2);
  }

  @Test
  void endOfInputWaitsForInFlightWorkThenReturns() throws Exception {
    Wire wire = new Wire(options());
    wire.send(call(1, "block", "{}"));
    tools.entered.await();

    wire.endInput();
    wire.serving.join(200);
    assertThat(wire.serving.isAlive()).as("serve returned before the call finished").isTrue();

    tools.release.countDown();
    wire.serving.join();
    assertThat(wire.failure).isNull();
    assertThat(wire.next().at("/result/content/0/text").stringValue()).isEqualTo("released");
  }

  // --- back-pressure, held calls, end of input and shutdown with a stdout nobody reads ---

  /** An output that takes nothing until opened, like a pipe whose reader stopped reading. */
  private static final class GatedOutput extends OutputStream {
    final CountDownLatch open = new CountDownLatch(1);
    final CountDownLatch blocked = new CountDownLatch(1);
    final ByteArrayOutputStream taken = new ByteArrayOutputStream();

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      blocked.countDown();
      try {
        open.await();
      } catch (InterruptedException e) {
        throw new IOException(e);
      }
      synchronized (taken) {
        taken.write(bytes, offset, length);
      }
    }

    List<JsonNode> replies() {
      String text;
      synchronized (taken) {
        text = taken.toString(StandardCharsets.UTF_8);
      }
      List<JsonNode> replies = new ArrayList<>();
      for (String line : text.split("\n")) {
        if (!line.isEmpty()) {
          replies.add(json(line));
        }
      }
      return replies;
    }
  }

  /** Input that counts the bytes the server has taken from it. */
  private static final class CountingInput extends ByteArrayInputStream {
    final AtomicLong taken = new AtomicLong();

    CountingInput(String text) {
      super(text.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public synchronized int read(byte[] bytes, int offset, int length) {
      int n = super.read(bytes, offset, Math.min(length, 4096));
      if (n > 0) {
        taken.addAndGet(n);
      }
      return n;
    }
  }

  private static Server.Options pendingBound(long maxPendingBytes, Duration closeGrace) {
    Server.Options d = options();
    return new Server.Options(
        d.info(),
        d.instructions(),
        d.maxInFlight(),
        d.admissionWait(),
        d.maxLineBytes(),
        maxPendingBytes,
        closeGrace);
  }

  private Thread serveInBackground(Server server, InputStream in, OutputStream out) {
    Thread serving =
        new Thread(
            () -> {
              try {
                server.serve(in, out);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "test server");
    serving.start();
    return serving;
  }

  @Test
  void repliesThatCannotBeWrittenStopTheReadingAndAllArriveOnceTheyCan() throws Exception {
    StringBuilder input = new StringBuilder();
    int calls = 2_000;
    for (int i = 1; i <= calls; i++) {
      input.append(call(i, "echo", "{\"n\":" + i + "}")).append('\n');
    }
    CountingInput in = new CountingInput(input.toString());
    GatedOutput out = new GatedOutput();
    Thread serving =
        serveInBackground(
            new Server(tools, pendingBound(4096, Duration.ofSeconds(30)), log), in, out);

    assertThat(out.blocked.await(5, TimeUnit.SECONDS)).isTrue();
    Thread.sleep(300);
    long takenWhileBlocked = in.taken.get();
    out.open.countDown();
    serving.join(10_000);

    assertThat(takenWhileBlocked)
        .as("stdin is not read while replies cannot be written")
        .isLessThan(in.taken.get() / 4);
    List<JsonNode> replies = out.replies();
    assertThat(replies).hasSize(calls);
    for (JsonNode reply : replies) {
      assertThat(reply.has("result")).as(reply.toString()).isTrue();
    }
  }

  @Test
  void endOfInputWithAStdoutThatTakesNothingReturnsAfterTheGracePeriod() throws Exception {
    GatedOutput out = new GatedOutput();
    Thread serving =
        serveInBackground(
            new Server(tools, pendingBound(1 << 20, Duration.ofMillis(200)), log),
            new ByteArrayInputStream(
                (call(1, "echo", "{}") + "\n" + call(2, "echo", "{}") + "\n")
                    .getBytes(StandardCharsets.UTF_8)),
            out);

    serving.join(5_000);

    assertThat(serving.isAlive()).as("serve returned although stdout takes nothing").isFalse();
    assertThat(log()).contains("notes-mcp: stdout takes nothing; ");
    out.open.countDown();
  }

  @Test
  void awaitingTheRepliesOnShutdownIsBoundedWhenStdoutTakesNothing() throws Exception {
    GatedOutput out = new GatedOutput();
    PipedOutputStream toServer = new PipedOutputStream();
    Server server = new Server(tools, options(), log);
    Thread serving = serveInBackground(server, new PipedInputStream(toServer, 1 << 16), out);
    toServer.write((call(1, "echo", "{}") + "\n").getBytes(StandardCharsets.UTF_8));
    toServer.flush();
    assertThat(out.blocked.await(5, TimeUnit.SECONDS)).isTrue();

    long start = System.nanoTime();
    boolean written = server.awaitRepliesWritten(Duration.ofMillis(100));
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(written).isFalse();
    assertThat(took).isLessThan(Duration.ofSeconds(2));
    out.open.countDown();
    toServer.close();
    serving.join(5_000);
    assertThat(out.replies()).hasSize(1);
  }

  @Test
  void theBoundIsFullOnlyOfCallsBeingWorkedOnAndEachHeldCallHasAThread() throws Exception {
    Tools holding = new HeldTools(tools, Duration.ofSeconds(60));
    try (Wire wire = new Wire(holding, options(3, Duration.ofMillis(50)))) {
      for (int id = 1; id <= 3; id++) {
        wire.send(call(id, "echo", "{}"));
      }
      wire.send(request(4, "server/discover", modern("")));
      JsonNode fourth = wire.next();
      assertThat(fourth.get("id").intValue()).isEqualTo(4);
      assertThat(fourth.at("/error/code").intValue()).isEqualTo(-32000);

      for (int id = 1; id <= 3; id++) {
        wire.send(cancel(id));
      }
      wire.send(request(5, "server/discover", modern("")));
      JsonNode fifth = wire.next();
      assertThat(fifth.get("id").intValue()).as("cancelled calls get no reply").isEqualTo(5);
      assertThat(fifth.at("/result/resultType").stringValue()).isEqualTo("complete");
    }
    assertThat(tools.calls).hasValue(0);
  }

  /**
   * Calls that give the lead up before they wait (Server.aboutToWait, as a read waiting out a
   * note's change margin does) are every one answered, pipelined in any number; on a thread that
   * answers no request, aboutToWait does nothing.
   */
  @Test
  void callsThatGiveTheLeadUpBeforeTheyWaitAreEveryOneAnswered() throws Exception {
    Server.aboutToWait(); // the test's own thread: nothing happens
    Tools waiting =
        new Tools() {
          @Override
          public List<Tool> list() {
            return tools.list();
          }

          @Override
          public Tools.Result call(
              String name,
              String rawArguments,
              Implementation client,
              Caller caller,
              BooleanSupplier cancelled) {
            Server.aboutToWait();
            try {
              Thread.sleep(2);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return tools.call(name, rawArguments, client, caller, cancelled);
          }
        };
    String[] lines = new String[200];
    for (int id = 0; id < lines.length; id++) {
      lines[id] = call(id, "echo", "{\"n\":" + id + "}");
    }

    Map<String, JsonNode> replies = byId(serve(waiting, options(), lines));

    assertThat(replies).hasSize(lines.length);
    for (int id = 0; id < lines.length; id++) {
      assertThat(replies.get(String.valueOf(id)).at("/result/isError").booleanValue())
          .as("call " + id)
          .isFalse();
    }
  }

  /** A server on pipes, serving on its own thread, for tests that need to interleave. */
  private final class Wire implements AutoCloseable {
    private final PipedOutputStream toServer = new PipedOutputStream();
    private final PipedInputStream fromServer = new PipedInputStream(1 << 16);
    private final BufferedReader replies =
        new BufferedReader(new InputStreamReader(fromServer, StandardCharsets.UTF_8));
    final Thread serving;
    volatile Exception failure;

    Wire(Server.Options options) throws IOException {
      this(tools, options);
    }

    Wire(Tools tools, Server.Options options) throws IOException {
      PipedInputStream serverIn = new PipedInputStream(toServer, 1 << 16);
      PipedOutputStream serverOut = new PipedOutputStream(fromServer);
      Server server = new Server(tools, options, log);
      serving =
          new Thread(
              () -> {
                try {
                  server.serve(serverIn, serverOut);
                } catch (Exception e) {
                  failure = e;
                }
              },
              "test server");
      serving.start();
    }

    void send(String line) throws IOException {
      toServer.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      toServer.flush();
    }

    JsonNode next() throws IOException {
      String line = replies.readLine();
      assertThat(line).isNotNull();
      return json(line);
    }

    void endInput() throws IOException {
      toServer.close();
    }

    @Override
    public void close() throws IOException {
      tools.release.countDown();
      endInput();
      try {
        serving.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while the server finished", e);
      }
      assertThat(failure).isNull();
    }
  }

  /**
   * The server's threads never keep the process alive, and once input ends and the replies are
   * written, the watch of slow work ends too.
   */
  @Test
  void theServersThreadsAreDaemonsAndTheWatchEndsWithTheInput() throws Exception {
    Set<Thread> before = Thread.getAllStackTraces().keySet();
    PipedOutputStream client = new PipedOutputStream();
    PipedInputStream input = new PipedInputStream(client, 1 << 16);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Thread serving =
        new Thread(
            () -> {
              try {
                new Server(tools, options(), log).serve(input, out);
              } catch (Exception e) {
                throw new AssertionError(e);
              }
            },
            "server-test-serve");
    serving.start();
    client.write((request(1, "ping", modern("")) + "\n").getBytes(StandardCharsets.UTF_8));
    client.flush();

    List<Thread> started = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (started.stream().noneMatch(t -> t.getName().equals("notes-mcp watch"))
        || started.stream().noneMatch(t -> t.getName().matches("notes-mcp [0-9]+"))) {
      assertThat(System.nanoTime()).isLessThan(deadline);
      Thread.sleep(5);
      started.clear();
      for (Thread thread : Thread.getAllStackTraces().keySet()) {
        if (!before.contains(thread) && thread.getName().startsWith("notes-mcp ")) {
          started.add(thread);
        }
      }
    }
    assertThat(started).allMatch(Thread::isDaemon);

    client.close();
    serving.join(5_000);
    assertThat(serving.isAlive()).isFalse();
    for (Thread thread : started) {
      if (thread.getName().equals("notes-mcp watch")) {
        thread.join(3_000);
        assertThat(thread.isAlive()).as("the watch ended").isFalse();
      }
    }
  }
}

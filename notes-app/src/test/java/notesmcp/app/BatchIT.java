package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * JSON-RPC batches (docs/protocol.md, "Batches"): revision 2025-03-26 says a server MUST accept
 * them, so a 2025-03-26 session is served batches, bounded as single requests are; every other
 * revision, and a session before initialize, gets {@code -32600}.
 *
 * <p>No schema of 2025-03-26 is vendored. Each element of a batch's reply is checked by {@link
 * WireServer} against the official 2025-11-25 schema, whose responses have 2025-03-26's shape; and
 * here against what 2025-03-26 itself requires of a batch's reply (JSONRPCBatchResponse): one
 * array, not empty, of responses, each {@code "jsonrpc":"2.0"} with exactly one of {@code result}
 * and {@code error}, one for every request of the batch and none for a notification.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BatchIT {
  private static final String INITIALIZE =
      "{\"protocolVersion\":\"%s\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"batch-wire\",\"version\":\"1\"}}";

  @TempDir Path dir;

  private static WireServer session(Path root, String version) throws Exception {
    WireServer server = WireServer.start(root);
    JsonNode initialized =
        server.legacy("initialize", INITIALIZE.formatted(version), "InitializeResult");
    assertThat(initialized.at("/result/protocolVersion").asString()).isEqualTo(version);
    server.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    return server;
  }

  /** A request of the batch, expected back as a response of the 2025-03-26 session. */
  private static String request(
      WireServer server, long id, String method, String params, String result) {
    server.expect(id, "legacy session", result);
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":\""
        + method
        + "\""
        + (params == null ? "" : ",\"params\":" + params)
        + "}";
  }

  /** What 2025-03-26 requires of a batch's reply; the ids it answers, in its order. */
  private static List<Long> answeredIds(JsonNode reply) {
    assertThat(reply.isArray()).as(reply.toString()).isTrue();
    assertThat(reply.size()).as(reply.toString()).isPositive();
    List<Long> ids = new ArrayList<>();
    for (JsonNode response : reply) {
      assertThat(response.isObject()).as(response.toString()).isTrue();
      assertThat(response.path("jsonrpc").asString()).isEqualTo("2.0");
      assertThat(response.has("result") ^ response.has("error")).as(response.toString()).isTrue();
      assertThat(response.has("method")).as(response.toString()).isFalse();
      if (response.has("result")) {
        assertThat(response.get("result").isObject()).isTrue();
        assertThat(response.path("id").isIntegralNumber()).as(response.toString()).isTrue();
      } else {
        assertThat(response.at("/error/code").isInt()).isTrue();
        assertThat(response.at("/error/message").isString()).isTrue();
      }
      ids.add(response.path("id").isIntegralNumber() ? response.get("id").asLong() : -1L);
    }
    return ids;
  }

  private static JsonNode byId(JsonNode reply, long id) {
    for (JsonNode response : reply) {
      if (response.path("id").isIntegralNumber() && response.get("id").asLong() == id) {
        return response;
      }
    }
    throw new AssertionError("no response to id " + id + " in " + reply);
  }

  @Test
  void a2025_03_26SessionAnswersABatchWithOneArrayOfEveryRequestsReply() throws Exception {
    try (WireServer server = session(Fixtures.workspace(dir), "2025-03-26")) {
      server.send(
          "["
              + request(server, 100, "tools/list", null, "ListToolsResult")
              + ","
              + request(
                  server,
                  101,
                  "tools/call",
                  "{\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}",
                  "CallToolResult")
              + ",{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
              + request(
                  server,
                  102,
                  "tools/call",
                  "{\"name\":\"read_note\",\"arguments\":{\"path\":\"../secret.txt\"}}",
                  "CallToolResult")
              + ","
              + request(server, 103, "ping", null, "EmptyResult")
              + "]");

      JsonNode reply = server.batchReply();

      assertThat(answeredIds(reply)).containsExactlyInAnyOrder(100L, 101L, 102L, 103L);
      assertThat(byId(reply, 100).at("/result/tools").size()).isEqualTo(3);
      assertThat(byId(reply, 100).at("/result/tools/0/annotations/readOnlyHint").asBoolean())
          .isTrue();
      assertThat(WireServer.isError(byId(reply, 101))).isFalse();
      assertThat(WireServer.text(byId(reply, 101))).startsWith("{\"path\":\"notes.txt\"");
      assertThat(WireServer.isError(byId(reply, 102))).isTrue();
      assertThat(byId(reply, 103).get("result").toString()).isEqualTo("{}");
      // Served as single requests are: it is the same session afterwards.
      assertThat(server.legacy("ping", null, "EmptyResult").get("result").toString())
          .isEqualTo("{}");
    }
  }

  @Test
  void eachElementIsAnsweredAsItWouldBeAloneAndAnInvalidOneGetsItsOwnError() throws Exception {
    try (WireServer server = session(Fixtures.workspace(dir), "2025-03-26")) {
      server.send(
          "[1,{\"jsonrpc\":\"1.0\",\"id\":7,\"method\":\"ping\"},"
              + request(server, 104, "ping", null, "EmptyResult")
              + ","
              + request(server, 105, "tools/call", "{\"name\":\"save_note\"}", "CallToolResult")
              + "]");

      JsonNode reply = server.batchReply();

      assertThat(answeredIds(reply)).containsExactlyInAnyOrder(-1L, 7L, 104L, 105L);
      List<String> errors = new ArrayList<>();
      for (JsonNode response : reply) {
        if (response.has("error")) {
          errors.add(
              response.at("/error/code").asInt() + " " + response.at("/error/message").asString());
        }
      }
      assertThat(errors)
          .containsExactlyInAnyOrder(
              "-32600 Invalid Request: a message must be a JSON object",
              "-32600 Invalid Request: \"jsonrpc\" must be \"2.0\"",
              "-32602 Unknown tool: save_note");
    }
  }

  @Test
  void anEmptyBatchIsOneInvalidRequestNotAnArray() throws Exception {
    try (WireServer server = session(Fixtures.workspace(dir), "2025-03-26")) {
      server.send("[]");

      JsonNode error = server.responseWithoutId();

      assertThat(error.at("/error/code").asInt()).isEqualTo(-32600);
      assertThat(error.at("/error/message").asString())
          .isEqualTo("Invalid Request: an empty batch");
      assertThat(server.legacy("ping", null, "EmptyResult").has("result")).isTrue();
      assertThat(server.batchesLeft()).isEmpty();
    }
  }

  @Test
  void aBatchOfNotificationsOnlyGetsNoReplyAtAll() throws Exception {
    try (WireServer server = session(Fixtures.workspace(dir), "2025-03-26")) {
      server.send(
          "[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
              + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
              + "\"params\":{\"requestId\":99}}]");

      assertThat(server.legacy("ping", null, "EmptyResult").has("result")).isTrue();
      assertThat(server.batchesLeft()).isEmpty();
    }
  }

  /**
   * A batch counts against the bound on calls being worked on, as its requests would one by one: it
   * holds at most 64 messages (more is one {@code -32600}, and nothing of it runs), and serving
   * goes on.
   */
  @Test
  void aBatchOverTheInFlightBoundIsRefusedWholeAndServingGoesOn() throws Exception {
    try (WireServer server = session(Fixtures.workspace(dir), "2025-03-26")) {
      StringBuilder batch = new StringBuilder("[");
      for (int i = 0; i < 65; i++) {
        batch
            .append(i == 0 ? "" : ",")
            .append(request(server, 200 + i, "ping", null, "EmptyResult"));
      }
      server.send(batch.append(']').toString());

      JsonNode error = server.responseWithoutId();

      assertThat(error.at("/error/code").asInt()).isEqualTo(-32600);
      assertThat(error.at("/error/message").asString())
          .isEqualTo("Invalid Request: a batch of 65 messages; at most 64 are served in one batch");
      StringBuilder fits = new StringBuilder("[");
      for (int i = 0; i < 64; i++) {
        fits.append(i == 0 ? "" : ",")
            .append(request(server, 300 + i, "ping", null, "EmptyResult"));
      }
      server.send(fits.append(']').toString());
      assertThat(answeredIds(server.batchReply())).hasSize(64);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", "2025-06-18", "2024-11-05"})
  void everyOtherLegacyRevisionRefusesABatch(String version) throws Exception {
    try (WireServer server = session(Fixtures.workspace(dir), version)) {
      assertRefused(server);
    }
  }

  @Test
  void aBatchBeforeInitializeOrOfTheModernEraIsRefused() throws Exception {
    try (WireServer server = WireServer.start(Fixtures.workspace(dir))) {
      assertRefused(server);
      JsonNode modern = server.modern("tools/list", "", "ListToolsResult");
      assertThat(modern.has("result")).isTrue();
      assertRefused(server);
    }
  }

  private static void assertRefused(WireServer server) throws Exception {
    server.send("[{\"jsonrpc\":\"2.0\",\"id\":900,\"method\":\"ping\"}]");
    JsonNode error = server.responseWithoutId();
    assertThat(error.at("/error/code").asInt()).isEqualTo(-32600);
    assertThat(error.at("/error/message").asString())
        .isEqualTo("Invalid Request: batches are not supported; send one message per line");
    assertThat(server.batchesLeft()).isEmpty();
  }
}

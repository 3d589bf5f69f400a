package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import notesmcp.mcp.SchemaCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * docs/protocol.md and §5 on the wire: the order of checks, the error codes, and a server that
 * keeps serving after every bad message. After each test the server must still answer a good
 * request.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProtocolIT {
  private static final String CAPABILITIES = "\"io.modelcontextprotocol/clientCapabilities\":{}";

  @TempDir Path dir;
  private WireServer server;

  @BeforeEach
  void start() throws Exception {
    server = WireServer.start(Fixtures.workspace(dir));
  }

  @AfterEach
  void stillServes() {
    JsonNode read = server.call("read_note", "{\"path\":\"notes.txt\"}");
    assertThat(WireServer.isError(read)).as("the server still serves: " + read).isFalse();
    server.close();
  }

  private JsonNode raw(String line) {
    long id = server.nextId();
    server.expect(id, SchemaCheck.MODERN, "CallToolResult");
    server.send(line.replace("$ID", Long.toString(id)));
    return server.response(id);
  }

  private static int code(JsonNode response) {
    assertThat(response.has("error")).as("an error response: " + response).isTrue();
    return response.at("/error/code").asInt();
  }

  @Test
  void malformedJsonIsAParseErrorWithoutId() {
    server.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":");
    JsonNode reply = server.responseWithoutId();
    assertThat(code(reply)).isEqualTo(-32700);
  }

  @Test
  void invalidUtf8BytesAreAParseError() {
    byte[] start =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"x\":\""
            .getBytes(StandardCharsets.UTF_8);
    byte[] line = new byte[start.length + 4];
    System.arraycopy(start, 0, line, 0, start.length);
    line[start.length] = (byte) 0xC3;
    line[start.length + 1] = (byte) 0x28;
    line[start.length + 2] = '"';
    line[start.length + 3] = '}';
    server.sendBytes(line);
    server.sendBytes(new byte[] {'\n'});
    assertThat(code(server.responseWithoutId())).isEqualTo(-32700);
  }

  /**
   * Messages are UTF-8 (RFC 8259 §8.1, MCP's stdio transport). Jackson guesses UTF-16 and UTF-32
   * from a byte-order mark or the zero bytes of the first characters: a tools/call line in UTF-16
   * got no reply at all (the codec failed on the byte offsets of its raw arguments and the line was
   * dropped), and a tools/list line in UTF-16 was answered as if it were UTF-8 (fuzzing, phase 2).
   * Both are parse errors now, and serving goes on.
   */
  @ParameterizedTest
  @ValueSource(strings = {"UTF-16BE", "UTF-16LE", "UTF-16", "UTF-32BE", "UTF-32LE"})
  void aLineInUtf16OrUtf32IsAParseErrorAndServingGoesOn(String encoding) {
    java.nio.charset.Charset charset = java.nio.charset.Charset.forName(encoding);
    for (String line :
        new String[] {
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
              + "\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}}",
          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}"
        }) {
      byte[] bytes = line.getBytes(charset);
      for (byte b : bytes) {
        assertThat(b).as("no line feed byte in the encoded line").isNotEqualTo((byte) '\n');
      }
      server.sendBytes(bytes);
      server.sendBytes(new byte[] {'\n'});
      JsonNode reply = server.responseWithoutId();
      assertThat(code(reply)).isEqualTo(-32700);
      assertThat(reply.at("/error/message").asString()).contains("not UTF-8");
    }
  }

  /**
   * "If there was an error in detecting the id in the Request object (e.g. Parse error/Invalid
   * Request), it MUST be Null" (JSON-RPC 2.0, 5): a request with two different ids is refused
   * without an id; it was answered with the last one (fuzzing, phase 2).
   */
  @Test
  void twoDifferentIdsAreAnInvalidRequestWithoutId() {
    server.send("{\"jsonrpc\":\"2.0\",\"id\":7,\"id\":8,\"method\":\"tools/list\"}");
    JsonNode reply = server.responseWithoutId();
    assertThat(code(reply)).isEqualTo(-32600);
    assertThat(reply.at("/error/message").asString())
        .isEqualTo("Invalid Request: duplicate key \"id\"");
  }

  /**
   * Valid JSON that no Java number holds: this used to kill the thread reading stdin, and the
   * server never answered again (the class of hangs BlockedPipesIT and HostileServerIT run). Now it
   * is a parse error like any other.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":1e-9999999999}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1e9999999999,\"method\":\"ping\"}"
      })
  void aNumberNoMachineNumberHoldsIsAParseErrorAndServingGoesOn(String line) {
    server.send(line);
    JsonNode reply = server.responseWithoutId();
    assertThat(code(reply)).isEqualTo(-32700);
    assertThat(reply.at("/error/message").asString())
        .isEqualTo("Parse error: a number too large or too small to read");
  }

  @Test
  void aBatchIsAnInvalidRequest() {
    server.send("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}]");
    assertThat(code(server.responseWithoutId())).isEqualTo(-32600);
  }

  @Test
  void aLineOverOneMebibyteIsRefusedAndSkipped() {
    StringBuilder line =
        new StringBuilder("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"p\":\"");
    line.append("a".repeat(4 * 1024 * 1024)).append("\"}");
    server.send(line.toString());
    JsonNode reply = server.responseWithoutId();
    assertThat(code(reply)).isEqualTo(-32600);
    assertThat(reply.at("/error/message").asString()).contains("1048576 bytes");
  }

  @Test
  void nestingDeeperThan64IsRefused() {
    String deep = "[".repeat(200) + "]".repeat(200);
    server.send(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"x\":" + deep + "}}");
    assertThat(code(server.responseWithoutId())).isIn(-32700, -32600);
  }

  @Test
  void aNumberOfMoreThan100DigitsIsAParseError() {
    server.send("{\"jsonrpc\":\"2.0\",\"id\":" + "9".repeat(101) + ",\"method\":\"tools/list\"}");
    assertThat(code(server.responseWithoutId())).isEqualTo(-32700);
  }

  @Test
  void aRequestObjectWithoutJsonrpcIsInvalidAndKeepsItsId() {
    JsonNode reply = raw("{\"id\":$ID,\"method\":\"tools/list\",\"params\":{}}");
    assertThat(code(reply)).isEqualTo(-32600);
  }

  @Test
  void aNullIdIsInvalid() {
    server.send("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"tools/list\",\"params\":{}}");
    assertThat(code(server.responseWithoutId())).isEqualTo(-32600);
  }

  @Test
  void anUnknownMethodIsMethodNotFoundBeforeMetaIsChecked() {
    JsonNode reply = raw("{\"jsonrpc\":\"2.0\",\"id\":$ID,\"method\":\"prompts/list\"}");
    assertThat(code(reply)).isEqualTo(-32601);
  }

  @Test
  void missingMetaIsInvalidParams() {
    assertThat(
            code(
                raw(
                    "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"method\":\"server/discover\","
                        + "\"params\":{}}")))
        .isEqualTo(-32602);
    assertThat(
            code(
                raw(
                    "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"method\":\"tools/call\",\"params\":{"
                        + "\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}}")))
        .isEqualTo(-32602);
  }

  @Test
  void missingOrMistypedMetaFieldsAreInvalidParams() {
    String[] metas = {
      "{" + CAPABILITIES + "}",
      "{\"io.modelcontextprotocol/protocolVersion\":20260728," + CAPABILITIES + "}",
      "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}",
      "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":[]}",
      "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + CAPABILITIES
          + ",\"io.modelcontextprotocol/clientInfo\":{\"name\":\"x\"}}",
      "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + CAPABILITIES
          + ",\"io.modelcontextprotocol/clientInfo\":\"x 1.0\"}",
    };
    for (String meta : metas) {
      JsonNode reply =
          raw(
              "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"method\":\"tools/list\",\"params\":"
                  + "{\"_meta\":"
                  + meta
                  + "}}");
      assertThat(code(reply)).as(meta).isEqualTo(-32602);
    }
  }

  @Test
  void anUnsupportedVersionIsRefusedWithTheSupportedList() {
    JsonNode reply =
        raw(
            "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"method\":\"tools/list\",\"params\":"
                + "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"1900-01-01\","
                + CAPABILITIES
                + "}}}");
    assertThat(code(reply)).isEqualTo(-32022);
    assertThat(reply.at("/error/data/supported").toString()).isEqualTo("[\"2026-07-28\"]");
    assertThat(reply.at("/error/data/requested").asString()).isEqualTo("1900-01-01");
    assertThat(SchemaCheck.violations(SchemaCheck.MODERN, "UnsupportedProtocolVersionError", reply))
        .isEmpty();
  }

  @Test
  void theMetaCheckComesBeforeTheVersionAndTheVersionBeforeTheParams() {
    JsonNode badMetaBadVersion =
        raw(
            "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"method\":\"tools/call\","
                + "\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"1.0\"},"
                + "\"name\":7}}");
    assertThat(code(badMetaBadVersion)).isEqualTo(-32602);
    JsonNode badVersionBadParams =
        raw(
            "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"method\":\"tools/call\","
                + "\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"1.0\","
                + CAPABILITIES
                + "},\"name\":7}}");
    assertThat(code(badVersionBadParams)).isEqualTo(-32022);
  }

  @Test
  void argumentsThatAreNotAnObjectFailTheRequestSchema() {
    for (String arguments : new String[] {"[]", "\"notes.txt\"", "7", "null", "true"}) {
      JsonNode reply = server.call("read_note", arguments);
      assertThat(code(reply)).as(arguments).isEqualTo(-32602);
    }
  }

  @Test
  void aMissingToolNameIsInvalidParams() {
    JsonNode reply = server.modern("tools/call", "\"arguments\":{}", "CallToolResult");
    assertThat(code(reply)).isEqualTo(-32602);
  }

  @Test
  void pingWithModernMetaIsMethodNotFound() {
    JsonNode reply = server.modern("ping", "", "CallToolResult");
    assertThat(code(reply)).isEqualTo(-32601);
  }

  @Test
  void initializeWithModernMetaIsMethodNotFound() {
    JsonNode reply =
        server.modern("initialize", "\"protocolVersion\":\"2025-11-25\"", "CallToolResult");
    assertThat(code(reply)).isEqualTo(-32601);
  }

  @Test
  void everyResultCarriesResultTypeAndServerInfo() {
    JsonNode call = server.call("list_notes", null);
    assertThat(call.at("/result/resultType").asString()).isEqualTo("complete");
    assertThat(call.at("/result/_meta/io.modelcontextprotocol~1serverInfo/version").isString())
        .isTrue();
    assertThat(WireServer.text(call)).isEqualTo("{\"notes\":[\"notes.txt\",\"project.txt\"]}");
  }

  @Test
  void stringIdsAreEchoedUnchanged() {
    server.send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"abc-1\",\"method\":\"tools/list\",\"params\":{"
            + WireServer.META
            + "}}");
    JsonNode reply = server.responseTo("\"abc-1\"");
    assertThat(reply.get("id").asString()).isEqualTo("abc-1");
    assertThat(reply.at("/result/tools").size()).isEqualTo(3);
  }
}

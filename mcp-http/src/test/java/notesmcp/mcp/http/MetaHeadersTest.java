package notesmcp.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class MetaHeadersTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static JsonNode params(String members) {
    return JSON.readTree(
        "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}"
            + (members.isEmpty() ? "" : "," + members)
            + "}");
  }

  @Test
  void matchingHeadersPass() {
    assertThat(MetaHeaders.mismatch("2026-07-28", "tools/list", null, "tools/list", params("")))
        .isNull();
    assertThat(
            MetaHeaders.mismatch(
                " 2026-07-28\t",
                "tools/call",
                " read_note ",
                "tools/call",
                params("\"name\":\"read_note\"")))
        .isNull();
  }

  @Test
  void everyMissingOrDifferentHeaderIsAMismatch() {
    assertThat(MetaHeaders.mismatch(null, "tools/list", null, "tools/list", params("")))
        .contains("MCP-Protocol-Version header is required");
    assertThat(MetaHeaders.mismatch("2025-11-25", "tools/list", null, "tools/list", params("")))
        .contains("does not match body value");
    assertThat(MetaHeaders.mismatch("2026-07-28", null, null, "tools/list", params("")))
        .contains("Mcp-Method header is required");
    assertThat(MetaHeaders.mismatch("2026-07-28", "tools/call", null, "tools/list", params("")))
        .contains("Mcp-Method header value");
    assertThat(
            MetaHeaders.mismatch(
                "2026-07-28", "tools/call", null, "tools/call", params("\"name\":\"read_note\"")))
        .contains("Mcp-Name header is required");
    assertThat(
            MetaHeaders.mismatch(
                "2026-07-28",
                "tools/call",
                "list_notes",
                "tools/call",
                params("\"name\":\"read_note\"")))
        .contains("does not match");
    assertThat(
            MetaHeaders.mismatch(
                "2026-07-28",
                "resources/read",
                "note:///b",
                "resources/read",
                params("\"uri\":\"note:///a\"")))
        .contains("does not match");
    assertThat(
            MetaHeaders.mismatch(
                "2026-07-28",
                "tools/call",
                "read\u0001note",
                "tools/call",
                params("\"name\":\"read_note\"")))
        .contains("a character a header value may not hold");
  }

  @Test
  void theBase64SentinelIsDecodedBeforeTheComparison() {
    String uri = "note:///Caf\u00e9 ideas.md";
    String encoded =
        "=?base64?"
            + Base64.getEncoder().encodeToString(uri.getBytes(StandardCharsets.UTF_8))
            + "?=";
    assertThat(
            MetaHeaders.mismatch(
                "2026-07-28",
                "resources/read",
                encoded,
                "resources/read",
                params("\"uri\":" + JSON.writeValueAsString(uri))))
        .isNull();
    assertThat(MetaHeaders.decode("=?base64?!!!?=")).isNull();
    assertThat(
            MetaHeaders.decode(
                "=?base64?" + Base64.getEncoder().encodeToString(new byte[] {(byte) 0xff}) + "?="))
        .isNull();
    assertThat(MetaHeaders.decode("=?BASE64?YQ==?=")).isEqualTo("=?BASE64?YQ==?=");
  }
}

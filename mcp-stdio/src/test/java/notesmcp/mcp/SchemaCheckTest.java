package notesmcp.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.SpecificationVersion;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The schema check the end-to-end tests rely on must be able to fail. */
class SchemaCheckTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String META =
      "\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"notes-mcp\","
          + "\"version\":\"0.1.0\"}}";
  private static final String GOOD_CALL_RESULT =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\","
          + "\"text\":\"{\\\"notes\\\":[]}\"}],\"isError\":false,\"resultType\":\"complete\","
          + META
          + "}}";

  private static JsonNode json(String text) {
    return JSON.readTree(text);
  }

  @Test
  void knownGoodCallToolResultResponseHasNoViolations() {
    assertThat(
            SchemaCheck.violations(
                SchemaCheck.MODERN, "CallToolResultResponse", json(GOOD_CALL_RESULT)))
        .isEmpty();
  }

  @Test
  void callToolResultWithoutResultTypeHasViolations() {
    JsonNode message = json(GOOD_CALL_RESULT.replace(",\"resultType\":\"complete\"", ""));

    assertThat(SchemaCheck.violations(SchemaCheck.MODERN, "CallToolResultResponse", message))
        .isNotEmpty();
  }

  @Test
  void callToolResultWithAnUnknownContentTypeHasViolations() {
    JsonNode result =
        json(GOOD_CALL_RESULT.replace("\"type\":\"text\"", "\"type\":\"video\"")).get("result");

    assertThat(SchemaCheck.violations(SchemaCheck.MODERN, "CallToolResult", result)).isNotEmpty();
  }

  @Test
  void callToolResultResponseWithAnUnknownContentTypeHasViolations() {
    JsonNode message = json(GOOD_CALL_RESULT.replace("\"type\":\"text\"", "\"type\":\"video\""));

    assertThat(SchemaCheck.violations(SchemaCheck.MODERN, "CallToolResultResponse", message))
        .isNotEmpty();
  }

  @Test
  void errorResponseWithANullIdHasViolations() {
    JsonNode message =
        json(
            "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,"
                + "\"message\":\"Parse error\"}}");

    assertThat(SchemaCheck.violations(SchemaCheck.MODERN, "JSONRPCErrorResponse", message))
        .isNotEmpty();
  }

  @Test
  void errorResponseWithoutIdHasNoViolations() {
    JsonNode message =
        json("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}");

    assertThat(SchemaCheck.violations(SchemaCheck.MODERN, "JSONRPCErrorResponse", message))
        .isEmpty();
  }

  private static final String TOOL_2024 =
      "{\"name\":\"read_note\",\"description\":\"Read a note\",\"inputSchema\":{\"type\":"
          + "\"object\",\"properties\":{\"path\":{\"type\":\"string\",\"enum\":[\"notes.txt\"]}},"
          + "\"required\":[\"path\"],\"additionalProperties\":false}}";
  private static final String INITIALIZE_2024 =
      "{\"protocolVersion\":\"2024-11-05\",\"capabilities\":{\"tools\":{\"listChanged\":false}},"
          + "\"serverInfo\":{\"name\":\"notes-mcp\",\"version\":\"0.1.0\"},"
          + "\"instructions\":\"Notes.\"}";

  @Test
  void the2024RevisionIsCheckedAsDraft07AndTheOthersAs202012() {
    assertThat(SchemaCheck.dialect(SchemaCheck.LEGACY_2024))
        .isEqualTo(SpecificationVersion.DRAFT_7);
    assertThat(SchemaCheck.dialect(SchemaCheck.LEGACY))
        .isEqualTo(SpecificationVersion.DRAFT_2020_12);
    assertThat(SchemaCheck.dialect(SchemaCheck.MODERN))
        .isEqualTo(SpecificationVersion.DRAFT_2020_12);
  }

  @Test
  void a2024InitializeResultAndToolListHaveNoViolations() {
    assertThat(
            SchemaCheck.legacyResponse(
                SchemaCheck.LEGACY_2024,
                "InitializeResult",
                json("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":" + INITIALIZE_2024 + "}")))
        .isEmpty();
    assertThat(
            SchemaCheck.violations(
                SchemaCheck.LEGACY_2024,
                "ListToolsResult",
                json("{\"tools\":[" + TOOL_2024 + "]}")))
        .isEmpty();
  }

  @Test
  void a2024InitializeResultWithoutServerInfoHasViolations() {
    JsonNode result = json(INITIALIZE_2024);
    ((tools.jackson.databind.node.ObjectNode) result).remove("serverInfo");

    assertThat(SchemaCheck.violations(SchemaCheck.LEGACY_2024, "InitializeResult", result))
        .isNotEmpty();
  }

  @Test
  void a2024ErrorResponseWithoutIdHasViolations() {
    JsonNode message =
        json("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}");

    assertThat(SchemaCheck.legacyResponse(SchemaCheck.LEGACY_2024, "CallToolResult", message))
        .isNotEmpty();
  }

  @Test
  void aToolTitleOrAnnotationsIsUndeclaredIn2024ButDeclaredIn2025() {
    String titled = TOOL_2024.replace("{\"name\"", "{\"title\":\"Read\",\"name\"");
    String annotated =
        TOOL_2024.replace("{\"name\"", "{\"annotations\":{\"readOnlyHint\":true},\"name\"");
    for (String tool : new String[] {titled, annotated}) {
      JsonNode list = json("{\"tools\":[" + tool + "]}");

      assertThat(SchemaCheck.violations(SchemaCheck.LEGACY_2024, "ListToolsResult", list))
          .singleElement()
          .asString()
          .contains("/tools/0/")
          .contains("is not a member this revision declares");
      assertThat(SchemaCheck.violations(SchemaCheck.LEGACY, "ListToolsResult", list)).isEmpty();
    }
  }

  @Test
  void aServerInfoTitleIsUndeclaredIn2024() {
    JsonNode result =
        json(
            INITIALIZE_2024.replace(
                "\"version\":\"0.1.0\"", "\"version\":\"0.1.0\",\"title\":\"N\""));

    assertThat(SchemaCheck.violations(SchemaCheck.LEGACY_2024, "InitializeResult", result))
        .singleElement()
        .asString()
        .contains("/serverInfo/title");
    assertThat(SchemaCheck.violations(SchemaCheck.LEGACY, "InitializeResult", result)).isEmpty();
  }

  @Test
  void aModernResultWithAMemberNoRevisionDeclaresHasViolations() {
    JsonNode message =
        json(GOOD_CALL_RESULT.replace("\"isError\":false", "\"isError\":false,\"ok\":1"));

    assertThat(SchemaCheck.violations(SchemaCheck.MODERN, "CallToolResultResponse", message))
        .singleElement()
        .asString()
        .contains("/ok");
  }
}

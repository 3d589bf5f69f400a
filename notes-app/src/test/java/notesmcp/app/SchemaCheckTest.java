package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

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
}

package notesmcp.chat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.internal.JsonSchemaElementUtils;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class OfferedToolsTest {
  private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
  private final PrintStream log = new PrintStream(logged, true, StandardCharsets.UTF_8);

  private static final String PROPERTIES =
      "{\"path\":{\"type\":\"string\",\"enum\":[\"notes.txt\",\"draft.txt\"],"
          + "\"description\":\"The note.\"},\"content\":{\"type\":\"string\",\"maxLength\":2048}}";

  private OfferedTools from(String tools) {
    return OfferedTools.from(ScriptedModel.JSON.readTree(tools), log);
  }

  @Test
  void eachPropertySchemaReachesTheProviderAsTheServerWroteIt() {
    OfferedTools tools =
        from(
            "[{\"name\":\"propose_note\",\"description\":\"Propose.\",\"inputSchema\":"
                + "{\"type\":\"object\",\"properties\":"
                + PROPERTIES
                + ",\"required\":[\"path\",\"content\"],\"additionalProperties\":false}}]");

    ToolSpecification specification = tools.specifications().get(0);
    Map<String, Object> written = JsonSchemaElementUtils.toMap(specification.parameters());

    assertThat(specification.name()).isEqualTo("propose_note");
    assertThat(specification.description()).isEqualTo("Propose.");
    JsonNode properties = ScriptedModel.JSON.valueToTree(written.get("properties"));
    assertThat(properties).isEqualTo(ScriptedModel.JSON.readTree(PROPERTIES));
    assertThat(written.get("required")).isEqualTo(java.util.List.of("path", "content"));
    assertThat(written.get("type")).isEqualTo("object");
    assertThat(logged.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void searchNotesAsTheServerDefinesItIsOfferedReadOnlyWithItsPropertiesUnchanged() {
    String properties =
        "{\"query\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":1024,"
            + "\"description\":\"Words to find.\"},\"folder\":{\"type\":\"string\","
            + "\"maxLength\":1024},\"limit\":{\"type\":\"integer\",\"minimum\":1,"
            + "\"maximum\":50,\"default\":10}}";
    OfferedTools tools =
        from(
            "[{\"name\":\"search_notes\",\"description\":\"Search.\",\"inputSchema\":"
                + "{\"type\":\"object\",\"properties\":"
                + properties
                + ",\"required\":[\"query\"],\"additionalProperties\":false},"
                + "\"annotations\":{\"title\":\"Search notes\",\"readOnlyHint\":true,"
                + "\"openWorldHint\":false}}]");

    assertThat(tools.get("search_notes").orElseThrow().readOnly()).isTrue();
    Map<String, Object> written =
        JsonSchemaElementUtils.toMap(tools.specifications().get(0).parameters());
    JsonNode carried = ScriptedModel.JSON.valueToTree(written.get("properties"));
    assertThat(carried).isEqualTo(ScriptedModel.JSON.readTree(properties));
    assertThat(written.get("required")).isEqualTo(java.util.List.of("query"));
  }

  @Test
  void onlyAToolMarkedReadOnlySkipsTheConfirmation() {
    OfferedTools tools =
        from(
            "[{\"name\":\"read\",\"inputSchema\":{\"type\":\"object\"},"
                + "\"annotations\":{\"readOnlyHint\":true}},"
                + "{\"name\":\"write\",\"inputSchema\":{\"type\":\"object\"},"
                + "\"annotations\":{\"readOnlyHint\":false}},"
                + "{\"name\":\"bare\",\"inputSchema\":{\"type\":\"object\"}},"
                + "{\"name\":\"stringly\",\"inputSchema\":{\"type\":\"object\"},"
                + "\"annotations\":{\"readOnlyHint\":\"true\"}}]");

    assertThat(tools.get("read").orElseThrow().readOnly()).isTrue();
    assertThat(tools.get("write").orElseThrow().readOnly()).isFalse();
    assertThat(tools.get("bare").orElseThrow().readOnly()).isFalse();
    assertThat(tools.get("stringly").orElseThrow().readOnly()).isFalse();
    assertThat(tools.get("save_note")).isEmpty();
    assertThat(tools.get(null)).isEmpty();
    assertThat(tools.describe())
        .isEqualTo(
            "read, write (asks you first), bare (asks you first), stringly (asks you first)");
  }

  @Test
  void toolsThatCannotBeOfferedAreNamedAndLeftOut() {
    OfferedTools tools =
        from(
            "[{\"name\":\"ok\",\"inputSchema\":{\"type\":\"object\"}},"
                + "{\"name\":\"ok\",\"inputSchema\":{\"type\":\"object\"}},"
                + "{\"name\":\"bad name\",\"inputSchema\":{\"type\":\"object\"}},"
                + "{\"inputSchema\":{\"type\":\"object\"}},"
                + "{\"name\":\"noschema\"},"
                + "{\"name\":\"anyof\",\"inputSchema\":{\"type\":\"object\",\"anyOf\":[]}}]");

    assertThat(tools.names()).containsExactly("ok", "anyof");
    assertThat(logged.toString(StandardCharsets.UTF_8))
        .contains("not offering the server's tool \"ok\" to the model")
        .contains("not offering the server's tool \"bad name\"")
        .contains("not offering the server's tool null")
        .contains("not offering noschema to the model: its inputSchema is not an object schema")
        .contains("anyof: the schema keywords [anyOf] at its root cannot be passed");
  }

  @Test
  void theRootDescriptionIsCarried() {
    JsonNode tools =
        ScriptedModel.JSON.readTree(
            "[{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\",\"description\":\"d\"}}]");

    assertThat(OfferedTools.from(tools, log).specifications().get(0).parameters().description())
        .isEqualTo("d");
  }
}

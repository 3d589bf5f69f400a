package notesmcp.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import notesmcp.mcp.Protocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The client's checks of a server's results, one schema rule at a time (docs/behaviour.md,
 * "Limits": a reply of the wrong shape is a protocol error whose message names the method and the
 * member).
 */
class RepliesTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static JsonNode json(String text) {
    return JSON.readTree(text);
  }

  private static String callRefusal(String content) {
    try {
      Replies.callResult(json("{\"content\":[" + content + "]}"));
    } catch (Session.Incompatible e) {
      return e.getMessage();
    }
    throw new AssertionError("accepted: " + content);
  }

  @Test
  void isErrorIsFalseUnlessTheServerSaysTrue() throws Exception {
    assertThat(Replies.callResult(json("{\"content\":[]}"))).isFalse();
    assertThat(Replies.callResult(json("{\"content\":[],\"isError\":false}"))).isFalse();
    assertThat(Replies.callResult(json("{\"content\":[],\"isError\":true}"))).isTrue();
    assertThat(Session.isError(json("{\"content\":[]}"))).isFalse();
    assertThat(Session.isError(json("{\"content\":[],\"isError\":false}"))).isFalse();
    assertThat(Session.isError(json("{\"content\":[],\"isError\":true}"))).isTrue();
    assertThat(Session.isError(json("{\"content\":[],\"isError\":\"true\"}"))).isFalse();
  }

  /** Every kind of content block the schema has, with its required string members, is accepted. */
  @Test
  void everyContentBlockOfTheSchemaIsAccepted() throws Exception {
    assertThat(
            Replies.callResult(
                json(
                    "{\"content\":["
                        + "{\"type\":\"text\",\"text\":\"t\"},"
                        + "{\"type\":\"image\",\"data\":\"AA==\",\"mimeType\":\"image/png\"},"
                        + "{\"type\":\"audio\",\"data\":\"AA==\",\"mimeType\":\"audio/wav\"},"
                        + "{\"type\":\"resource_link\",\"uri\":\"file:///a\",\"name\":\"a\"},"
                        + "{\"type\":\"resource\",\"resource\":{\"uri\":\"file:///a\",\"text\":\"t\"}},"
                        + "{\"type\":\"resource\",\"resource\":{\"uri\":\"file:///a\",\"blob\":\"AA==\"}}"
                        + "]}")))
        .isFalse();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"type\":\"image\",\"data\":\"AA==\"}"
            + " | content item 0 has a \"mimeType\" that is missing, not a string",
        "{\"type\":\"audio\",\"mimeType\":\"audio/wav\"}"
            + " | content item 0 has a \"data\" that is missing, not a string",
        "{\"type\":\"resource_link\",\"uri\":\"file:///a\",\"name\":7}"
            + " | content item 0 has a \"name\" that is a number, not a string",
        "{\"type\":\"resource_link\",\"name\":\"a\"}"
            + " | content item 0 has a \"uri\" that is missing, not a string",
        "{\"type\":\"resource\"} | content item 0 has a \"resource\" that is missing, not an object",
        "{\"type\":\"resource\",\"resource\":[]}"
            + " | content item 0 has a \"resource\" that is an array, not an object",
        "{\"type\":\"resource\",\"resource\":{\"text\":\"t\"}}"
            + " | content item 0's resource has a \"uri\" that is missing, not a string",
        "{\"type\":\"resource\",\"resource\":{\"uri\":\"u\"}}"
            + " | content item 0's resource has neither a string \"text\" nor \"blob\"",
        "{\"type\":\"resource\",\"resource\":{\"uri\":\"u\",\"text\":1,\"blob\":null}}"
            + " | content item 0's resource has neither a string \"text\" nor \"blob\"",
        "{\"type\":\"text\",\"text\":null} | content item 0 has a \"text\" that is null, not a string",
      })
  void aContentBlockWithoutItsRequiredMembersIsRefused(String block, String detail) {
    assertThat(callRefusal(block))
        .isEqualTo("the server's tools/call result is malformed: " + detail);
  }

  @Test
  void everyToolOfAPageIsChecked() throws Exception {
    String good = "{\"name\":\"a\",\"inputSchema\":{\"type\":\"object\"}}";
    assertThat(Replies.toolsPage(json("{\"tools\":[" + good + "," + good + "]}"))).isNull();
    assertThatThrownBy(() -> Replies.toolsPage(json("{\"tools\":[" + good + ",{\"name\":1}]}")))
        .isInstanceOf(Session.Incompatible.class)
        .hasMessage(
            "the server's tools/list result is malformed:"
                + " tool 1 has a \"name\" that is a number, not a string");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"title", "description"})
  void aToolsTitleAndDescriptionAreStringsWhenPresent(String member) throws Exception {
    String tool = "{\"name\":\"a\",\"inputSchema\":{\"type\":\"object\"},\"" + member + "\":";
    assertThat(Replies.toolsPage(json("{\"tools\":[" + tool + "\"words\"}]}"))).isNull();
    assertThatThrownBy(() -> Replies.toolsPage(json("{\"tools\":[" + tool + "false}]}")))
        .isInstanceOf(Session.Incompatible.class)
        .hasMessage(
            "the server's tools/list result is malformed: tool \"a\" has a \""
                + member
                + "\" that is a boolean");
  }

  @Test
  void aResultWithoutServerInfoNamesNoServer() throws Exception {
    assertThat(Replies.resultServerInfo(Protocol.TOOLS_LIST, json("{}"))).isEqualTo("(unnamed)");
    assertThat(Replies.resultServerInfo(Protocol.TOOLS_LIST, json("{\"_meta\":{}}")))
        .isEqualTo("(unnamed)");
    assertThat(
            Replies.resultServerInfo(
                Protocol.TOOLS_LIST,
                json(
                    "{\"_meta\":{\""
                        + Protocol.META_SERVER_INFO
                        + "\":{\"name\":\"s\",\"version\":\"1\"}}}")))
        .isEqualTo("s 1");
  }

  @Test
  void kindsAreNamedInWords() {
    assertThat(Replies.kind(null)).isEqualTo("missing");
    assertThat(Replies.kind(json("{}").path("x"))).isEqualTo("missing");
    assertThat(Replies.kind(json("null"))).isEqualTo("null");
    assertThat(Replies.kind(json("[]"))).isEqualTo("an array");
    assertThat(Replies.kind(json("{}"))).isEqualTo("an object");
    assertThat(Replies.kind(json("1.5"))).isEqualTo("a number");
    assertThat(Replies.kind(json("true"))).isEqualTo("a boolean");
    assertThat(Replies.kind(json("\"x\""))).isEqualTo("the string \"x\"");
  }
}

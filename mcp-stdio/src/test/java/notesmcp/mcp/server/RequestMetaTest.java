package notesmcp.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import notesmcp.jsonrpc.ErrorCodes;
import notesmcp.jsonrpc.RpcException;
import notesmcp.mcp.Protocol;
import notesmcp.mcp.Protocol.Implementation;
import notesmcp.mcp.server.Dispatcher.RequestMeta;
import notesmcp.mcp.server.Tools.Tool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The per-request fields of a 2026-07-28 request (spec 2026-07-28, basic: a request missing a
 * required field is rejected with -32602), the client's self-description, and what each revision's
 * tool list may hold.
 */
class RequestMetaTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static JsonNode params(String meta) {
    return JSON.readTree("{\"_meta\":{" + meta + "}}");
  }

  private static String member(String name, String value) {
    return "\"" + name + "\":" + value;
  }

  private static final String VERSION = member(Protocol.META_PROTOCOL_VERSION, "\"2026-07-28\"");
  private static final String CAPABILITIES = member(Protocol.META_CLIENT_CAPABILITIES, "{}");

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        Protocol.META_PROTOCOL_VERSION,
        Protocol.META_CLIENT_CAPABILITIES,
        Protocol.META_CLIENT_INFO
      })
  void anyOneOfTheModernFieldsSelectsTheModernEra(String field) {
    assertThat(RequestMeta.isModern(params(member(field, "null")))).isTrue();
  }

  @Test
  void otherMetadataDoesNot() {
    assertThat(RequestMeta.isModern(params(member(Protocol.META_LOG_LEVEL, "\"info\"")))).isFalse();
    assertThat(RequestMeta.isModern(params(""))).isFalse();
    assertThat(RequestMeta.isModern(JSON.readTree("{\"_meta\":[]}"))).isFalse();
    assertThat(RequestMeta.isModern(null)).isFalse();
  }

  @Test
  void theFieldsAreReadWithTheClientsSelfDescription() throws Exception {
    RequestMeta meta =
        RequestMeta.read(
            params(
                VERSION
                    + ","
                    + CAPABILITIES
                    + ","
                    + member(Protocol.META_CLIENT_INFO, "{\"name\":\"c\",\"version\":\"2\"}")
                    + ","
                    + member(Protocol.META_LOG_LEVEL, "\"warning\"")));

    assertThat(meta.protocolVersion()).isEqualTo("2026-07-28");
    assertThat(meta.clientCapabilities().isObject()).isTrue();
    assertThat(meta.clientInfo()).isEqualTo(new Implementation("c", "2"));
    assertThat(RequestMeta.read(params(VERSION + "," + CAPABILITIES)).clientInfo()).isNull();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"\"loud\"", "\"INFO\"", "3", "null"})
  void aLogLevelOutsideTheSpecsListIsInvalidParams(String level) {
    assertThatThrownBy(
            () ->
                RequestMeta.read(
                    params(
                        VERSION
                            + ","
                            + CAPABILITIES
                            + ","
                            + member(Protocol.META_LOG_LEVEL, level))))
        .isInstanceOfSatisfying(
            RpcException.class,
            e -> assertThat(e.error().code()).isEqualTo(ErrorCodes.INVALID_PARAMS))
        .hasMessageContaining(
            "must be one of alert, critical, debug, emergency, error, info, notice, warning");
  }

  @Test
  void aSelfDescriptionNeedsAStringNameAndVersion() {
    assertThat(Implementation.from(JSON.readTree("{\"name\":\"n\",\"version\":\"v\"}")))
        .isEqualTo(new Implementation("n", "v"));
    assertThat(Implementation.from(JSON.readTree("{\"name\":\"n\"}"))).isNull();
    assertThat(Implementation.from(JSON.readTree("{\"version\":\"v\"}"))).isNull();
    assertThat(Implementation.from(JSON.readTree("{\"name\":1,\"version\":\"v\"}"))).isNull();
    assertThat(Implementation.from(null)).isNull();
  }

  @Test
  void toolAnnotationsAreListedForEveryRevisionButTheFirst() {
    ObjectNode annotations = JsonNodeFactory.instance.objectNode().put("readOnlyHint", true);
    Tool tool = new Tool("t", "d", JsonNodeFactory.instance.objectNode(), annotations);

    assertThat(Protocol.hasToolAnnotations("2024-11-05")).isFalse();
    for (String version : Protocol.LEGACY.subList(0, 3)) {
      assertThat(Protocol.hasToolAnnotations(version)).as(version).isTrue();
    }
    assertThat(Protocol.hasToolAnnotations(Protocol.MODERN)).isTrue();
    assertThat(tool.toJson(true).get("annotations")).isEqualTo(annotations);
    assertThat(tool.toJson(false).has("annotations")).isFalse();
    assertThat(
            new Tool("t", "d", JsonNodeFactory.instance.objectNode())
                .toJson(true)
                .has("annotations"))
        .isFalse();
  }
}

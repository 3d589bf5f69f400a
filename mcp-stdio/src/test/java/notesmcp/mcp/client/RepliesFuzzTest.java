package notesmcp.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.ArrayList;
import java.util.List;
import notesmcp.mcp.Protocol;
import notesmcp.text.TerminalText;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The client's checks of a server's results ({@link Replies}), for any JSON value a server may send
 * as a result: the shape is accepted, or refused with {@link Session.Incompatible} (a protocol
 * error, exit 3), never another exception; accepted exactly when a reference reading of the
 * official schemas (2026-07-28 and 2025-11-25: {@code Result}, {@code DiscoverResult}, {@code
 * InitializeResult}, {@code Implementation}, {@code ListToolsResult}, {@code Tool}, {@code
 * CallToolResult}, {@code ContentBlock}) accepts every member the client reads, with the same
 * values read; and a refusal's message is one line that names the method and shows the server's
 * text inert (no control, format or separator character raw), so it is safe on a terminal.
 */
class RepliesFuzzTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @FuzzTest
  @DictionaryEntries({
    "\"resultType\"",
    "\"complete\"",
    "\"supportedVersions\"",
    "\"2026-07-28\"",
    "\"_meta\"",
    "\"io.modelcontextprotocol/serverInfo\"",
    "\"serverInfo\"",
    "\"protocolVersion\"",
    "\"name\"",
    "\"version\"",
    "\"title\"",
    "\"description\"",
    "\"tools\"",
    "\"inputSchema\"",
    "\"type\"",
    "\"object\"",
    "\"nextCursor\"",
    "\"content\"",
    "\"isError\"",
    "\"text\"",
    "\"image\"",
    "\"audio\"",
    "\"data\"",
    "\"mimeType\"",
    "\"resource_link\"",
    "\"uri\"",
    "\"resource\"",
    "\"blob\"",
    "\"\\u001b[2J\"",
    "\"\\u202e\""
  })
  void anyResultIsAcceptedAsTheSchemaSaysOrAProtocolError(byte[] input) {
    JsonNode result;
    try {
      result = JSON.readTree(input);
    } catch (JacksonException e) {
      return; // not JSON: the codec refuses such a line before a result exists
    }
    if (result == null || result.isMissingNode()) {
      return;
    }
    // Session.request: every result is first required to be an object.
    boolean object = result.isObject();
    assertThat(accepts(() -> Replies.requireObject("m", result))).isEqualTo(object);
    if (!object) {
      return;
    }
    JsonNode type = result.get("resultType");
    assertThat(accepts(() -> Replies.requireComplete("m", result)))
        .as("resultType %s", type)
        .isEqualTo(type == null || (type.isString() && type.stringValue().equals("complete")));

    List<String> versions = stringArray(result.get("supportedVersions"));
    List<String> offered = new ArrayList<>();
    assertThat(accepts(() -> offered.addAll(Replies.supportedVersions(result))))
        .isEqualTo(versions != null);
    if (versions != null) {
      assertThat(offered).isEqualTo(versions);
    }

    String[] shown = {null};
    String expectedServer = resultServerInfo(result);
    assertThat(accepts(() -> shown[0] = Replies.resultServerInfo(Protocol.DISCOVER, result)))
        .as("_meta %s", result.get("_meta"))
        .isEqualTo(expectedServer != null);
    if (expectedServer != null) {
      assertThat(shown[0]).isEqualTo(expectedServer);
    }

    JsonNode version = result.get("protocolVersion");
    assertThat(accepts(() -> shown[0] = Replies.protocolVersion(result)))
        .isEqualTo(version != null && version.isString());
    if (version != null && version.isString()) {
      assertThat(shown[0]).isEqualTo(version.stringValue());
    }

    String expectedInfo = implementation(result.get("serverInfo"));
    assertThat(accepts(() -> shown[0] = Replies.initializeServerInfo(result)))
        .isEqualTo(expectedInfo != null);
    if (expectedInfo != null) {
      assertThat(shown[0]).isEqualTo(expectedInfo);
    }

    boolean page = toolsPage(result);
    assertThat(accepts(() -> shown[0] = Replies.toolsPage(result)))
        .as("tools/list %s", result)
        .isEqualTo(page);
    if (page) {
      JsonNode cursor = result.get("nextCursor");
      assertThat(shown[0]).isEqualTo(cursor == null ? null : cursor.stringValue());
    }

    boolean call = callResult(result);
    boolean[] isError = {false};
    assertThat(accepts(() -> isError[0] = Replies.callResult(result)))
        .as("tools/call %s", result)
        .isEqualTo(call);
    if (call) {
      assertThat(isError[0]).isEqualTo(result.path("isError").asBoolean(false));
      assertThat(Session.isError(result)).isEqualTo(isError[0]);
    }
  }

  private interface Check {
    void run() throws Session.Incompatible;
  }

  /** Whether the check accepts; a refusal must be a protocol error with a safe, clear message. */
  private static boolean accepts(Check check) {
    try {
      check.run();
      return true;
    } catch (Session.Incompatible e) {
      String message = e.getMessage();
      assertThat(message).startsWith("the server").doesNotContain("Exception", "java.");
      assertThat(message.length()).as("message length").isLessThanOrEqualTo(2000);
      message
          .codePoints()
          .forEach(
              c ->
                  assertThat(
                          c >= 0x20
                              && !(c >= 0x7f && c <= 0x9f)
                              && Character.getType(c) != Character.FORMAT
                              && Character.getType(c) != Character.LINE_SEPARATOR
                              && Character.getType(c) != Character.PARAGRAPH_SEPARATOR
                              && Character.getType(c) != Character.SURROGATE)
                      .as("U+%04X raw in %s", c, message)
                      .isTrue());
      return false;
    }
  }

  // The reference, from the schemas' definitions, for the members the client reads.

  /** An array of strings, or null. */
  private static List<String> stringArray(JsonNode node) {
    if (node == null || !node.isArray()) {
      return null;
    }
    List<String> strings = new ArrayList<>();
    for (JsonNode item : node) {
      if (!item.isString()) {
        return null;
      }
      strings.add(item.stringValue());
    }
    return strings;
  }

  /**
   * {@code Result._meta} (2026-07-28: {@code ResultMetaObject}, whose serverInfo is an {@code
   * Implementation}); optional: "(unnamed)" without it. Null when it does not fit.
   */
  private static String resultServerInfo(JsonNode result) {
    JsonNode meta = result.get("_meta");
    if (meta == null) {
      return "(unnamed)";
    }
    if (!meta.isObject()) {
      return null;
    }
    JsonNode info = meta.get(Protocol.META_SERVER_INFO);
    return info == null ? "(unnamed)" : implementation(info);
  }

  /** {@code Implementation}: an object with string name and version; shown as "name version". */
  private static String implementation(JsonNode info) {
    if (info == null
        || !info.isObject()
        || !info.path("name").isString()
        || !info.path("version").isString()) {
      return null;
    }
    return TerminalText.escaped(info.get("name").stringValue())
        + " "
        + TerminalText.escaped(info.get("version").stringValue());
  }

  /** {@code ListToolsResult}: tools an array of {@code Tool}; nextCursor a string if present. */
  private static boolean toolsPage(JsonNode result) {
    JsonNode tools = result.get("tools");
    if (tools == null || !tools.isArray()) {
      return false;
    }
    for (JsonNode tool : tools) {
      if (!tool.isObject() || !tool.path("name").isString()) {
        return false;
      }
      for (String optional : new String[] {"title", "description"}) {
        if (tool.has(optional) && !tool.get(optional).isString()) {
          return false;
        }
      }
      JsonNode schema = tool.get("inputSchema");
      if (schema == null
          || !schema.isObject()
          || !schema.path("type").isString()
          || !schema.get("type").stringValue().equals("object")) {
        return false;
      }
    }
    JsonNode cursor = result.get("nextCursor");
    return cursor == null || cursor.isString();
  }

  /** {@code CallToolResult}: content an array of {@code ContentBlock}; isError a boolean. */
  private static boolean callResult(JsonNode result) {
    JsonNode content = result.get("content");
    if (content == null || !content.isArray()) {
      return false;
    }
    for (JsonNode block : content) {
      if (!contentBlock(block)) {
        return false;
      }
    }
    JsonNode isError = result.get("isError");
    return isError == null || isError.isBoolean();
  }

  /**
   * {@code ContentBlock}, anyOf: {@code TextContent} (text), {@code ImageContent} and {@code
   * AudioContent} (data, mimeType), {@code ResourceLink} (uri, name), {@code EmbeddedResource}
   * (resource: {@code TextResourceContents} with uri and text, or {@code BlobResourceContents} with
   * uri and blob); each with its {@code type} constant and its required members strings.
   */
  private static boolean contentBlock(JsonNode block) {
    if (!block.isObject() || !block.path("type").isString()) {
      return false;
    }
    switch (block.get("type").stringValue()) {
      case "text":
        return strings(block, "text");
      case "image":
      case "audio":
        return strings(block, "data", "mimeType");
      case "resource_link":
        return strings(block, "uri", "name");
      case "resource":
        JsonNode resource = block.get("resource");
        return resource != null
            && resource.isObject()
            && (strings(resource, "uri", "text") || strings(resource, "uri", "blob"));
      default:
        return false;
    }
  }

  private static boolean strings(JsonNode object, String... members) {
    for (String member : members) {
      if (!object.path(member).isString()) {
        return false;
      }
    }
    return true;
  }
}

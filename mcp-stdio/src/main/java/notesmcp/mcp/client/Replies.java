package notesmcp.mcp.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import notesmcp.mcp.Protocol;
import notesmcp.text.TerminalText;
import tools.jackson.databind.JsonNode;

/**
 * Checks a server's results against the official schema (2026-07-28 and 2025-11-25) for every
 * member this client reads, before it reads them: "a server reply of the wrong shape (versions that
 * are not strings, resultType not a string, content not an array, isError not a boolean, ...) is a
 * protocol error" (docs/behaviour.md, "Limits"). Each failure is a {@link Session.Incompatible}
 * whose message names the method, the member and what was there instead. Members the client does
 * not read (capabilities, ttlMs, annotations, ...) are left to the server. Stateless.
 */
final class Replies {
  private Replies() {}

  /** "A Result is an object" (schema: {@code Result}). */
  static void requireObject(String method, JsonNode result) throws Session.Incompatible {
    if (result == null || !result.isObject()) {
      throw malformed(method, "the result is " + kind(result) + ", not an object");
    }
  }

  /**
   * "A resultType of any value unrecognized by the client MUST be considered invalid"; absent, it
   * is "complete": "the client MUST treat the absent field as complete" (schema: {@code Result}).
   */
  static void requireComplete(String method, JsonNode result) throws Session.Incompatible {
    JsonNode type = result.get("resultType");
    if (type == null) {
      return;
    }
    if (!type.isString()) {
      throw malformed(method, "\"resultType\" is " + kind(type) + ", not a string");
    }
    if (!"complete".equals(type.stringValue())) {
      throw new Session.Incompatible(
          "the server answered with resultType \""
              + TerminalText.escaped(type.stringValue())
              + "\", which this client does not handle");
    }
  }

  /** {@code DiscoverResult.supportedVersions}: an array of strings. */
  static List<String> supportedVersions(JsonNode discovered) throws Session.Incompatible {
    JsonNode versions = discovered.get("supportedVersions");
    if (versions == null || !versions.isArray()) {
      throw malformed(
          Protocol.DISCOVER, "\"supportedVersions\" is " + kind(versions) + ", not an array");
    }
    List<String> offered = new ArrayList<>();
    for (int i = 0; i < versions.size(); i++) {
      JsonNode version = versions.get(i);
      if (!version.isString()) {
        throw malformed(
            Protocol.DISCOVER,
            "\"supportedVersions\" item " + i + " is " + kind(version) + ", not a string");
      }
      offered.add(version.stringValue());
    }
    return offered;
  }

  /** {@code _meta["io.modelcontextprotocol/serverInfo"]}, optional: an {@code Implementation}. */
  static String resultServerInfo(String method, JsonNode result) throws Session.Incompatible {
    JsonNode meta = result.get("_meta");
    if (meta == null) {
      return "(unnamed)";
    }
    if (!meta.isObject()) {
      throw malformed(method, "\"_meta\" is " + kind(meta) + ", not an object");
    }
    JsonNode info = meta.get(Protocol.META_SERVER_INFO);
    return info == null ? "(unnamed)" : implementation(method, Protocol.META_SERVER_INFO, info);
  }

  /** {@code InitializeResult}: a string {@code protocolVersion} and a {@code serverInfo}. */
  static String protocolVersion(JsonNode initialized) throws Session.Incompatible {
    JsonNode version = initialized.get("protocolVersion");
    if (version == null || !version.isString()) {
      throw malformed(
          Protocol.INITIALIZE, "\"protocolVersion\" is " + kind(version) + ", not a string");
    }
    return version.stringValue();
  }

  /** {@code InitializeResult.serverInfo}, required: an {@code Implementation}. */
  static String initializeServerInfo(JsonNode initialized) throws Session.Incompatible {
    return implementation(Protocol.INITIALIZE, "serverInfo", initialized.get("serverInfo"));
  }

  /** {@code Implementation}: string {@code name} and {@code version}; shown as "name version". */
  private static String implementation(String method, String member, JsonNode info)
      throws Session.Incompatible {
    if (info == null || !info.isObject()) {
      throw malformed(method, "\"" + member + "\" is " + kind(info) + ", not an object");
    }
    for (String field : new String[] {"name", "version"}) {
      JsonNode value = info.get(field);
      if (value == null || !value.isString()) {
        throw malformed(
            method, "\"" + member + "." + field + "\" is " + kind(value) + ", not a string");
      }
    }
    return TerminalText.escaped(info.get("name").stringValue())
        + " "
        + TerminalText.escaped(info.get("version").stringValue());
  }

  /**
   * {@code ListToolsResult}: {@code tools} an array of {@code Tool} (an object with a string {@code
   * name}, an optional string {@code title} and {@code description}, and an {@code inputSchema}
   * object whose {@code type} is "object"), {@code nextCursor} a string when present. Returns the
   * cursor, or null on the last page.
   */
  static String toolsPage(JsonNode page) throws Session.Incompatible {
    String method = Protocol.TOOLS_LIST;
    JsonNode tools = page.get("tools");
    if (tools == null || !tools.isArray()) {
      throw malformed(method, "\"tools\" is " + kind(tools) + ", not an array");
    }
    for (int i = 0; i < tools.size(); i++) {
      tool(i, tools.get(i));
    }
    JsonNode cursor = page.get("nextCursor");
    if (cursor == null) {
      return null;
    }
    if (!cursor.isString()) {
      throw malformed(method, "\"nextCursor\" is " + kind(cursor) + ", not a string");
    }
    return cursor.stringValue();
  }

  private static void tool(int index, JsonNode tool) throws Session.Incompatible {
    String method = Protocol.TOOLS_LIST;
    String where = "tool " + index;
    if (!tool.isObject()) {
      throw malformed(method, where + " is " + kind(tool) + ", not an object");
    }
    JsonNode name = tool.get("name");
    if (name == null || !name.isString()) {
      throw malformed(method, where + " has a \"name\" that is " + kind(name) + ", not a string");
    }
    where = "tool \"" + TerminalText.escaped(name.stringValue()) + "\"";
    for (String optional : new String[] {"title", "description"}) {
      JsonNode text = tool.get(optional);
      if (text != null && !text.isString()) {
        throw malformed(method, where + " has a \"" + optional + "\" that is " + kind(text));
      }
    }
    JsonNode schema = tool.get("inputSchema");
    if (schema == null || !schema.isObject()) {
      throw malformed(
          method, where + " has an \"inputSchema\" that is " + kind(schema) + ", not an object");
    }
    JsonNode type = schema.get("type");
    if (type == null || !type.isString() || !"object".equals(type.stringValue())) {
      throw malformed(
          method,
          where + " has an \"inputSchema\" whose \"type\" is " + kind(type) + ", not \"object\"");
    }
  }

  /**
   * {@code CallToolResult}: {@code content} an array of content blocks, {@code isError} a boolean
   * when present. Returns {@code isError} ("if not set, this is assumed to be false").
   */
  static boolean callResult(JsonNode result) throws Session.Incompatible {
    String method = Protocol.TOOLS_CALL;
    JsonNode content = result.get("content");
    if (content == null || !content.isArray()) {
      throw malformed(method, "\"content\" is " + kind(content) + ", not an array");
    }
    for (int i = 0; i < content.size(); i++) {
      contentBlock(i, content.get(i));
    }
    JsonNode isError = result.get("isError");
    if (isError != null && !isError.isBoolean()) {
      throw malformed(method, "\"isError\" is " + kind(isError) + ", not a boolean");
    }
    return isError != null && isError.booleanValue();
  }

  /**
   * {@code ContentBlock}: one of {@code TextContent}, {@code ImageContent}, {@code AudioContent},
   * {@code ResourceLink}, {@code EmbeddedResource}, each with its required string members.
   */
  private static void contentBlock(int index, JsonNode block) throws Session.Incompatible {
    String where = "content item " + index;
    if (!block.isObject()) {
      throw malformed(Protocol.TOOLS_CALL, where + " is " + kind(block) + ", not an object");
    }
    JsonNode type = block.get("type");
    if (type == null || !type.isString()) {
      throw malformed(
          Protocol.TOOLS_CALL, where + " has a \"type\" that is " + kind(type) + ", not a string");
    }
    switch (type.stringValue()) {
      case "text" -> requireStrings(where, block, "text");
      case "image", "audio" -> requireStrings(where, block, "data", "mimeType");
      case "resource_link" -> requireStrings(where, block, "uri", "name");
      case "resource" -> embeddedResource(where, block.get("resource"));
      default ->
          throw malformed(
              Protocol.TOOLS_CALL,
              where + " has the unknown type \"" + TerminalText.escaped(type.stringValue()) + "\"");
    }
  }

  private static void embeddedResource(String where, JsonNode resource)
      throws Session.Incompatible {
    if (resource == null || !resource.isObject()) {
      throw malformed(
          Protocol.TOOLS_CALL,
          where + " has a \"resource\" that is " + kind(resource) + ", not an object");
    }
    requireStrings(where + "'s resource", resource, "uri");
    if (!resource.path("text").isString() && !resource.path("blob").isString()) {
      throw malformed(
          Protocol.TOOLS_CALL, where + "'s resource has neither a string \"text\" nor \"blob\"");
    }
  }

  private static void requireStrings(String where, JsonNode object, String... members)
      throws Session.Incompatible {
    for (String member : members) {
      JsonNode value = object.get(member);
      if (value == null || !value.isString()) {
        throw malformed(
            Protocol.TOOLS_CALL,
            where + " has a \"" + member + "\" that is " + kind(value) + ", not a string");
      }
    }
  }

  private static Session.Incompatible malformed(String method, String detail) {
    return new Session.Incompatible("the server's " + method + " result is malformed: " + detail);
  }

  /** "an object", "a number", "missing", ... */
  static String kind(JsonNode node) {
    if (node == null || node.isMissingNode()) {
      return "missing";
    }
    switch (node.getNodeType()) {
      case OBJECT:
        return "an object";
      case ARRAY:
        return "an array";
      case NULL:
        return "null";
      case STRING:
        return "the string \"" + TerminalText.escaped(node.stringValue(), 40, false) + "\"";
      default:
        return "a " + node.getNodeType().name().toLowerCase(Locale.ROOT);
    }
  }
}

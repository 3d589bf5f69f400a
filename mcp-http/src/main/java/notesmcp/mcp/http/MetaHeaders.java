package notesmcp.mcp.http;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import notesmcp.mcp.Protocol;
import tools.jackson.databind.JsonNode;

/**
 * 2026-07-28's request metadata headers, checked against the body they mirror (transport page,
 * "Server Validation"): {@code MCP-Protocol-Version} must equal {@code
 * _meta["io.modelcontextprotocol/protocolVersion"]}, {@code Mcp-Method} the method, and {@code
 * Mcp-Name} the tool's name of a {@code tools/call} or the URI of a {@code resources/read}, after
 * the Base64 sentinel ({@code =?base64?...?=}) is decoded. A header that is missing, differs, or
 * holds characters a header value may not (anything but visible ASCII, space and tab) is a {@code
 * HeaderMismatch}. This server designates no tool parameter with {@code x-mcp-header}, so no {@code
 * Mcp-Param-*} header is recognized.
 */
final class MetaHeaders {
  static final String PROTOCOL_VERSION = "MCP-Protocol-Version";
  static final String METHOD = "Mcp-Method";
  static final String NAME = "Mcp-Name";

  /** The JSON-RPC code of a header that does not match the body. */
  static final int HEADER_MISMATCH = -32020;

  private static final String SENTINEL_START = "=?base64?";
  private static final String SENTINEL_END = "?=";

  private MetaHeaders() {}

  /**
   * Why the headers do not match the body of a modern request, or null.
   *
   * @param version the {@code MCP-Protocol-Version} header, or null
   * @param mcpMethod the {@code Mcp-Method} header, or null
   * @param mcpName the {@code Mcp-Name} header, or null
   */
  static String mismatch(
      String version, String mcpMethod, String mcpName, String method, JsonNode params) {
    if (version == null) {
      return "the " + PROTOCOL_VERSION + " header is required";
    }
    version = trim(version);
    String bad = invalidCharacters(version, PROTOCOL_VERSION);
    if (bad != null) {
      return bad;
    }
    JsonNode meta = params == null ? null : params.get("_meta");
    JsonNode bodyVersion = meta == null ? null : meta.get(Protocol.META_PROTOCOL_VERSION);
    if (bodyVersion != null
        && bodyVersion.isString()
        && !bodyVersion.stringValue().equals(version)) {
      return PROTOCOL_VERSION
          + " header value "
          + Printable.of(version)
          + " does not match body value "
          + Printable.of(bodyVersion.stringValue());
    }
    if (mcpMethod == null) {
      return "the " + METHOD + " header is required";
    }
    mcpMethod = trim(mcpMethod);
    bad = invalidCharacters(mcpMethod, METHOD);
    if (bad != null) {
      return bad;
    }
    if (!mcpMethod.equals(method)) {
      return METHOD
          + " header value "
          + Printable.of(mcpMethod)
          + " does not match body value "
          + Printable.of(method);
    }
    String member =
        method.equals(Protocol.TOOLS_CALL)
            ? "name"
            : method.equals(Protocol.RESOURCES_READ) ? "uri" : null;
    if (member == null) {
      return null;
    }
    JsonNode value = params == null ? null : params.get(member);
    if (value == null || !value.isString()) {
      return null; // the body itself is refused (-32602) when the method runs
    }
    if (mcpName == null) {
      return "the " + NAME + " header is required for " + method;
    }
    bad = invalidCharacters(mcpName, NAME);
    if (bad != null) {
      return bad;
    }
    String decoded = decode(mcpName);
    if (decoded == null) {
      return NAME + " header value " + Printable.of(mcpName) + " is not valid Base64 of UTF-8";
    }
    if (!decoded.equals(value.stringValue())) {
      return NAME
          + " header value "
          + Printable.of(decoded)
          + " does not match body value "
          + Printable.of(value.stringValue());
    }
    return null;
  }

  /**
   * A header value as the body would hold it: surrounding spaces and tabs are not part of it (RFC
   * 9110, 5.5), and a value in the Base64 sentinel is decoded; null when the sentinel holds
   * something that is not Base64 of UTF-8.
   */
  static String decode(String header) {
    String value = trim(header);
    if (!(value.startsWith(SENTINEL_START)
        && value.endsWith(SENTINEL_END)
        && value.length() >= SENTINEL_START.length() + SENTINEL_END.length())) {
      return value;
    }
    String encoded =
        value.substring(SENTINEL_START.length(), value.length() - SENTINEL_END.length());
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(encoded);
    } catch (IllegalArgumentException e) {
      return null;
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  private static String trim(String value) {
    int start = 0;
    int end = value.length();
    while (start < end && (value.charAt(start) == ' ' || value.charAt(start) == '\t')) {
      start++;
    }
    while (end > start && (value.charAt(end - 1) == ' ' || value.charAt(end - 1) == '\t')) {
      end--;
    }
    return value.substring(start, end);
  }

  private static String invalidCharacters(String value, String header) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (!(c == '\t' || (c >= 0x20 && c <= 0x7e))) {
        return "the " + header + " header holds a character a header value may not hold";
      }
    }
    return null;
  }
}

package notesmcp.mcp;

import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What both sides of MCP share, spelled as in the spec: the method names, the {@code _meta} keys,
 * the protocol revisions this layer speaks (newest first in each era), and what differs between
 * them. The server ({@code notesmcp.mcp.server}) and the client ({@code notesmcp.mcp.client}) meet
 * here and in the JSON-RPC layer only.
 */
public final class Protocol {
  public static final String DISCOVER = "server/discover";
  public static final String TOOLS_LIST = "tools/list";
  public static final String TOOLS_CALL = "tools/call";
  public static final String INITIALIZE = "initialize";
  public static final String PING = "ping";
  public static final String INITIALIZED = "notifications/initialized";
  public static final String CANCELLED = "notifications/cancelled";
  public static final String RESOURCES_LIST = "resources/list";
  public static final String RESOURCES_TEMPLATES_LIST = "resources/templates/list";
  public static final String RESOURCES_READ = "resources/read";
  public static final String RESOURCES_SUBSCRIBE = "resources/subscribe";
  public static final String RESOURCES_UNSUBSCRIBE = "resources/unsubscribe";
  public static final String COMPLETE = "completion/complete";
  public static final String SUBSCRIPTIONS_LISTEN = "subscriptions/listen";
  public static final String ACKNOWLEDGED = "notifications/subscriptions/acknowledged";
  public static final String RESOURCE_UPDATED = "notifications/resources/updated";
  public static final String RESOURCE_LIST_CHANGED = "notifications/resources/list_changed";

  /**
   * The {@code tools/call} params member that reaches a tool exactly as received: the server's
   * codec keeps it raw (see {@code jsonrpc.Message.RawMember}).
   */
  public static final String ARGUMENTS = "arguments";

  /** The {@code _meta} keys every 2026-07-28 request carries (docs/protocol.md). */
  public static final String META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

  public static final String META_CLIENT_CAPABILITIES =
      "io.modelcontextprotocol/clientCapabilities";
  public static final String META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
  public static final String META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";
  public static final String META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";

  /** The {@code _meta} key of every message on a {@code subscriptions/listen} stream. */
  public static final String META_SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

  /** Served statelessly, per request, with {@code _meta}. */
  public static final String MODERN = "2026-07-28";

  /**
   * Served after an {@code initialize} handshake, newest first. 2024-11-05 is still the only
   * version the Vercel AI SDK 4.x and Spring AI 1.x clients ask for (docs/testing.md,
   * "Interoperability"). What this server sends in the legacy era (tool name, description and
   * inputSchema; content and isError; protocolVersion, capabilities.tools, serverInfo name and
   * version, instructions) exists in all four, except tool annotations ({@link
   * #hasToolAnnotations}); the tests check every reply for members its revision lacks.
   */
  public static final List<String> LEGACY =
      List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");

  /** What {@code server/discover} and {@code -32022} advertise: only what is served statelessly. */
  public static final List<String> SUPPORTED = List.of(MODERN);

  /**
   * The code of 2026-07-28's {@code UnsupportedProtocolVersionError}: the server's answer to a
   * request for a version it does not serve, and to the client a sign of a modern server.
   */
  public static final int UNSUPPORTED_VERSION_ERROR = -32022;

  /** Whether {@code version} knows {@code ToolAnnotations} (added in 2025-03-26). */
  public static boolean hasToolAnnotations(String version) {
    return !"2024-11-05".equals(version);
  }

  /**
   * Whether {@code version} knows {@code title} on tools, resources and templates (added in
   * 2025-06-18; 2025-03-26 has only {@code ToolAnnotations.title}).
   */
  public static boolean hasTitles(String version) {
    return !"2024-11-05".equals(version) && !"2025-03-26".equals(version);
  }

  /**
   * Whether {@code version} has the {@code completions} server capability (added in 2025-03-26;
   * 2024-11-05 has {@code completion/complete} without a capability to declare it).
   */
  public static boolean hasCompletionsCapability(String version) {
    return !"2024-11-05".equals(version);
  }

  /**
   * Whether a session of {@code version} takes JSON-RPC batches: 2025-03-26 is the one revision
   * that has them (a server "MUST support receiving JSON-RPC batches"); 2025-06-18 removed them,
   * and 2026-07-28 has none. Null (no session yet) has none.
   */
  public static boolean hasBatches(String version) {
    return "2025-03-26".equals(version);
  }

  private Protocol() {}

  /** A client's or server's self-reported name and version (unverified, for display and logs). */
  public record Implementation(String name, String version) {
    /** Reads {@code {"name": ..., "version": ...}}; null unless both are strings. */
    public static Implementation from(JsonNode json) {
      if (json == null || !json.path("name").isString() || !json.path("version").isString()) {
        return null;
      }
      return new Implementation(json.get("name").stringValue(), json.get("version").stringValue());
    }

    public ObjectNode toJson() {
      ObjectNode json = JsonNodeFactory.instance.objectNode();
      json.put("name", name);
      json.put("version", version);
      return json;
    }
  }
}

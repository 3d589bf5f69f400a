package notesmcp.mcp;

/** Method names, spelled as in the spec. */
public final class Methods {
  public static final String DISCOVER = "server/discover";
  public static final String TOOLS_LIST = "tools/list";
  public static final String TOOLS_CALL = "tools/call";
  public static final String INITIALIZE = "initialize";
  public static final String PING = "ping";
  public static final String INITIALIZED = "notifications/initialized";
  public static final String CANCELLED = "notifications/cancelled";

  /**
   * The {@code tools/call} params member that reaches a tool exactly as received: the server's
   * codec keeps it raw (see {@code jsonrpc.RawMember}).
   */
  public static final String ARGUMENTS = "arguments";

  /** The {@code _meta} keys every 2026-07-28 request carries (spec: basic, "_meta"). */
  public static final String META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

  public static final String META_CLIENT_CAPABILITIES =
      "io.modelcontextprotocol/clientCapabilities";
  public static final String META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
  public static final String META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";
  public static final String META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";

  private Methods() {}
}

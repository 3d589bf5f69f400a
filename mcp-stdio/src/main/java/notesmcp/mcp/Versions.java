package notesmcp.mcp;

import java.util.List;

/** The protocol revisions this layer speaks, newest first in each era. */
public final class Versions {
  /** Served statelessly, per request, with {@code _meta} (spec 2026-07-28). */
  public static final String MODERN = "2026-07-28";

  /**
   * Served after an {@code initialize} handshake, newest first. 2024-11-05 is still the only
   * version the Vercel AI SDK 4.x and Spring AI 1.x clients ask for (issue 10). What this server
   * sends in the legacy era (tool name, description and inputSchema; content and isError;
   * protocolVersion, capabilities.tools, serverInfo name and version, instructions) exists in all
   * four, except tool annotations ({@link #hasToolAnnotations}); the tests check every reply for
   * members its revision lacks.
   */
  public static final List<String> LEGACY =
      List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");

  /** What {@code server/discover} and {@code -32022} advertise: only what is served statelessly. */
  public static final List<String> SUPPORTED = List.of(MODERN);

  /**
   * The code of 2026-07-28's {@code UnsupportedProtocolVersionError}: the server's answer to a
   * request for a version it does not serve, and to the client a sign of a modern server.
   */
  public static final int UNSUPPORTED_ERROR = -32022;

  /** Whether {@code version} knows {@code ToolAnnotations} (added in 2025-03-26). */
  public static boolean hasToolAnnotations(String version) {
    return !"2024-11-05".equals(version);
  }

  private Versions() {}
}

package notesmcp.bench;

import java.util.List;

/**
 * One server under test: how to start it, and which era it speaks.
 *
 * @param name the short name used in flags and tables
 * @param command the command line; the process it starts is the server itself (or execs it), so its
 *     pid is the one measured
 * @param era how to talk to it
 * @param description one line for the report
 */
record ServerSpec(String name, List<String> command, Era era, String description) {

  /** How a session opens and how requests are framed. */
  enum Era {
    /** MCP 2026-07-28: stateless, {@code _meta} on every request, no handshake. */
    MODERN,
    /** Before 2026-07-28: {@code initialize} + {@code notifications/initialized} first. */
    LEGACY
  }
}

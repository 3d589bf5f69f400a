package notesmcp.bench;

import java.util.List;

/**
 * One server under test, spoken to in MCP 2026-07-28 (every request carries {@code _meta}; no
 * handshake).
 *
 * @param name the short name used in flags and tables
 * @param command the command line; the process it starts is the server itself (or execs it), so its
 *     pid is the one measured (with any children it starts)
 * @param description one line for the report
 * @param oneShot the one-shot client command that calls {@code read_note} through this server, or
 *     null when it has none
 */
record ServerSpec(String name, List<String> command, String description, List<String> oneShot) {}

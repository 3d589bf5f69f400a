package notesmcp.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The request lines the harness sends, one era's framing each. A call is written as three pieces
 * (prefix, id digits, suffix) straight into the output buffer: the client side of a pipelined run
 * must cost as little as possible, or it would be measuring itself.
 */
final class Requests {
  static final String MODERN_VERSION = "2026-07-28";
  static final String LEGACY_VERSION = "2025-11-25";

  /** What every 2026-07-28 request carries (spec: per-request _meta, no handshake). */
  private static final String META =
      "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\""
          + MODERN_VERSION
          + "\",\"io.modelcontextprotocol/clientCapabilities\":{},"
          + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"notes-bench\",\"version\":\"0.1.0\"}}";

  private static final byte[] CALL_PREFIX = bytes("{\"jsonrpc\":\"2.0\",\"id\":");

  private final ServerSpec.Era era;
  private final byte[] callSuffix;

  Requests(ServerSpec.Era era) {
    this.era = era;
    String params =
        era == ServerSpec.Era.MODERN
            ? "{" + META + ",\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}"
            : "{\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}";
    this.callSuffix = bytes(",\"method\":\"tools/call\",\"params\":" + params + "}\n");
  }

  /** The lines that open a session, ending with the {@code tools/list} request {@code listId}. */
  byte[] opening(long initializeId, long listId) {
    if (era == ServerSpec.Era.MODERN) {
      return bytes(
          "{\"jsonrpc\":\"2.0\",\"id\":"
              + listId
              + ",\"method\":\"tools/list\",\"params\":{"
              + META
              + "}}\n");
    }
    return bytes(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + initializeId
            + ",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
            + LEGACY_VERSION
            + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"notes-bench\",\"version\":"
            + "\"0.1.0\"}}}\n");
  }

  /** After the initialize reply (legacy only): the notification and the tools/list request. */
  byte[] afterInitialize(long listId) {
    return bytes(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
            + "{\"jsonrpc\":\"2.0\",\"id\":"
            + listId
            + ",\"method\":\"tools/list\"}\n");
  }

  /** Writes {@code tools/call read_note {"path":"notes.txt"}} with this id, and its newline. */
  void writeCall(OutputStream out, long id) throws IOException {
    out.write(CALL_PREFIX);
    out.write(bytes(Long.toString(id)));
    out.write(callSuffix);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}

package notesmcp.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The request lines the harness sends, all MCP 2026-07-28 (per-request {@code _meta}, no
 * handshake). A call is written as three pieces (prefix, id digits, suffix) straight into the
 * output buffer: the client side of a pipelined run must cost as little as possible, or it would be
 * measuring itself.
 */
final class Requests {
  static final String VERSION = "2026-07-28";

  /** What every 2026-07-28 request carries (spec: per-request _meta, no handshake). */
  private static final String META =
      "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\""
          + VERSION
          + "\",\"io.modelcontextprotocol/clientCapabilities\":{},"
          + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"notes-bench\",\"version\":\"0.1.0\"}}";

  private static final byte[] CALL_PREFIX = bytes("{\"jsonrpc\":\"2.0\",\"id\":");
  private static final byte[] CALL_SUFFIX =
      bytes(
          ",\"method\":\"tools/call\",\"params\":{"
              + META
              + ",\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}}\n");

  private Requests() {}

  /** The {@code tools/list} request that opens a session. */
  static byte[] toolsList(long id) {
    return bytes(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + id
            + ",\"method\":\"tools/list\",\"params\":{"
            + META
            + "}}\n");
  }

  /** Writes {@code tools/call read_note {"path":"notes.txt"}} with this id, and its newline. */
  static void writeCall(OutputStream out, long id) throws IOException {
    out.write(CALL_PREFIX);
    out.write(bytes(Long.toString(id)));
    out.write(CALL_SUFFIX);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}

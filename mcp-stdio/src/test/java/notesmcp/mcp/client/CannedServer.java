package notesmcp.mcp.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import notesmcp.mcp.SchemaCheck;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * A stand-in stdio server: a few lines of {@code sh} that log every line received and answer each
 * line carrying an {@code "id"} with the next canned reply, in order. {@code SILENT} answers
 * nothing; {@code EXIT:n} exits with status n. Lines without an id (notifications) are only logged.
 * It ends when its input closes.
 *
 * <p>What it answers is checked against the official schema ({@link #violations}): a test's canned
 * replies are what a real server may send, unless the test says they are not.
 */
final class CannedServer {
  static final String SILENT = "SILENT";

  private static final ObjectMapper JSON = JsonMapper.builder().build();
  private static final String VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

  private static final String SCRIPT =
      "log=\"$1\"; shift\n"
          + "while IFS= read -r line; do\n"
          + "  printf '%s\\n' \"$line\" >> \"$log\"\n"
          + "  case \"$line\" in\n"
          + "    *'\"id\"'*)\n"
          + "      if [ $# -gt 0 ]; then\n"
          + "        case \"$1\" in\n"
          + "          EXIT:*) exit \"${1#EXIT:}\" ;;\n"
          + "          SILENT) ;;\n"
          + "          *) printf '%s\\n' \"$1\" ;;\n"
          + "        esac\n"
          + "        shift\n"
          + "      fi ;;\n"
          + "  esac\n"
          + "done\n";

  private final Path log;
  private final List<String> command = new ArrayList<>();
  private final List<String> replies;

  CannedServer(Path log, String... replies) {
    this.log = log;
    this.replies = List.of(replies);
    command.add("sh");
    command.add("-c");
    command.add(SCRIPT);
    command.add("canned-server");
    command.add(log.toString());
    command.addAll(List.of(replies));
  }

  List<String> command() {
    return command;
  }

  /** The replies it gives, in order. */
  List<String> replies() {
    return replies;
  }

  /** The lines the server received so far. */
  List<String> received() throws IOException {
    return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
  }

  static String result(int id, String result) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + result + "}";
  }

  static String error(int id, int code, String message) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"error\":{\"code\":"
        + code
        + ",\"message\":\""
        + message
        + "\"}}";
  }

  /**
   * The schema violations of the replies given so far (docs: {@code SchemaCheck}). Each request
   * received (a line with an {@code "id"}) took the next reply; a response in it to that request is
   * checked as the response to the request's method, in the session's revision: the modern one when
   * the request carries its protocol version in {@code _meta}, else the legacy revision the
   * initialize exchange agreed on. Any other response in a reply (to another id) is checked as a
   * JSON-RPC response envelope; a line that is not JSON is a violation. With {@code envelopesOnly},
   * every response is checked as an envelope alone, as every era has it (for the transport's tests,
   * whose requests are not MCP's). Replies from {@code skipFrom} on are not checked (a test's
   * deliberately malformed ones).
   */
  List<String> violations(boolean envelopesOnly, int skipFrom) throws IOException {
    List<String> violations = new ArrayList<>();
    String legacy = SchemaCheck.LEGACY;
    int next = 0;
    for (String line : received()) {
      JsonNode request = parse(line);
      if (request == null || !request.has("id") || !request.has("method")) {
        continue;
      }
      if (next >= replies.size()) {
        break;
      }
      int index = next++;
      String reply = replies.get(index);
      if (reply.startsWith("EXIT:")) {
        break;
      }
      if (reply.equals(SILENT) || index >= skipFrom) {
        continue;
      }
      String method = request.get("method").asString();
      boolean modern = request.path("params").path("_meta").has(VERSION_KEY);
      if (method.equals("initialize") && !modern) {
        legacy =
            SchemaCheck.legacyRevision(request.path("params").path("protocolVersion").asString(""));
      }
      for (String part : reply.split("\n")) {
        if (part.isBlank()) {
          continue; // the client skips blank lines, as the transport allows
        }
        JsonNode message = parse(part);
        if (message == null) {
          violations.add("reply " + index + " holds a line that is not JSON: " + part);
        } else if (message.has("method")) {
          continue; // a server's own request or notification, not a reply
        } else if (!envelopesOnly
            && message.path("id").equals(request.get("id"))
            && SchemaCheck.RESULTS.containsKey(method)) {
          if (method.equals("initialize") && message.has("result")) {
            legacy = SchemaCheck.legacyRevision(message.at("/result/protocolVersion").asString(""));
          }
          violations.addAll(
              SchemaCheck.response(modern ? SchemaCheck.MODERN : legacy, method, message));
        } else {
          // The transport's envelope is the same in every era; a modern result's resultType is
          // the session's to require.
          violations.addAll(
              SchemaCheck.violations(
                  envelopesOnly ? SchemaCheck.LEGACY : SchemaCheck.MODERN,
                  message.has("error") ? "JSONRPCErrorResponse" : "JSONRPCResultResponse",
                  message));
        }
      }
    }
    return violations;
  }

  private static JsonNode parse(String line) {
    try {
      JsonNode node = JSON.readTree(line);
      return node != null && node.isObject() ? node : null;
    } catch (JacksonException e) {
      return null;
    }
  }
}

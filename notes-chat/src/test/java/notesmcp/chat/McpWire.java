package notesmcp.chat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import notesmcp.mcp.SchemaCheck;
import tools.jackson.databind.JsonNode;

/**
 * What passed between the chat and its MCP server, recorded on the wire: a {@code -server-command}
 * that runs the server through {@code tee}, so the test sees every line the host sent (proof that a
 * request never reached the server) and every line the server wrote (each checked against the
 * official schema of its revision). {@link #fake} is a small server of our own making, in the
 * shell, for the failures our real server never has (a protocol error to a listed tool, dying
 * during a call).
 */
final class McpWire {
  private final Path sent;
  private final Path received;
  private final String command;

  private McpWire(Path dir, String script) throws IOException {
    this.sent = dir.resolve("sent.jsonl");
    this.received = dir.resolve("received.jsonl");
    Files.deleteIfExists(sent);
    Files.deleteIfExists(received);
    Path file = Files.writeString(dir.resolve("server.sh"), script, StandardCharsets.UTF_8);
    this.command = "sh " + quote(file.toString());
  }

  /** Our real server, {@code notes-mcp -serve args...}, behind a recorder. */
  static McpWire recording(Path dir, List<String> serveArgs) throws IOException {
    StringBuilder server = new StringBuilder(quote(ChatProcess.launcher().toString()) + " -serve");
    for (String arg : serveArgs) {
      server.append(' ').append(quote(arg));
    }
    Path sent = dir.resolve("sent.jsonl");
    Path received = dir.resolve("received.jsonl");
    return new McpWire(
        dir,
        "tee -a "
            + quote(sent.toString())
            + " | "
            + server
            + " | tee -a "
            + quote(received.toString())
            + "\n");
  }

  /**
   * A server in the shell that lists one read-only tool, {@code read_note}, and runs {@code onCall}
   * (shell, with the request's {@code $id}) for each {@code tools/call}. Modern (2026-07-28), or
   * {@code legacy}: it refuses {@code server/discover} and speaks 2025-11-25 after {@code
   * initialize}.
   */
  static McpWire fake(Path dir, boolean legacy, String onCall) throws IOException {
    String meta =
        "\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"fake\",\"version\":\"1\"}}";
    String discover =
        legacy
            ? "{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32601,\"message\":\"Method not"
                + " found\"}}"
            : "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"supportedVersions\":[\"2026-07-28\"],"
                + "\"capabilities\":{\"tools\":{}},\"ttlMs\":0,\"cacheScope\":\"public\","
                + "\"resultType\":\"complete\","
                + meta
                + "}}";
    String initialize =
        "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"protocolVersion\":\"2025-11-25\","
            + "\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"fake\",\"version\":\"1\"}}}";
    String list =
        "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"tools\":[{\"name\":\"read_note\","
            + "\"description\":\"Read a note.\",\"inputSchema\":{\"type\":\"object\",\"properties\":"
            + "{\"path\":{\"type\":\"string\",\"enum\":[\"notes.txt\"]}},\"required\":[\"path\"]},"
            + "\"annotations\":{\"readOnlyHint\":true}}]"
            + (legacy
                ? ""
                : ",\"ttlMs\":0,\"cacheScope\":\"private\",\"resultType\":\"complete\"," + meta)
            + "}}";
    String script =
        "while IFS= read -r line; do\n"
            + "  printf '%s\\n' \"$line\" >> "
            + quote(dir.resolve("sent.jsonl").toString())
            + "\n"
            + "  id=$(printf '%s' \"$line\" | sed -n 's/.*\"id\":\\([0-9][0-9]*\\).*/\\1/p')\n"
            + "  case \"$line\" in\n"
            + "    *'\"method\":\"server/discover\"'*) printf "
            + quote(discover + "\\n")
            + " \"$id\" ;;\n"
            + "    *'\"method\":\"initialize\"'*) printf "
            + quote(initialize + "\\n")
            + " \"$id\" ;;\n"
            + "    *'\"method\":\"tools/list\"'*) printf "
            + quote(list + "\\n")
            + " \"$id\" ;;\n"
            + "    *'\"method\":\"tools/call\"'*) "
            + onCall
            + " ;;\n"
            + "  esac\n"
            + "done\n";
    return new McpWire(dir, script);
  }

  /** The value of {@code -server-command}. */
  String command() {
    return command;
  }

  /** Every message the chat sent to the server. */
  List<JsonNode> sent() throws IOException {
    return lines(sent);
  }

  /** Every line the server wrote. */
  List<JsonNode> received() throws IOException {
    return lines(received);
  }

  /** The tool names of every {@code tools/call} the chat sent. */
  List<String> calls() throws IOException {
    List<String> names = new ArrayList<>();
    for (JsonNode message : sent()) {
      if ("tools/call".equals(message.path("method").asString(""))) {
        names.add(message.path("params").path("name").asString());
      }
    }
    return names;
  }

  /**
   * Every line the server wrote, checked against the 2026-07-28 schema as the response to the
   * request with its id; the violations, none when all is well.
   */
  List<String> violations() throws IOException {
    Map<String, String> methods = new HashMap<>();
    for (JsonNode message : sent()) {
      if (message.has("id")) {
        methods.put(message.get("id").toString(), message.path("method").asString(""));
      }
    }
    Map<String, String> definitions =
        Map.of(
            "server/discover", "DiscoverResultResponse",
            "tools/list", "ListToolsResultResponse",
            "tools/call", "CallToolResultResponse");
    List<String> violations = new ArrayList<>();
    for (JsonNode message : received()) {
      if (message.has("error")) {
        violations.addAll(
            SchemaCheck.violations(SchemaCheck.MODERN, "JSONRPCErrorResponse", message));
        continue;
      }
      String method = methods.get(message.path("id").toString());
      String definition = method == null ? null : definitions.get(method);
      if (definition == null) {
        violations.add("a line that answers no request the chat made: " + message);
      } else {
        violations.addAll(SchemaCheck.violations(SchemaCheck.MODERN, definition, message));
      }
    }
    return violations;
  }

  private static List<JsonNode> lines(Path file) throws IOException {
    List<JsonNode> messages = new ArrayList<>();
    if (!Files.exists(file)) {
      return messages;
    }
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        messages.add(ScriptedModel.JSON.readTree(line));
      }
    }
    return messages;
  }

  static String quote(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }
}

package notesmcp.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A plain MCP client for the vault benchmark: the {@code initialize} handshake (2025-11-25, the
 * revision every peer speaks), then requests one at a time, each reply parsed whole. Unlike the
 * request-path harness ({@link Session}), it is not built to cost nothing per call: the replies
 * here are notes of up to 40 KiB and search results, and every server pays the same parsing.
 */
final class McpClient implements AutoCloseable {
  static final String VERSION = "2025-11-25";
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final ServerProcess server;
  private final Duration stall;
  private long nextId = 1;

  private McpClient(ServerProcess server, Duration stall) {
    this.server = server;
    this.stall = stall;
  }

  /** Spawns {@code command}, initializes, and returns the client with its tools listed. */
  static Started start(
      String name,
      List<String> command,
      Map<String, String> environment,
      Path stderr,
      Duration stall) {
    long start = System.nanoTime();
    ServerProcess process = ServerProcess.start(name, command, environment, stderr);
    McpClient client = new McpClient(process, stall);
    try {
      ObjectNode init = JSON.createObjectNode();
      init.put("protocolVersion", VERSION);
      init.putObject("capabilities");
      init.putObject("clientInfo").put("name", "notes-bench").put("version", "0.1.0");
      client.request("initialize", init);
      process.send(
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
              .getBytes(StandardCharsets.UTF_8));
      JsonNode tools = client.request("tools/list", JSON.createObjectNode());
      long elapsed = System.nanoTime() - start;
      List<String> names = new java.util.ArrayList<>();
      for (JsonNode tool : tools.get("tools")) {
        names.add(tool.get("name").asString());
      }
      return new Started(client, elapsed, List.copyOf(names));
    } catch (RuntimeException e) {
      process.close();
      throw e;
    }
  }

  /** A started client, how long spawn to the {@code tools/list} reply took, and the tools. */
  record Started(McpClient client, long nanos, List<String> tools) {}

  ServerProcess server() {
    return server;
  }

  /** One request and its result; a JSON-RPC error is a failure of the server. */
  JsonNode request(String method, ObjectNode params) {
    long id = nextId++;
    ObjectNode request = JSON.createObjectNode();
    request.put("jsonrpc", "2.0");
    request.put("id", id);
    request.put("method", method);
    request.set("params", params);
    server.send((JSON.writeValueAsString(request) + "\n").getBytes(StandardCharsets.UTF_8));
    ScheduledFuture<?> watch = server.watch(method, stall);
    try {
      while (true) {
        JsonNode reply = JSON.readTree(server.readLine("while waiting for reply " + id));
        if (!reply.has("id") || reply.has("method")) {
          continue; // a notification or a request of the server's: not ours to answer here
        }
        if (reply.get("id").asLong() != id) {
          throw server.failure("replied to id " + reply.get("id") + " while " + id + " was owed");
        }
        if (reply.has("error")) {
          throw server.failure(method + " failed: " + reply.get("error"));
        }
        return reply.get("result");
      }
    } finally {
      watch.cancel(false);
    }
  }

  /** A tool call's outcome: its first text block and whether it is an error. */
  record ToolText(String text, boolean isError) {}

  ToolText call(String tool, ObjectNode arguments) {
    ObjectNode params = JSON.createObjectNode();
    params.put("name", tool);
    params.set("arguments", arguments);
    JsonNode result = request("tools/call", params);
    JsonNode content = result.get("content");
    String text =
        content != null && content.size() > 0 ? content.get(0).get("text").asString() : "";
    return new ToolText(text, result.has("isError") && result.get("isError").asBoolean());
  }

  static ObjectNode object() {
    return JSON.createObjectNode();
  }

  static JsonNode parse(String text) {
    return JSON.readTree(text);
  }

  /** Peak resident memory (VmHWM) of the server so far, in bytes. */
  long peakRss() {
    return ProcFs.statusBytes(server.handle(), "VmHWM");
  }

  String finish() {
    return server.finish();
  }

  @Override
  public void close() {
    server.close();
  }
}

package notesmcp.dist;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A model server on loopback that speaks Ollama's API as the chat uses it ({@code GET /api/tags},
 * {@code POST /api/chat} with tool calls), the approach of notes-chat's ScriptedModel cut to one
 * script: the first chat request is answered with a call of {@code read_note notes.txt}, the second
 * with "Your note: " and the tool result it was sent, and any further one with HTTP 500. Over plain
 * HTTP, or over HTTPS with {@link Tls}'s certificate.
 */
final class ScriptedOllama implements AutoCloseable {
  static final String MODEL = "scripted";

  private final HttpServer server;
  private final String scheme;
  private final List<JsonNode> requests = new CopyOnWriteArrayList<>();

  private ScriptedOllama(Tls tls) throws Exception {
    InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    if (tls == null) {
      server = HttpServer.create(loopback, 16);
      scheme = "http";
    } else {
      HttpsServer https = HttpsServer.create(loopback, 16);
      https.setHttpsConfigurator(new HttpsConfigurator(tls.context()));
      server = https;
      scheme = "https";
    }
    server.createContext("/", this::handle);
    server.start();
  }

  /** Starts the server: plain HTTP when {@code tls} is null. */
  static ScriptedOllama start(Tls tls) throws Exception {
    return new ScriptedOllama(tls);
  }

  /** The base URL to give as -model-url. */
  String url() {
    return scheme + "://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The chat requests received, in order. */
  List<JsonNode> requests() {
    return List.copyOf(requests);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      if (path.equals("/api/tags")) {
        respond(
            exchange,
            200,
            "{\"models\":[{\"name\":\""
                + MODEL
                + ":latest\",\"model\":\""
                + MODEL
                + ":latest\",\"modified_at\":\"2026-01-01T10:00:00Z\",\"size\":1,"
                + "\"digest\":\"0\",\"details\":{\"format\":\"gguf\",\"family\":\"qwen3\"}}]}");
      } else if (path.equals("/api/chat")) {
        JsonNode request = DistIT.JSON.readTree(new String(body, StandardCharsets.UTF_8));
        requests.add(request);
        switch (requests.size()) {
          case 1 -> respond(exchange, 200, answer(null).toString());
          case 2 -> respond(exchange, 200, answer(lastToolResult(request)).toString());
          default -> respond(exchange, 500, "{\"error\":\"the script has no more steps\"}");
        }
      } else {
        respond(exchange, 404, "{\"error\":\"no such path in the script\"}");
      }
    }
  }

  private static String lastToolResult(JsonNode request) {
    JsonNode messages = request.path("messages");
    JsonNode last = messages.get(messages.size() - 1);
    return "tool".equals(last.path("role").asString()) ? last.path("content").asString() : "";
  }

  /** As Ollama answers {@code /api/chat} with "stream": false: a read call, or text. */
  private static ObjectNode answer(String toolResult) {
    ObjectNode response = DistIT.JSON.createObjectNode();
    response.put("model", MODEL);
    response.put("created_at", "2026-01-01T00:00:00Z");
    ObjectNode message = response.putObject("message");
    message.put("role", "assistant");
    if (toolResult == null) {
      message.put("content", "");
      ObjectNode function = message.putArray("tool_calls").addObject().putObject("function");
      function.put("name", "read_note");
      function.putObject("arguments").put("path", "notes.txt");
    } else {
      message.put("content", "Your note: " + toolResult);
    }
    response.put("done", true);
    response.put("done_reason", "stop");
    response.put("prompt_eval_count", 1);
    response.put("eval_count", 1);
    return response;
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}

package notesmcp.chat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A model server for the tests, on loopback, that speaks both wire formats the chat uses
 * (docs/chat.md): Ollama's {@code GET /api/tags} and {@code POST /api/chat}, and the
 * OpenAI-compatible {@code GET /v1/models} and {@code POST /v1/chat/completions}, with tool calls.
 * Each chat request is recorded as received and answered by the next scripted {@link Step}, which
 * may look at the request (a tool message's content, say) to decide. A request past the end of the
 * script is answered HTTP 500, so a test that expected fewer calls fails with a reason.
 */
final class ScriptedModel implements AutoCloseable {
  static final ObjectMapper JSON = JsonMapper.builder().build();
  static final String MODEL = "scripted";

  /** The wire format a test runs in. */
  enum Wire {
    OLLAMA("ollama", ""),
    OPENAI("openai", "/v1");

    final String provider;
    final String base;

    Wire(String provider, String base) {
      this.provider = provider;
      this.base = base;
    }
  }

  /** One tool call the scripted model makes. */
  record Call(String name, String arguments) {}

  /** What the scripted model answers: text, tool calls, or both, after an optional delay. */
  record Reply(String text, List<Call> calls, Duration delay) {
    static Reply text(String text) {
      return new Reply(text, List.of(), Duration.ZERO);
    }

    static Reply call(String name, String arguments) {
      return new Reply(null, List.of(new Call(name, arguments)), Duration.ZERO);
    }

    static Reply calls(Call... calls) {
      return new Reply(null, List.of(calls), Duration.ZERO);
    }

    static Reply silence(Duration delay) {
      return new Reply("too late", List.of(), delay);
    }
  }

  /** The answer to one chat request. */
  interface Step {
    Reply answer(Request request);
  }

  private final Wire wire;
  private final HttpServer server;
  private final List<Step> steps;
  private final AtomicInteger next = new AtomicInteger();
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final List<String> paths = new CopyOnWriteArrayList<>();
  private final AtomicInteger callIds = new AtomicInteger();

  /**
   * Released by {@link #close}: a scripted delay waits on it, so closing the server ends a silence
   * at once. {@code HttpServer.stop} waits for the exchange being handled, and used to wait out the
   * whole delay (20 s of a test that was over in one).
   */
  private final CountDownLatch closed = new CountDownLatch(1);

  private ScriptedModel(Wire wire, List<Step> steps) throws IOException {
    this.wire = wire;
    this.steps = steps;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    server.createContext("/", this::handle);
    server.start();
  }

  static ScriptedModel start(Wire wire, Step... steps) throws IOException {
    return new ScriptedModel(wire, List.of(steps));
  }

  /** The base URL to give as -model-url. */
  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + wire.base;
  }

  /** The -provider, -model-url and -model flags for this server. */
  List<String> flags() {
    return List.of("-provider", wire.provider, "-model-url", url(), "-model", MODEL);
  }

  Wire wire() {
    return wire;
  }

  /** The chat requests received, in order. */
  List<Request> requests() {
    return List.copyOf(requests);
  }

  /** Every path requested, in order. */
  List<String> paths() {
    return List.copyOf(paths);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      paths.add(exchange.getRequestMethod() + " " + path);
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      if (path.equals("/api/tags") && wire == Wire.OLLAMA) {
        respond(
            exchange,
            200,
            "{\"models\":[{\"name\":\""
                + MODEL
                + ":latest\",\"model\":\""
                + MODEL
                + ":latest\",\"modified_at\":\"2026-01-01T10:00:00.123456789-07:00\",\"size\":1,"
                + "\"digest\":\"0\",\"details\":{\"format\":\"gguf\",\"family\":\"qwen3\"}}]}");
      } else if (path.equals("/v1/models") && wire == Wire.OPENAI) {
        respond(
            exchange,
            200,
            "{\"object\":\"list\",\"data\":[{\"id\":\""
                + MODEL
                + "\",\"object\":\"model\",\"created\":1,\"owned_by\":\"tests\"}]}");
      } else if ((path.equals("/api/chat") && wire == Wire.OLLAMA)
          || (path.equals("/v1/chat/completions") && wire == Wire.OPENAI)) {
        chat(exchange, new Request(wire, JSON.readTree(new String(body, StandardCharsets.UTF_8))));
      } else {
        respond(exchange, 404, "{\"error\":\"no such path in the script: " + path + "\"}");
      }
    }
  }

  private void chat(HttpExchange exchange, Request request) throws IOException {
    requests.add(request);
    int index = next.getAndIncrement();
    if (index >= steps.size()) {
      respond(exchange, 500, "{\"error\":\"the script has no step " + (index + 1) + "\"}");
      return;
    }
    Reply reply = steps.get(index).answer(request);
    if (!reply.delay().isZero()) {
      try {
        if (closed.await(reply.delay().toMillis(), TimeUnit.MILLISECONDS)) {
          return; // closed while silent: the client gave up long ago, nobody reads the answer
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    respond(exchange, 200, (wire == Wire.OLLAMA ? ollama(reply) : openAi(reply)).toString());
  }

  private static ObjectNode ollama(Reply reply) {
    // As Ollama answers /api/chat with "stream": false (its API documentation).
    ObjectNode response = JSON.createObjectNode();
    response.put("model", MODEL);
    response.put("created_at", "2026-01-01T00:00:00Z");
    ObjectNode message = response.putObject("message");
    message.put("role", "assistant");
    message.put("content", reply.text() == null ? "" : reply.text());
    if (!reply.calls().isEmpty()) {
      ArrayNode calls = message.putArray("tool_calls");
      for (Call call : reply.calls()) {
        // Recent Ollama versions add an id and an index; the host must not depend on either.
        ObjectNode entry = calls.addObject();
        entry.put("id", "call_ollama_" + calls.size());
        ObjectNode function = entry.putObject("function");
        function.put("index", calls.size() - 1);
        function.put("name", call.name());
        function.set("arguments", JSON.readTree(call.arguments()));
      }
    }
    response.put("done", true);
    response.put("done_reason", "stop");
    response.put("prompt_eval_count", 1);
    response.put("eval_count", 1);
    return response;
  }

  private ObjectNode openAi(Reply reply) {
    ObjectNode response = JSON.createObjectNode();
    response.put("id", "chatcmpl-scripted");
    response.put("object", "chat.completion");
    response.put("created", 1);
    response.put("model", MODEL);
    ObjectNode choice = response.putArray("choices").addObject();
    choice.put("index", 0);
    ObjectNode message = choice.putObject("message");
    message.put("role", "assistant");
    if (reply.text() == null) {
      message.putNull("content");
    } else {
      message.put("content", reply.text());
    }
    if (!reply.calls().isEmpty()) {
      ArrayNode calls = message.putArray("tool_calls");
      for (Call call : reply.calls()) {
        ObjectNode entry = calls.addObject();
        entry.put("id", "call_" + callIds.incrementAndGet());
        entry.put("type", "function");
        ObjectNode function = entry.putObject("function");
        function.put("name", call.name());
        function.put("arguments", call.arguments());
      }
    }
    choice.put("finish_reason", reply.calls().isEmpty() ? "stop" : "tool_calls");
    ObjectNode usage = response.putObject("usage");
    usage.put("prompt_tokens", 1);
    usage.put("completion_tokens", 1);
    usage.put("total_tokens", 2);
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
    closed.countDown();
    server.stop(0);
  }

  /** One chat request as the host sent it, with readers for both wire formats. */
  record Request(Wire wire, JsonNode body) {
    JsonNode messages() {
      return body.path("messages");
    }

    /** The role of each message, in order. */
    List<String> roles() {
      List<String> roles = new ArrayList<>();
      for (JsonNode message : messages()) {
        roles.add(message.path("role").asString());
      }
      return roles;
    }

    /** The text of every message with {@code role}. */
    List<String> contents(String role) {
      List<String> contents = new ArrayList<>();
      for (JsonNode message : messages()) {
        if (role.equals(message.path("role").asString())) {
          contents.add(message.path("content").asString(""));
        }
      }
      return contents;
    }

    /** The last message's content, when it is a tool message (else ""). */
    /**
     * The tool messages at the end of the conversation, in order: the answers to the last calls.
     */
    List<String> toolResults() {
      List<String> results = new ArrayList<>();
      for (int i = messages().size() - 1; i >= 0; i--) {
        JsonNode message = messages().get(i);
        if (!"tool".equals(message.path("role").asString())) {
          break;
        }
        results.add(0, message.path("content").asString());
      }
      return results;
    }

    String lastToolResult() {
      JsonNode last = messages().get(messages().size() - 1);
      return "tool".equals(last.path("role").asString()) ? last.path("content").asString() : "";
    }

    /** The tool names offered, in order. */
    List<String> toolNames() {
      List<String> names = new ArrayList<>();
      for (JsonNode tool : body.path("tools")) {
        names.add(tool.path("function").path("name").asString());
      }
      return names;
    }

    /** The parameters schema offered for {@code name}. */
    JsonNode parameters(String name) {
      for (JsonNode tool : body.path("tools")) {
        if (name.equals(tool.path("function").path("name").asString())) {
          return tool.path("function").path("parameters");
        }
      }
      throw new AssertionError("no tool " + name + " in " + body.path("tools"));
    }
  }
}

package notesmcp.app;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/**
 * {@link WireServer}'s other transport: the same JSON-RPC lines a test writes to a stdio server's
 * stdin, carried to the real {@code ./notes-mcp -serve ... -http 127.0.0.1:0 -tokens FILE} as a
 * Streamable HTTP client carries them, with a {@code propose} token of its own; every JSON-RPC
 * message that comes back (a JSON body, each element of a batch's array, each SSE event) is handed
 * to the fixture as the stdio server's stdout lines are, checked against the schema there. So a
 * suite written against stdio runs unchanged over HTTP ({@code -Dnotesmcp.transport=http}).
 *
 * <p>How a line travels, by what it is:
 *
 * <ul>
 *   <li>a request or notification with the 2026-07-28 {@code _meta}: a POST with the headers that
 *       revision requires ({@code MCP-Protocol-Version}, {@code Mcp-Method}, {@code Mcp-Name} for a
 *       tool call or a resource read, Base64 in the sentinel when not visible ASCII); {@code
 *       subscriptions/listen} is its SSE response, kept open, and {@code notifications/cancelled}
 *       of such a stream closes that response, which is how HTTP cancels it;
 *   <li>{@code initialize}: a POST without a session, whose {@code Mcp-Session-Id} is kept; every
 *       later line without {@code _meta} (a legacy request, a notification, a batch) is POSTed in
 *       that session with the negotiated revision's header, and once {@code
 *       notifications/initialized} is sent the session's GET stream is opened, whose notifications
 *       are the stdio session's;
 *   <li>anything that is no JSON object or array: POSTed as it is, in the session if there is one.
 * </ul>
 *
 * <p>At most 8 tool calls and resource reads are in flight at once, the bound the server sets per
 * caller (docs/http.md, "Limits"): a further one waits in {@link #send} for a reply, as a
 * well-behaved client waits. The end of input is SIGTERM, which a {@code -http} server answers by
 * stopping gracefully (open streams get their closing result) with exit 0.
 */
final class WireOverHttp {
  /** The per-caller bound on tool calls and resource reads in flight. */
  static final int IN_FLIGHT = 8;

  private static final Duration WAIT = Duration.ofSeconds(120);
  private static volatile Path tokens;
  private static volatile String token;

  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();
  private final URI uri;
  private final Consumer<String> received;
  private final Consumer<String> violation;
  private final Semaphore calls = new Semaphore(IN_FLIGHT);
  private final Map<String, InputStream> streams = new ConcurrentHashMap<>();
  private final List<Thread> readers = new ArrayList<>();
  private volatile String session;
  private volatile String sessionVersion;
  private volatile InputStream sessionStream;

  /**
   * @param received takes each JSON-RPC message the server sent, as one line of JSON
   * @param violation takes what no conforming server would send
   */
  WireOverHttp(URI uri, Consumer<String> received, Consumer<String> violation) {
    this.uri = uri;
    this.received = received;
    this.violation = violation;
  }

  /** The flags that make {@code -serve} this transport's server: loopback, the fixture's tokens. */
  static List<String> serveFlags() throws Exception {
    return List.of("-http", "127.0.0.1:0", "-tokens", tokens().toString());
  }

  /**
   * The tokens file of this test JVM, with one {@code propose} token, made once by {@code notes-mcp
   * token add} in a folder only this user may use.
   */
  static synchronized Path tokens() throws Exception {
    if (tokens == null) {
      Path folder = Files.createTempDirectory("wire-over-http");
      Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
      Path file = HttpWire.tokensFile(folder);
      token = HttpWire.addToken(file, "wire", "propose");
      tokens = file;
    }
    return tokens;
  }

  /** The fixture's token, for the {@code Authorization} header. */
  static String token() throws Exception {
    tokens();
    return token;
  }

  /** Carries one line (without its newline) to the server; its reply comes to {@code received}. */
  void send(String line) {
    JsonNode message;
    try {
      message = WireServer.JSON.readTree(line);
    } catch (RuntimeException e) {
      message = null;
    }
    List<String> headers = new ArrayList<>();
    headers.addAll(List.of("Content-Type", "application/json"));
    headers.addAll(List.of("Accept", "application/json, text/event-stream"));
    boolean call = false;
    if (message != null && message.isObject() && message.has("method")) {
      String method = message.path("method").asString("");
      JsonNode meta = message.path("params").path("_meta");
      String modern = meta.path("io.modelcontextprotocol/protocolVersion").asString(null);
      if (method.equals("notifications/cancelled") && cancelStream(message)) {
        return;
      }
      call = method.equals("tools/call") || method.equals("resources/read");
      if (modern != null) {
        headers.addAll(List.of("MCP-Protocol-Version", modern, "Mcp-Method", method));
        String name = null;
        if (method.equals("tools/call") || method.equals("prompts/get")) {
          name = message.path("params").path("name").asString(null);
        } else if (method.equals("resources/read")) {
          name = message.path("params").path("uri").asString(null);
        }
        if (name != null) {
          headers.addAll(List.of("Mcp-Name", headerValue(name)));
        }
        if (method.equals("subscriptions/listen") && message.has("id")) {
          post(line, headers, message.get("id").toString(), false);
          return;
        }
      } else if (!method.equals("initialize")) {
        inSession(headers);
      }
    } else {
      inSession(headers);
    }
    if (call) {
      calls.acquireUninterruptibly();
    }
    post(line, headers, null, call);
    if (message != null
        && message.isObject()
        && "notifications/initialized".equals(message.path("method").asString(""))) {
      openSessionStream();
    }
  }

  /** The legacy session's id and revision header, once {@code initialize} has opened one. */
  private void inSession(List<String> headers) {
    if (session == null) {
      return;
    }
    headers.addAll(List.of("Mcp-Session-Id", session));
    if (sessionVersion != null && sessionVersion.compareTo("2025-06-18") >= 0) {
      headers.addAll(List.of("MCP-Protocol-Version", sessionVersion));
    }
  }

  /** A header value as 2026-07-28 sends one: as it is, or in the Base64 sentinel. */
  private static String headerValue(String value) {
    if (value.matches("[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?")) {
      return value;
    }
    return "=?base64?"
        + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8))
        + "?=";
  }

  /**
   * {@code notifications/cancelled} of an open {@code subscriptions/listen}: its response is
   * closed, which is how a 2026-07-28 client cancels a stream over HTTP; true when there was one.
   */
  private boolean cancelStream(JsonNode message) {
    JsonNode id = message.path("params").get("requestId");
    InputStream stream = id == null ? null : streams.remove(id.toString());
    if (stream == null) {
      return false;
    }
    try {
      stream.close();
    } catch (IOException e) {
      // closed already
    }
    return true;
  }

  /**
   * POSTs {@code body}; a JSON reply is handed on whole (an array as it is: a batch's reply), an
   * SSE reply event by event, on a thread of its own. {@code listen}: the id of the {@code
   * subscriptions/listen} whose stream this is.
   */
  private void post(String body, List<String> headers, String listen, boolean call) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString(body));
    if (listen == null) {
      request.timeout(WAIT);
    }
    for (int i = 0; i < headers.size(); i += 2) {
      request.header(headers.get(i), headers.get(i + 1));
    }
    try {
      request.header("Authorization", "Bearer " + token());
    } catch (Exception e) {
      throw new AssertionError("the fixture's token", e);
    }
    client
        .sendAsync(request.build(), HttpResponse.BodyHandlers.ofInputStream())
        .whenComplete(
            (response, failure) -> {
              try {
                if (failure != null) {
                  violation.accept("POST failed: " + failure + " for " + body);
                  return;
                }
                handle(response, listen, body);
              } finally {
                if (call) {
                  calls.release();
                }
              }
            });
  }

  private void handle(HttpResponse<InputStream> response, String listen, String body) {
    String type = response.headers().firstValue("Content-Type").orElse("");
    if (type.startsWith("text/event-stream")) {
      if (listen != null) {
        streams.put(listen, response.body());
      }
      Thread reader =
          new Thread(() -> events(response.body(), listen), "wire-over-http sse " + listen);
      reader.setDaemon(true);
      synchronized (readers) {
        readers.add(reader);
      }
      reader.start();
      return;
    }
    String text;
    try (InputStream in = response.body()) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      violation.accept("a reply that could not be read: " + e + " for " + body);
      return;
    }
    if (response.headers().firstValue("Mcp-Session-Id").isPresent()) {
      session = response.headers().firstValue("Mcp-Session-Id").get();
      try {
        sessionVersion =
            WireServer.JSON.readTree(text).at("/result/protocolVersion").asString(null);
      } catch (RuntimeException e) {
        sessionVersion = null;
      }
    }
    if (text.isEmpty()) {
      if (response.statusCode() != 202 && response.statusCode() != 204) {
        violation.accept("an empty reply with status " + response.statusCode() + " to " + body);
      }
      return;
    }
    if (!type.startsWith("application/json")) {
      violation.accept(
          "a reply of type " + type + " (" + response.statusCode() + "): " + text + " to " + body);
      return;
    }
    received.accept(text);
  }

  /** Each {@code data:} line of an SSE body, handed on, until the body ends or is closed. */
  private void events(InputStream body, String listen) {
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.startsWith("data:")) {
          received.accept(line.substring(5).strip());
        }
      }
    } catch (IOException e) {
      // closed by the test (a cancellation) or by the server's end
    } finally {
      if (listen != null) {
        streams.remove(listen);
      }
    }
  }

  /** The legacy session's GET stream, where its notifications come. */
  private void openSessionStream() {
    if (session == null || sessionStream != null) {
      return;
    }
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .GET()
            .header("Accept", "text/event-stream")
            .header("Mcp-Session-Id", session);
    if (sessionVersion != null && sessionVersion.compareTo("2025-06-18") >= 0) {
      request.header("MCP-Protocol-Version", sessionVersion);
    }
    try {
      request.header("Authorization", "Bearer " + token());
    } catch (Exception e) {
      throw new AssertionError("the fixture's token", e);
    }
    sessionStream = InputStream.nullInputStream();
    client
        .sendAsync(request.build(), HttpResponse.BodyHandlers.ofInputStream())
        .whenComplete(
            (response, failure) -> {
              if (failure != null) {
                violation.accept("the session's GET stream: " + failure);
              } else if (response.statusCode() != 200) {
                violation.accept("the session's GET stream: status " + response.statusCode());
              } else {
                sessionStream = response.body();
                handle(response, null, "GET");
              }
            });
  }

  /** Closes every stream this client holds open. */
  void close() {
    for (InputStream stream : streams.values()) {
      try {
        stream.close();
      } catch (IOException e) {
        // closed already
      }
    }
    if (sessionStream != null) {
      try {
        sessionStream.close();
      } catch (IOException e) {
        // closed already
      }
    }
  }
}

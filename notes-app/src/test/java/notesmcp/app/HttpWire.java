package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import notesmcp.mcp.SchemaCheck;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The real {@code ./notes-mcp -serve -http 127.0.0.1:0 ...} as a test talks to it: the port read
 * from its stderr line {@code listening on http://127.0.0.1:PORT/mcp}, requests made with the JDK's
 * HTTP client, and every JSON-RPC message the server sends (a JSON body, each element of a batch's
 * array, each SSE event) checked against the official schema of the revision the request was sent
 * in ({@link SchemaCheck}); {@link #violations} must be empty at the end of a test.
 */
final class HttpWire implements AutoCloseable {
  static final JsonMapper JSON = JsonMapper.builder().build();
  static final String MODERN = SchemaCheck.MODERN;
  static final String META =
      "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{},"
          + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"http-wire\",\"version\":\"1\"}}";
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final Pattern LISTENING =
      Pattern.compile("listening on (https?://[^ ]+:([0-9]+)/mcp)");

  private final Process process;
  private final StringBuffer stderr = new StringBuffer();
  private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
  private final AtomicLong ids = new AtomicLong(1);
  final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();
  final URI uri;
  final int port;

  private HttpWire(Process process) throws InterruptedException {
    this.process = process;
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(
                      new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                  stderr.append(line).append('\n');
                }
              } catch (IOException e) {
                // the process is gone
              }
            },
            "http-wire stderr");
    reader.setDaemon(true);
    reader.start();
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    Matcher found;
    while (!(found = LISTENING.matcher(stderr)).find()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new AssertionError("the server did not say where it listens; stderr:\n" + stderr);
      }
      Thread.sleep(20);
    }
    this.uri = URI.create(found.group(1));
    this.port = Integer.parseInt(found.group(2));
  }

  /** {@code notes-mcp -serve -root root -http 127.0.0.1:0 extra...}. */
  static HttpWire start(Path root, String... extra) throws IOException, InterruptedException {
    return start(root, Map.of(), extra);
  }

  static HttpWire start(Path root, Map<String, String> env, String... extra)
      throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(
                WireServer.launcher().toString(),
                "-serve",
                "-root",
                root.toString(),
                "-http",
                "127.0.0.1:0"));
    command.addAll(List.of(extra));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(env);
    builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    return new HttpWire(builder.start());
  }

  /**
   * A server {@code builder} starts some other way (a systemd unit's command line, say), which must
   * say where it listens as {@code -serve -http} does.
   */
  static HttpWire of(ProcessBuilder builder) throws IOException, InterruptedException {
    builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    return new HttpWire(builder.start());
  }

  /** A new token of {@code scope} in {@code tokens}, made by {@code notes-mcp token add}. */
  static String addToken(Path tokens, String name, String scope) throws Exception {
    Launch.Result result =
        Launch.run(
            tokens.getParent(),
            List.of(
                WireServer.launcher().toString(),
                "token",
                "add",
                name,
                "-tokens",
                tokens.toString(),
                "-scope",
                scope));
    assertThat(result.exit()).as(result.stderr()).isZero();
    String[] lines = result.stdout().split("\n");
    return lines[lines.length - 1];
  }

  /** A tokens folder only this user may use, and its file's path. */
  static Path tokensFile(Path dir) throws IOException {
    Path folder = Files.createDirectories(dir.resolve("tokens"));
    Files.setPosixFilePermissions(
        folder, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    return folder.resolve("tokens.json");
  }

  long nextId() {
    return ids.getAndIncrement();
  }

  // ---------------------------------------------------------------------------------------------
  // Requests.

  /** What came back: the status, the headers, the body as text. */
  record Reply(int status, Map<String, List<String>> headers, String body) {
    JsonNode json() {
      return JSON.readTree(body);
    }

    String header(String name) {
      for (Map.Entry<String, List<String>> entry : headers.entrySet()) {
        if (entry.getKey().equalsIgnoreCase(name)) {
          return entry.getValue().get(0);
        }
      }
      return null;
    }
  }

  /** A POST of {@code body} with {@code headers} (name, value, name, value ...) and no others. */
  Reply post(String body, String... headers) throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(WAIT)
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    HttpResponse<String> response =
        client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    return new Reply(response.statusCode(), response.headers().map(), response.body());
  }

  Reply send(String method, String sessionId, String token, String accept)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(WAIT)
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (sessionId != null) {
      request.header("Mcp-Session-Id", sessionId);
    }
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    if (accept != null) {
      request.header("Accept", accept);
    }
    HttpResponse<String> response =
        client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    return new Reply(response.statusCode(), response.headers().map(), response.body());
  }

  /** The headers of a 2026-07-28 POST, with the token (null: none). */
  static String[] modernHeaders(String token, String method, String name) {
    List<String> headers =
        new ArrayList<>(
            List.of(
                "Content-Type",
                "application/json",
                "Accept",
                "application/json, text/event-stream",
                "MCP-Protocol-Version",
                MODERN,
                "Mcp-Method",
                method));
    if (name != null) {
      headers.add("Mcp-Name");
      headers.add(name);
    }
    if (token != null) {
      headers.add("Authorization");
      headers.add("Bearer " + token);
    }
    return headers.toArray(new String[0]);
  }

  /** A 2026-07-28 request; its reply is checked against {@code resultDefinition}'s response. */
  Reply modern(String token, String method, String members, String resultDefinition)
      throws IOException, InterruptedException {
    long id = nextId();
    String name = null;
    JsonNode params = JSON.readTree("{" + members + "}");
    if (params.has("name")) {
      name = params.get("name").stringValue();
    } else if (params.has("uri")) {
      name = params.get("uri").stringValue();
    }
    String body =
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + id
            + ",\"method\":\""
            + method
            + "\",\"params\":{"
            + META
            + (members.isEmpty() ? "" : "," + members)
            + "}}";
    Reply reply = post(body, modernHeaders(token, method, name));
    checkModern(reply, resultDefinition);
    return reply;
  }

  /** A 2026-07-28 {@code tools/call}. */
  Reply call(String token, String tool, String arguments) throws IOException, InterruptedException {
    return modern(
        token,
        "tools/call",
        "\"name\":" + JSON.writeValueAsString(tool) + ",\"arguments\":" + arguments,
        "CallToolResult");
  }

  /** Checks a 2026-07-28 reply's body: an error response, or the result's response. */
  void checkModern(Reply reply, String resultDefinition) {
    if (reply.body().isEmpty()) {
      return;
    }
    JsonNode message;
    try {
      message = reply.json();
    } catch (RuntimeException e) {
      violations.add("a body that is not JSON: " + reply.body());
      return;
    }
    if (message.has("error")) {
      violations.addAll(SchemaCheck.violations(MODERN, "JSONRPCErrorResponse", message));
    } else {
      violations.addAll(SchemaCheck.violations(MODERN, resultDefinition + "Response", message));
    }
  }

  /** A legacy session: its id, and the revision its initialize negotiated. */
  record Legacy(String id, String revision) {}

  /** {@code initialize} of {@code version}; the session it opened (checked against the schema). */
  Legacy initialize(String token, String version) throws IOException, InterruptedException {
    long id = nextId();
    String body =
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + id
            + ",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
            + version
            + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"http-wire\",\"version\":\"1\"}}}";
    Reply reply = post(body, legacyHeaders(token, null, null));
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    String revision =
        SchemaCheck.legacyRevision(reply.json().at("/result/protocolVersion").asString(""));
    violations.addAll(SchemaCheck.legacyResponse(revision, "InitializeResult", reply.json()));
    String session = reply.header("Mcp-Session-Id");
    assertThat(session).as("Mcp-Session-Id of initialize").isNotNull();
    Reply initialized =
        post(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
            legacyHeaders(token, session, version));
    assertThat(initialized.status()).isEqualTo(202);
    return new Legacy(session, revision);
  }

  static String[] legacyHeaders(String token, String session, String version) {
    List<String> headers =
        new ArrayList<>(
            List.of(
                "Content-Type",
                "application/json",
                "Accept",
                "application/json, text/event-stream"));
    if (version != null) {
      headers.add("MCP-Protocol-Version");
      headers.add(version);
    }
    if (session != null) {
      headers.add("Mcp-Session-Id");
      headers.add(session);
    }
    if (token != null) {
      headers.add("Authorization");
      headers.add("Bearer " + token);
    }
    return headers.toArray(new String[0]);
  }

  /** A request of a legacy session; its reply checked against that revision's schema. */
  Reply legacy(String token, Legacy session, String method, String params, String resultDefinition)
      throws IOException, InterruptedException {
    long id = nextId();
    String body =
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + id
            + ",\"method\":\""
            + method
            + "\""
            + (params == null ? "" : ",\"params\":" + params)
            + "}";
    Reply reply =
        post(
            body,
            legacyHeaders(
                token,
                session.id(),
                session.revision().equals("2024-11-05") ? null : "2025-11-25"));
    if (reply.status() == 200) {
      violations.addAll(
          SchemaCheck.legacyResponse(session.revision(), resultDefinition, reply.json()));
    }
    return reply;
  }

  // ---------------------------------------------------------------------------------------------
  // SSE streams.

  /** An open SSE response: its events as they come, each checked against the schema. */
  final class Events implements AutoCloseable {
    final BlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
    final int status;
    private final InputStream body;
    private final String revision;

    Events(HttpResponse<InputStream> response, String revision) {
      this.status = response.statusCode();
      this.body = response.body();
      this.revision = revision;
      Thread reader = new Thread(this::read, "http-wire sse");
      reader.setDaemon(true);
      reader.start();
    }

    private void read() {
      try (BufferedReader lines =
          new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
        String line;
        while ((line = lines.readLine()) != null) {
          if (line.startsWith("data: ")) {
            JsonNode message = JSON.readTree(line.substring(6));
            check(message);
            events.add(message);
          }
        }
      } catch (IOException | RuntimeException e) {
        // closed
      }
    }

    private void check(JsonNode message) {
      String method = message.path("method").asString("");
      String definition =
          switch (method) {
            case "notifications/subscriptions/acknowledged" ->
                "SubscriptionsAcknowledgedNotification";
            case "notifications/resources/updated" -> "ResourceUpdatedNotification";
            case "notifications/resources/list_changed" -> "ResourceListChangedNotification";
            default -> message.has("error") ? "JSONRPCErrorResponse" : "JSONRPCResultResponse";
          };
      violations.addAll(SchemaCheck.violations(revision, definition, message));
    }

    JsonNode next() throws InterruptedException {
      JsonNode event = events.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(event).as("an SSE event within " + WAIT + "; stderr:\n" + stderr).isNotNull();
      return event;
    }

    @Override
    public void close() throws IOException {
      body.close();
    }
  }

  /** {@code subscriptions/listen} with {@code notifications} as its filter. */
  Events listen(String token, String notifications) throws IOException, InterruptedException {
    long id = nextId();
    String body =
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + id
            + ",\"method\":\"subscriptions/listen\",\"params\":{"
            + META
            + ",\"notifications\":"
            + notifications
            + "}}";
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString(body));
    String[] headers = modernHeaders(token, "subscriptions/listen", null);
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return new Events(
        client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream()), MODERN);
  }

  /** A legacy session's GET stream. */
  Events get(String token, Legacy session) throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .GET()
            .header("Accept", "text/event-stream")
            .header("Mcp-Session-Id", session.id());
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return new Events(
        client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream()),
        session.revision());
  }

  // ---------------------------------------------------------------------------------------------

  List<String> violations() {
    return new ArrayList<>(violations);
  }

  String stderr() {
    return stderr.toString();
  }

  Process process() {
    return process;
  }

  /** The server's resident set, in KiB, from /proc. */
  long rssKib() throws IOException {
    try (Stream<String> lines =
        Files.lines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
      return lines
          .filter(line -> line.startsWith("VmRSS:"))
          .map(line -> Long.parseLong(line.replaceAll("[^0-9]", "")))
          .findFirst()
          .orElse(-1L);
    }
  }

  /** SIGTERM, and the exit status. */
  int terminate() throws InterruptedException {
    process.toHandle().destroy();
    assertThat(process.waitFor(30, TimeUnit.SECONDS))
        .as("exits on SIGTERM; stderr:\n" + stderr)
        .isTrue();
    return process.exitValue();
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.toHandle().destroy();
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.toHandle().destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.toHandle().destroyForcibly();
      }
    }
  }

  static Map<String, String> headers(String... pairs) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
    }
    return map;
  }
}

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import notesmcp.mcp.SchemaCheck;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The real server executable as a child process, spoken to in raw newline-delimited JSON-RPC.
 *
 * <p>Every line the server writes is parsed and validated against the official schema of the
 * revision its request was sent in ({@link SchemaCheck}); {@link #close()} fails the test if any
 * line was not a valid MCP message. Responses may arrive in any order; {@link #response} waits for
 * one id and keeps the others.
 *
 * <p>Two transports, chosen for the whole test JVM by the system property {@value
 * #TRANSPORT_PROPERTY}: {@code stdio} (the default), the lines on the server's pipes; or {@code
 * http}, the same lines carried to the same server started with {@code -http 127.0.0.1:0 -tokens
 * FILE}, as a Streamable HTTP client with a token carries them ({@link WireOverHttp}), its stdout
 * required empty. The end of input is then SIGTERM. A test that holds what only one transport can
 * show says so with {@link #assumeStdio}.
 */
final class WireServer implements AutoCloseable {
  static final ObjectMapper JSON = JsonMapper.builder().build();
  static final String META =
      "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{},"
          + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"wire-test\",\"version\":\"1\"}}";
  private static final Duration WAIT = Duration.ofSeconds(15);

  /** How long a response (or the exit) may take; {@link #patient} lengthens it for one server. */
  private volatile Duration wait = WAIT;

  /** What a response to one request id must satisfy. */
  private record Expectation(String revision, String resultDefinition) {}

  /** The revision of an expectation for a legacy request: the session's negotiated one. */
  private static final String LEGACY_SESSION = "legacy session";

  /** The system property that chooses the transport: {@code stdio} or {@code http}. */
  static final String TRANSPORT_PROPERTY = "notesmcp.transport";

  /** Whether this test JVM speaks to its servers over HTTP. */
  static final boolean HTTP = "http".equals(System.getProperty(TRANSPORT_PROPERTY, "stdio"));

  private final Process process;
  private final OutputStream stdin;
  private final WireOverHttp http;
  private final boolean overHttp;
  private final StringBuilder pending = new StringBuilder();
  private final BlockingQueue<JsonNode> incoming = new LinkedBlockingQueue<>();
  private final BlockingQueue<JsonNode> batches = new LinkedBlockingQueue<>();
  private final BlockingQueue<JsonNode> notifications = new LinkedBlockingQueue<>();
  private final List<JsonNode> unclaimed = Collections.synchronizedList(new ArrayList<>());
  private final Map<String, Expectation> expectations = new ConcurrentHashMap<>();
  private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
  private final StringBuffer stderr = new StringBuffer();
  private final AtomicLong nextId = new AtomicLong(1);

  /** The schema revision of the legacy session, from the last initialize result (reader thread). */
  private volatile String legacyRevision = SchemaCheck.LEGACY;

  private WireServer(Process process) {
    this.process = process;
    this.stdin = process.getOutputStream();
    this.http = null;
    this.overHttp = false;
    daemon("stdout", () -> readStdout(process.getInputStream()));
    daemon("stderr", () -> readStderr(process.getErrorStream()));
  }

  /** A server started with {@link WireOverHttp#serveFlags}: the port read from its stderr. */
  private WireServer(Process process, boolean overHttp) {
    this.process = process;
    this.stdin = process.getOutputStream();
    this.overHttp = overHttp;
    daemon("stdout", () -> readStdout(process.getInputStream()));
    daemon("stderr", () -> readStderr(process.getErrorStream()));
    java.util.regex.Pattern listening =
        java.util.regex.Pattern.compile("listening on (http://127\\.0\\.0\\.1:[0-9]+/mcp)");
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    java.util.regex.Matcher found;
    while (!(found = listening.matcher(stderr)).find()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new AssertionError("the server did not say where it listens; stderr:\n" + stderr);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }
    this.http =
        new WireOverHttp(java.net.URI.create(found.group(1)), this::received, violations::add);
  }

  private static WireServer started(ProcessBuilder builder) throws IOException {
    if (!HTTP) {
      return new WireServer(builder.start());
    }
    try {
      builder.command().addAll(WireOverHttp.serveFlags());
    } catch (Exception e) {
      throw new IOException("the fixture's tokens file", e);
    }
    return new WireServer(builder.start(), true);
  }

  /**
   * Skips the calling test over HTTP, for what only a stdio server shows (its pipes, the exit at
   * the end of input, one session a process); {@code why} says what.
   */
  static void assumeStdio(String why) {
    org.junit.jupiter.api.Assumptions.assumeFalse(HTTP, "stdio only: " + why);
  }

  static Path launcher() {
    String launcher = System.getProperty("notesmcp.launcher");
    assertThat(launcher).as("system property notesmcp.launcher (set by failsafe)").isNotNull();
    return Path.of(launcher);
  }

  /** Starts {@code notes-mcp -serve -root root extra...}. */
  static WireServer start(Path root, String... extra) throws IOException {
    return start(root, Map.of(), extra);
  }

  static WireServer start(Path root, Map<String, String> env, String... extra) throws IOException {
    List<String> command =
        new ArrayList<>(List.of(launcher().toString(), "-serve", "-root", root.toString()));
    command.addAll(List.of(extra));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(env);
    return started(builder);
  }

  /** Starts any server {@code command} in {@code directory}. */
  static WireServer start(List<String> command, Path directory) throws IOException {
    return new WireServer(new ProcessBuilder(command).directory(directory.toFile()).start());
  }

  /**
   * This server with a longer wait for each response: for calls whose first use loads a module and
   * builds an index, on a machine that may be busy.
   */
  WireServer patient(Duration wait) {
    this.wait = wait;
    return this;
  }

  /**
   * Starts {@code command}, which must become the server itself ({@code exec}): the program's with
   * its own flags ({@link TestMain#command}), or a server set up by a wrapper, in a mount namespace
   * of its own, say.
   */
  static WireServer startCommand(List<String> command) throws IOException {
    return started(new ProcessBuilder(new ArrayList<>(command)));
  }

  /** Starts the server {@code builder} makes, as {@link #startCommand} (with its environment). */
  static WireServer startProcess(ProcessBuilder builder) throws IOException {
    return new WireServer(builder.start());
  }

  private static void daemon(String name, Runnable body) {
    Thread thread = new Thread(body, "wire-" + name);
    thread.setDaemon(true);
    thread.start();
  }

  private void readStdout(InputStream in) {
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (overHttp) {
          violations.add("stdout of a server over HTTP: " + line);
          continue;
        }
        received(line);
      }
    } catch (IOException e) {
      // Process.destroy() closes the stream under the reader: the output simply ends.
    }
  }

  /** One message from the server: a line of its stdout, or a reply or event over HTTP. */
  private void received(String line) {
    JsonNode message;
    try {
      message = JSON.readTree(line);
    } catch (RuntimeException e) {
      violations.add("stdout line is not JSON: " + line);
      return;
    }
    if (message.isArray()) {
      // A batch's reply (2025-03-26): each element is checked as that response alone would be.
      if (message.isEmpty()) {
        violations.add("an empty array: a batch with no reply gets no reply at all");
      }
      for (JsonNode element : message) {
        check(element);
      }
      batches.add(message);
      return;
    }
    if (message.isObject() && message.has("method") && !message.has("id")) {
      checkNotification(message);
      notifications.add(message);
      return;
    }
    check(message);
    incoming.add(message);
  }

  private void readStderr(InputStream in) {
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        stderr.append(line).append('\n');
      }
    } catch (IOException e) {
      // the process is gone
    }
  }

  /**
   * The definition of each notification the server may send; a notification on a 2026-07-28 stream
   * carries its subscription's id in {@code _meta}, any other is the legacy session's.
   */
  private static final Map<String, String> NOTIFICATIONS =
      Map.of(
          "notifications/subscriptions/acknowledged", "SubscriptionsAcknowledgedNotification",
          "notifications/resources/updated", "ResourceUpdatedNotification",
          "notifications/resources/list_changed", "ResourceListChangedNotification");

  private void checkNotification(JsonNode message) {
    String definition = NOTIFICATIONS.get(message.path("method").asString(""));
    if (definition == null) {
      violations.add("a notification this server never sends: " + message);
      return;
    }
    boolean modern = message.path("params").path("_meta").has(SUBSCRIPTION_ID);
    if (modern) {
      violations.addAll(SchemaCheck.violations(SchemaCheck.MODERN, definition, message));
    } else if (definition.equals("SubscriptionsAcknowledgedNotification")) {
      violations.add("an acknowledgment without its subscription id: " + message);
    } else {
      violations.addAll(SchemaCheck.violations(legacyRevision, definition, message));
    }
  }

  static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

  /** Waits for the next notification the server sent. */
  JsonNode notification() throws InterruptedException {
    JsonNode message = notifications.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(message).as("a notification within " + WAIT + "; stderr:\n" + stderr).isNotNull();
    return message;
  }

  /** The notifications that arrive within {@code quiet} of each other. */
  List<JsonNode> notifications(Duration quiet) throws InterruptedException {
    List<JsonNode> messages = new ArrayList<>();
    JsonNode message;
    while ((message = notifications.poll(quiet.toMillis(), TimeUnit.MILLISECONDS)) != null) {
      messages.add(message);
    }
    return messages;
  }

  /** Validates one message against the schema of the revision its request was sent in. */
  private void check(JsonNode message) {
    if (!message.isObject() || message.has("method")) {
      violations.add("the server sent something other than a response: " + message);
      return;
    }
    Expectation expected =
        message.has("id") ? expectations.get(message.get("id").toString()) : null;
    if (expected != null && expected.revision().equals(LEGACY_SESSION)) {
      String revision = legacyRevision;
      if (expected.resultDefinition().equals("InitializeResult") && message.has("result")) {
        revision = SchemaCheck.legacyRevision(message.at("/result/protocolVersion").asString(""));
        legacyRevision = revision;
      }
      violations.addAll(SchemaCheck.legacyResponse(revision, expected.resultDefinition(), message));
      return;
    }
    if (message.has("error")) {
      violations.addAll(
          SchemaCheck.violations(SchemaCheck.MODERN, "JSONRPCErrorResponse", message));
      return;
    }
    if (expected == null) {
      String revision =
          message.path("result").has("resultType") ? SchemaCheck.MODERN : SchemaCheck.LEGACY;
      violations.addAll(SchemaCheck.violations(revision, "JSONRPCResultResponse", message));
    } else {
      violations.addAll(
          SchemaCheck.violations(
              SchemaCheck.MODERN, expected.resultDefinition() + "Response", message));
    }
  }

  /** Writes one line (the newline is added). */
  void send(String line) {
    sendBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Writes raw bytes, exactly; over HTTP each complete line is carried as one message (a line
   * written in pieces is sent once its newline comes).
   */
  void sendBytes(byte[] bytes) {
    if (http != null) {
      synchronized (pending) {
        pending.append(new String(bytes, StandardCharsets.UTF_8));
        int newline;
        while ((newline = pending.indexOf("\n")) >= 0) {
          String line = pending.substring(0, newline);
          pending.delete(0, newline + 1);
          if (!line.isEmpty()) {
            http.send(line);
          }
        }
      }
      return;
    }
    try {
      stdin.write(bytes);
      stdin.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Sends a 2026-07-28 request with {@code _meta} and the given extra params members. */
  JsonNode modern(String method, String paramsMembers, String resultDefinition) {
    long id = nextId.getAndIncrement();
    expect(id, SchemaCheck.MODERN, resultDefinition);
    String params = paramsMembers.isEmpty() ? META : META + "," + paramsMembers;
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + id
            + ",\"method\":\""
            + method
            + "\",\"params\":{"
            + params
            + "}}");
    return response(id);
  }

  /** A 2026-07-28 {@code tools/call}; {@code arguments} is raw JSON text or null to omit it. */
  JsonNode call(String tool, String arguments) {
    String members =
        "\"name\":"
            + JSON.writeValueAsString(tool)
            + (arguments == null ? "" : ",\"arguments\":" + arguments);
    return modern("tools/call", members, "CallToolResult");
  }

  /**
   * Sends a request without modern {@code _meta} (the legacy era), params as raw JSON or null. The
   * response is checked against the schema of the version the last {@code initialize} negotiated.
   */
  JsonNode legacy(String method, String params, String resultDefinition) {
    long id = nextId.getAndIncrement();
    expect(id, LEGACY_SESSION, resultDefinition);
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + id
            + ",\"method\":\""
            + method
            + "\""
            + (params == null ? "" : ",\"params\":" + params)
            + "}");
    return response(id);
  }

  /** Registers what the response to a raw request with this id must satisfy. */
  void expect(long id, String revision, String resultDefinition) {
    expectations.put(Long.toString(id), new Expectation(revision, resultDefinition));
  }

  long nextId() {
    return nextId.getAndIncrement();
  }

  /** Waits for the next line that is an array: a batch's reply. */
  JsonNode batchReply() throws InterruptedException {
    JsonNode batch = batches.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(batch).as("a batch's reply within " + WAIT + "; stderr:\n" + stderr).isNotNull();
    return batch;
  }

  /** The batch replies that arrived and were not taken. */
  List<JsonNode> batchesLeft() {
    return new ArrayList<>(batches);
  }

  /** Waits for the response with this id. */
  JsonNode response(long id) {
    return awaitMatching(
        m -> m.path("id").isIntegralNumber() && m.path("id").asLong() == id,
        "a response to id " + id);
  }

  /** Waits for the response whose id is the JSON value {@code idJson}, exactly. */
  JsonNode responseTo(String idJson) {
    JsonNode id = JSON.readTree(idJson);
    return awaitMatching(m -> id.equals(m.get("id")), "a response to id " + idJson);
  }

  /** Waits for the next response that has no id (an error about an unreadable message). */
  JsonNode responseWithoutId() {
    return awaitMatching(m -> !m.has("id"), "an error response without id");
  }

  private JsonNode awaitMatching(java.util.function.Predicate<JsonNode> wanted, String what) {
    synchronized (unclaimed) {
      for (JsonNode message : unclaimed) {
        if (wanted.test(message)) {
          unclaimed.remove(message);
          return message;
        }
      }
    }
    long deadline = System.nanoTime() + wait.toNanos();
    try {
      while (true) {
        long left = deadline - System.nanoTime();
        JsonNode message = left <= 0 ? null : incoming.poll(left, TimeUnit.NANOSECONDS);
        if (message == null) {
          throw new AssertionError("no " + what + " within " + wait + "; stderr:\n" + stderr);
        }
        if (wanted.test(message)) {
          return message;
        }
        unclaimed.add(message);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** Messages that arrive within {@code quiet} of each other, including unclaimed ones. */
  List<JsonNode> drain(Duration quiet) throws InterruptedException {
    List<JsonNode> messages = new ArrayList<>(unclaimed);
    unclaimed.clear();
    JsonNode message;
    while ((message = incoming.poll(quiet.toMillis(), TimeUnit.MILLISECONDS)) != null) {
      messages.add(message);
    }
    return messages;
  }

  /** The text of the single content block of a tool result response. */
  static String text(JsonNode response) {
    JsonNode content = response.path("result").path("content");
    assertThat(content.size()).as("content blocks in " + response).isEqualTo(1);
    assertThat(content.get(0).path("type").asString()).isEqualTo("text");
    return content.get(0).path("text").asString();
  }

  static boolean isError(JsonNode response) {
    return response.path("result").path("isError").asBoolean();
  }

  /**
   * Closes stdin and waits for the exit status; over HTTP the end of input is SIGTERM, after which
   * the server stops gracefully (open streams get their closing result).
   */
  int closeInputAndWait() throws InterruptedException {
    if (http != null) {
      process.toHandle().destroy();
      assertThat(process.waitFor(wait.toMillis() + 30_000, TimeUnit.MILLISECONDS))
          .as("server exits on SIGTERM; stderr:\n" + stderr)
          .isTrue();
      return process.exitValue();
    }
    try {
      stdin.close();
    } catch (IOException e) {
      // already closed
    }
    assertThat(process.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS))
        .as("server exits after stdin closes; stderr:\n" + stderr)
        .isTrue();
    return process.exitValue();
  }

  Process process() {
    return process;
  }

  String stderr() {
    return stderr.toString();
  }

  /** Waits until stderr contains {@code text}. */
  void awaitStderr(String text) throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (!stderr.toString().contains(text)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("stderr never said \"" + text + "\":\n" + stderr);
      }
      Thread.sleep(10);
    }
  }

  /** Stops the process and fails if any line it wrote was not a valid MCP message. */
  @Override
  public void close() {
    try {
      if (process.isAlive()) {
        closeInputAndWait();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      process.destroyForcibly();
      if (http != null) {
        http.close();
      }
    }
    assertThat(violations).as("schema violations in what the server wrote").isEmpty();
  }
}

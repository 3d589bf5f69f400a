package notesmcp.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
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
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The HTTP benchmark (bench/README.md, "The HTTP benchmark"): {@code notes-mcp -serve -http} beside
 * the TypeScript SDK's Streamable HTTP server ({@code server-everything streamableHttp}) and the
 * official filesystem server behind the supergateway bridge (stdio to Streamable HTTP, stateful),
 * in one run, rounds rotating the order, every server driven by this one load generator: the JDK's
 * HTTP client, HTTP/1.1 with keep-alive, one connection per client.
 *
 * <p>Per server and round, in one process: the start (spawn to the port answering); {@code
 * tools/list} one at a time (warm-up, then every request recorded in an HdrHistogram); {@code
 * tools/list} from 16 clients at once for a fixed time (requests a second, and their latency); a
 * note read one at a time (ours {@code read_note}, the filesystem server's {@code read_text_file}),
 * where the server has one; and for ours, reads from 16 clients until the process has answered
 * 100,000 requests, then its resident set (VmRSS) and peak (VmHWM). Every reply is checked: its id,
 * no error, the tools listed, the note's exact text.
 *
 * <p>Each client speaks the {@code initialize} era (a session of its own: {@code Mcp-Session-Id},
 * {@code MCP-Protocol-Version}), as the TypeScript server and the bridge do; ours also in
 * 2026-07-28 (stateless, per-request {@code _meta} and headers) as {@code notes-mcp-modern}. Our
 * server has a token for each client (16 devices; a caller may have 8 requests in flight), and a
 * budget no phase reaches.
 */
public final class HttpHarness {
  static final String OURS = "notes-mcp";
  static final String OURS_MODERN = "notes-mcp-modern";
  static final String OURS_TIERED = "notes-mcp-tiered";
  static final String TS = "ts-everything";
  static final String BRIDGE = "filesystem-bridge";
  static final List<String> KNOWN = List.of(OURS, OURS_MODERN, OURS_TIERED, TS, BRIDGE);

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String LEGACY = "2025-11-25";
  private static final String MODERN = "2026-07-28";
  private static final String META =
      "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{},"
          + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"http-bench\",\"version\":\"1\"}}";

  private final Path repo;
  private final Path workspace;
  private final Path tokensFile;
  private final List<String> tokens = new ArrayList<>();
  private final Options options;
  private final Machine machine;
  private final String note;

  /** The run's settings, from the command line. */
  record Options(
      List<String> servers,
      int rounds,
      int warmup,
      int requests,
      int clients,
      Duration throughput,
      long soak,
      Path out,
      Map<String, String> oursEnv) {}

  /** One server's numbers in one round; -1 where not measured. */
  static final class Round {
    double startMs = -1;
    Histogram listLatency;
    double throughput = -1;
    Histogram loadedLatency;
    Histogram readLatency;
    long answered;
    long rssKib = -1;
    long hwmKib = -1;
    String failure;
  }

  private HttpHarness(Path repo, Options options) throws Exception {
    this.repo = repo;
    this.options = options;
    this.machine = new Machine(repo);
    Path scratch = Files.createTempDirectory("http-bench");
    this.workspace = Files.createDirectories(scratch.resolve("workspace"));
    Files.copy(repo.resolve("examples/workspace/notes.txt"), workspace.resolve("notes.txt"));
    Files.copy(repo.resolve("examples/workspace/project.txt"), workspace.resolve("project.txt"));
    this.note = Files.readString(workspace.resolve("notes.txt"), StandardCharsets.UTF_8);
    Path folder = Files.createDirectories(scratch.resolve("tokens"));
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
    this.tokensFile = folder.resolve("tokens.json");
  }

  public static void main(String[] args) throws Exception {
    Path repo = Path.of(".").toAbsolutePath().normalize();
    List<String> servers = List.of(OURS, OURS_MODERN, TS, BRIDGE);
    int rounds = 3;
    int warmup = 2_000;
    int requests = 5_000;
    int clients = 16;
    Duration throughput = Duration.ofSeconds(10);
    long soak = 100_000;
    Path out = null;
    Map<String, String> oursEnv = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      switch (args[i]) {
        case "--repo" -> repo = Path.of(value);
        case "--servers" -> servers = List.of(value.split(","));
        case "--rounds" -> rounds = Integer.parseInt(value);
        case "--warmup" -> warmup = Integer.parseInt(value);
        case "--requests" -> requests = Integer.parseInt(value);
        case "--clients" -> clients = Integer.parseInt(value);
        case "--seconds" -> throughput = Duration.ofSeconds(Long.parseLong(value));
        case "--soak" -> soak = Long.parseLong(value);
        case "--out" -> out = Path.of(value);
        case "--ours-env" -> {
          int equals = value.indexOf('=');
          oursEnv.put(value.substring(0, equals), value.substring(equals + 1));
        }
        default -> {
          System.err.println(
              "http-bench: unknown option "
                  + args[i]
                  + "; options: --servers "
                  + String.join(",", KNOWN)
                  + " --rounds N --warmup N --requests N --clients N --seconds S --soak N --out"
                  + " FILE --ours-env NAME=VALUE");
          System.exit(2);
        }
      }
      i++;
    }
    for (String server : servers) {
      if (!KNOWN.contains(server)) {
        System.err.println("http-bench: unknown server " + server + "; known: " + KNOWN);
        System.exit(2);
      }
    }
    HttpHarness harness =
        new HttpHarness(
            repo,
            new Options(
                servers, rounds, warmup, requests, clients, throughput, soak, out, oursEnv));
    System.exit(harness.run());
  }

  private int run() throws Exception {
    for (int i = 0; i < options.clients; i++) {
      tokens.add(addToken("client" + (i + 1)));
    }
    Map<String, List<Round>> results = new LinkedHashMap<>();
    for (String server : options.servers) {
      results.put(server, new ArrayList<>());
    }
    for (int round = 0; round < options.rounds; round++) {
      List<String> order = new ArrayList<>(options.servers);
      Collections.rotate(order, -round);
      for (String server : order) {
        System.err.printf("http-bench: round %d, %s ...%n", round + 1, server);
        Round measured = measure(server);
        results.get(server).add(measured);
        if (measured.failure != null) {
          System.err.println("http-bench: " + server + ": " + measured.failure);
        }
      }
    }
    machine.end();
    String report = report(results);
    System.out.print(report);
    Path out =
        options.out != null
            ? options.out
            : repo.resolve("bench/results/http-" + machine.stamp() + ".md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, report);
    System.err.println("http-bench: report in " + out);
    boolean failed =
        results.values().stream().flatMap(List::stream).anyMatch(r -> r.failure != null);
    return failed ? 1 : 0;
  }

  /** {@code notes-mcp token add NAME -tokens FILE -scope read}: the token, its last stdout line. */
  private String addToken(String name) throws Exception {
    Process process =
        new ProcessBuilder(
                repo.resolve("notes-mcp").toString(),
                "token",
                "add",
                name,
                "-tokens",
                tokensFile.toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (process.waitFor() != 0) {
      throw new IllegalStateException("token add " + name + " failed");
    }
    String[] lines = out.strip().split("\n");
    return lines[lines.length - 1];
  }

  // -----------------------------------------------------------------------------------------------
  // Servers.

  /** A running server: its process, where it answers, and how it is spoken to. */
  private record Running(Process process, URI uri, boolean ours, boolean modern, boolean reads) {}

  private static final Pattern LISTENING =
      Pattern.compile("listening on (http://127\\.0\\.0\\.1:[0-9]+/mcp)");

  private Running start(String server) throws Exception {
    boolean ours = server.startsWith(OURS);
    List<String> command = new ArrayList<>();
    ProcessBuilder builder = new ProcessBuilder();
    int port = ours ? 0 : freePort();
    switch (server) {
      case OURS, OURS_MODERN -> command.add(repo.resolve("notes-mcp").toString());
      case OURS_TIERED -> {
        command.add(Programs.java());
        command.addAll(tieredFlags());
        command.addAll(
            List.of(
                "-cp",
                repo.resolve("notes-app/target/notes-mcp.jar").toString(),
                "notesmcp.app.Main"));
        builder
            .environment()
            .put("NOTES_MCP_HTTP", repo.resolve("notes-web/target/http").toString());
      }
      case TS -> {
        command.addAll(List.of("node", peer("mcp-server-everything"), "streamableHttp"));
        builder.environment().put("PORT", Integer.toString(port));
      }
      case BRIDGE ->
          command.addAll(
              List.of(
                  "node",
                  peer("supergateway"),
                  "--stdio",
                  "node " + peer("mcp-server-filesystem") + " " + workspace,
                  "--outputTransport",
                  "streamableHttp",
                  "--stateful",
                  "--port",
                  Integer.toString(port)));
      default -> throw new AssertionError(server);
    }
    if (ours) {
      command.addAll(
          List.of(
              "-serve",
              "-root",
              workspace.toString(),
              "-http",
              "127.0.0.1:0",
              "-tokens",
              tokensFile.toString(),
              "-max-calls",
              "100000000"));
    }
    builder.command(command);
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    if (ours) {
      builder.environment().putAll(options.oursEnv);
    }
    // The peers log a line a request on stdout: read by nobody, never in the way.
    builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    Path err = Files.createTempFile("http-bench-" + server, ".err");
    System.err.println("http-bench: " + server + "'s stderr: " + err);
    builder.redirectError(err.toFile());
    Process process = builder.start();
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    URI uri = null;
    while (uri == null) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new IllegalStateException(
            server + " did not start; stderr:\n" + Files.readString(err));
      }
      if (ours) {
        Matcher found = LISTENING.matcher(Files.readString(err));
        if (found.find()) {
          uri = URI.create(found.group(1));
        }
      } else if (accepts(port)) {
        uri = URI.create("http://127.0.0.1:" + port + "/mcp");
      }
      if (uri == null) {
        Thread.sleep(5);
      }
    }
    return new Running(process, uri, ours, server.equals(OURS_MODERN), !server.equals(TS));
  }

  private String peer(String bin) {
    return repo.resolve("bench/http/node_modules/.bin").resolve(bin).toString();
  }

  /** The launcher's JVM flags without those that keep it on C1 (BENCHMARKS.md). */
  private List<String> tieredFlags() throws IOException {
    String launcher = Files.readString(repo.resolve("notes-mcp"));
    Matcher flags = Pattern.compile("(?m)^flags=\\(([^)]*)\\)").matcher(launcher);
    if (!flags.find()) {
      throw new IllegalStateException("no flags=(...) in the launcher");
    }
    List<String> kept = new ArrayList<>();
    for (String flag : flags.group(1).trim().split("\\s+")) {
      if (!flag.equals("-XX:TieredStopAtLevel=1")
          && !flag.equals("-XX:CICompilerCount=1")
          && !flag.startsWith("-XX:Tier")) {
        kept.add(flag);
      }
    }
    return kept;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static void stop(Running running) throws InterruptedException {
    running.process.toHandle().descendants().forEach(ProcessHandle::destroy);
    running.process.destroy();
    if (!running.process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
      running.process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
      running.process.destroyForcibly();
    }
  }

  // -----------------------------------------------------------------------------------------------
  // Clients.

  /** One client: its connection (a client of its own), its session, its token, its ids. */
  private final class Client {
    private final HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    private final Running server;
    private final String token;
    private String session;
    private long ids = 1;

    Client(Running server, String token) throws Exception {
      this.server = server;
      this.token = token;
      if (!server.modern) {
        HttpResponse<String> reply =
            post(
                "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
                    + "\"protocolVersion\":\""
                    + LEGACY
                    + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"http-bench\","
                    + "\"version\":\"1\"}}}",
                "initialize",
                null);
        session = reply.headers().firstValue("Mcp-Session-Id").orElse(null);
        if (session == null) {
          throw new IllegalStateException("initialize opened no session: " + reply.body());
        }
        message(reply, 0);
        post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", null, null);
      }
    }

    private HttpResponse<String> post(String body, String method, String name) throws Exception {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(server.uri)
              .timeout(Duration.ofSeconds(60))
              .header("Content-Type", "application/json")
              .header("Accept", "application/json, text/event-stream")
              .POST(HttpRequest.BodyPublishers.ofString(body));
      if (server.ours) {
        request.header("Authorization", "Bearer " + token);
      }
      if (server.modern) {
        request.header("MCP-Protocol-Version", MODERN).header("Mcp-Method", method);
        if (name != null) {
          request.header("Mcp-Name", name);
        }
      } else if (session != null) {
        request.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", LEGACY);
      }
      HttpResponse<String> reply =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      if (reply.statusCode() >= 300) {
        throw new IllegalStateException("status " + reply.statusCode() + ": " + reply.body());
      }
      return reply;
    }

    /** The JSON-RPC message of a reply: its JSON body, or the SSE event that holds it. */
    private JsonNode message(HttpResponse<String> reply, long id) {
      String body = reply.body();
      String type = reply.headers().firstValue("Content-Type").orElse("");
      String json = body;
      if (type.startsWith("text/event-stream")) {
        json = null;
        for (String line : body.split("\n")) {
          if (line.startsWith("data:")) {
            json = line.substring(5).strip();
          }
        }
        if (json == null) {
          throw new IllegalStateException("an SSE reply with no event: " + body);
        }
      }
      JsonNode message = JSON.readTree(json);
      if (message.path("id").asLong(-1) != id || message.has("error")) {
        throw new IllegalStateException("reply to id " + id + ": " + json);
      }
      return message.get("result");
    }

    /** {@code tools/list}, checked: the server's tools, at least one. */
    void listTools() throws Exception {
      long id = ids++;
      String meta = server.modern ? META : "";
      JsonNode result =
          message(
              post(
                  "{\"jsonrpc\":\"2.0\",\"id\":"
                      + id
                      + ",\"method\":\"tools/list\",\"params\":{"
                      + meta
                      + "}}",
                  "tools/list",
                  null),
              id);
      if (!result.path("tools").isArray() || result.path("tools").isEmpty()) {
        throw new IllegalStateException("tools/list without tools: " + result);
      }
    }

    /** Reads notes.txt: ours {@code read_note}, the filesystem server's {@code read_text_file}. */
    void readNote() throws Exception {
      long id = ids++;
      String tool = server.ours ? "read_note" : "read_text_file";
      String path = server.ours ? "notes.txt" : workspace.resolve("notes.txt").toString();
      String meta = server.modern ? META + "," : "";
      JsonNode result =
          message(
              post(
                  "{\"jsonrpc\":\"2.0\",\"id\":"
                      + id
                      + ",\"method\":\"tools/call\",\"params\":{"
                      + meta
                      + "\"name\":\""
                      + tool
                      + "\",\"arguments\":{\"path\":"
                      + JSON.writeValueAsString(path)
                      + "}}}",
                  "tools/call",
                  tool),
              id);
      String text = result.path("content").path(0).path("text").asString("");
      String content = server.ours ? JSON.readTree(text).path("content").asString() : text;
      if (result.path("isError").asBoolean() || !content.equals(note)) {
        throw new IllegalStateException(tool + " did not return the note: " + result);
      }
    }
  }

  // -----------------------------------------------------------------------------------------------
  // Phases.

  private interface Call {
    void on(Client client) throws Exception;
  }

  private Round measure(String server) {
    Round round = new Round();
    Running running = null;
    try {
      long spawned = System.nanoTime();
      running = start(server);
      round.startMs = (System.nanoTime() - spawned) / 1e6;
      List<Client> clients = new ArrayList<>();
      for (int i = 0; i < options.clients; i++) {
        clients.add(new Client(running, tokens.get(i)));
      }
      AtomicLong answered = new AtomicLong(2L * options.clients);
      round.listLatency = sequential(clients.get(0), Client::listTools, answered);
      Histogram loaded = new Histogram(60_000_000L, 3);
      round.throughput =
          concurrent(clients, Client::listTools, options.throughput, 0, loaded, answered);
      round.loadedLatency = loaded;
      if (running.reads) {
        round.readLatency = sequential(clients.get(0), Client::readNote, answered);
      }
      if (running.ours && options.soak > 0) {
        long left = options.soak - answered.get();
        if (left > 0) {
          concurrent(
              clients, Client::readNote, null, left, new Histogram(60_000_000L, 3), answered);
        }
        round.rssKib = ProcFs.statusBytes(running.process.toHandle(), "VmRSS") / 1024;
        round.hwmKib = ProcFs.statusBytes(running.process.toHandle(), "VmHWM") / 1024;
      }
      round.answered = answered.get();
    } catch (Exception | AssertionError e) {
      round.failure = e.toString();
    } finally {
      if (running != null) {
        try {
          stop(running);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
    return round;
  }

  /** Warm-up calls, then {@code options.requests} recorded one at a time (µs). */
  private Histogram sequential(Client client, Call call, AtomicLong answered) throws Exception {
    for (int i = 0; i < options.warmup; i++) {
      call.on(client);
    }
    Histogram histogram = new Histogram(60_000_000L, 3);
    for (int i = 0; i < options.requests; i++) {
      long start = System.nanoTime();
      call.on(client);
      histogram.recordValue(Math.max(1, (System.nanoTime() - start) / 1_000));
    }
    answered.addAndGet(options.warmup + options.requests);
    return histogram;
  }

  /**
   * Every client in a thread of its own, calling back to back for {@code time} (after a second's
   * warm-up, not counted), or until {@code count} calls are answered in all; returns calls a second
   * over the counted span.
   */
  private double concurrent(
      List<Client> clients,
      Call call,
      Duration time,
      long count,
      Histogram latency,
      AtomicLong answered)
      throws Exception {
    AtomicLong done = new AtomicLong();
    AtomicLong counted = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    long warm = time == null ? 0 : Duration.ofSeconds(1).toNanos();
    long begin = System.nanoTime();
    long countFrom = begin + warm;
    long end = time == null ? Long.MAX_VALUE : countFrom + time.toNanos();
    CountDownLatch finished = new CountDownLatch(clients.size());
    for (Client client : clients) {
      Thread thread =
          new Thread(
              () -> {
                try {
                  while (failure.get() == null) {
                    long start = System.nanoTime();
                    if (start >= end || (count > 0 && done.get() >= count)) {
                      break;
                    }
                    call.on(client);
                    long stop = System.nanoTime();
                    done.incrementAndGet();
                    if (start >= countFrom && stop <= end) {
                      counted.incrementAndGet();
                      synchronized (latency) {
                        latency.recordValue(Math.max(1, (stop - start) / 1_000));
                      }
                    }
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                } finally {
                  finished.countDown();
                }
              },
              "http-bench client");
      thread.start();
    }
    finished.await();
    answered.addAndGet(done.get());
    if (failure.get() != null) {
      throw new IllegalStateException("a client failed: " + failure.get(), failure.get());
    }
    double seconds = time == null ? (System.nanoTime() - begin) / 1e9 : time.toNanos() / 1e9;
    return counted.get() / seconds;
  }

  // -----------------------------------------------------------------------------------------------
  // The report.

  private String report(Map<String, List<Round>> results) {
    StringBuilder out = new StringBuilder();
    out.append("# HTTP benchmark, ").append(machine.stamp()).append("\n\n");
    out.append("- commit: ").append(machine.commit).append('\n');
    out.append("- machine: ").append(machine.cpu).append(", ").append(machine.nproc);
    out.append(" cores, ").append(machine.memory).append('\n');
    out.append("- kernel: ").append(machine.uname).append('\n');
    out.append("- java: ").append(machine.java.replace('\n', ' ')).append('\n');
    out.append("- node: ").append(machine.node).append('\n');
    out.append("- load average at start: ").append(machine.loadAtStart);
    out.append("; at end: ").append(machine.loadAtEnd).append('\n');
    out.append("- rounds: ").append(options.rounds).append(", warm-up ").append(options.warmup);
    out.append(", recorded ").append(options.requests).append(" a phase, ");
    out.append(options.clients).append(" clients for ").append(options.throughput.toSeconds());
    out.append(" s, soak to ").append(options.soak).append(" requests\n\n");
    out.append("Medians over the rounds (each round's value in brackets); latency in µs.\n\n");
    out.append(
        "| server | start ms | tools/list p50 | p99 | 16 clients req/s | under load p50 | p99 |"
            + " read p50 | read p99 | RSS MiB after | peak MiB | requests |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    Map<String, double[]> medians = new LinkedHashMap<>();
    for (Map.Entry<String, List<Round>> entry : results.entrySet()) {
      List<Round> rounds = entry.getValue();
      double[] m = {
        median(rounds, r -> r.startMs),
        median(rounds, r -> pct(r.listLatency, 50)),
        median(rounds, r -> pct(r.listLatency, 99)),
        median(rounds, r -> r.throughput),
        median(rounds, r -> pct(r.loadedLatency, 50)),
        median(rounds, r -> pct(r.loadedLatency, 99)),
        median(rounds, r -> pct(r.readLatency, 50)),
        median(rounds, r -> pct(r.readLatency, 99)),
        median(rounds, r -> r.rssKib < 0 ? -1 : r.rssKib / 1024.0),
        median(rounds, r -> r.hwmKib < 0 ? -1 : r.hwmKib / 1024.0),
        median(rounds, r -> (double) r.answered)
      };
      medians.put(entry.getKey(), m);
      out.append("| ").append(entry.getKey());
      for (int i = 0; i < m.length; i++) {
        out.append(" | ").append(cell(m[i], rounds, i));
      }
      out.append(" |\n");
      for (Round round : rounds) {
        if (round.failure != null) {
          out.append("\n**").append(entry.getKey()).append(" failed**: ").append(round.failure);
          out.append('\n');
        }
      }
    }
    out.append('\n').append(targets(medians));
    return out.toString();
  }

  private interface Value {
    double of(Round round);
  }

  private static double median(List<Round> rounds, Value value) {
    List<Double> values = new ArrayList<>();
    for (Round round : rounds) {
      if (round.failure == null) {
        double v = value.of(round);
        if (v >= 0) {
          values.add(v);
        }
      }
    }
    return values.isEmpty() ? -1 : new Stats(values).median();
  }

  private static double pct(Histogram histogram, double percentile) {
    return histogram == null || histogram.getTotalCount() == 0
        ? -1
        : histogram.getValueAtPercentile(percentile);
  }

  private static final Value[] COLUMNS = {
    r -> r.startMs,
    r -> pct(r.listLatency, 50),
    r -> pct(r.listLatency, 99),
    r -> r.throughput,
    r -> pct(r.loadedLatency, 50),
    r -> pct(r.loadedLatency, 99),
    r -> pct(r.readLatency, 50),
    r -> pct(r.readLatency, 99),
    r -> r.rssKib < 0 ? -1 : r.rssKib / 1024.0,
    r -> r.hwmKib < 0 ? -1 : r.hwmKib / 1024.0,
    r -> r.answered
  };

  private static String cell(double median, List<Round> rounds, int column) {
    if (median < 0) {
      return "–";
    }
    List<String> each = new ArrayList<>();
    for (Round round : rounds) {
      double v = round.failure == null ? COLUMNS[column].of(round) : -1;
      each.add(v < 0 ? "–" : format(v));
    }
    return format(median) + " [" + String.join(", ", each) + "]";
  }

  private static String format(double value) {
    return value >= 100 ? String.format("%,.0f", value) : String.format("%.1f", value);
  }

  /** The targets of the HTTP transport (BENCHMARKS.md), from the medians. */
  private static String targets(Map<String, double[]> m) {
    StringBuilder out = new StringBuilder("Targets (ours: the initialize era, as the peers):\n\n");
    double[] ours = m.get(OURS);
    double[] ts = m.get(TS);
    double[] bridge = m.get(BRIDGE);
    if (ours != null && ts != null) {
      target(out, "tools/list p50 ≤ 0.5× the TS server's", ours[1] / ts[1], 0.5, true);
      target(out, "tools/list p99 ≤ 0.7× the TS server's", ours[2] / ts[2], 0.7, true);
      target(out, "16 clients' throughput ≥ 2× the TS server's", ours[3] / ts[3], 2.0, false);
    }
    if (ours != null && bridge != null) {
      target(
          out, "read p50 ≤ 0.3× the bridged filesystem server's", ours[6] / bridge[6], 0.3, true);
    }
    if (ours != null && ours[8] >= 0) {
      out.append(
          String.format(
              "- RSS after %,.0f requests ≤ 64 MiB: %.1f MiB, %s%n",
              ours[10], ours[8], ours[8] <= 64 ? "met" : "**not met**"));
    }
    return out.toString();
  }

  private static void target(
      StringBuilder out, String what, double ratio, double bound, boolean atMost) {
    boolean met = atMost ? ratio <= bound : ratio >= bound;
    out.append(String.format("- %s: %.2f×, %s%n", what, ratio, met ? "met" : "**not met**"));
  }
}

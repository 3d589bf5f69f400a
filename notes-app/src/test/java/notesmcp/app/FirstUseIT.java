package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import notesmcp.cli.Version;
import notesmcp.mcp.SchemaCheck;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a new user meets first (docs/packaging.md, "Installing"; docs/testing.md): {@code
 * ./notes-mcp} in a checkout with no {@code target/} builds the program and says so on stderr, in
 * plain text (no terminal escape codes from Maven); and a built checkout that is copied ({@code cp
 * -a}) or moved starts without a single start-up-cache warning from the JVM (the launcher sees that
 * its cache was made for the jar at another path and makes a new one).
 *
 * <p>Nothing the launcher runs before the JVM reads the client's stdin (docs/packaging.md, "Where
 * in the build"): each first run is given input on a pipe, as a host or a script gives it, and must
 * act on it. The first-ever run is a server ({@code -serve}) with a request piped in, which it must
 * answer; the chat's first run a person's message, which must reach the model; and the first run of
 * a copied checkout (its start-up cache made by training runs) a one-shot client whose stdin, which
 * it does not read, must be left whole for whoever reads it next.
 *
 * <p>The first-use builds ({@code -serve}: notes-app; {@code chat}: notes-chat) run as on a fresh
 * machine: in a copy of the sources without the test fixtures (no {@code peers/}: a reactor that
 * still named {@code peers/interop/spring-ai}, with its Spring Boot parent, would stop at once on
 * the missing module), and with a local Maven repository that holds everything but this project's
 * own artifacts (so nothing an earlier {@code mvn install} left there can stand in for what the
 * build must make itself, such as notes-app's test jar that notes-chat's build reads).
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class FirstUseIT {
  @TempDir static Path dir;
  static Path checkout;
  static Path repository;
  static ClientIT.Run firstUse;
  static ClientIT.Run chatFirstUse;
  static List<JsonNode> modelRequests;
  static boolean httpBuiltByFirstUse;
  static HttpFirstUse httpFirstUse;

  /** What the first-ever run, a server, is given on stdin: one request of the current revision. */
  static final String LIST_TOOLS =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{"
          + WireServer.META
          + "}}\n";

  /** A checkout's sources, without any build output or test fixture, then its first uses. */
  @BeforeAll
  static void firstUse() throws Exception {
    Path repo = Path.of(System.getProperty("notesmcp.repo"));
    checkout = dir.resolve("checkout");
    for (String path :
        List.of(
            "pom.xml",
            // Maven's own settings for this project (its JVM flags), as a clone has them.
            ".mvn",
            "notes-mcp",
            "examples",
            "untrusted-text/pom.xml",
            "untrusted-text/src",
            "posix-files/pom.xml",
            "posix-files/src",
            "command-line/pom.xml",
            "command-line/src",
            "notes-policy/pom.xml",
            "notes-policy/src",
            "mcp-stdio/pom.xml",
            "mcp-stdio/src",
            "notes-app/pom.xml",
            "notes-app/src/main",
            // search_notes' engine is built with the program (the launcher's first build).
            // One note's structure, which the policy's knowledge package reads notes with.
            "notes-markdown/pom.xml",
            "notes-markdown/src/main",
            "notes-search/pom.xml",
            "notes-search/src/main",
            "mcp-http/pom.xml",
            "mcp-http/src/main",
            "notes-web/pom.xml",
            "notes-web/src/main",
            "notes-chat/pom.xml",
            "notes-chat/src/main",
            // The reactor reads every module's pom, even of modules the launcher does not build.
            "notes-dist/pom.xml",
            "bench/harness/pom.xml")) {
      copyTree(repo.resolve(path), checkout.resolve(path));
    }
    repository = withoutOwnArtifacts(Path.of(System.getProperty("notesmcp.m2")));
    String workspace = checkout.resolve("examples/workspace").toString();
    firstUse = run(LIST_TOOLS, checkout.resolve("notes-mcp"), "-serve", "-root", workspace);
    httpBuiltByFirstUse = Files.exists(checkout.resolve("notes-web/target"));
    try (ReadingModel model = new ReadingModel()) {
      chatFirstUse =
          run(
              "READ notes.txt\n",
              checkout.resolve("notes-mcp"),
              "chat",
              "-root",
              workspace,
              "-provider",
              "openai",
              "-model-url",
              model.url(),
              "-model",
              ReadingModel.MODEL);
      modelRequests = model.requests();
    }
    httpFirstUse = httpFirstUse(workspace);
  }

  /** The first {@code -serve -http}: what it said, its exit, and whether the jar was remade. */
  record HttpFirstUse(int exit, String err, boolean jarUnchanged) {}

  /**
   * {@code ./notes-mcp -serve -http 127.0.0.1:0 -auth none} in the built checkout, under umask 000:
   * it builds the HTTP folder (and only it), listens, and stops on SIGTERM with exit 0.
   */
  private static HttpFirstUse httpFirstUse(String workspace) throws Exception {
    Path jar = checkout.resolve("notes-app/target/notes-mcp.jar");
    java.nio.file.attribute.FileTime before = Files.getLastModifiedTime(jar);
    Path err = Files.createTempFile(dir, "http-err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(
                "bash",
                "-c",
                "umask 000 && exec \"$@\"",
                "bash",
                checkout.resolve("notes-mcp").toString(),
                "-serve",
                "-root",
                workspace,
                "-http",
                "127.0.0.1:0",
                "-auth",
                "none")
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(err.toFile());
    builder.environment().put("MAVEN_OPTS", "-Dmaven.repo.local=" + repository);
    Process process = builder.start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(480);
      while (!Files.readString(err).contains("listening on http://127.0.0.1:")
          && process.isAlive()
          && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      process.toHandle().destroy();
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      return new HttpFirstUse(
          process.exitValue(),
          Files.readString(err, StandardCharsets.UTF_8),
          Files.getLastModifiedTime(jar).equals(before));
    } finally {
      process.destroyForcibly();
    }
  }

  /**
   * A local repository of links to every group folder of {@code m2}, less {@code
   * io/github/notesmcp}. What a build downloads into it lands in {@code m2}'s folders, as usual.
   */
  private static Path withoutOwnArtifacts(Path m2) throws IOException {
    Path own = Path.of("io", "github", "notesmcp");
    Path farm = dir.resolve("m2");
    link(m2, farm, own, 0);
    return farm;
  }

  private static void link(Path from, Path to, Path skip, int depth) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> entries = Files.list(from)) {
      for (Path entry : (Iterable<Path>) entries::iterator) {
        Path name = entry.getFileName();
        if (depth < skip.getNameCount() && name.equals(skip.getName(depth))) {
          if (depth + 1 < skip.getNameCount()) {
            link(entry, to.resolve(name.toString()), skip, depth + 1);
          }
        } else {
          Files.createSymbolicLink(to.resolve(name.toString()), entry);
        }
      }
    }
  }

  @Test
  void theFirstUseBuildSaysWhatItDoesInPlainText() {
    assertThat(firstUse.exit()).as(firstUse.err()).isZero();
    assertThat(firstUse.err()).contains("first run, building").doesNotContain("\u001b");
    assertThat(checkout.resolve("notes-app/target/notes-mcp.jar")).isRegularFile();
    assertThat(checkout.resolve("peers")).doesNotExist();
  }

  /**
   * A host that starts a fresh checkout's server pipes its first request in while the launcher is
   * still building: the build must leave it to the server, which answers it.
   */
  @Test
  void theFirstEverServerAnswersTheRequestPipedInWhileItWasBuilt() throws Exception {
    assertThat(firstUse.exit()).as(firstUse.err()).isZero();
    List<String> lines = firstUse.out().lines().toList();
    assertThat(lines).as("stdout of the first run, stderr:%n%s", firstUse.err()).hasSize(1);
    JsonNode reply = WireServer.JSON.readTree(lines.get(0));
    assertThat(SchemaCheck.violations(SchemaCheck.MODERN, "ListToolsResultResponse", reply))
        .isEmpty();
    assertThat(reply.at("/result/tools/0/name").asString()).isEqualTo("list_notes");
  }

  /**
   * Under umask 000, the first-use builds, the start-up cache and their locks leave nothing that
   * another user could change: the jar is code this user runs (docs/packaging.md, "The start-up
   * cache").
   */
  @Test
  void underUmask000TheFirstUseBuildLeavesNothingThatOthersCanWrite() throws Exception {
    assertThat(firstUse.exit()).as(firstUse.err()).isZero();
    assertThat(chatFirstUse.exit()).as(chatFirstUse.err()).isZero();
    assertThat(LocalUsers.ownerAndMode(checkout.resolve(".build.lock"))).endsWith(" 600");
    Map<String, String> built = LocalUsers.ownersAndModes(checkout.resolve("notes-app/target"));
    assertThat(built).containsKey("jvm-cache").containsKey("notes-mcp.jar");
    Map<String, String> chat = LocalUsers.ownersAndModes(checkout.resolve("notes-chat/target"));
    assertThat(chat).containsKey("chat");
    Map<String, String> search = LocalUsers.ownersAndModes(checkout.resolve("notes-search/target"));
    assertThat(search).containsKey("search");
    for (String module :
        List.of("notes-app", "notes-chat", "notes-search", "mcp-http", "notes-web")) {
      Path target = checkout.resolve(module).resolve("target");
      for (Map.Entry<String, String> entry : LocalUsers.ownersAndModes(target).entrySet()) {
        if (!Files.isSymbolicLink(target.resolve(entry.getKey()))) {
          assertThat(entry.getValue())
              .as(module + "/target/" + entry.getKey())
              .matches("\\d+ [0-7]?[0-7][0145][0145]");
        }
      }
    }
  }

  /**
   * The first use builds the program and search's engine, not the HTTP folder (Jetty, Nimbus: no
   * stdio user needs them); the first {@code -serve -http} builds that folder alone, says so, and
   * leaves the program's jar as it was (servers may be running from it).
   */
  @Test
  void theHttpFolderIsBuiltByTheFirstHttpServerAloneAndThenItListens() {
    assertThat(firstUse.exit()).as(firstUse.err()).isZero();
    assertThat(httpBuiltByFirstUse).as("notes-web/target after the first -serve").isFalse();
    assertThat(httpFirstUse.err())
        .contains("first run, building the HTTP transport")
        .contains("listening on http://127.0.0.1:")
        .doesNotContain("\u001b");
    assertThat(httpFirstUse.exit()).as(httpFirstUse.err()).isZero();
    assertThat(httpFirstUse.jarUnchanged()).as("notes-mcp.jar left as it was").isTrue();
    assertThat(checkout.resolve("notes-web/target/http/notes-web-" + Version.VALUE + ".jar"))
        .isRegularFile();
  }

  /**
   * A clone holds the test sources too (the copy has them for untrusted-text, posix-files,
   * command-line, notes-policy and mcp-stdio); the first-use builds compile none of them, which the
   * program never needs (docs/packaging.md, "Where in the build").
   */
  @Test
  void theFirstUseBuildsCompileNoTestSources() {
    assertThat(firstUse.exit()).as(firstUse.err()).isZero();
    assertThat(chatFirstUse.exit()).as(chatFirstUse.err()).isZero();
    for (String module :
        List.of("untrusted-text", "posix-files", "command-line", "notes-policy", "mcp-stdio")) {
      assertThat(checkout.resolve(module + "/src/test/java")).isDirectory();
      assertThat(checkout.resolve(module + "/target/classes")).isDirectory();
      assertThat(checkout.resolve(module + "/target/test-classes")).doesNotExist();
    }
  }

  /**
   * The chat's first run builds its module while the person's message waits on stdin: the message
   * reaches the model, whose read goes through the server and whose answer is printed.
   */
  @Test
  void theChatModesFirstUseBuildsItFromTheSourcesAloneAndThenRunsThePipedTurn() {
    assertThat(chatFirstUse.exit()).as(chatFirstUse.err()).isZero();
    assertThat(modelRequests).as(chatFirstUse.err()).hasSize(2);
    assertThat(modelRequests.get(0).path("messages").toString()).contains("READ notes.txt");
    assertThat(chatFirstUse.out()).startsWith("Your note: ").contains("Meeting notes, Monday");
    assertThat(chatFirstUse.err())
        .contains("first run, building the chat mode")
        .contains("read_note {\"path\":\"notes.txt\"} -> result")
        .doesNotContain("\u001b");
    assertThat(checkout.resolve("notes-chat/target/chat/notes-chat-" + Version.VALUE + ".jar"))
        .isRegularFile();
    assertThat(repository.resolve("io/github/notesmcp")).doesNotExist();
  }

  @Test
  void aCopiedOrMovedCheckoutInAFolderWhoseNameHoldsANewlineMakesItsCacheOnceWithoutWarnings()
      throws Exception {
    assertThat(firstUse.exit()).as(firstUse.err()).isZero();
    // A newline in the name: the launcher's record of where its cache was made is read whole.
    Path copy = dir.resolve("copy of\ncheckout");
    exec("cp", "-a", checkout.toString(), copy.toString());
    assertStartsCleanly(copy);
    Path moved = dir.resolve("moved");
    exec("mv", copy.toString(), moved.toString());
    assertStartsCleanly(moved);
  }

  /**
   * Two one-shot calls: the first may remake the cache (and say so), neither warns, and neither
   * reads its stdin, which a {@code cat} after it still finds whole.
   */
  private static void assertStartsCleanly(Path checkout) throws Exception {
    String unread = "a line the client never reads\n";
    for (int time = 1; time <= 2; time++) {
      ClientIT.Run run =
          run(
              "\"$@\" && exec cat",
              unread,
              checkout.resolve("notes-mcp"),
              "-root",
              checkout.resolve("examples/workspace").toString(),
              "-tool",
              "read_note",
              "-args",
              "{\"path\":\"notes.txt\"}");
      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.out()).contains("Meeting notes, Monday").endsWith("}\n" + unread);
      assertThat(run.err())
          .as("start %d in %s", time, checkout)
          .doesNotContainIgnoringCase("warning")
          .doesNotContain("shared archive")
          .doesNotContain("[cds")
          .doesNotContain("\u001b");
      if (time == 2) {
        assertThat(run.err()).doesNotContain("preparing the JVM start-up cache");
      }
    }
  }

  /**
   * Runs the launcher under umask 000 (what it and its build make must not depend on it), with
   * {@code input} written to its stdin, a pipe, which is then closed.
   */
  private static ClientIT.Run run(String input, Path launcher, String... args) throws Exception {
    return run("exec \"$@\"", input, launcher, args);
  }

  /** As {@link #run(String, Path, String...)}, the launcher run by {@code script} ({@code $@}). */
  private static ClientIT.Run run(String script, String input, Path launcher, String... args)
      throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of("bash", "-c", "umask 000 && " + script, "bash", launcher.toString()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    // The launcher keeps what MAVEN_OPTS holds and adds its own.
    builder.environment().put("MAVEN_OPTS", "-Dmaven.repo.local=" + repository);
    Process process = builder.start();
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.write(input.getBytes(StandardCharsets.UTF_8));
    } catch (IOException closed) {
      // The launcher exited without reading it all: what it printed says why.
    }
    assertThat(process.waitFor(480, TimeUnit.SECONDS)).as("%s finishes", command).isTrue();
    return new ClientIT.Run(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private static void exec(String... command) throws Exception {
    Process process = new ProcessBuilder(command).inheritIO().start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(String.join(" ", command)).isZero();
  }

  /** Copies a file or a folder (without any target/ inside it), keeping the executable bit. */
  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        Path relative = from.relativize(path);
        if (relative.toString().equals("target") || relative.startsWith("target")) {
          continue;
        }
        Path target = relative.toString().isEmpty() ? to : to.resolve(relative.toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          Files.copy(path, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  /**
   * A model server on loopback that speaks the OpenAI-compatible API as the chat uses it ({@code
   * GET /v1/models}, {@code POST /v1/chat/completions}): its first answer calls {@code read_note}
   * on {@code notes.txt}, its second is "Your note: " and the tool result it was sent, any further
   * one HTTP 500. (notes-chat's tests have the full scripted model; this module's tests cannot
   * reach them.)
   */
  static final class ReadingModel implements AutoCloseable {
    static final String MODEL = "scripted";
    private final HttpServer server;
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();

    ReadingModel() throws IOException {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
      server.createContext("/", this::handle);
      server.start();
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    List<JsonNode> requests() {
      return List.copyOf(requests);
    }

    private void handle(HttpExchange exchange) throws IOException {
      try (exchange) {
        String body;
        try (InputStream in = exchange.getRequestBody()) {
          body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String path = exchange.getRequestURI().getPath();
        if (path.equals("/v1/models")) {
          respond(
              exchange,
              200,
              "{\"object\":\"list\",\"data\":[{\"id\":\""
                  + MODEL
                  + "\",\"object\":\"model\",\"created\":1,\"owned_by\":\"tests\"}]}");
        } else if (path.equals("/v1/chat/completions")) {
          JsonNode request = WireServer.JSON.readTree(body);
          requests.add(request);
          if (requests.size() > 2) {
            respond(exchange, 500, "{\"error\":\"the script has no more steps\"}");
          } else {
            respond(exchange, 200, answer(request, requests.size() == 1).toString());
          }
        } else {
          respond(exchange, 404, "{\"error\":\"no such path in the script\"}");
        }
      }
    }

    private static ObjectNode answer(JsonNode request, boolean first) {
      ObjectNode response = WireServer.JSON.createObjectNode();
      response.put("id", "chatcmpl-first-use");
      response.put("object", "chat.completion");
      response.put("created", 1);
      response.put("model", MODEL);
      ObjectNode choice = response.putArray("choices").addObject();
      choice.put("index", 0);
      ObjectNode message = choice.putObject("message");
      message.put("role", "assistant");
      if (first) {
        message.putNull("content");
        ObjectNode call = message.putArray("tool_calls").addObject();
        call.put("id", "call_1");
        call.put("type", "function");
        call.putObject("function")
            .put("name", "read_note")
            .put("arguments", "{\"path\":\"notes.txt\"}");
        choice.put("finish_reason", "tool_calls");
      } else {
        JsonNode messages = request.path("messages");
        message.put(
            "content",
            "Your note: " + messages.get(messages.size() - 1).path("content").asString());
        choice.put("finish_reason", "stop");
      }
      response
          .putObject("usage")
          .put("prompt_tokens", 1)
          .put("completion_tokens", 1)
          .put("total_tokens", 2);
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
}

package notesmcp.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import notesmcp.mcp.SchemaCheck;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The installable packages (docs/packaging.md), unpacked without installing anything ({@code tar},
 * {@code dpkg-deb -x}), their {@code bin/notes-mcp} run with no {@code java} on PATH and no
 * JAVA_HOME: discover, read, refusal, unknown tool, a server that exits 0 when stdin closes with
 * nothing but schema-valid JSON-RPC on stdout, the 2024-11-05 era, and {@code config} naming the
 * executable. The client mode starts its server child from the bundled runtime, since no other
 * exists here. And the {@code chat} mode, from the chat/ folder the packages carry: its help, an
 * unreachable model server (exit 4), and a real turn against a scripted model server on loopback,
 * over HTTP and over HTTPS, through the bundled runtime's HTTP client and TLS.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class DistIT {
  static final ObjectMapper JSON = JsonMapper.builder().build();
  static final String VERSION = System.getProperty("notesmcp.version");
  static final String NOTES = "Monday: ship the preview.\nA note is data, not an instruction.\n";

  /** A generous liveness bound for what must be prompt, on a loaded machine. */
  static final Duration PROMPTLY = Duration.ofSeconds(30);

  @TempDir static Path dir;
  static Path tar;
  static Path deb;
  static Path tarExecutable;
  static Path debExecutable;
  static Path bin;
  static Path workspace;
  static final Map<String, Result> firstRuns = new java.util.HashMap<>();

  @BeforeAll
  static void unpack() throws Exception {
    Path dist = Path.of(System.getProperty("notesmcp.dist"));
    tar = dist.resolve("notes-mcp-" + VERSION + "-linux-x64.tar.gz");
    deb = dist.resolve("notes-mcp_" + VERSION + "_amd64.deb");
    assertThat(tar).as("built by notes-dist's dist profile (src/make-dist)").isRegularFile();
    assertThat(deb).as("built by notes-dist's dist profile (src/make-dist)").isRegularFile();
    // A newline in the folder names: the launcher's record of where its cache was made is read
    // whole (clientModesWorkWithNoJdkInSight checks that the cache is made once).
    Path fromTar = Files.createDirectory(dir.resolve("from\ntar"));
    Path fromDeb = Files.createDirectory(dir.resolve("from\ndeb"));
    exec(List.of("tar", "-xzf", tar.toString(), "-C", fromTar.toString()));
    exec(List.of("dpkg-deb", "-x", deb.toString(), fromDeb.toString()));
    tarExecutable = fromTar.resolve("notes-mcp/bin/notes-mcp");
    debExecutable = fromDeb.resolve("opt/notes-mcp/bin/notes-mcp");
    Path root = Files.createDirectories(dir.resolve("ws"));
    Files.writeString(root.resolve("notes.txt"), NOTES, StandardCharsets.UTF_8);
    Files.writeString(root.resolve("project.txt"), "Project: notes-mcp\n", StandardCharsets.UTF_8);
    workspace = root.toRealPath();
    // A PATH with the few programs the launcher uses, and no java.
    bin = Files.createDirectory(dir.resolve("bin"));
    for (String tool : List.of("bash", "readlink", "flock", "mkdir", "mv", "rm", "find", "chmod")) {
      Files.createSymbolicLink(bin.resolve(tool), system(tool));
    }
    // Each image's first run, which makes its start-up cache with training runs, is a server
    // given its first request on a pipe, as a host starts it.
    for (String archive : List.of("tar", "deb")) {
      firstRuns.put(
          archive, run(executable(archive), LIST_TOOLS, "-serve", "-root", workspace.toString()));
    }
  }

  /**
   * The launcher's first run makes the start-up cache while the host's first request waits on
   * stdin: nothing it runs before the JVM (training runs, find, readlink) reads it, and the server
   * answers it.
   */
  @ParameterizedTest
  @ValueSource(strings = {"tar", "deb"})
  void theFirstRunMakesTheCacheAndAnswersTheRequestPipedInMeanwhile(String archive)
      throws Exception {
    Result first = firstRuns.get(archive);

    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(first.err()).contains("preparing the JVM start-up cache for this location");
    List<String> lines = first.out().lines().toList();
    assertThat(lines).as("stdout; stderr:%n%s", first.err()).hasSize(1);
    JsonNode reply = JSON.readTree(lines.get(0));
    assertThat(SchemaCheck.violations(SchemaCheck.MODERN, "ListToolsResultResponse", reply))
        .isEmpty();
    assertThat(reply.at("/result/tools").size()).isEqualTo(3);
  }

  private static Path system(String tool) {
    Path usrBin = Path.of("/usr/bin", tool);
    return Files.exists(usrBin) ? usrBin : Path.of("/bin", tool);
  }

  private static Path executable(String archive) {
    return archive.equals("tar") ? tarExecutable : debExecutable;
  }

  /**
   * The image's cache lock replaced, before its first run, by a FIFO (whose open for writing waits
   * for ever for a reader: every start would) or a folder: removed, and the cache made.
   */
  @ParameterizedTest
  @ValueSource(strings = {"fifo", "folder"})
  void aFifoOrAFolderInPlaceOfTheCachesLockIsRemovedAndTheCacheMade(String kind) throws Exception {
    Path folder = Files.createDirectory(dir.resolve("lock-" + kind));
    exec(List.of("tar", "-xzf", tar.toString(), "-C", folder.toString()));
    Path lib = folder.resolve("notes-mcp/lib");
    Path lock = lib.resolve("cache.lock");
    if (kind.equals("fifo")) {
      exec(List.of("mkfifo", lock.toString()));
    } else {
      Files.createDirectory(lock);
    }

    Result first = run(folder.resolve("notes-mcp/bin/notes-mcp"), null, "--version");

    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(first.err())
        .contains("preparing the JVM start-up cache for this location")
        .doesNotContain("running without");
    assertThat(lock).isRegularFile();
    assertThat(lib.resolve("cache/made-for")).isRegularFile();
  }

  @Test
  void eachArchiveHoldsTheExecutableTheNativeLibraryAndTheChatModule() throws Exception {
    String image = "notes-mcp/";
    List<String> tarEntries = List.of(exec(List.of("tar", "-tzf", tar.toString())).split("\n"));
    List<String> debEntries = new ArrayList<>();
    for (String line : exec(List.of("dpkg-deb", "-c", deb.toString())).split("\n")) {
      // tar -tv style: permissions, owner, size, date, time, then the path.
      String path = line.replaceFirst("^(\\S+\\s+){5}", "");
      debEntries.add(path.replaceFirst("^\\./opt/", ""));
    }
    for (List<String> entries : List.of(tarEntries, debEntries)) {
      assertThat(entries)
          .contains(
              image + "bin/notes-mcp",
              image + "lib/runtime/bin/java",
              image + "lib/app/notes-mcp.jar",
              image + "lib/app/native/libnotesmcp.so",
              image + "lib/app/chat/notes-chat-" + VERSION + ".jar",
              image + "lib/app/search/notes-search-" + VERSION + ".jar",
              image + "lib/app/http/mcp-http-" + VERSION + ".jar",
              image + "lib/app/http/notes-web-" + VERSION + ".jar")
          .anyMatch(entry -> entry.matches(".*/lib/app/chat/langchain4j-core-.*\\.jar"))
          .anyMatch(entry -> entry.matches(".*/lib/app/search/lucene-core-.*\\.jar"))
          .anyMatch(entry -> entry.matches(".*/lib/app/http/jetty-server-.*\\.jar"))
          .anyMatch(entry -> entry.matches(".*/lib/app/http/nimbus-jose-jwt-.*\\.jar"));
    }
    for (Path executable : List.of(tarExecutable, debExecutable)) {
      assertThat(executable).isRegularFile().isExecutable();
      assertThat(executable.getParent().getParent().resolve("lib/runtime/bin/java")).isExecutable();
    }
    assertThat(bin.resolve("java")).doesNotExist();
  }

  /** Whatever the umask of the build, nobody but the owner can change what a package unpacks. */
  @Test
  void eachArchiveHoldsNothingThatGroupOrOthersCanWrite() throws Exception {
    List<String> lines = new ArrayList<>();
    lines.addAll(List.of(exec(List.of("tar", "-tvzf", tar.toString())).split("\n")));
    lines.addAll(List.of(exec(List.of("dpkg-deb", "-c", deb.toString())).split("\n")));
    assertThat(lines).hasSizeGreaterThan(100);
    for (String line : lines) {
      String mode = line.substring(0, 10);
      if (mode.charAt(0) != 'l') {
        assertThat(mode).as(line).matches(".....-..-.");
      }
    }
  }

  /**
   * A crash of the packaged server (SIGSEGV, as a test's stand-in for one) ends it with SIGABRT
   * after only the protocol messages already written, and leaves no crash file.
   */
  @Test
  void aCrashOfThePackagedServerWritesNothingButRepliesToStdoutAndNoCrashFile() throws Exception {
    Path cwd = Files.createDirectory(dir.resolve("crash"));
    ProcessBuilder builder =
        new ProcessBuilder(tarExecutable.toString(), "-serve", "-root", workspace.toString())
            .directory(cwd.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().clear();
    builder.environment().put("PATH", bin.toString());
    Process process = builder.start();
    OutputStream stdin = process.getOutputStream();
    stdin.write(
        ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{"
                + META
                + "}}\n")
            .getBytes(StandardCharsets.UTF_8));
    stdin.flush();
    java.io.BufferedReader stdout =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    JsonNode reply = JSON.readTree(stdout.readLine());

    exec(List.of("kill", "-SEGV", Long.toString(process.pid())));

    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isEqualTo(134);
    assertThat(SchemaCheck.violations(SchemaCheck.MODERN, "DiscoverResultResponse", reply))
        .isEmpty();
    assertThat(stdout.readLine()).as("stdout after the reply").isNull();
    try (var files = Files.list(cwd)) {
      assertThat(files).isEmpty();
    }
    assertThat(Path.of("/tmp/hs_err_pid" + process.pid() + ".log")).doesNotExist();
  }

  /** With only PATH and LANG=C, a workspace named outside ASCII: the launcher picks C.UTF-8. */
  @ParameterizedTest
  @ValueSource(strings = {"tar", "deb"})
  void aNonAsciiWorkspaceWorksInALocaleWithOnlyAscii(String archive) throws Exception {
    Path cafe = Files.createDirectories(dir.resolve("caf\u00e9-" + archive));
    Files.writeString(cafe.resolve("notes.txt"), NOTES, StandardCharsets.UTF_8);
    List<String> command =
        List.of(
            executable(archive).toString(),
            "-root",
            cafe.toString(),
            "-tool",
            "read_note",
            "-args",
            PATH_NOTES);

    Result read = run(command, null, Map.of("LANG", "C"));

    assertThat(read.exit()).as(read.err()).isZero();
    assertThat(read.out()).contains("Monday: ship the preview.");
  }

  /**
   * The packaged image serves HTTP with OAuth from its http/ folder on its own runtime: the
   * authorization server's metadata, its ES256 key (jdk.crypto.ec), a registration.
   */
  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void thePackagedServerServesOAuthOverHttp() throws Exception {
    Path proposals = Files.createDirectories(dir.resolve("oauth-proposals"));
    Files.setPosixFilePermissions(
        proposals, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    Path err = dir.resolve("oauth-serve.err");
    Process serve =
        new ProcessBuilder(
                tarExecutable.toString(),
                "-serve",
                "-root",
                workspace.toString(),
                "-proposals",
                proposals.toString(),
                "-http",
                "127.0.0.1:0",
                "-auth",
                "oauth")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(err.toFile())
            .start();
    try {
      Pattern listening = Pattern.compile("listening on (http://127\\.0\\.0\\.1:[0-9]+)/mcp");
      Matcher found = listening.matcher("");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!found.find()) {
        assertThat(serve.isAlive()).as(Files.readString(err)).isTrue();
        assertThat(System.nanoTime()).as(Files.readString(err)).isLessThan(deadline);
        Thread.sleep(50);
        found = listening.matcher(Files.readString(err));
      }
      String base = found.group(1);
      java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
      java.net.http.HttpResponse<String> metadata =
          client.send(
              java.net.http.HttpRequest.newBuilder(
                      java.net.URI.create(base + "/.well-known/oauth-authorization-server"))
                  .build(),
              java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(metadata.statusCode()).isEqualTo(200);
      assertThat(JSON.readTree(metadata.body()).get("issuer").stringValue()).isEqualTo(base);
      java.net.http.HttpResponse<String> keys =
          client.send(
              java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/jwks")).build(),
              java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(JSON.readTree(keys.body()).at("/keys/0/crv").stringValue()).isEqualTo("P-256");
      java.net.http.HttpResponse<String> registered =
          client.send(
              java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/register"))
                  .header("Content-Type", "application/json")
                  .POST(
                      java.net.http.HttpRequest.BodyPublishers.ofString(
                          "{\"client_name\":\"dist\",\"redirect_uris\":[\"http://127.0.0.1:9/cb\"]}"))
                  .build(),
              java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(registered.statusCode()).as(registered.body()).isEqualTo(201);
      assertThat(Files.readString(err)).doesNotContain("Exception");
    } finally {
      serve.destroy();
      serve.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /**
   * The runtime has what the chat's HTTP client needs, and none of the desktop modules that
   * Jackson's optional support for java.beans would pull in for nothing.
   */
  @Test
  void theBundledRuntimeHasTheHttpClientAndNoDesktop() throws IOException {
    String release =
        Files.readString(tarExecutable.getParent().getParent().resolve("lib/runtime/release"));
    Matcher modules = Pattern.compile("(?m)^MODULES=\"(.*)\"$").matcher(release);
    assertThat(modules.find()).as(release).isTrue();
    List<String> names = List.of(modules.group(1).split(" "));
    // java.management: Jetty's logger factory is an MBean; java.naming: its TLS certificate names
    // (X509); jdk.unsupported: -serve -http's SIGTERM handling.
    assertThat(names)
        .contains("java.base", "java.net.http", "java.management", "java.naming", "jdk.unsupported")
        .doesNotContain("java.desktop", "java.sql");
  }

  /**
   * {@code -serve -http} from the unpacked package with no {@code java} on PATH: a token made by
   * the package's own {@code token add}, the HTTP module loaded from {@code lib/app/http/} on the
   * bundled runtime, a 2026-07-28 {@code tools/list} answered with a schema-valid reply, and
   * SIGTERM ending the server with exit 0.
   */
  @ParameterizedTest
  @ValueSource(strings = {"tar", "deb"})
  void theHttpServerRunsFromThePackage(String archive) throws Exception {
    Path executable = executable(archive);
    Path folder = Files.createDirectories(dir.resolve("tokens-" + archive));
    Files.setPosixFilePermissions(
        folder, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    Path tokens = folder.resolve("tokens.json");
    Result added = run(executable, null, "token", "add", "dist", "-tokens", tokens.toString());
    assertThat(added.exit()).as(added.err()).isZero();
    String token = added.out().strip();

    Path err = Files.createTempFile(dir, "http-err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(
                executable.toString(),
                "-serve",
                "-root",
                workspace.toString(),
                "-http",
                "127.0.0.1:0",
                "-tokens",
                tokens.toString())
            .directory(dir.toFile())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(err.toFile());
    builder.environment().clear();
    builder.environment().put("PATH", bin.toString());
    builder.environment().put("HOME", dir.toString());
    Process server = builder.start();
    try {
      Pattern listening = Pattern.compile("listening on (http://127\\.0\\.0\\.1:[0-9]+/mcp)");
      Matcher found = listening.matcher("");
      long deadline = System.nanoTime() + PROMPTLY.toNanos();
      while (!(found = listening.matcher(Files.readString(err))).find()) {
        assertThat(server.isAlive() && System.nanoTime() < deadline)
            .as(Files.readString(err))
            .isTrue();
        Thread.sleep(50);
      }
      java.net.http.HttpResponse<String> response =
          java.net.http.HttpClient.newHttpClient()
              .send(
                  java.net.http.HttpRequest.newBuilder(java.net.URI.create(found.group(1)))
                      .header("Content-Type", "application/json")
                      .header("Accept", "application/json, text/event-stream")
                      .header("Authorization", "Bearer " + token)
                      .header("MCP-Protocol-Version", "2026-07-28")
                      .header("Mcp-Method", "tools/list")
                      .POST(
                          java.net.http.HttpRequest.BodyPublishers.ofString(
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{"
                                  + META
                                  + "}}"))
                      .build(),
                  java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      JsonNode reply = JSON.readTree(response.body());
      // A read token (token add's default) is shown the read-only tools only.
      assertThat(reply.at("/result/tools").findValuesAsString("name"))
          .containsExactly("list_notes", "read_note");
      assertThat(SchemaCheck.violations(SchemaCheck.MODERN, "ListToolsResultResponse", reply))
          .isEmpty();
      server.toHandle().destroy();
      assertThat(server.waitFor(PROMPTLY.toSeconds(), TimeUnit.SECONDS)).isTrue();
      assertThat(server.exitValue()).as(Files.readString(err)).isZero();
      assertThat(Files.readString(err)).doesNotContain(token).doesNotContainIgnoringCase("warn");
    } finally {
      server.destroyForcibly();
    }
  }

  @Test
  void theDebLinksNotesMcpIntoThePathWhenInstalled() throws Exception {
    assertThat(exec(List.of("dpkg-deb", "-f", deb.toString(), "Package")).strip())
        .isEqualTo("notes-mcp");
    Path control = Files.createDirectory(dir.resolve("control"));
    exec(List.of("dpkg-deb", "-e", deb.toString(), control.toString()));
    assertThat(Files.readString(control.resolve("postinst")))
        .contains("ln -sf /opt/notes-mcp/bin/notes-mcp /usr/bin/notes-mcp");
    assertThat(Files.readString(control.resolve("prerm"))).contains("rm -f /usr/bin/notes-mcp");
  }

  @ParameterizedTest
  @ValueSource(strings = {"tar", "deb"})
  void clientModesWorkWithNoJdkInSight(String archive) throws Exception {
    Path executable = executable(archive);
    String root = workspace.toString();

    Result list = run(executable, null, "-root", root);
    assertThat(list.exit()).as(list.err()).isZero();
    assertThat(JSON.readTree(list.out()).size()).isEqualTo(3);

    // A read goes through the native library (lib/app/native/libnotesmcp.so) in the server child.
    Result read = run(executable, null, "-root", root, "-tool", "read_note", "-args", PATH_NOTES);
    assertThat(read.exit()).as(read.err()).isZero();
    assertThat(read.err()).as("the cache, made once").doesNotContain("preparing");
    assertThat(read.out()).contains("Monday: ship the preview.").contains("\"isError\" : false");

    Result refused =
        run(executable, null, "-root", root, "-tool", "read_note", "-args", PATH_SECRET);
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.out()).contains("\"isError\" : true");

    Result unknown = run(executable, null, "-root", root, "-tool", "save_note", "-args", "{}");
    assertThat(unknown.exit()).isEqualTo(3);
    assertThat(unknown.out()).isEmpty();
    assertThat(unknown.err()).contains("Unknown tool: save_note");

    Result usage = run(executable, null, "-root", root, "-bogus");
    assertThat(usage.exit()).isEqualTo(2);
    Result version = run(executable, null, "--version");
    assertThat(version.out()).isEqualTo("notes-mcp " + VERSION + "\n");
    for (Result result : List.of(read, refused, unknown, version)) {
      assertThat(result.err()).doesNotContainIgnoringCase("warning").doesNotContain("\u001b");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"tar", "deb"})
  void serverAnswersBothErasWithOnlySchemaValidJsonRpcOnStdoutAndExitsZeroWhenStdinCloses(
      String archive) throws Exception {
    String input =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{"
            + META
            + "}}\n"
            + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{"
            + META
            + ",\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}}\n"
            + "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2024-11-05\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"dist\",\"version\":\"1\"}}}\n"
            + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
            + "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{"
            + "\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}}\n";

    Result serve = run(executable(archive), input, "-serve", "-root", workspace.toString());

    assertThat(serve.exit()).as(serve.err()).isZero();
    String[] lines = serve.out().split("\n");
    assertThat(lines).hasSize(4);
    // By id: the server may answer requests of one era out of order.
    JsonNode[] byId = new JsonNode[4];
    for (String line : lines) {
      JsonNode reply = JSON.readTree(line);
      int id = reply.path("id").asInt();
      assertThat(id).as(line).isBetween(1, 4);
      assertThat(byId[id - 1]).as(line).isNull();
      byId[id - 1] = reply;
    }
    List<JsonNode> replies = List.of(byId);
    List<String> violations = new ArrayList<>();
    violations.addAll(
        SchemaCheck.violations(SchemaCheck.MODERN, "DiscoverResultResponse", replies.get(0)));
    violations.addAll(
        SchemaCheck.violations(SchemaCheck.MODERN, "CallToolResultResponse", replies.get(1)));
    violations.addAll(
        SchemaCheck.legacyResponse(SchemaCheck.LEGACY_2024, "InitializeResult", replies.get(2)));
    violations.addAll(
        SchemaCheck.legacyResponse(SchemaCheck.LEGACY_2024, "CallToolResult", replies.get(3)));
    assertThat(violations).isEmpty();
    assertThat(replies.get(2).at("/result/protocolVersion").asString()).isEqualTo("2024-11-05");
    for (int i : new int[] {1, 3}) {
      assertThat(replies.get(i).at("/result/isError").asBoolean()).isFalse();
      assertThat(replies.get(i).at("/result/content/0/text").asString())
          .contains("Monday: ship the preview.");
    }
  }

  @Test
  void configNamesTheUnpackedExecutable() throws Exception {
    for (Path executable : List.of(tarExecutable, debExecutable)) {
      Result config = run(executable, null, "config", "-root", workspace.toString());
      assertThat(config.exit()).as(config.err()).isZero();
      JsonNode server = JSON.readTree(config.out()).path("mcpServers").path("notes");
      assertThat(server.path("command").asString()).isEqualTo(executable.toRealPath().toString());
    }
  }

  /** The package's launcher gives the program and its server child ./notes-mcp's JVM settings. */
  @Test
  void thePackagedLauncherUsesTheCheckoutLaunchersJvmFlags() throws IOException {
    Path launcher = Path.of(System.getProperty("notesmcp.launcher"));
    String checkout = Files.readString(launcher);
    String packaged = Files.readString(tarExecutable);
    assertThat(flags(packaged)).isEqualTo(flags(checkout));
    assertThat(packaged).contains("export NOTES_MCP_JVM_FLAGS").contains("-XX:SharedArchiveFile");
  }

  private static String flags(String script) {
    Matcher matcher = Pattern.compile("(?s)\\nflags=\\((.*?)\\)").matcher(script);
    assertThat(matcher.find()).as("a flags=(...) array").isTrue();
    return matcher.group(1).replaceAll("\\s+", " ").strip();
  }

  @ParameterizedTest
  @ValueSource(strings = {"tar", "deb"})
  void chatHelpRunsFromThePackage(String archive) throws Exception {
    Result help = chat(executable(archive), "", Map.of(), "--help");

    assertThat(help.exit()).as(help.err()).isZero();
    assertThat(help.out()).startsWith("notes-mcp chat: ").contains("-model-url URL");
    assertThat(help.err()).doesNotContainIgnoringCase("warning").doesNotContain("Exception");
  }

  @ParameterizedTest
  @ValueSource(strings = {"tar", "deb"})
  void chatWithAnUnreachableModelServerIsExit4Promptly(String archive) throws Exception {
    String url = "http://127.0.0.1:" + closedPort();
    long start = System.nanoTime();
    Result run =
        chat(
            executable(archive),
            "hello\n",
            Map.of(),
            "-root",
            workspace.toString(),
            "-model-url",
            url,
            "-model",
            "m");

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(PROMPTLY);
    assertThat(run.exit()).as(run.err()).isEqualTo(4);
    assertThat(run.err())
        .contains(
            "notes-mcp chat: the model server at "
                + url
                + " cannot be reached: nothing accepts connections there");
    assertThat(run.out()).isEmpty();
  }

  /**
   * A whole turn on the bundled runtime: the chat's class loader and LangChain4j from chat/, the
   * JDK's HTTP client to the model, the program's own server child (and its native library) for the
   * read the model asks for.
   */
  @ParameterizedTest
  @ValueSource(strings = {"tar", "deb"})
  void aChatTurnReadsANoteThroughTheBundledRuntime(String archive) throws Exception {
    try (ScriptedOllama model = ScriptedOllama.start(null)) {
      Result run =
          chat(
              executable(archive),
              "What does my notes file say?\n",
              Map.of(),
              "-root",
              workspace.toString(),
              "-model-url",
              model.url(),
              "-model",
              ScriptedOllama.MODEL);

      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.out()).startsWith("Your note: ").contains("Monday: ship the preview.");
      assertThat(run.err())
          .contains("notes-mcp chat: read_note {\"path\":\"notes.txt\"} -> result")
          .doesNotContainIgnoringCase("warning")
          .doesNotContain("Exception");
      assertThat(model.requests()).hasSize(2);
      assertThat(model.requests().get(1).path("messages").get(3).path("role").asString())
          .isEqualTo("tool");
    }
  }

  /**
   * HTTPS, as to a hosted model API: the bundled runtime must have the TLS key exchange such
   * servers use (elliptic curves; Java 17 keeps them in jdk.crypto.ec, which no class refers to).
   * The scripted server has an EC certificate that the chat is told to trust.
   */
  @ParameterizedTest
  @ValueSource(strings = {"tar", "deb"})
  void aChatTurnOverHttpsWorksOnTheBundledRuntime(String archive) throws Exception {
    Tls tls = Tls.once(dir);
    try (ScriptedOllama model = ScriptedOllama.start(tls)) {
      Result run =
          chat(
              executable(archive),
              "What does my notes file say?\n",
              Map.of("JAVA_TOOL_OPTIONS", tls.trustOptions()),
              "-root",
              workspace.toString(),
              "-model-url",
              model.url(),
              "-model",
              ScriptedOllama.MODEL);

      assertThat(model.url()).startsWith("https://");
      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.out()).startsWith("Your note: ").contains("Monday: ship the preview.");
      assertThat(model.requests()).hasSize(2);
    }
  }

  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  static final String META =
      "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{},"
          + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"dist-test\",\"version\":\"1\"}}";
  private static final String LIST_TOOLS =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{" + META + "}}\n";
  private static final String PATH_NOTES = "{\"path\":\"notes.txt\"}";
  private static final String PATH_SECRET = "{\"path\":\"../secret.txt\"}";

  record Result(int exit, String out, String err) {}

  /** Runs the executable with only PATH (no java on it) and HOME, and no JAVA_HOME. */
  private static Result run(Path executable, String input, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(executable.toString()));
    command.addAll(List.of(args));
    return run(command, input, Map.of());
  }

  /**
   * {@code notes-mcp chat args...} with no controlling terminal ({@code setsid -w}, as a host or a
   * pipe would run it), {@code typed} as all of its stdin, in the same bare environment.
   */
  private static Result chat(Path executable, String typed, Map<String, String> env, String... args)
      throws Exception {
    List<String> command =
        new ArrayList<>(List.of(system("setsid").toString(), "-w", executable.toString(), "chat"));
    command.addAll(List.of(args));
    return run(command, typed, env);
  }

  private static Result run(List<String> command, String input, Map<String, String> env)
      throws Exception {
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().clear();
    builder.environment().put("PATH", bin.toString());
    builder.environment().put("HOME", dir.toString());
    builder.environment().putAll(env);
    Process process = builder.start();
    try (OutputStream stdin = process.getOutputStream()) {
      if (input != null) {
        stdin.write(input.getBytes(StandardCharsets.UTF_8));
      }
    }
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      throw new AssertionError(command + " did not finish; stderr:\n" + Files.readString(err));
    }
    return new Result(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  static String exec(List<String> command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as("%s: %s", command, out).isZero();
    return out;
  }
}

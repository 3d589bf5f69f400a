package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * The installable packages (issue 10, part 3), unpacked without installing anything ({@code tar},
 * {@code dpkg-deb -x}), their {@code bin/notes-mcp} run with no {@code java} on PATH and no
 * JAVA_HOME: discover, read, refusal, unknown tool, a server that exits 0 when stdin closes with
 * nothing but JSON-RPC on stdout, the 2024-11-05 era, and {@code config} naming the executable. The
 * client mode starts its server child from the bundled runtime, since no other exists here.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class DistIT {
  @TempDir static Path dir;
  static Path tarExecutable;
  static Path debExecutable;
  static Path deb;
  static Path bin;
  static Path workspace;

  @BeforeAll
  static void unpack() throws Exception {
    Path dist = Path.of(System.getProperty("notesmcp.dist"));
    String version = System.getProperty("notesmcp.version");
    Path tar = dist.resolve("notes-mcp-" + version + "-linux-x64.tar.gz");
    deb = dist.resolve("notes-mcp_" + version + "_amd64.deb");
    assertThat(tar).as("built by the dist profile (src/dist/make-dist)").isRegularFile();
    assertThat(deb).as("built by the dist profile (src/dist/make-dist)").isRegularFile();
    Path fromTar = Files.createDirectory(dir.resolve("from tar"));
    Path fromDeb = Files.createDirectory(dir.resolve("from deb"));
    exec(List.of("tar", "-xzf", tar.toString(), "-C", fromTar.toString()));
    exec(List.of("dpkg-deb", "-x", deb.toString(), fromDeb.toString()));
    tarExecutable = fromTar.resolve("notes-mcp/bin/notes-mcp");
    debExecutable = fromDeb.resolve("opt/notes-mcp/bin/notes-mcp");
    workspace = Fixtures.workspace(Files.createDirectory(dir.resolve("ws")));
    // A PATH with the few programs the launcher uses, and no java.
    bin = Files.createDirectory(dir.resolve("bin"));
    for (String tool : List.of("bash", "readlink", "flock", "mkdir", "mv", "rm")) {
      Path real = Path.of("/usr/bin", tool);
      Files.createSymbolicLink(
          bin.resolve(tool), Files.exists(real) ? real : Path.of("/bin", tool));
    }
  }

  private static List<Path> executables() {
    return List.of(tarExecutable, debExecutable);
  }

  @Test
  void eachArchiveHoldsTheExecutableAtBinNotesMcp() {
    for (Path executable : executables()) {
      assertThat(executable).isRegularFile().isExecutable();
      assertThat(executable.getParent().getParent().resolve("lib/runtime/bin/java")).isExecutable();
    }
    assertThat(bin.resolve("java")).doesNotExist();
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
    Path executable = archive.equals("tar") ? tarExecutable : debExecutable;
    String root = workspace.toString();

    Result list = run(executable, null, "-root", root);
    assertThat(list.exit()).as(list.err()).isZero();
    assertThat(WireServer.JSON.readTree(list.out()).size()).isEqualTo(3);

    Result read = run(executable, null, "-root", root, "-tool", "read_note", "-args", PATH_NOTES);
    assertThat(read.exit()).as(read.err()).isZero();
    assertThat(read.out()).contains("notes.txt").contains("\"isError\" : false");

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
    assertThat(version.out())
        .isEqualTo("notes-mcp " + System.getProperty("notesmcp.version") + "\n");
    for (Result result : List.of(read, refused, unknown, version)) {
      assertThat(result.err()).doesNotContainIgnoringCase("warning").doesNotContain("\u001b");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"tar", "deb"})
  void serverAnswersBothErasWithOnlyJsonRpcOnStdoutAndExitsZeroWhenStdinCloses(String archive)
      throws Exception {
    Path executable = archive.equals("tar") ? tarExecutable : debExecutable;
    String input =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{"
            + WireServer.META
            + "}}\n"
            + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2024-11-05\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"dist\",\"version\":\"1\"}}}\n"
            + "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{"
            + "\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}}\n";

    Result serve = run(executable, input, "-serve", "-root", workspace.toString());

    assertThat(serve.exit()).as(serve.err()).isZero();
    String[] lines = serve.out().split("\n");
    assertThat(lines).hasSize(3);
    for (String line : lines) {
      JsonNode message = WireServer.JSON.readTree(line);
      assertThat(message.path("jsonrpc").asString()).isEqualTo("2.0");
      assertThat(message.has("result")).as(line).isTrue();
    }
    assertThat(serve.out()).contains("\"protocolVersion\":\"2024-11-05\"").contains("notes.txt");
  }

  @Test
  void configNamesTheUnpackedExecutable() throws Exception {
    for (Path executable : executables()) {
      Result config = run(executable, null, "config", "-root", workspace.toString());
      assertThat(config.exit()).as(config.err()).isZero();
      JsonNode server = WireServer.JSON.readTree(config.out()).path("mcpServers").path("notes");
      assertThat(server.path("command").asString()).isEqualTo(executable.toRealPath().toString());
    }
  }

  /** The package's launcher gives the program and its server child ./notes-mcp's JVM settings. */
  @Test
  void thePackagedLauncherUsesTheCheckoutLaunchersJvmFlags() throws IOException {
    String checkout = Files.readString(WireServer.launcher());
    String packaged = Files.readString(tarExecutable);
    assertThat(flags(packaged)).isEqualTo(flags(checkout));
    assertThat(packaged).contains("export NOTES_MCP_JVM_FLAGS").contains("-XX:SharedArchiveFile");
  }

  private static String flags(String script) {
    Matcher matcher = Pattern.compile("(?s)\\nflags=\\((.*?)\\)").matcher(script);
    assertThat(matcher.find()).as("a flags=(...) array").isTrue();
    return matcher.group(1).replaceAll("\\s+", " ").strip();
  }

  private static final String PATH_NOTES = "{\"path\":\"notes.txt\"}";
  private static final String PATH_SECRET = "{\"path\":\"../secret.txt\"}";

  record Result(int exit, String out, String err) {}

  /** Runs the executable with only PATH (no java on it) and HOME, and no JAVA_HOME. */
  private static Result run(Path executable, String input, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(executable.toString()));
    command.addAll(List.of(args));
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
    Process process = builder.start();
    try (OutputStream stdin = process.getOutputStream()) {
      if (input != null) {
        stdin.write(input.getBytes(StandardCharsets.UTF_8));
      }
    }
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("%s finishes", command).isTrue();
    return new Result(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private static String exec(List<String> command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as("%s: %s", command, out).isZero();
    return out;
  }
}

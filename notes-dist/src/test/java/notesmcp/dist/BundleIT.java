package notesmcp.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import notesmcp.mcp.SchemaCheck;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Claude Desktop bundle ({@code .mcpb}) and the MCP registry's {@code server.json} the build
 * makes beside the packages: the manifest against the bundle format's published schema, the bundle
 * unpacked ({@code unzip}, as a host would) and its server started exactly as the manifest says,
 * with no {@code java} on PATH, speaking real MCP over stdio with every reply checked against the
 * official schema; {@code server.json} against the registry's published schema, naming that very
 * bundle by its SHA-256.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class BundleIT {
  static final ObjectMapper JSON = JsonMapper.builder().build();
  static final String VERSION = System.getProperty("notesmcp.version");

  @TempDir static Path dir;
  static Path dist;
  static Path mcpb;
  static Path unpacked;
  static JsonNode manifest;
  static Path workspace;
  static Path bin;

  @BeforeAll
  static void unpack() throws Exception {
    dist = Path.of(System.getProperty("notesmcp.dist"));
    mcpb = dist.resolve("notes-mcp-" + VERSION + "-linux-x64.mcpb");
    assertThat(mcpb).as("built by notes-dist's dist profile (src/make-dist)").isRegularFile();
    unpacked = Files.createDirectory(dir.resolve("extension dir"));
    DistIT.exec(List.of("unzip", "-q", mcpb.toString(), "-d", unpacked.toString()));
    manifest = JSON.readTree(Files.readString(unpacked.resolve("manifest.json")));
    Path root = Files.createDirectories(dir.resolve("my notes"));
    Files.writeString(root.resolve("notes.txt"), DistIT.NOTES, StandardCharsets.UTF_8);
    workspace = root.toRealPath();
    bin = Files.createDirectory(dir.resolve("bin"));
    for (String tool : List.of("bash", "readlink", "flock", "mkdir", "mv", "rm")) {
      Path usrBin = Path.of("/usr/bin", tool);
      Files.createSymbolicLink(
          bin.resolve(tool), Files.exists(usrBin) ? usrBin : Path.of("/bin", tool));
    }
  }

  private static List<String> violations(String schemaResource, JsonNode document)
      throws IOException {
    // A pom module processes no test resources: they are read where they are.
    String schema =
        Files.readString(Path.of(System.getProperty("notesmcp.testResources") + schemaResource));
    List<String> violations = new ArrayList<>();
    for (Error error :
        SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
            .getSchema(schema)
            .validate(document)) {
      violations.add(error.toString());
    }
    return violations;
  }

  @Test
  void theManifestIsValidAgainstTheBundleFormatsSchema() throws IOException {
    assertThat(violations("/mcpb-schema/mcpb-manifest-v0.3.schema.json", manifest)).isEmpty();
    assertThat(manifest.path("manifest_version").asString()).isEqualTo("0.3");
    assertThat(manifest.path("version").asString()).isEqualTo(VERSION);
    assertThat(manifest.at("/compatibility/platforms").toString()).isEqualTo("[\"linux\"]");
  }

  /** The schema would take a manifest without the folder; the bundle must not. */
  @Test
  void theWorkspaceIsARequiredFolderThePersonChoosesAndTheOnlyArgumentThatVaries() {
    JsonNode workspaceField = manifest.at("/user_config/workspace");
    assertThat(workspaceField.path("type").asString()).isEqualTo("directory");
    assertThat(workspaceField.path("required").asBoolean()).isTrue();
    assertThat(manifest.at("/server/mcp_config/args").toString())
        .isEqualTo("[\"-serve\",\"-root\",\"${user_config.workspace}\"]");
    assertThat(manifest.at("/server/mcp_config/command").asString())
        .isEqualTo("${__dirname}/" + manifest.at("/server/entry_point").asString());
  }

  @Test
  void theBundleHoldsTheServerWithItsOwnRuntimeAndTheExecutableBits() {
    Path entry = unpacked.resolve(manifest.at("/server/entry_point").asString());
    assertThat(entry).isRegularFile().isExecutable();
    assertThat(unpacked.resolve("server/lib/runtime/bin/java")).isExecutable();
    assertThat(unpacked.resolve("server/lib/app/notes-mcp.jar")).isRegularFile();
    assertThat(unpacked.resolve("server/lib/app/native/libnotesmcp.so")).isRegularFile();
  }

  /**
   * Started as a host starts it, from the manifest's command and arguments with the host's two
   * substitutions, in a bare environment: both eras, every reply schema-checked, the tools the
   * manifest declares are the tools the server lists, and it exits 0 when stdin closes.
   */
  @Test
  void theUnpackedBundleServesTheChosenFolderOverStdio() throws Exception {
    List<String> command = new ArrayList<>();
    command.add(substitute(manifest.at("/server/mcp_config/command").asString()));
    for (JsonNode arg : manifest.at("/server/mcp_config/args")) {
      command.add(substitute(arg.asString()));
    }
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectError(dir.resolve("bundle-server.err").toFile());
    builder.environment().clear();
    builder.environment().put("PATH", bin.toString());
    builder.environment().put("HOME", dir.toString());
    Process server = builder.start();
    try (OutputStream in = server.getOutputStream()) {
      in.write(
          ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                  + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"claude-ai\","
                  + "\"version\":\"0.1.0\"}}}\n"
                  + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                  + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n"
                  + "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":"
                  + "\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}}\n"
                  + "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{"
                  + DistIT.META
                  + ",\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}}\n")
              .getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(server.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(server.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(server.exitValue()).as(Files.readString(dir.resolve("bundle-server.err"))).isZero();
    JsonNode[] byId = new JsonNode[4];
    for (String line : out.split("\n")) {
      JsonNode reply = JSON.readTree(line);
      byId[reply.path("id").asInt() - 1] = reply;
    }
    List<String> violations = new ArrayList<>();
    violations.addAll(SchemaCheck.legacyResponse(SchemaCheck.LEGACY, "InitializeResult", byId[0]));
    violations.addAll(SchemaCheck.legacyResponse(SchemaCheck.LEGACY, "ListToolsResult", byId[1]));
    violations.addAll(SchemaCheck.legacyResponse(SchemaCheck.LEGACY, "CallToolResult", byId[2]));
    violations.addAll(
        SchemaCheck.violations(SchemaCheck.MODERN, "CallToolResultResponse", byId[3]));
    assertThat(violations).isEmpty();
    for (JsonNode read : List.of(byId[2], byId[3])) {
      assertThat(read.at("/result/isError").asBoolean()).isFalse();
      assertThat(read.at("/result/content/0/text").asString())
          .contains("Monday: ship the preview.");
    }
    List<String> listed = new ArrayList<>();
    for (JsonNode tool : byId[1].path("result").path("tools")) {
      listed.add(tool.path("name").asString());
    }
    List<String> declared = new ArrayList<>();
    for (JsonNode tool : manifest.path("tools")) {
      declared.add(tool.path("name").asString());
    }
    assertThat(listed).as(byId[1].toString()).containsExactlyElementsOf(declared);
  }

  private static String substitute(String value) {
    return value
        .replace("${__dirname}", unpacked.toString())
        .replace("${user_config.workspace}", workspace.toString());
  }

  @Test
  void serverJsonIsValidAgainstTheRegistrysSchemaAndNamesTheBundleByItsDigest() throws Exception {
    JsonNode server = JSON.readTree(Files.readString(dist.resolve("server.json")));

    assertThat(violations("/registry-schema/server.schema.json", server)).isEmpty();
    assertThat(server.path("version").asString()).isEqualTo(VERSION);
    JsonNode pkg = server.at("/packages/0");
    assertThat(server.path("packages").size()).isEqualTo(1);
    assertThat(pkg.path("registryType").asString()).isEqualTo("mcpb");
    assertThat(pkg.path("identifier").asString()).endsWith("/" + mcpb.getFileName());
    String digest =
        HexFormat.of()
            .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(mcpb)));
    assertThat(pkg.path("fileSha256").asString()).isEqualTo(digest);
    assertThat(pkg.at("/transport/type").asString()).isEqualTo("stdio");
    assertThat(pkg.at("/packageArguments/0/value").asString()).isEqualTo("-serve");
    assertThat(pkg.at("/packageArguments/1/name").asString()).isEqualTo("-root");
    assertThat(pkg.at("/packageArguments/1/isRequired").asBoolean()).isTrue();
  }

  /** The schemas are strict enough to fail: a broken copy of each document is refused. */
  @Test
  void theSchemasRefuseABrokenManifestAndABrokenServerJson() throws IOException {
    JsonNode brokenManifest = manifest.deepCopy();
    ((tools.jackson.databind.node.ObjectNode) brokenManifest.get("server")).put("type", "java");
    assertThat(violations("/mcpb-schema/mcpb-manifest-v0.3.schema.json", brokenManifest))
        .isNotEmpty();
    JsonNode server = JSON.readTree(Files.readString(dist.resolve("server.json")));
    ((tools.jackson.databind.node.ObjectNode) server.at("/packages/0")).remove("fileSha256");
    assertThat(violations("/registry-schema/server.schema.json", server)).isNotEmpty();
  }
}

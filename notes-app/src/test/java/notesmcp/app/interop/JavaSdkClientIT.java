package notesmcp.app.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official MCP Java SDK's client ({@link McpSyncClient} over its {@link StdioClientTransport},
 * unmodified) against our real executable, {@code notes-mcp -serve}. The SDK speaks the legacy
 * {@code initialize} era (it knows revisions up to 2025-11-25), so this is the dual-era server's
 * legacy path as a real host drives it.
 */
class JavaSdkClientIT {
  @TempDir Path tmp;
  private Path workspace;
  private McpSyncClient client;

  @BeforeEach
  void startClient() throws Exception {
    workspace = Fixture.workspace(Files.createDirectory(tmp.resolve("workspace")));
    Files.writeString(tmp.resolve("secret.txt"), "outside the workspace");
    ServerParameters server =
        ServerParameters.builder(Fixture.launcher().toString())
            .args("-serve", "-root", workspace.toString())
            .build();
    StdioClientTransport transport = new StdioClientTransport(server, McpJsonDefaults.getMapper());
    client =
        McpClient.sync(transport)
            .clientInfo(McpSchema.Implementation.builder("java-sdk-interop-test", "1.0").build())
            .requestTimeout(Duration.ofSeconds(10))
            .initializationTimeout(Duration.ofSeconds(10))
            .build();
  }

  @AfterEach
  void closeClient() {
    client.close();
  }

  @Test
  void initializeNegotiatesALegacyRevision() {
    InitializeResult init = client.initialize();

    // The SDK asks for its newest revision, which we serve as asked.
    assertThat(init.protocolVersion()).isEqualTo("2025-11-25");
    assertThat(init.serverInfo().name()).isEqualTo("notes-mcp");
    assertThat(init.capabilities().tools()).isNotNull();
    assertThat(init.instructions()).contains("list_notes", "read_note", "propose_note");
  }

  @Test
  void pingAfterInitializeIsAnswered() {
    client.initialize();

    assertThat(client.ping()).isNotNull();
  }

  @Test
  void listToolsGivesTheThreeToolsWithTheirSchemas() {
    client.initialize();

    Map<String, Tool> tools =
        client.listTools().tools().stream()
            .collect(Collectors.toMap(Tool::name, Function.identity()));

    assertThat(tools).containsOnlyKeys("list_notes", "read_note", "propose_note");
    assertThat(tools.values()).allSatisfy(tool -> assertThat(tool.description()).isNotBlank());

    Map<String, Object> list = tools.get("list_notes").inputSchema();
    assertThat(list)
        .containsEntry("type", "object")
        .containsEntry("properties", Map.of())
        .containsEntry("additionalProperties", false);

    Map<String, Object> read = tools.get("read_note").inputSchema();
    assertThat(read)
        .containsEntry("type", "object")
        .containsEntry("required", List.of("path"))
        .containsEntry("additionalProperties", false);
    assertThat(property(read, "path"))
        .containsEntry("type", "string")
        .containsEntry("enum", Fixture.READABLE);

    Map<String, Object> propose = tools.get("propose_note").inputSchema();
    assertThat(propose)
        .containsEntry("required", List.of("path", "content"))
        .containsEntry("additionalProperties", false);
    assertThat(property(propose, "path")).containsEntry("enum", List.of("draft.txt"));
    assertThat(property(propose, "content"))
        .containsEntry("type", "string")
        .containsEntry("maxLength", 2048);
  }

  @Test
  void readNoteReturnsOneTextBlockWithTheNote() {
    client.initialize();

    CallToolResult result = client.callTool(read("notes.txt"));

    assertThat(result.isError()).isFalse();
    assertThat(result.structuredContent()).isNull();
    assertThat(result.content()).hasSize(1);
    assertThat(((TextContent) result.content().get(0)).text()).isEqualTo(Fixture.notesReadResult());
  }

  @Test
  void readOutsideTheWorkspaceIsAToolErrorNamingThePath() {
    client.initialize();

    CallToolResult result = client.callTool(read("../secret.txt"));

    assertThat(result.isError()).isTrue();
    assertThat(result.content()).hasSize(1);
    assertThat(((TextContent) result.content().get(0)).text())
        .isEqualTo(
            "path \"../secret.txt\" is not allowed: it must be exactly one of notes.txt,"
                + " project.txt, draft.txt")
        .doesNotContain("outside the workspace");
  }

  @Test
  void proposeNoteIsPendingAndWritesNothing() {
    client.initialize();

    CallToolResult first =
        client.callTool(call("propose_note", Map.of("path", "draft.txt", "content", "Hi.\n")));
    CallToolResult second =
        client.callTool(call("propose_note", Map.of("path", "draft.txt", "content", "Again")));

    assertThat(first.isError()).isFalse();
    assertThat(((TextContent) first.content().get(0)).text())
        .matches(
            "\\{\"status\":\"pending_approval\",\"proposal_id\":\"[0-9a-f-]{36}\","
                + "\"path\":\"draft.txt\"}");
    assertThat(second.isError()).isTrue();
    assertThat(((TextContent) second.content().get(0)).text())
        .contains("a proposal is already pending");
    assertThat(workspace.resolve("draft.txt")).doesNotExist();
  }

  @Test
  void unknownToolIsAProtocolErrorNotAToolResult() {
    client.initialize();

    McpError error =
        catchThrowableOfType(
            McpError.class,
            () -> client.callTool(call("save_note", Map.of("path", "draft.txt", "content", "x"))));

    assertThat(error).as("callTool(save_note) must throw McpError").isNotNull();
    assertThat(error.getJsonRpcError().code()).isEqualTo(-32602);
    assertThat(error.getJsonRpcError().message()).contains("save_note");
  }

  @Test
  void closingTheClientEndsTheServerProcess() throws Exception {
    client.initialize();
    ProcessHandle server = Fixture.serverChild(workspace);

    assertThat(client.closeGracefully()).isTrue();

    Fixture.assertExits(server, Duration.ofSeconds(5));
    assertThat(workspace.resolve("draft.txt")).doesNotExist();
  }

  private static CallToolRequest read(String path) {
    return call("read_note", Map.of("path", path));
  }

  private static CallToolRequest call(String tool, Map<String, Object> arguments) {
    return CallToolRequest.builder(tool).arguments(arguments).build();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> property(Map<String, Object> schema, String name) {
    return (Map<String, Object>) ((Map<String, Object>) schema.get("properties")).get(name);
  }
}

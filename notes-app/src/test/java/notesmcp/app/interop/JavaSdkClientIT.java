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
import notesmcp.mcp.SchemaCheck;
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

  /**
   * A search, made again while the answer is that the index is still being built (as that answer
   * asks; each is answered within 5 s), for at most a minute.
   */
  private static CallToolResult searchWhileBuilt(McpSyncClient client, CallToolRequest request) {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
    while (true) {
      CallToolResult result = client.callTool(request);
      if (!Boolean.TRUE.equals(result.isError())
          || !onlyText(result).startsWith("the search index is still being built: ")
          || System.nanoTime() > deadline) {
        return result;
      }
    }
  }

  private static CallToolRequest call(String tool, Map<String, Object> arguments) {
    return CallToolRequest.builder(tool).arguments(arguments).build();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> property(Map<String, Object> schema, String name) {
    return (Map<String, Object>) ((Map<String, Object>) schema.get("properties")).get(name);
  }

  /**
   * Resources as the Java SDK's client uses them (legacy era): listed, the template, read, a
   * refusal as an McpError with our words, a path completed, and resources/subscribe told of
   * notes.txt rewritten on disk (the SDK reads the note again itself and hands the contents to its
   * consumer). The server runs behind peers/interop/wire-tap.mjs, and every message it wrote is
   * checked against the 2025-11-25 schema.
   */
  @Test
  void resourcesAreListedReadCompletedAndAnEditedNoteIsTold() throws Exception {
    Path wire = tmp.resolve("wire.jsonl");
    java.util.concurrent.BlockingQueue<List<McpSchema.ResourceContents>> updates =
        new java.util.concurrent.LinkedBlockingQueue<>();
    ServerParameters tapped =
        ServerParameters.builder(Interop.node().toString())
            .args(
                Interop.script("wire-tap.mjs").toString(),
                wire.toString(),
                Fixture.launcher().toString(),
                "-serve",
                "-root",
                workspace.toString())
            .build();
    McpSyncClient resources =
        McpClient.sync(new StdioClientTransport(tapped, McpJsonDefaults.getMapper()))
            .clientInfo(McpSchema.Implementation.builder("java-sdk-interop-test", "1.0").build())
            .requestTimeout(Duration.ofSeconds(10))
            .initializationTimeout(Duration.ofSeconds(10))
            .resourcesUpdateConsumer(updates::add)
            .build();
    try {
      InitializeResult init = resources.initialize();
      assertThat(init.capabilities().resources().subscribe()).isTrue();
      assertThat(init.capabilities().completions()).isNotNull();

      assertThat(resources.listResources().resources())
          .extracting(McpSchema.Resource::uri)
          .containsExactly("note:///notes.txt", "note:///project.txt");
      assertThat(resources.listResourceTemplates().resourceTemplates())
          .extracting(McpSchema.ResourceTemplate::uriTemplate)
          .containsExactly("note:///{+path}");
      McpSchema.ReadResourceResult read =
          resources.readResource(
              McpSchema.ReadResourceRequest.builder("note:///notes.txt").build());
      assertThat(((McpSchema.TextResourceContents) read.contents().get(0)).text())
          .isEqualTo(Fixture.NOTES_TEXT);
      McpError refused =
          catchThrowableOfType(
              McpError.class,
              () ->
                  resources.readResource(
                      McpSchema.ReadResourceRequest.builder("note:///..%2Fsecret.txt").build()));
      assertThat(refused.getMessage()).contains("path \"../secret.txt\" is not allowed");
      assertThat(refused.getJsonRpcError().code()).isEqualTo(-32002);
      McpSchema.CompleteResult completion =
          resources.completeCompletion(
              McpSchema.CompleteRequest.builder(
                      new McpSchema.ResourceReference("note:///{+path}"),
                      new McpSchema.CompleteRequest.CompleteArgument("path", "pro"))
                  .build());
      assertThat(completion.completion().values()).containsExactly("project.txt");

      resources.subscribeResource(McpSchema.SubscribeRequest.builder("note:///notes.txt").build());
      Path notes = workspace.resolve("notes.txt");
      Files.write(notes, Files.readAllBytes(notes));
      List<McpSchema.ResourceContents> told =
          updates.poll(15, java.util.concurrent.TimeUnit.SECONDS);
      assertThat(told).as("the SDK's update consumer after notes.txt was rewritten").isNotNull();
      assertThat(told).extracting(McpSchema.ResourceContents::uri).contains("note:///notes.txt");
    } finally {
      resources.closeGracefully();
    }
    assertThat(wireViolations(wire, 7)).isEmpty();
  }

  /**
   * search_notes as the Java SDK's client calls it, against our server with a policy file that
   * offers it ({@link Interop.Searchable}: a workspace, policy and cache of its own): listed with
   * the other three tools, a word in one note found there (path, a numeric score, a snippet holding
   * the word), a word in none giving no hits, and an empty query and limit 0 refused as tool
   * results with isError and the reason. The server runs behind peers/interop/wire-tap.mjs, and
   * every message it wrote is checked against the 2025-11-25 schema.
   */
  @Test
  void searchNotesUnderAPolicyFileFindsOneNoteNoneAndRefusesAsToolResults() throws Exception {
    Interop.Searchable served = Interop.Searchable.in(Files.createDirectory(tmp.resolve("search")));
    Path wire = tmp.resolve("search-wire.jsonl");
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                Interop.script("wire-tap.mjs").toString(),
                wire.toString(),
                Fixture.launcher().toString()));
    args.addAll(served.serverArgs());
    ServerParameters.Builder tapped =
        ServerParameters.builder(Interop.node().toString()).args(args);
    served.env().forEach(tapped::addEnvVar);
    McpSyncClient search =
        McpClient.sync(new StdioClientTransport(tapped.build(), McpJsonDefaults.getMapper()))
            .clientInfo(McpSchema.Implementation.builder("java-sdk-interop-test", "1.0").build())
            // The first search has the index built by a child JVM: more than a usual answer.
            .requestTimeout(Duration.ofSeconds(60))
            .initializationTimeout(Duration.ofSeconds(10))
            .build();
    try {
      search.initialize();
      assertThat(search.listTools().tools())
          .extracting(Tool::name)
          .containsExactly("list_notes", "read_note", "propose_note", "search_notes");

      CallToolResult found =
          searchWhileBuilt(search, call("search_notes", Map.of("query", Interop.SEARCH_WORD)));
      assertThat(found.isError()).isFalse();
      tools.jackson.databind.JsonNode hits = Interop.parse(onlyText(found)).path("hits");
      assertThat(hits.size()).as("hits for %s: %s", Interop.SEARCH_WORD, hits).isEqualTo(1);
      tools.jackson.databind.JsonNode hit = hits.get(0);
      assertThat(hit.propertyNames()).containsExactly("path", "score", "snippet");
      assertThat(hit.path("path").asString()).isEqualTo("notes.txt");
      assertThat(hit.path("score").isNumber()).as("score of %s", hit).isTrue();
      assertThat(hit.path("snippet").isString()).as("snippet of %s", hit).isTrue();
      assertThat(hit.path("snippet").asString()).contains(Interop.SEARCH_WORD);

      CallToolResult none =
          searchWhileBuilt(search, call("search_notes", Map.of("query", Interop.NO_HIT_WORD)));
      assertThat(none.isError()).isFalse();
      assertThat(onlyText(none)).isEqualTo("{\"hits\":[]}");

      CallToolResult empty = search.callTool(call("search_notes", Map.of("query", "")));
      assertThat(empty.isError()).isTrue();
      assertThat(onlyText(empty)).isEqualTo("query is empty: give at least one word to search for");

      CallToolResult zero =
          search.callTool(call("search_notes", Map.of("query", Interop.SEARCH_WORD, "limit", 0)));
      assertThat(zero.isError()).isTrue();
      assertThat(onlyText(zero)).isEqualTo("limit must be from 1 to 50, not 0");
    } finally {
      search.closeGracefully();
    }
    assertThat(wireViolations(wire, 6)).isEmpty();
    assertThat(Interop.listing(served.workspace())).containsExactly("notes.txt", "project.txt");
  }

  /** The one content block of a tool result, which must be text. */
  private static String onlyText(CallToolResult result) {
    assertThat(result.content()).as("content of %s", result).hasSize(1);
    assertThat(result.content().get(0)).as("content of %s", result).isInstanceOf(TextContent.class);
    return ((TextContent) result.content().get(0)).text();
  }

  private static final Map<String, String> RESULTS =
      Map.of(
          "initialize", "InitializeResult",
          "tools/list", "ListToolsResult",
          "tools/call", "CallToolResult",
          "resources/list", "ListResourcesResult",
          "resources/templates/list", "ListResourceTemplatesResult",
          "resources/read", "ReadResourceResult",
          "resources/subscribe", "EmptyResult",
          "completion/complete", "CompleteResult",
          "ping", "EmptyResult");

  /**
   * Every message the server wrote, against the 2025-11-25 schema for what it answers; there must
   * be at least {@code fewest} of them.
   */
  private static List<String> wireViolations(Path wire, int fewest) throws java.io.IOException {
    Map<String, String> methods = new java.util.HashMap<>();
    List<String> violations = new java.util.ArrayList<>();
    int answers = 0;
    for (String line : Files.readAllLines(wire)) {
      tools.jackson.databind.JsonNode entry = Interop.parse(line);
      tools.jackson.databind.JsonNode message = entry.path("message");
      if (entry.path("dir").asString().equals("client->server")) {
        if (message.has("id") && message.has("method")) {
          methods.put(message.get("id").toString(), message.get("method").asString());
        }
        continue;
      }
      answers++;
      if (!message.has("id")) {
        assertThat(message.path("method").asString())
            .isIn("notifications/resources/updated", "notifications/resources/list_changed");
        String definition =
            message.path("method").asString().endsWith("updated")
                ? "ResourceUpdatedNotification"
                : "ResourceListChangedNotification";
        violations.addAll(SchemaCheck.violations(SchemaCheck.LEGACY, definition, message));
        continue;
      }
      String result = RESULTS.get(methods.get(message.get("id").toString()));
      assertThat(result).as("a known method answered: %s", message).isNotNull();
      violations.addAll(SchemaCheck.legacyResponse(SchemaCheck.LEGACY, result, message));
    }
    assertThat(answers).as("server messages in the wire trace").isGreaterThanOrEqualTo(fewest);
    return violations;
  }
}

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import notesmcp.mcp.SchemaCheck;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * The official clients over Streamable HTTP with a bearer token, unmodified: the TypeScript SDK v2
 * ({@code @modelcontextprotocol/client}, which stays in 2026-07-28 here) and v1 ({@code
 * @modelcontextprotocol/sdk}, the initialize era with a session) through {@code
 * peers/interop/ts-http-client.mjs}, and the Java SDK 2.1.0's {@code HttpClientStreamableHttpTransport}:
 * each lists the tools, reads a note, is refused one outside the workspace and an unknown tool,
 * searches, reads and is refused a resource, and is told of a change to a note it subscribed to.
 * Every message they received is checked against the official schema of the revision in use.
 */
class HttpClientsIT {
  static final String NOTES =
      "HTTP fixture: notes.txt, read over HTTP.\nIt mentions pipes, once.\n";

  @TempDir Path dir;
  private Path root;
  private Path tokens;
  private String token;
  private Path policy;
  private Map<String, String> env;

  @BeforeEach
  void workspace() throws Exception {
    root = Files.createDirectories(dir.resolve("workspace"));
    Files.writeString(root.resolve("notes.txt"), NOTES, StandardCharsets.UTF_8);
    Files.writeString(root.resolve("project.txt"), "Project: over HTTP\n", StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("secret.txt"), "TOP-SECRET-outside-the-workspace");
    policy =
        Files.writeString(
            dir.resolve("policy.json"),
            "{\"readable\":[\"*.txt\"],\"proposable\":[\"draft.txt\"],\"maxCalls\":1000}");
    tokens = HttpWire.tokensFile(dir);
    token = HttpWire.addToken(tokens, "client", "propose");
    env = Map.of("XDG_CACHE_HOME", Files.createDirectories(dir.resolve("cache")).toString());
  }

  private HttpWire serve() throws Exception {
    return HttpWire.start(root, env, "-tokens", tokens.toString(), "-policy", policy.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"v2", "v1"})
  void theTypeScriptSdkClientsReadSearchAreRefusedAndToldOfAChange(String sdk) throws Exception {
    Path interop = Path.of(System.getProperty("notesmcp.repo")).resolve("peers").resolve("interop");
    try (HttpWire server = serve()) {
      Path out = dir.resolve("report.json");
      Process client =
          new ProcessBuilder(
                  "node",
                  interop.resolve("ts-http-client.mjs").toString(),
                  sdk,
                  server.uri.toString(),
                  token,
                  root.toString())
              .redirectOutput(out.toFile())
              .redirectError(dir.resolve("client.err").toFile())
              .start();
      assertThat(client.waitFor(120, TimeUnit.SECONDS)).isTrue();
      String err = Files.readString(dir.resolve("client.err"));
      assertThat(client.exitValue()).as(err + server.stderr()).isZero();
      JsonNode report = HttpWire.JSON.readTree(Files.readString(out));

      assertThat(report.get("era").stringValue()).isEqualTo(sdk.equals("v2") ? "modern" : "legacy");
      // Each tool's own name: findValuesAsString would also meet the "name" of a property's schema.
      List<String> toolNames = new java.util.ArrayList<>();
      for (JsonNode tool : report.get("tools")) {
        toolNames.add(tool.get("name").stringValue());
      }
      assertThat(toolNames)
          .containsExactly(
              "list_notes",
              "read_note",
              "propose_note",
              "search_notes",
              "note_links",
              "backlinks",
              "list_tags",
              "find_notes");
      assertThat(report.at("/readNote/result/isError").booleanValue()).isFalse();
      assertThat(report.at("/readNote/result/content/0/text").stringValue()).contains("pipes");
      assertThat(report.at("/refusedRead/result/isError").booleanValue()).isTrue();
      assertThat(report.toString()).doesNotContain("TOP-SECRET");
      assertThat(report.at("/unknownTool/error/code").asInt()).isEqualTo(-32602);
      assertThat(report.at("/search/result/content/0/text").stringValue()).contains("notes.txt");
      assertThat(report.at("/searchEmptyQuery/result/isError").booleanValue()).isTrue();
      assertThat(report.at("/resourceRead/result/contents/0/text").stringValue()).isEqualTo(NOTES);
      assertThat(report.at("/refusedResourceRead/error/code").asInt())
          .isEqualTo(sdk.equals("v2") ? -32602 : -32002);
      assertThat(report.at("/updated/uri").stringValue()).isEqualTo("note:///notes.txt");

      String revision = sdk.equals("v2") ? SchemaCheck.MODERN : SchemaCheck.LEGACY;
      List<String> violations = new ArrayList<>();
      int checked = 0;
      for (JsonNode entry : report.get("wire")) {
        if (!entry.get("dir").stringValue().equals("server->client")) {
          continue;
        }
        JsonNode message = entry.get("message");
        String definition =
            message.has("error")
                ? "JSONRPCErrorResponse"
                : message.has("result") ? "JSONRPCResultResponse" : "JSONRPCNotification";
        violations.addAll(SchemaCheck.violations(revision, definition, message));
        checked++;
      }
      assertThat(checked).isGreaterThan(10);
      assertThat(violations).isEmpty();
      assertThat(server.stderr()).doesNotContain(token);
    }
  }

  @Test
  void theJavaSdkHttpClientReadsSearchesIsRefusedAndToldOfAChange() throws Exception {
    try (HttpWire server = serve()) {
      BlockingQueue<List<McpSchema.ResourceContents>> updates = new LinkedBlockingQueue<>();
      HttpClientStreamableHttpTransport transport =
          HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.port)
              .endpoint("/mcp")
              .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token))
              .build();
      McpSyncClient client =
          McpClient.sync(transport)
              .clientInfo(McpSchema.Implementation.builder("java-sdk-http", "1.0").build())
              .requestTimeout(Duration.ofSeconds(60))
              .initializationTimeout(Duration.ofSeconds(10))
              .resourcesUpdateConsumer(updates::add)
              .build();
      try {
        McpSchema.InitializeResult init = client.initialize();
        assertThat(init.serverInfo().name()).isEqualTo("notes-mcp");
        assertThat(client.listTools().tools())
            .extracting(McpSchema.Tool::name)
            .containsExactly(
                "list_notes",
                "read_note",
                "propose_note",
                "search_notes",
                "note_links",
                "backlinks",
                "list_tags",
                "find_notes");
        McpSchema.CallToolResult read =
            client.callTool(
                McpSchema.CallToolRequest.builder("read_note")
                    .arguments(Map.of("path", "notes.txt"))
                    .build());
        assertThat(read.isError()).isFalse();
        assertThat(((McpSchema.TextContent) read.content().get(0)).text()).contains("pipes");
        McpSchema.CallToolResult refused =
            client.callTool(
                McpSchema.CallToolRequest.builder("read_note")
                    .arguments(Map.of("path", "../secret.txt"))
                    .build());
        assertThat(refused.isError()).isTrue();
        McpSchema.CallToolResult found =
            client.callTool(
                McpSchema.CallToolRequest.builder("search_notes")
                    .arguments(Map.of("query", "pipes"))
                    .build());
        assertThat(found.isError()).isFalse();
        assertThat(((McpSchema.TextContent) found.content().get(0)).text()).contains("notes.txt");
        McpError unknown =
            catchThrowableOfType(
                McpError.class,
                () ->
                    client.callTool(
                        McpSchema.CallToolRequest.builder("save_note")
                            .arguments(Map.of("path", "x"))
                            .build()));
        assertThat(unknown.getJsonRpcError().code()).isEqualTo(-32602);

        client.subscribeResource(McpSchema.SubscribeRequest.builder("note:///notes.txt").build());
        Path notes = root.resolve("notes.txt");
        List<McpSchema.ResourceContents> told = null;
        for (int attempt = 0; attempt < 20 && told == null; attempt++) {
          Files.write(notes, Files.readAllBytes(notes));
          told = updates.poll(1, TimeUnit.SECONDS);
        }
        assertThat(told).as("the SDK's update consumer after notes.txt was rewritten").isNotNull();
        assertThat(told).extracting(McpSchema.ResourceContents::uri).contains("note:///notes.txt");
      } finally {
        client.closeGracefully();
      }
      assertThat(server.stderr()).doesNotContain(token);
    }
  }
}

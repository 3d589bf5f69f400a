package notesmcp.interop.springai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.ai.mcp.SyncMcpToolCallbackProvider;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Spring AI's MCP client on Spring Boot 3, unmodified, configured the way a Spring AI host
 * configures a stdio server ({@code spring.ai.mcp.client.stdio.connections.*}): the auto-configured
 * {@link McpSyncClient} (the official MCP Java SDK 0.17 underneath, which asks for 2024-11-05 on
 * stdio) and the {@link ToolCallback}s a Spring AI chat model would be given.
 *
 * <p>Usage: {@code java -cp CLASSPATH notesmcp.interop.springai.SpringAiClient WIRE_LOG TAP
 * SERVER_COMMAND [ARGS...]}: the server is started as {@code node TAP WIRE_LOG SERVER_COMMAND
 * ARGS...} (peers/interop/wire-tap.mjs, a transparent tap that logs each line). Prints one JSON report on
 * stdout in the shape of peers/interop/report.mjs; everything else (Spring's logging) goes to stderr.
 */
@SpringBootApplication
public class SpringAiClient {
  private static final ObjectMapper JSON = new ObjectMapper();

  public static void main(String[] args) throws IOException {
    if (args.length < 3) {
      System.err.println("usage: SpringAiClient WIRE_LOG TAP SERVER_COMMAND [ARGS...]");
      System.exit(2);
    }
    // stdout carries the report only: Spring's console logging goes to stderr.
    PrintStream stdout = System.out;
    System.setOut(System.err);
    Path wireLog = Path.of(args[0]);
    List<String> serverArgs = new ArrayList<>(List.of(args[1], args[0]));
    serverArgs.addAll(List.of(args).subList(2, args.length));

    List<String> properties = new ArrayList<>();
    properties.add("--spring.main.web-application-type=none");
    properties.add("--spring.main.banner-mode=off");
    properties.add("--spring.ai.mcp.client.type=SYNC");
    properties.add("--spring.ai.mcp.client.name=spring-ai-interop");
    properties.add("--spring.ai.mcp.client.request-timeout=20s");
    properties.add("--spring.ai.mcp.client.stdio.connections.notes.command=node");
    for (int i = 0; i < serverArgs.size(); i++) {
      properties.add(
          "--spring.ai.mcp.client.stdio.connections.notes.args[" + i + "]=" + serverArgs.get(i));
    }
    ObjectNode report;
    try (ConfigurableApplicationContext context =
        SpringApplication.run(SpringAiClient.class, properties.toArray(String[]::new))) {
      report = checks(context);
    } catch (RuntimeException e) {
      // The client's threads and its server child would keep a failed run alive: end it.
      System.err.println("interop client failed: " + e);
      System.exit(1);
      return;
    }
    report.set("wire", wire(wireLog));
    stdout.println(JSON.writeValueAsString(report));
    stdout.flush();
    System.exit(0);
  }

  private static ObjectNode checks(ConfigurableApplicationContext context) {
    @SuppressWarnings("unchecked")
    List<McpSyncClient> clients = context.getBean("mcpSyncClients", List.class);
    McpSyncClient client = clients.get(0);
    ObjectNode report = JSON.createObjectNode();
    ObjectNode sdk = report.putObject("sdk");
    sdk.put("package", "org.springframework.ai:spring-ai-starter-mcp-client");
    sdk.put("version", SyncMcpToolCallbackProvider.class.getPackage().getImplementationVersion());
    McpSchema.InitializeResult init = client.getCurrentInitializationResult();
    report.put("era", "legacy");
    report.put("protocolVersion", init.protocolVersion());
    report.set("serverInfo", JSON.valueToTree(init.serverInfo()));
    report.set("serverCapabilities", JSON.valueToTree(init.capabilities()));

    McpSchema.ListToolsResult listed = client.listTools();
    ArrayNode tools = report.putArray("tools");
    for (McpSchema.Tool tool : listed.tools()) {
      ObjectNode entry = tools.addObject();
      entry.put("name", tool.name());
      entry.put("description", tool.description());
      entry.set("inputSchema", JSON.valueToTree(tool.inputSchema()));
    }
    report.set("readNote", call(client, "read_note", Map.of("path", "notes.txt")));
    report.set("refusedRead", call(client, "read_note", Map.of("path", "../secret.txt")));
    report.set(
        "unknownTool", call(client, "save_note", Map.of("path", "draft.txt", "content", "x")));

    // What a Spring AI chat host hands its model: one ToolCallback per tool.
    ObjectNode host = report.putObject("hostTools");
    ToolCallback[] callbacks = context.getBean(SyncMcpToolCallbackProvider.class).getToolCallbacks();
    for (ToolCallback callback : callbacks) {
      host.put(callback.getToolDefinition().name(), callback.getToolDefinition().inputSchema());
    }
    ToolCallback read = byName(callbacks, "read_note");
    report.put("hostRead", read.call("{\"path\":\"notes.txt\"}"));
    try {
      report.put("hostRefusal", read.call("{\"path\":\"../secret.txt\"}"));
    } catch (RuntimeException e) {
      report.put("hostRefusal", e.getClass().getSimpleName() + ": " + e.getMessage());
    }
    return report;
  }

  private static ToolCallback byName(ToolCallback[] callbacks, String suffix) {
    for (ToolCallback callback : callbacks) {
      if (callback.getToolDefinition().name().endsWith(suffix)) {
        return callback;
      }
    }
    throw new IllegalStateException("no tool callback named *" + suffix);
  }

  /** A call's outcome: {"result": ...} or {"error": {"code", "message", "errorClass"}}. */
  private static ObjectNode call(McpSyncClient client, String name, Map<String, Object> args) {
    ObjectNode outcome = JSON.createObjectNode();
    try {
      McpSchema.CallToolResult result =
          client.callTool(new McpSchema.CallToolRequest(name, args));
      outcome.set("result", JSON.valueToTree(result));
    } catch (McpError e) {
      ObjectNode error = outcome.putObject("error");
      error.put("errorClass", e.getClass().getSimpleName());
      error.put("message", e.getMessage());
      if (e.getJsonRpcError() != null) {
        error.put("code", e.getJsonRpcError().code());
        error.put("message", e.getJsonRpcError().message());
      }
    }
    return outcome;
  }

  /** The tap's log: one {"dir", "message"} object per line. */
  private static ArrayNode wire(Path log) throws IOException {
    ArrayNode wire = JSON.createArrayNode();
    if (Files.exists(log)) {
      for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
        JsonNode entry = JSON.readTree(line);
        wire.add(entry);
      }
    }
    return wire;
  }
}

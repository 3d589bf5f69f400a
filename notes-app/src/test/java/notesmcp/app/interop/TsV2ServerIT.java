package notesmcp.app.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The reverse direction: our client ({@code ./notes-mcp -server-command ...}) against a peer server
 * built with the official TypeScript SDK v2 ({@code peers/interop/ts-v2-server.mjs}, served by the
 * SDK's {@code serveStdio}). Our client must find it modern through server/discover, list and call
 * its tools, and say so with its exit codes.
 */
class TsV2ServerIT {
  @TempDir static Path dir;
  static Path workspace;

  @BeforeAll
  static void makeWorkspace() throws IOException {
    workspace = Interop.workspace(dir);
  }

  /** {@code ./notes-mcp -server-command 'node peers/interop/ts-v2-server.mjs WS' ARGS...}. */
  static Interop.Run client(String... args) throws IOException, InterruptedException {
    String server =
        String.join(
            " ",
            Interop.shellQuote(Interop.node().toString()),
            Interop.shellQuote(Interop.script("ts-v2-server.mjs").toString()),
            Interop.shellQuote(workspace.toString()));
    List<String> command = new ArrayList<>();
    command.add(Interop.launcher().toString());
    command.add("-server-command");
    command.add(server);
    command.addAll(List.of(args));
    return Interop.run(dir.resolve("logs"), command);
  }

  static void assertModern(Interop.Run run) {
    assertThat(run.stderr())
        .as("our client's era line\n%s", run)
        .contains("modern era, protocol 2026-07-28")
        .contains("notes-mcp-ts-v2-fixture");
  }

  static String onlyText(Interop.Run run, JsonNode result) {
    JsonNode content = result.path("content");
    assertThat(content.size()).as("content blocks\n%s", run).isEqualTo(1);
    assertThat(content.get(0).path("type").asString()).isEqualTo("text");
    return content.get(0).path("text").asString();
  }

  @Test
  void listsThePeersTools() throws IOException, InterruptedException {
    Interop.Run run = client();
    assertThat(run.exit()).as("exit status\n%s", run).isZero();
    assertModern(run);
    JsonNode tools = run.json();
    List<String> names = new ArrayList<>();
    tools.forEach(t -> names.add(t.path("name").asString()));
    assertThat(names)
        .as("tools\n%s", run)
        .containsExactly("list_notes", "read_note", "propose_note");
    JsonNode read = tools.get(1).path("inputSchema");
    assertThat(read.path("type").asString()).isEqualTo("object");
    assertThat(read.path("properties").path("path").path("enum").toString())
        .isEqualTo("[\"notes.txt\",\"project.txt\",\"draft.txt\"]");
    assertThat(read.path("required").toString()).isEqualTo("[\"path\"]");
    assertThat(read.path("additionalProperties").asBoolean(true)).isFalse();
  }

  @Test
  void readsANote() throws IOException, InterruptedException {
    Interop.Run run = client("-tool", "read_note", "-args", "{\"path\":\"notes.txt\"}");
    assertThat(run.exit()).as("exit status\n%s", run).isZero();
    assertModern(run);
    JsonNode result = run.json();
    assertThat(result.path("isError").asBoolean(true)).as("isError\n%s", run).isFalse();
    JsonNode text = Interop.parse(onlyText(run, result));
    assertThat(text.path("path").asString()).isEqualTo("notes.txt");
    assertThat(text.path("content").asString()).isEqualTo(Interop.NOTES_TEXT);
  }

  @Test
  void listsNotesThroughTheTool() throws IOException, InterruptedException {
    Interop.Run run = client("-tool", "list_notes");
    assertThat(run.exit()).as("exit status\n%s", run).isZero();
    assertThat(Interop.parse(onlyText(run, run.json())))
        .isEqualTo(Interop.parse("{\"notes\":[\"notes.txt\",\"project.txt\"]}"));
  }

  @Test
  void refusedReadExitsOne() throws IOException, InterruptedException {
    Interop.Run run = client("-tool", "read_note", "-args", "{\"path\":\"../secret.txt\"}");
    assertThat(run.exit()).as("exit status\n%s", run).isEqualTo(1);
    assertModern(run);
    JsonNode result = run.json();
    assertThat(result.path("isError").asBoolean(false)).as("isError\n%s", run).isTrue();
    assertThat(onlyText(run, result)).contains("../secret.txt");
    assertThat(run.stdout()).doesNotContain(Interop.SECRET_TEXT);
  }

  @Test
  void proposalIsPendingAndWritesNothing() throws IOException, InterruptedException {
    Interop.Run run =
        client("-tool", "propose_note", "-args", "{\"path\":\"draft.txt\",\"content\":\"hi\"}");
    assertThat(run.exit()).as("exit status\n%s", run).isZero();
    JsonNode text = Interop.parse(onlyText(run, run.json()));
    assertThat(text.path("status").asString()).isEqualTo("pending_approval");
    assertThat(text.path("path").asString()).isEqualTo("draft.txt");
    assertThat(text.path("proposal_id").asString()).isNotBlank();
    assertThat(Interop.listing(workspace)).containsExactly("notes.txt", "project.txt");
  }

  @Test
  void unknownToolIsAProtocolError() throws IOException, InterruptedException {
    Interop.Run run = client("-tool", "save_note", "-args", "{\"path\":\"draft.txt\"}");
    assertThat(run.exit()).as("exit status\n%s", run).isEqualTo(3);
    assertThat(run.stderr()).as("stderr\n%s", run).contains("-32602").contains("save_note");
    assertThat(run.stdout()).isEmpty();
  }
}

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The raw wire, with no client library: newline-delimited JSON-RPC written by hand to the real
 * executable, every reply validated against the official schema.
 */
class WireIT {
  @TempDir Path dir;

  @Test
  void aModernSessionFromDiscoveryToShutdown() throws Exception {
    Path root = Fixtures.workspace(dir);
    try (WireServer server = WireServer.start(root)) {
      JsonNode discover = server.modern("server/discover", "", "DiscoverResult");
      assertThat(discover.at("/result/supportedVersions").toString()).isEqualTo("[\"2026-07-28\"]");
      assertThat(discover.at("/result/resultType").asString()).isEqualTo("complete");
      assertThat(discover.at("/result/capabilities/tools").isObject()).isTrue();
      assertThat(discover.at("/result/_meta/io.modelcontextprotocol~1serverInfo/name").asString())
          .isEqualTo("notes-mcp");

      JsonNode list = server.modern("tools/list", "", "ListToolsResult");
      assertThat(list.at("/result/tools").findValuesAsString("name"))
          .containsExactly("list_notes", "read_note", "propose_note");
      assertThat(list.at("/result/ttlMs").isIntegralNumber()).isTrue();

      JsonNode read = server.call("read_note", "{\"path\":\"notes.txt\"}");
      assertThat(WireServer.isError(read)).isFalse();
      JsonNode note = WireServer.JSON.readTree(WireServer.text(read));
      assertThat(note.path("path").asString()).isEqualTo("notes.txt");
      assertThat(note.path("content").asString()).isEqualTo(Fixtures.NOTES);

      JsonNode traversal = server.call("read_note", "{\"path\":\"../private.txt\"}");
      assertThat(WireServer.isError(traversal)).isTrue();
      assertThat(WireServer.text(traversal))
          .isEqualTo(
              "path \"../private.txt\" is not allowed: it must be exactly one of notes.txt,"
                  + " project.txt, draft.txt");

      JsonNode save = server.call("save_note", "{\"path\":\"draft.txt\",\"content\":\"x\"}");
      assertThat(save.at("/error/code").asInt()).isEqualTo(-32602);
      assertThat(save.at("/error/message").asString()).isEqualTo("Unknown tool: save_note");

      JsonNode first = server.call("propose_note", "{\"path\":\"draft.txt\",\"content\":\"hi\"}");
      assertThat(WireServer.isError(first)).isFalse();
      JsonNode proposal = WireServer.JSON.readTree(WireServer.text(first));
      assertThat(proposal.path("status").asString()).isEqualTo("pending_approval");
      assertThat(proposal.path("path").asString()).isEqualTo("draft.txt");
      JsonNode second = server.call("propose_note", "{\"path\":\"draft.txt\",\"content\":\"2\"}");
      assertThat(WireServer.isError(second)).isTrue();
      assertThat(WireServer.text(second)).startsWith("a proposal is already pending");

      assertThat(server.closeInputAndWait()).isZero();
    }
    assertThat(root.resolve("draft.txt")).doesNotExist();
  }

  @Test
  void duplicateKeysWrittenRawAreRefusedByThePolicy() throws Exception {
    try (WireServer server = WireServer.start(Fixtures.workspace(dir))) {
      JsonNode reply =
          server.call("read_note", "{\"path\":\"notes.txt\",\"path\":\"../etc/passwd\"}");
      assertThat(WireServer.isError(reply)).isTrue();
      assertThat(WireServer.text(reply))
          .isEqualTo("duplicate argument \"path\": each key may appear once");
    }
  }
}

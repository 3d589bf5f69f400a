package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The server over Streamable HTTP, end to end against the real executable (docs/http.md): both eras
 * with every message checked against the official schema, tokens and their scopes, a legacy session
 * bound to its token, change notifications on SSE streams, and the stop on SIGTERM. No token is
 * ever written anywhere the server writes.
 */
class HttpIT {
  @TempDir Path dir;
  private Path root;
  private Path tokens;
  private Path proposals;
  private String reader;
  private String proposer;

  @BeforeEach
  void tokens() throws Exception {
    root = Fixtures.workspace(dir);
    tokens = HttpWire.tokensFile(dir);
    proposals = dir.resolve("proposals");
    reader = HttpWire.addToken(tokens, "phone", "read");
    proposer = HttpWire.addToken(tokens, "laptop", "propose");
  }

  private HttpWire serve(String... extra) throws Exception {
    List<String> flags =
        new java.util.ArrayList<>(
            List.of("-tokens", tokens.toString(), "-proposals", proposals.toString()));
    flags.addAll(List.of(extra));
    return HttpWire.start(root, flags.toArray(new String[0]));
  }

  @Test
  void bothErasServeTheSameToolsAndEveryMessageMatchesTheSchema() throws Exception {
    try (HttpWire server = serve()) {
      assertThat(server.uri.toString()).isEqualTo("http://127.0.0.1:" + server.port + "/mcp");

      HttpWire.Reply listed = server.modern(proposer, "tools/list", "", "ListToolsResult");
      assertThat(listed.status()).isEqualTo(200);
      assertThat(listed.json().at("/result/tools").size()).isEqualTo(3);
      HttpWire.Reply read = server.call(reader, "read_note", "{\"path\":\"notes.txt\"}");
      assertThat(read.status()).isEqualTo(200);
      assertThat(WireServer.text(read.json())).contains(Fixtures.NOTES.substring(0, 10));
      HttpWire.Reply refused = server.call(reader, "read_note", "{\"path\":\"../secret.txt\"}");
      assertThat(WireServer.isError(refused.json())).isTrue();

      HttpWire.Legacy session = server.initialize(proposer, "2025-11-25");
      HttpWire.Reply legacyList =
          server.legacy(proposer, session, "tools/list", null, "ListToolsResult");
      assertThat(legacyList.json().at("/result/tools").size()).isEqualTo(3);
      HttpWire.Reply legacyRead =
          server.legacy(
              proposer,
              session,
              "tools/call",
              "{\"name\":\"read_note\",\"arguments\":{\"path\":\"project.txt\"}}",
              "CallToolResult");
      assertThat(WireServer.text(legacyRead.json())).contains("Status: testing");

      HttpWire.Legacy old = server.initialize(proposer, "2024-11-05");
      HttpWire.Reply oldList = server.legacy(proposer, old, "tools/list", null, "ListToolsResult");
      assertThat(oldList.json().at("/result/tools/0").has("annotations")).isFalse();

      assertThat(server.violations()).isEmpty();
    }
  }

  @Test
  void aReadTokenSeesAndCallsOnlyReadOnlyToolsAndIsToldWhyWithInsufficientScope() throws Exception {
    try (HttpWire server = serve()) {
      HttpWire.Reply listed = server.modern(reader, "tools/list", "", "ListToolsResult");
      assertThat(listed.json().at("/result/tools").findValuesAsString("name"))
          .containsExactly("list_notes", "read_note");

      HttpWire.Reply proposed =
          server.call(reader, "propose_note", "{\"path\":\"draft.txt\",\"content\":\"x\"}");

      assertThat(proposed.status()).isEqualTo(403);
      assertThat(proposed.header("WWW-Authenticate"))
          .isEqualTo(
              "Bearer realm=\"notes-mcp\", error=\"insufficient_scope\","
                  + " scope=\"notes:read notes:propose\"");
      assertThat(proposed.json().at("/error/message").stringValue())
          .isEqualTo(
              "Forbidden: propose_note is not a read-only tool, and token \"phone\" allows"
                  + " read-only tools only (insufficient_scope)");
      assertThat(proposed.json().get("id").asLong()).isPositive();
      assertThat(proposals.resolve("audit.log")).doesNotExist();
      assertThat(server.violations()).isEmpty();
    }
  }

  @Test
  void aMissingOrWrongTokenIs401WithAChallengeAndNothingIsServed() throws Exception {
    try (HttpWire server = serve()) {
      String body =
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{"
              + HttpWire.META
              + "}}";
      HttpWire.Reply none = server.post(body, HttpWire.modernHeaders(null, "tools/list", null));
      HttpWire.Reply wrong =
          server.post(body, HttpWire.modernHeaders(reader + "x", "tools/list", null));
      HttpWire.Reply basic =
          server.post(
              body,
              "Content-Type",
              "application/json",
              "Authorization",
              "Basic " + reader,
              "MCP-Protocol-Version",
              "2026-07-28",
              "Mcp-Method",
              "tools/list");

      assertThat(none.status()).isEqualTo(401);
      assertThat(none.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"notes-mcp\"");
      assertThat(wrong.status()).isEqualTo(401);
      assertThat(wrong.header("WWW-Authenticate"))
          .isEqualTo("Bearer realm=\"notes-mcp\", error=\"invalid_token\"");
      assertThat(basic.status()).isEqualTo(401);
      for (HttpWire.Reply reply : List.of(none, wrong, basic)) {
        assertThat(reply.body()).doesNotContain("notes.txt").doesNotContain(reader);
        server.checkModern(reply, "ListToolsResult");
      }
      assertThat(server.violations()).isEmpty();
    }
  }

  @Test
  void aLegacySessionBelongsToTheTokenThatOpenedItAndEndsWithDelete() throws Exception {
    try (HttpWire server = serve()) {
      HttpWire.Legacy session = server.initialize(proposer, "2025-11-25");

      HttpWire.Reply asOther =
          server.legacy(reader, session, "tools/list", null, "ListToolsResult");
      HttpWire.Reply getAsOther = server.send("GET", session.id(), reader, "text/event-stream");
      HttpWire.Reply deleteAsOther = server.send("DELETE", session.id(), reader, null);
      HttpWire.Reply unknown =
          server.legacy(
              proposer,
              new HttpWire.Legacy("no-such-session", session.revision()),
              "tools/list",
              null,
              "ListToolsResult");

      assertThat(asOther.status()).isEqualTo(404);
      assertThat(getAsOther.status()).isEqualTo(404);
      assertThat(deleteAsOther.status()).isEqualTo(404);
      assertThat(asOther.json().at("/error/message").stringValue())
          .isEqualTo(unknown.json().at("/error/message").stringValue());
      HttpWire.Reply own = server.legacy(proposer, session, "tools/list", null, "ListToolsResult");
      assertThat(own.status()).isEqualTo(200);

      assertThat(server.send("DELETE", session.id(), proposer, null).status()).isEqualTo(200);
      assertThat(server.legacy(proposer, session, "tools/list", null, "ListToolsResult").status())
          .isEqualTo(404);
      assertThat(server.send("GET", null, proposer, "text/event-stream").status()).isEqualTo(405);
      assertThat(server.send("DELETE", null, proposer, null).status()).isEqualTo(405);
      assertThat(server.violations()).isEmpty();
    }
  }

  @Test
  void proposalsRecordTheTokenAndProposalStatusAnswersOnlyIt() throws Exception {
    Path other = Files.createDirectory(dir.resolve("second-proposer"));
    String second = HttpWire.addToken(tokens, "tablet", "propose");
    try (HttpWire server = serve()) {
      HttpWire.Reply proposed =
          server.call(proposer, "propose_note", "{\"path\":\"draft.txt\",\"content\":\"hi\"}");
      JsonNode answer = HttpWire.JSON.readTree(WireServer.text(proposed.json()));
      String id = answer.get("proposal_id").stringValue();
      String record = Files.readString(proposals.resolve(id + ".json"), StandardCharsets.UTF_8);
      assertThat(record).contains("\"authenticatedRequester\":\"laptop\"");
      assertThat(record).contains("\"name\":\"http-wire\"");

      // The audit log is written by a thread of its own, a moment after the answer.
      String audit = "";
      for (long deadline = System.nanoTime() + 10_000_000_000L;
          !audit.contains("\"token\":\"laptop\"") && System.nanoTime() < deadline; ) {
        Thread.sleep(20);
        Path log = proposals.resolve("audit.log");
        audit = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
      }
      assertThat(audit).contains("\"token\":\"laptop\",\"peer\":\"127.0.0.1\"");
      assertThat(server.violations()).isEmpty();
      assertThat(other).exists();
      assertThat(second).isNotEmpty();
    }
  }

  @Test
  void sigtermStopsTheServerGracefullyWithExitZeroAndNoTokenAppearsInAnythingItWrote()
      throws Exception {
    HttpWire server = serve();
    server.call(proposer, "propose_note", "{\"path\":\"draft.txt\",\"content\":\"hi\"}");
    server.call(reader, "propose_note", "{\"path\":\"draft.txt\",\"content\":\"x\"}");
    server.call(reader + "wrong", "read_note", "{\"path\":\"notes.txt\"}");

    assertThat(server.terminate()).isZero();
    assertThat(server.stderr()).contains("stopping (signal received)");
    StringBuilder written = new StringBuilder(server.stderr());
    try (Stream<Path> files = Files.walk(proposals)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        written.append(Files.readString(file, StandardCharsets.ISO_8859_1));
      }
    }
    for (String token : List.of(reader, proposer)) {
      assertThat(written.toString()).doesNotContain(token);
      assertThat(written.toString()).doesNotContain(token.substring(5, 25));
    }
  }
}

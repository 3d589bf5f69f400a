package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile HTTP against the real server (docs/http.md, "Safe by default", "Limits"): each attack
 * runs long enough to matter, and after each the server still answers a good request promptly, its
 * memory stays bounded (VmRSS from /proc), and nothing was read or recorded that the caller may not
 * read or record.
 */
class HttpHostileIT {
  @TempDir Path dir;
  private Path root;
  private Path tokens;
  private Path proposals;
  private String reader;
  private String proposer;

  @BeforeEach
  void serveFiles() throws Exception {
    root = Fixtures.workspace(dir);
    Files.createDirectories(root.resolve("Journal"));
    Files.writeString(root.resolve("Journal/day.md"), "monday\n", StandardCharsets.UTF_8);
    tokens = HttpWire.tokensFile(dir);
    proposals = dir.resolve("proposals");
    reader = HttpWire.addToken(tokens, "phone", "read");
    proposer = HttpWire.addToken(tokens, "laptop", "propose");
  }

  private HttpWire serve(String... extra) throws Exception {
    Path policy =
        Files.writeString(
            dir.resolve("policy.json"),
            "{\"readable\":[\"*.txt\",\"Journal/*.md\"],\"editable\":[\"Journal/*.md\"],"
                + "\"proposable\":[\"draft.txt\"],\"maxCalls\":100000}");
    List<String> flags =
        new ArrayList<>(
            List.of(
                "-tokens",
                tokens.toString(),
                "-proposals",
                proposals.toString(),
                "-policy",
                policy.toString()));
    flags.addAll(List.of(extra));
    return HttpWire.start(root, flags.toArray(new String[0]));
  }

  private static String listBody(long id) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":\"tools/list\",\"params\":{"
        + HttpWire.META
        + "}}";
  }

  private static String modernHeaders(String token) {
    return "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\n"
        + (token == null ? "" : "Authorization: Bearer " + token + "\r\n");
  }

  /** A good request answers within a second (a liveness bound, not a measurement). */
  private void stillServesPromptly(HttpWire server) throws Exception {
    long start = System.nanoTime();
    HttpWire.Reply reply = server.call(reader, "read_note", "{\"path\":\"notes.txt\"}");
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertThat(reply.status()).isEqualTo(200);
    assertThat(WireServer.text(reply.json())).contains("Monday");
    assertThat(millis).as("a good request's answer, ms").isLessThan(5_000);
  }

  @Test
  void dnsRebindingIsRefusedWhateverTheHostOrOriginSays() throws Exception {
    try (HttpWire server = serve()) {
      int port = server.port;
      List<String[]> refused =
          List.of(
              new String[] {"evil.example:" + port, null},
              new String[] {"evil.example", null},
              new String[] {"127.0.0.1:" + (port == 65535 ? port - 1 : port + 1), null},
              new String[] {"localhost", null},
              new String[] {"[0:0:0:0:0:0:0:1]:" + port, null},
              new String[] {"[::ffff:127.0.0.1]:" + port, null},
              new String[] {"127.1:" + port, null},
              new String[] {"127.0.0.1:" + port, "http://evil.example"},
              new String[] {"127.0.0.1:" + port, "null"},
              new String[] {"127.0.0.1:" + port, "http://127.0.0.1:" + (port + 1)},
              new String[] {"127.0.0.1:" + port, "file://"},
              new String[] {"", null});
      for (String[] pair : refused) {
        try (RawHttp raw = new RawHttp(port)) {
          raw.write(
              RawHttp.post(
                  pair[0],
                  modernHeaders(proposer) + (pair[1] == null ? "" : "Origin: " + pair[1] + "\r\n"),
                  listBody(1)));
          RawHttp.Response response = raw.read();
          assertThat(response.status()).as("Host %s, Origin %s", pair[0], pair[1]).isIn(400, 403);
          assertThat(response.body()).doesNotContain("read_note");
        }
      }
      for (String[] pair :
          List.of(
              new String[] {"127.0.0.1:" + port, null},
              new String[] {"LOCALHOST:" + port, "http://localhost:" + port},
              new String[] {"[::1]:" + port, "https://[::1]:" + port})) {
        try (RawHttp raw = new RawHttp(port)) {
          raw.write(
              RawHttp.post(
                  pair[0],
                  modernHeaders(proposer) + (pair[1] == null ? "" : "Origin: " + pair[1] + "\r\n"),
                  listBody(2)));
          assertThat(raw.read().status()).as("Host %s, Origin %s", pair[0], pair[1]).isEqualTo(200);
        }
      }
      stillServesPromptly(server);
    }
  }

  @Test
  void anAllowedHostExtendsBothListsAndNothingElse() throws Exception {
    try (HttpWire server = serve("-allowed-host", "notes.example.org")) {
      int port = server.port;
      try (RawHttp raw = new RawHttp(port)) {
        raw.write(
            RawHttp.post(
                "notes.example.org",
                modernHeaders(proposer) + "Origin: https://notes.example.org\r\n",
                listBody(1)));
        assertThat(raw.read().status()).isEqualTo(200);
      }
      try (RawHttp raw = new RawHttp(port)) {
        raw.write(RawHttp.post("notes.example.org:444", modernHeaders(proposer), listBody(1)));
        assertThat(raw.read().status()).isEqualTo(403);
      }
    }
  }

  @Test
  void aTokenRevokedWhileTheServerRunsFailsOnItsNextRequestAndANewOneWorks() throws Exception {
    try (HttpWire server = serve()) {
      assertThat(server.call(reader, "read_note", "{\"path\":\"notes.txt\"}").status())
          .isEqualTo(200);

      Launch.Result revoked =
          Launch.run(
              dir,
              List.of(
                  WireServer.launcher().toString(),
                  "token",
                  "revoke",
                  "phone",
                  "-tokens",
                  tokens.toString()));
      assertThat(revoked.exit()).as(revoked.stderr()).isZero();
      HttpWire.Reply after = server.call(reader, "read_note", "{\"path\":\"notes.txt\"}");
      String added = HttpWire.addToken(tokens, "tablet", "read");

      assertThat(after.status()).isEqualTo(401);
      assertThat(after.header("WWW-Authenticate")).contains("invalid_token");
      assertThat(server.call(added, "read_note", "{\"path\":\"notes.txt\"}").status())
          .isEqualTo(200);
      assertThat(server.call(proposer, "read_note", "{\"path\":\"notes.txt\"}").status())
          .isEqualTo(200);

      Files.setPosixFilePermissions(
          tokens, java.nio.file.attribute.PosixFilePermissions.fromString("rw--w--w-"));
      assertThat(server.call(proposer, "read_note", "{\"path\":\"notes.txt\"}").status())
          .as("a tokens file others may write refuses every request")
          .isEqualTo(401);
      assertThat(server.stderr()).contains("cannot be used");
      Launch.Result list =
          Launch.run(
              dir,
              List.of(
                  WireServer.launcher().toString(), "token", "list", "-tokens", tokens.toString()));
      assertThat(list.stdout()).doesNotContain(added);
      assertThat(server.violations()).isEmpty();
    }
  }

  @Test
  void aReadTokenCannotProposeAndNothingIsRecorded() throws Exception {
    try (HttpWire server = serve()) {
      String base =
          HttpWire.JSON
              .readTree(
                  WireServer.text(
                      server.call(reader, "read_note", "{\"path\":\"Journal/day.md\"}").json()))
              .get("sha256")
              .stringValue();
      HttpWire.Reply note =
          server.call(reader, "propose_note", "{\"path\":\"draft.txt\",\"content\":\"x\"}");
      HttpWire.Reply edit =
          server.call(
              reader,
              "propose_edit",
              "{\"path\":\"Journal/day.md\",\"base_sha256\":\"" + base + "\",\"append\":\"x\"}");

      for (HttpWire.Reply reply : List.of(note, edit)) {
        assertThat(reply.status()).isEqualTo(403);
        assertThat(reply.header("WWW-Authenticate")).contains("error=\"insufficient_scope\"");
      }
      try (var files = Files.list(proposals)) {
        assertThat(files.map(p -> p.getFileName().toString()).toList())
            .noneMatch(name -> name.endsWith(".json"));
      }
      String audit = Files.readString(proposals.resolve("audit.log"), StandardCharsets.UTF_8);
      assertThat(audit).doesNotContain("propose_");
      assertThat(server.violations()).isEmpty();
    }
  }

  @Test
  void anOversizeBodyOrHeaderIsRefusedAndTheServerServesOn() throws Exception {
    try (HttpWire server = serve()) {
      String big =
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"x\":\""
              + "a".repeat(1024 * 1024 + 10)
              + "\"}}";
      try (RawHttp raw = new RawHttp(server.port)) {
        raw.write(RawHttp.post("127.0.0.1:" + server.port, modernHeaders(proposer), big));
        assertThat(raw.read().status()).isEqualTo(413);
      }
      try (RawHttp raw = new RawHttp(server.port)) {
        raw.write(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                + server.port
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                + "Authorization: Bearer "
                + proposer
                + "\r\n"
                + modernHeaders(null)
                + "\r\n");
        byte[] chunk =
            ("100000\r\n" + "a".repeat(0x100000) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        raw.write(chunk);
        raw.write(chunk);
        RawHttp.Response response = raw.read();
        assertThat(response.status()).as("a chunked body past 1 MiB").isEqualTo(413);
      }
      try (RawHttp raw = new RawHttp(server.port)) {
        raw.write(
            RawHttp.post(
                "127.0.0.1:" + server.port,
                modernHeaders(proposer) + "X-Padding: " + "b".repeat(10_000) + "\r\n",
                listBody(1)));
        assertThat(raw.read().status()).isEqualTo(431);
      }
      stillServesPromptly(server);
    }
  }

  @Test
  void malformedChunkedBodiesAreRefusedAndTheServerServesOn() throws Exception {
    try (HttpWire server = serve()) {
      String head =
          "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
              + server.port
              + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
              + "Authorization: Bearer "
              + proposer
              + "\r\n"
              + modernHeaders(null)
              + "\r\n";
      for (String body :
          List.of(
              "zz\r\n{}\r\n0\r\n\r\n",
              "fffffffffffffffffff\r\n{}\r\n0\r\n\r\n",
              "5\r\n{\"a\":1}\r\n0\r\n\r\n",
              "2;" + "x".repeat(9000) + "\r\n{}\r\n0\r\n\r\n",
              "-1\r\n{}\r\n0\r\n\r\n")) {
        try (RawHttp raw = new RawHttp(server.port)) {
          raw.write(head + body);
          RawHttp.Response response = raw.read();
          assertThat(response.status()).as(body.substring(0, 8)).isIn(0, 400, 413);
        }
      }
      try (RawHttp raw = new RawHttp(server.port)) {
        raw.write(head + "40\r\n{\"jsonrpc\"");
        raw.socket.shutdownOutput();
        RawHttp.Response response = raw.read();
        assertThat(response.status()).as("a body cut short").isIn(0, 400);
      }
      stillServesPromptly(server);
    }
  }

  @Test
  void aSlowlorisHoldsNoThreadAndIsClosedWhileOthersAreServedPromptly() throws Exception {
    try (HttpWire server = serve()) {
      AtomicReference<Boolean> closed = new AtomicReference<>();
      List<RawHttp> lorises = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        lorises.add(new RawHttp(server.port));
      }
      String request =
          RawHttp.post("127.0.0.1:" + server.port, modernHeaders(proposer), listBody(1));
      long start = System.nanoTime();
      int sent = 0;
      try {
        // One byte a second on every connection, for 15 s: longer than the 10 s a connection may
        // go without a request reaching the server.
        for (int second = 0; second < 15; second++) {
          for (RawHttp loris : lorises) {
            try {
              loris.write(request.substring(sent, sent + 1));
            } catch (java.io.IOException e) {
              // closed by the server, as it should be
            }
          }
          sent++;
          stillServesPromptly(server);
          Thread.sleep(1000 - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) % 1000);
        }
        int closedCount = 0;
        for (RawHttp loris : lorises) {
          if (loris.closedByServer()) {
            closedCount++;
          }
        }
        closed.set(closedCount == lorises.size());
      } finally {
        for (RawHttp loris : lorises) {
          loris.close();
        }
      }
      assertThat(closed.get()).as("every slowloris connection closed by the server").isTrue();
      assertThat(server.stderr()).doesNotContain("Exception");
    }
  }

  @Test
  void aThousandIdleConnectionsLeaveOthersServedAndMemoryBounded() throws Exception {
    try (HttpWire server = serve()) {
      stillServesPromptly(server);
      long before = server.rssKib();
      List<RawHttp> idle = new ArrayList<>();
      try {
        for (int i = 0; i < 1000; i++) {
          idle.add(new RawHttp(server.port));
        }
        stillServesPromptly(server);
        long during = server.rssKib();
        System.out.println(
            "HttpHostileIT: VmRSS "
                + before / 1024
                + " MiB before, "
                + during / 1024
                + " MiB with 1,000 idle connections");
        assertThat(during - before)
            .as("KiB more with 1,000 idle connections")
            .isLessThan(64 * 1024);
      } finally {
        for (RawHttp connection : idle) {
          connection.close();
        }
      }
      stillServesPromptly(server);
    }
  }

  @Test
  void tenThousandPipelinedRequestsOnOneConnectionAreEachAnsweredInOrder() throws Exception {
    try (HttpWire server = serve()) {
      long before = server.rssKib();
      int count = 10_000;
      AtomicInteger answered = new AtomicInteger();
      AtomicReference<String> wrong = new AtomicReference<>();
      try (RawHttp raw = new RawHttp(server.port)) {
        Thread readerThread =
            new Thread(
                () -> {
                  try {
                    for (int i = 0; i < count; i++) {
                      RawHttp.Response response = raw.read();
                      if (response.status() != 200
                          || !response.body().contains("\"id\":" + (i + 1) + ",")) {
                        wrong.compareAndSet(null, i + ": " + response.head() + response.body());
                        return;
                      }
                      answered.incrementAndGet();
                    }
                  } catch (java.io.IOException e) {
                    wrong.compareAndSet(null, e.toString());
                  }
                });
        readerThread.start();
        StringBuilder batch = new StringBuilder();
        for (int i = 1; i <= count; i++) {
          batch.append(
              RawHttp.post("127.0.0.1:" + server.port, modernHeaders(reader), listBody(i)));
          if (i % 500 == 0) {
            raw.write(batch.toString());
            batch.setLength(0);
          }
        }
        readerThread.join(TimeUnit.MINUTES.toMillis(3));
      }
      assertThat(wrong.get()).isNull();
      assertThat(answered.get()).isEqualTo(count);
      long after = server.rssKib();
      System.out.println(
          "HttpHostileIT: VmRSS "
              + before / 1024
              + " MiB before, "
              + after / 1024
              + " MiB after 10,000 pipelined requests");
      assertThat(after - before)
          .as("KiB more after 10,000 pipelined requests")
          .isLessThan(64 * 1024);
      stillServesPromptly(server);
    }
  }

  @Test
  void aCallerOverItsBudgetsIsToldWhenToComeBackAndOthersAreNotAffected() throws Exception {
    try (HttpWire server = serve("-max-calls", "3", "-max-proposals", "1")) {
      for (int i = 0; i < 3; i++) {
        assertThat(server.call(reader, "read_note", "{\"path\":\"notes.txt\"}").status())
            .isEqualTo(200);
      }
      HttpWire.Reply spent = server.call(reader, "read_note", "{\"path\":\"notes.txt\"}");
      assertThat(spent.status()).isEqualTo(429);
      assertThat(Long.parseLong(spent.header("Retry-After"))).isBetween(1L, 3600L);
      assertThat(spent.json().at("/error/message").stringValue())
          .startsWith("call budget spent: token \"phone\" may make at most 3 tool calls");
      assertThat(server.modern(reader, "tools/list", "", "ListToolsResult").status())
          .as("listing is not a call")
          .isEqualTo(200);

      assertThat(
              server
                  .call(proposer, "propose_note", "{\"path\":\"draft.txt\",\"content\":\"a\"}")
                  .status())
          .isEqualTo(200);
      HttpWire.Reply second =
          server.call(proposer, "propose_note", "{\"path\":\"draft.txt\",\"content\":\"b\"}");
      assertThat(second.status()).isEqualTo(429);
      assertThat(second.json().at("/error/message").stringValue())
          .startsWith("proposal budget spent: token \"laptop\"");
      assertThat(server.violations()).isEmpty();
    }
  }

  @Test
  void aCallerHoldsAtMostFourStreamsAndAClosedOneFreesItsRoomAtOnce() throws Exception {
    try (HttpWire server = serve()) {
      List<HttpWire.Events> open = new ArrayList<>();
      try {
        for (int i = 0; i < 4; i++) {
          HttpWire.Events stream = server.listen(reader, "{\"resourcesListChanged\":true}");
          assertThat(stream.status).isEqualTo(200);
          assertThat(stream.next().path("method").asString())
              .isEqualTo("notifications/subscriptions/acknowledged");
          open.add(stream);
        }
        HttpWire.Events fifth = server.listen(reader, "{\"resourcesListChanged\":true}");
        assertThat(fifth.status).isEqualTo(429);
        fifth.close();
        HttpWire.Events others = server.listen(proposer, "{\"resourcesListChanged\":true}");
        assertThat(others.status).as("another token's room").isEqualTo(200);
        assertThat(others.next().path("method").asString())
            .isEqualTo("notifications/subscriptions/acknowledged");
        open.add(others);

        open.remove(0).close();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        int status = 0;
        while (System.nanoTime() < deadline) {
          HttpWire.Events again = server.listen(reader, "{\"resourcesListChanged\":true}");
          status = again.status;
          if (status == 200) {
            open.add(again);
            break;
          }
          again.close();
          Thread.sleep(100);
        }
        assertThat(status).as("room again once a stream is closed").isEqualTo(200);

        Files.writeString(root.resolve("new.txt"), "new\n");
        assertThat(others.next().path("method").asString())
            .isEqualTo("notifications/resources/list_changed");
      } finally {
        for (HttpWire.Events stream : open) {
          stream.close();
        }
      }
      assertThat(server.violations()).isEmpty();
    }
  }
}

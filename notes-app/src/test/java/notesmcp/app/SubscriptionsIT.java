package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import notesmcp.mcp.SchemaCheck;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Change notifications against the real executable (docs/behaviour.md, "Resources";
 * docs/protocol.md, "Resources and change notifications"): 2026-07-28's subscriptions/listen
 * streams, acknowledged first, each message carrying its id, ended by cancellation or, gracefully,
 * by the end of input; the legacy session's resources/subscribe and list_changed; the bounds; and
 * memory while a client that does not read stdout is told of ten thousand changes.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SubscriptionsIT {
  private static final Duration QUIET = Duration.ofMillis(1500);

  @TempDir Path dir;
  private Path root;
  private Path policy;

  @BeforeEach
  void makeVault() throws IOException {
    root = Files.createDirectory(dir.resolve("vault")).toRealPath();
    VaultIT.write(root, "notes.txt", "plain\n");
    VaultIT.write(root, "Inbox.md", "inbox\n");
    VaultIT.write(root, "Caf\u00e9 ideas.md", "caf\u00e9\n");
    VaultIT.write(root, "Private/secret.md", VaultIT.SECRET);
    policy = Files.writeString(dir.resolve("policy.json"), VaultIT.POLICY);
  }

  private WireServer serve() throws IOException {
    return WireServer.start(root, "-policy", policy.toString());
  }

  private static long listen(WireServer server, String filter) {
    long id = server.nextId();
    server.expect(id, SchemaCheck.MODERN, "SubscriptionsListenResult");
    server.send(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + id
            + ",\"method\":\"subscriptions/listen\",\"params\":{"
            + WireServer.META
            + ",\"notifications\":"
            + filter
            + "}}");
    return id;
  }

  private static void cancel(WireServer server, long id) {
    server.send(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":"
            + id
            + "}}");
  }

  private static long subscriptionOf(JsonNode notification) {
    return notification.at("/params/_meta/" + "io.modelcontextprotocol~1subscriptionId").asLong();
  }

  private static List<String> methods(List<JsonNode> notifications) {
    List<String> methods = new ArrayList<>();
    for (JsonNode n : notifications) {
      methods.add(n.get("method").stringValue() + " " + n.path("params").path("uri").asString(""));
    }
    return methods;
  }

  @Test
  void aStreamIsAcknowledgedFirstToldOfEditsAndNewNotesAndEndsGracefullyAtTheEndOfInput()
      throws Exception {
    try (WireServer server = serve()) {
      long id =
          listen(
              server,
              "{\"resourcesListChanged\":true,\"toolsListChanged\":true,\"resourceSubscriptions\":"
                  + "[\"note:///Inbox.md\",\"note:///Caf%c3%a9%20ideas.md\","
                  + "\"note:///Private/secret.md\",\"file:///etc/passwd\",\"note:///Inbox.md\"]}");
      JsonNode ack = server.notification();
      assertThat(ack.get("method").stringValue())
          .isEqualTo("notifications/subscriptions/acknowledged");
      assertThat(subscriptionOf(ack)).isEqualTo(id);
      assertThat(ack.at("/params/notifications").toString())
          .isEqualTo(
              "{\"resourcesListChanged\":true,\"resourceSubscriptions\":"
                  + "[\"note:///Inbox.md\",\"note:///Caf%c3%a9%20ideas.md\"]}");

      Files.writeString(root.resolve("Inbox.md"), "edited\n");
      JsonNode updated = server.notification();
      assertThat(methods(List.of(updated)))
          .containsExactly("notifications/resources/updated note:///Inbox.md");
      assertThat(subscriptionOf(updated)).isEqualTo(id);
      server.notifications(QUIET);

      Files.writeString(root.resolve("Caf\u00e9 ideas.md"), "edited\n");
      assertThat(methods(server.notifications(QUIET)))
          .isNotEmpty()
          .containsOnly("notifications/resources/updated note:///Caf%c3%a9%20ideas.md");

      VaultIT.write(root, "New.md", "new\n");
      List<JsonNode> made = server.notifications(QUIET);
      assertThat(methods(made)).containsOnly("notifications/resources/list_changed ");
      assertThat(subscriptionOf(made.get(0))).isEqualTo(id);

      Files.writeString(root.resolve("notes.txt"), "not watched\n");
      Files.writeString(root.resolve("Private/secret.md"), "excluded\n");
      assertThat(server.notifications(QUIET)).isEmpty();

      assertThat(server.closeInputAndWait()).isZero();
      JsonNode end = server.response(id);
      assertThat(end.at("/result/resultType").stringValue()).isEqualTo("complete");
      assertThat(end.at("/result/_meta/io.modelcontextprotocol~1subscriptionId").asLong())
          .isEqualTo(id);
    }
  }

  @Test
  void aCancelledStreamSendsNothingMoreAndHasNoReply() throws Exception {
    try (WireServer server = serve()) {
      long id = listen(server, "{\"resourceSubscriptions\":[\"note:///Inbox.md\"]}");
      assertThat(server.notification().get("method").stringValue())
          .isEqualTo("notifications/subscriptions/acknowledged");
      cancel(server, id);
      server.awaitStderr("subscription " + id + " cancelled by the client");
      Files.writeString(root.resolve("Inbox.md"), "edited\n");
      VaultIT.write(root, "New.md", "new\n");
      assertThat(server.notifications(QUIET)).isEmpty();
      assertThat(server.closeInputAndWait()).isZero();
      assertThat(server.drain(Duration.ofMillis(300))).isEmpty();
    }
  }

  @Test
  void streamsAreBoundedInNumberAndUrisAndTheirIdsStayInUse() throws Exception {
    WireServer.assumeStdio(
        "one connection's 16 streams and its ids in flight; over HTTP a caller holds at most 4"
            + " streams (HttpHostileIT) and each request's id is its own response's");
    try (WireServer server = serve()) {
      StringBuilder many = new StringBuilder("[");
      for (int i = 0; i < 257; i++) {
        many.append(i == 0 ? "" : ",").append("\"note:///n").append(i).append(".md\"");
      }
      long tooMany = listen(server, "{\"resourceSubscriptions\":" + many + "]}");
      JsonNode refused = server.response(tooMany);
      assertThat(refused.at("/error/code").intValue()).isEqualTo(-32602);
      assertThat(refused.at("/error/message").stringValue())
          .isEqualTo(
              "Invalid params: at most 256 resourceSubscriptions a stream; this one asks for 257");

      List<Long> open = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        open.add(listen(server, "{\"resourcesListChanged\":true}"));
        server.notification();
      }
      long seventeenth = listen(server, "{\"resourcesListChanged\":true}");
      assertThat(server.response(seventeenth).at("/error/message").stringValue())
          .isEqualTo(
              "Invalid params: at most 16 subscriptions/listen streams are open at once in this"
                  + " server process; cancel one first (on stdio, notifications/cancelled with its"
                  + " request id; over HTTP, close its response)");

      long reused = open.get(0);
      server.expect(reused, SchemaCheck.MODERN, "ListToolsResult");
      server.send(
          "{\"jsonrpc\":\"2.0\",\"id\":"
              + reused
              + ",\"method\":\"tools/list\",\"params\":{"
              + WireServer.META
              + "}}");
      JsonNode inUse = server.response(reused);
      assertThat(inUse.at("/error/code").intValue()).isEqualTo(-32600);
      assertThat(inUse.at("/error/message").stringValue())
          .isEqualTo("Invalid Request: id " + reused + " is already in flight");

      cancel(server, reused);
      server.awaitStderr("subscription " + reused + " cancelled by the client");
      long again = listen(server, "{}");
      JsonNode ack = server.notification();
      assertThat(subscriptionOf(ack)).isEqualTo(again);
      assertThat(ack.at("/params/notifications").toString()).isEqualTo("{}");

      JsonNode bad = server.response(listen(server, "{\"resourcesListChanged\":\"yes\"}"));
      assertThat(bad.at("/error/message").stringValue())
          .isEqualTo("Invalid params: notifications.resourcesListChanged must be a boolean");
    }
  }

  @Test
  void theLegacySessionIsToldOfItsSubscribedNotesAndOfListChanges() throws Exception {
    try (WireServer server = serve()) {
      server.legacy(
          "initialize", ResourcesIT.INITIALIZE.formatted("2025-11-25"), "InitializeResult");
      server.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      assertThat(
              server
                  .legacy("resources/subscribe", "{\"uri\":\"note:///Inbox.md\"}", "EmptyResult")
                  .get("result")
                  .toString())
          .isEqualTo("{}");
      JsonNode refused =
          server.legacy("resources/subscribe", "{\"uri\":\"file:///etc/passwd\"}", "EmptyResult");
      assertThat(refused.at("/error/code").intValue()).isEqualTo(-32602);
      assertThat(refused.at("/error/message").stringValue())
          .isEqualTo("Invalid params: \"file:///etc/passwd\" is not a resource URI of this server");
      server.legacy("resources/list", null, "ListResourcesResult");
      Thread.sleep(300); // the catalog's watcher starts

      Files.writeString(root.resolve("Inbox.md"), "edited\n");
      List<JsonNode> edited = server.notifications(QUIET);
      assertThat(methods(edited))
          .isNotEmpty()
          .containsOnly("notifications/resources/updated note:///Inbox.md");
      assertThat(edited.get(0).get("params").toString())
          .isEqualTo("{\"uri\":\"note:///Inbox.md\"}");

      VaultIT.write(root, "New.md", "new\n");
      List<JsonNode> made = server.notifications(QUIET);
      assertThat(methods(made)).containsOnly("notifications/resources/list_changed ");
      assertThat(made.get(0).has("params")).isFalse();

      server.legacy("resources/unsubscribe", "{\"uri\":\"note:///Inbox.md\"}", "EmptyResult");
      Files.writeString(root.resolve("Inbox.md"), "again\n");
      assertThat(server.notifications(QUIET)).isEmpty();
    }
  }

  @Test
  void underTheDefaultPolicyAnEditedNoteIsToldWithinSeconds() throws Exception {
    Path workspace = Fixtures.workspace(dir);
    try (WireServer server = WireServer.start(workspace)) {
      long id = listen(server, "{\"resourceSubscriptions\":[\"note:///notes.txt\"]}");
      server.notification();
      Thread.sleep(300); // the watcher's first look, which is no change
      Files.writeString(workspace.resolve("notes.txt"), "edited\n");
      JsonNode updated = server.notification();
      assertThat(methods(List.of(updated)))
          .containsExactly("notifications/resources/updated note:///notes.txt");
      assertThat(subscriptionOf(updated)).isEqualTo(id);
    }
  }

  /**
   * Sixteen streams of 256 long URIs each, a client that reads nothing while each watched note is
   * rewritten 40 times (10,240 changes; told one by one, 160,000 notifications, over 50 MB): the
   * server keeps the changes coalesced, its peak resident set stays under the bound that holds
   * while replies wait (BlockedPipesIT), and once the client reads again every stream is told at
   * most a few times of each note and the next request is answered.
   */
  @Test
  void aClientThatDoesNotReadIsToldOfTenThousandChangesInBoundedMemory() throws Exception {
    int notes = 256;
    String stem = "w".repeat(180);
    List<Path> files = new ArrayList<>();
    StringBuilder uris = new StringBuilder("[");
    for (int i = 0; i < notes; i++) {
      String name = String.format("Watch/%s%03d.md", stem, i);
      files.add(Files.createDirectories(root.resolve("Watch")).resolve(name.substring(6)));
      Files.writeString(files.get(i), "0");
      uris.append(i == 0 ? "" : ",").append("\"note:///").append(name).append("\"");
    }
    uris.append("]");
    Process server =
        new ProcessBuilder(
                WireServer.launcher().toString(),
                "-serve",
                "-root",
                root.toString(),
                "-policy",
                policy.toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      OutputStream stdin = server.getOutputStream();
      for (int s = 1; s <= 16; s++) {
        stdin.write(
            ("{\"jsonrpc\":\"2.0\",\"id\":"
                    + s
                    + ",\"method\":\"subscriptions/listen\",\"params\":{"
                    + WireServer.META
                    + ",\"notifications\":{\"resourcesListChanged\":true,\"resourceSubscriptions\":"
                    + uris
                    + "}}}\n")
                .getBytes(StandardCharsets.UTF_8));
      }
      stdin.flush();
      Thread.sleep(1000);
      for (int round = 1; round <= 40; round++) {
        for (Path file : files) {
          Files.writeString(file, Integer.toString(round));
        }
      }
      Thread.sleep(2000);
      long peak = peakRssKiB(server);
      System.out.println("SubscriptionsIT: peak RSS with stdout unread " + peak / 1024 + " MiB");
      assertThat(peak).isLessThan(100 * 1024);

      stdin.write(
          ("{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"tools/list\",\"params\":{"
                  + WireServer.META
                  + "}}\n")
              .getBytes(StandardCharsets.UTF_8));
      stdin.flush();
      stdin.close(); // the end of input: each stream gets what it has pending, then its end
      int acks = 0;
      int ends = 0;
      boolean answered = false;
      java.util.Set<String> told = new java.util.HashSet<>();
      int updates = 0;
      java.io.BufferedReader reader =
          new java.io.BufferedReader(
              new java.io.InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
      String text;
      while ((text = reader.readLine()) != null) {
        JsonNode message = WireServer.JSON.readTree(text);
        String method = message.path("method").asString("");
        if (method.equals("notifications/subscriptions/acknowledged")) {
          acks++;
        } else if (method.equals("notifications/resources/updated")) {
          updates++;
          told.add(subscriptionOf(message) + " " + message.at("/params/uri").stringValue());
        } else if (message.path("id").asLong() == 99) {
          answered = message.has("result");
        } else if (message.at("/result/resultType").asString("").equals("complete")) {
          ends++;
        }
      }
      assertThat(server.waitFor(20, TimeUnit.SECONDS)).isTrue();
      assertThat(server.exitValue()).isZero();
      assertThat(acks).isEqualTo(16);
      assertThat(answered).isTrue();
      assertThat(ends).isEqualTo(16);
      System.out.println(
          "SubscriptionsIT: " + updates + " updates told for 10,240 changes to 16 streams");
      // Coalesced, and nothing lost: every stream is told of every note it watches.
      assertThat(told).hasSize(16 * notes);
      assertThat(updates).isLessThan(16 * notes * 8);
    } finally {
      server.destroyForcibly();
    }
  }

  private static long peakRssKiB(Process process) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new AssertionError("no VmHWM for " + process.pid());
  }
}

package notesmcp.app.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import notesmcp.mcp.SchemaCheck;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON report an official-SDK client script ({@code peers/interop/ts-v*-client.mjs}) printed
 * after talking to our server, with the checks every such client must pass. Each failure message
 * carries the whole run: the command, the exit status, the report (with its wire trace) and stderr,
 * where our server's diagnostics land.
 */
final class ClientReport {
  private final Interop.Run run;
  private final JsonNode json;

  ClientReport(Interop.Run run) {
    this.run = run;
    assertThat(run.exit()).as("the client script's exit status\n%s", run).isZero();
    this.json = run.json();
  }

  JsonNode json() {
    return json;
  }

  ClientReport assertEra(String era, String protocolVersion) {
    assertThat(json.path("era").asString()).as("era\n%s", run).isEqualTo(era);
    assertThat(json.path("protocolVersion").asString())
        .as("negotiated protocol version\n%s", run)
        .isEqualTo(protocolVersion);
    assertThat(json.path("serverInfo").path("name").asString())
        .as("serverInfo.name\n%s", run)
        .isEqualTo("notes-mcp");
    return this;
  }

  /** Exactly the three tools, in order, with the schemas generated from the policy. */
  ClientReport assertThreeTools() {
    return assertTools("list_notes", "read_note", "propose_note");
  }

  /**
   * Under {@link Interop.Searchable}'s policy file: the three tools as {@link #assertThreeTools}
   * checks them, then {@code search_notes} with its schema ({@code query} required).
   */
  ClientReport assertThreeToolsAndSearch() {
    assertTools("list_notes", "read_note", "propose_note", "search_notes");
    JsonNode search = json.path("tools").get(3).path("inputSchema");
    assertThat(search.path("required").toString())
        .as("search_notes inputSchema\n%s", run)
        .isEqualTo("[\"query\"]");
    assertThat(search.path("properties").propertyNames())
        .as("search_notes inputSchema\n%s", run)
        .containsExactly("query", "folder", "limit");
    assertThat(search.path("additionalProperties").asBoolean(true))
        .as("search_notes inputSchema\n%s", run)
        .isFalse();
    return this;
  }

  private ClientReport assertTools(String... expected) {
    JsonNode tools = json.path("tools");
    List<String> names = new ArrayList<>();
    tools.forEach(t -> names.add(t.path("name").asString()));
    assertThat(names).as("tool names\n%s", run).containsExactly(expected);

    JsonNode list = tools.get(0).path("inputSchema");
    assertThat(list).as("list_notes inputSchema\n%s", run).isEqualTo(schema("{}", "[]"));

    JsonNode read = tools.get(1).path("inputSchema");
    assertThat(withoutDescriptions(read))
        .as("read_note inputSchema\n%s", run)
        .isEqualTo(
            schema(
                "{\"path\":{\"type\":\"string\",\"enum\":[\"notes.txt\",\"project.txt\","
                    + "\"draft.txt\"]}}",
                "[\"path\"]"));

    JsonNode propose = tools.get(2).path("inputSchema");
    assertThat(withoutDescriptions(propose))
        .as("propose_note inputSchema\n%s", run)
        .isEqualTo(
            schema(
                "{\"path\":{\"type\":\"string\",\"enum\":[\"draft.txt\"]},"
                    + "\"content\":{\"type\":\"string\",\"maxLength\":2048}}",
                "[\"path\",\"content\"]"));
    for (JsonNode tool : tools) {
      assertThat(tool.path("description").asString())
          .as("%s has a description\n%s", tool.path("name"), run)
          .isNotBlank();
    }
    return this;
  }

  /**
   * Every message our server wrote in the session (the wire trace) is valid against the official
   * schema of the session's revision, for the method it answers.
   */
  ClientReport assertWireMatchesSchema(String revision) {
    Map<String, String> methods = new HashMap<>();
    List<String> violations = new ArrayList<>();
    int answers = 0;
    for (JsonNode entry : json.path("wire")) {
      JsonNode message = entry.path("message");
      if (entry.path("dir").asString().equals("client->server")) {
        if (message.has("id") && message.has("method")) {
          methods.put(message.get("id").toString(), message.get("method").asString());
        }
        continue;
      }
      answers++;
      if (!message.has("id") && message.has("method")) {
        violations.addAll(notificationViolations(revision, message));
        continue;
      }
      String method = methods.get(message.path("id").toString());
      String result = SchemaCheck.RESULTS.get(method);
      if (!revision.equals(SchemaCheck.MODERN) && message.has("id")) {
        assertThat(result).as("a known method answered: %s\n%s", message, run).isNotNull();
        violations.addAll(SchemaCheck.legacyResponse(revision, result, message));
      } else if (message.has("error")) {
        violations.addAll(
            SchemaCheck.violations(SchemaCheck.MODERN, "JSONRPCErrorResponse", message));
      } else {
        assertThat(result).as("a known method answered: %s\n%s", message, run).isNotNull();
        violations.addAll(SchemaCheck.violations(revision, result + "Response", message));
      }
    }
    assertThat(answers).as("server messages in the wire trace\n%s", run).isPositive();
    assertThat(violations).as("schema violations in what our server wrote\n%s", run).isEmpty();
    return this;
  }

  private static final Map<String, String> NOTIFICATIONS =
      Map.of(
          "notifications/subscriptions/acknowledged", "SubscriptionsAcknowledgedNotification",
          "notifications/resources/updated", "ResourceUpdatedNotification",
          "notifications/resources/list_changed", "ResourceListChangedNotification");

  /**
   * A notification our server sent: one of those it sends, valid in the session's revision (one on
   * a 2026-07-28 stream, which carries its subscription id, in that revision).
   */
  private List<String> notificationViolations(String revision, JsonNode message) {
    String definition = NOTIFICATIONS.get(message.path("method").asString());
    assertThat(definition).as("a notification our server sends: %s\n%s", message, run).isNotNull();
    boolean stream =
        message.path("params").path("_meta").has("io.modelcontextprotocol/subscriptionId");
    return SchemaCheck.violations(stream ? SchemaCheck.MODERN : revision, definition, message);
  }

  /**
   * The resource checks (peers/interop/report.mjs, runResourceChecks): the fixture's notes as
   * resources, the template, a read, a refused read as a protocol error naming the path, a
   * completed path, and a change notification for notes.txt after it was rewritten on disk;
   * search_notes, when the server lists it, answered as a tool result ({@link #assertSearch} checks
   * the searches).
   */
  ClientReport assertResources() {
    JsonNode list = json.path("resourceList").path("result").path("resources");
    List<String> uris = new ArrayList<>();
    list.forEach(r -> uris.add(r.path("uri").asString()));
    assertThat(uris)
        .as("resources/list\n%s", run)
        .containsExactly("note:///notes.txt", "note:///project.txt");
    assertThat(
            json.path("templateList")
                .path("result")
                .path("resourceTemplates")
                .path(0)
                .path("uriTemplate")
                .asString())
        .as("resources/templates/list\n%s", run)
        .isEqualTo("note:///{+path}");
    JsonNode contents = json.path("resourceRead").path("result").path("contents");
    assertThat(contents.size()).as("resources/read contents\n%s", run).isEqualTo(1);
    assertThat(contents.path(0).path("text").asString())
        .as("resources/read text\n%s", run)
        .isEqualTo(Interop.NOTES_TEXT);
    JsonNode refused = json.path("refusedResourceRead");
    assertThat(refused.has("result")).as("a refused read is no result\n%s", run).isFalse();
    assertThat(refused.path("error").path("message").asString())
        .as("the refusal names the path\n%s", run)
        .contains("path \"../secret.txt\" is not allowed");
    assertThat(refused.path("error").path("code").asInt())
        .as("resource not found\n%s", run)
        .isIn(-32602, -32002);
    assertThat(json.path("completion").path("result").path("completion").path("values").toString())
        .as("completion/complete\n%s", run)
        .isEqualTo("[\"notes.txt\"]");
    assertThat(json.path("subscription").has("result"))
        .as("the subscription was made\n%s", run)
        .isTrue();
    assertThat(json.path("updated").path("uri").asString())
        .as("notifications/resources/updated after notes.txt was rewritten\n%s", run)
        .isEqualTo("note:///notes.txt");
    JsonNode search = json.path("search");
    if (!search.has("skipped")) {
      assertThat(search.path("result").path("isError").asBoolean(true))
          .as("search_notes answered\n%s", run)
          .isFalse();
    }
    assertThat(run.stdout())
        .as("the secret never crosses\n%s", run)
        .doesNotContain(Interop.SECRET_TEXT);
    return this;
  }

  /**
   * A whole session served with {@link Interop.Searchable}'s policy file, in {@code era} at {@code
   * protocolVersion}, every message against {@code revision}'s schema: the four tools, the read,
   * the refused read, the unknown tool, the resources and the searches.
   */
  ClientReport assertSearchSession(String era, String protocolVersion, String revision) {
    return assertEra(era, protocolVersion)
        .assertWireMatchesSchema(revision)
        .assertThreeToolsAndSearch()
        .assertReadNote()
        .assertRefusedRead()
        .assertUnknownToolIsInvalidParams()
        .assertResources()
        .assertSearch();
  }

  /**
   * The searches of peers/interop/report.mjs ({@code SEARCHES}) against {@link
   * Interop.Searchable}'s workspace: {@link Interop#SEARCH_WORD} finds notes.txt alone, with a
   * numeric score and a snippet holding the word; {@link Interop#NO_HIT_WORD} finds nothing; an
   * empty query and limit 0 are refused as tool results with isError true and the reason. The wire
   * shows the client sent each of the four calls and our server answered each with a result.
   */
  ClientReport assertSearch() {
    JsonNode found = result("search");
    assertThat(found.path("isError").asBoolean(true)).as("search isError\n%s", run).isFalse();
    JsonNode hits = Interop.parse(onlyText(found, "search")).path("hits");
    assertThat(hits.size()).as("search hits\n%s", run).isEqualTo(1);
    JsonNode hit = hits.get(0);
    assertThat(hit.propertyNames())
        .as("a hit's members\n%s", run)
        .containsExactly("path", "score", "snippet");
    assertThat(hit.path("path").asString()).as("the hit's path\n%s", run).isEqualTo("notes.txt");
    assertThat(hit.path("score").isNumber()).as("the hit's score\n%s", run).isTrue();
    assertThat(hit.path("snippet").isString()).as("the hit's snippet\n%s", run).isTrue();
    assertThat(hit.path("snippet").asString())
        .as("the hit's snippet\n%s", run)
        .contains(Interop.SEARCH_WORD);

    JsonNode none = result("searchNoHits");
    assertThat(none.path("isError").asBoolean(true)).as("searchNoHits isError\n%s", run).isFalse();
    assertThat(onlyText(none, "searchNoHits"))
        .as("searchNoHits\n%s", run)
        .isEqualTo("{\"hits\":[]}");

    assertSearchRefused("searchEmptyQuery", "query is empty: give at least one word to search for");
    assertSearchRefused("searchLimitZero", "limit must be from 1 to 50, not 0");

    List<JsonNode> calls = new ArrayList<>();
    for (JsonNode request : requests()) {
      if ("tools/call".equals(request.path("method").asString())
          && "search_notes".equals(request.path("params").path("name").asString())) {
        calls.add(request);
      }
    }
    assertThat(calls).as("search_notes calls on the wire\n%s", run).hasSize(4);
    for (JsonNode call : calls) {
      assertThat(reply(call.path("id")).has("result"))
          .as("the answer to %s on the wire\n%s", call, run)
          .isTrue();
    }
    return this;
  }

  private void assertSearchRefused(String check, String reason) {
    JsonNode result = result(check);
    assertThat(result.path("isError").asBoolean(false)).as("%s isError\n%s", check, run).isTrue();
    assertThat(onlyText(result, check)).as("%s reason\n%s", check, run).isEqualTo(reason);
  }

  /** read_note {"path":"notes.txt"}: one text block holding {"path":...,"content":...}. */
  ClientReport assertReadNote() {
    JsonNode result = result("readNote");
    assertThat(result.path("isError").asBoolean(true)).as("readNote isError\n%s", run).isFalse();
    assertThat(Interop.parse(onlyText(result, "readNote")))
        .as("readNote text\n%s", run)
        .isEqualTo(
            Interop.parse(
                "{\"path\":\"notes.txt\",\"content\":" + quoteJson(Interop.NOTES_TEXT) + "}"));
    return this;
  }

  /** read_note {"path":"../secret.txt"}: a result with isError true whose reason names the path. */
  ClientReport assertRefusedRead() {
    JsonNode result = result("refusedRead");
    assertThat(result.path("isError").asBoolean(false)).as("refusedRead isError\n%s", run).isTrue();
    String reason = onlyText(result, "refusedRead");
    assertThat(reason).as("refusal reason\n%s", run).contains("../secret.txt");
    assertThat(run.stdout())
        .as("the secret never crosses\n%s", run)
        .doesNotContain(Interop.SECRET_TEXT);
    return this;
  }

  /**
   * tools/call save_note: the SDK threw a protocol error with code -32602, and the wire shows our
   * server answered the request with a JSON-RPC error object (not a result, not an SDK-local
   * check).
   */
  ClientReport assertUnknownToolIsInvalidParams() {
    JsonNode error = json.path("unknownTool").path("error");
    assertThat(json.path("unknownTool").has("result"))
        .as("unknown tool must not produce a result\n%s", run)
        .isFalse();
    assertThat(error.path("code").asInt()).as("unknownTool error code\n%s", run).isEqualTo(-32602);
    assertThat(error.path("message").asString())
        .as("unknownTool message\n%s", run)
        .contains("save_note");
    JsonNode request = request("tools/call", "save_note");
    JsonNode reply = reply(request.path("id"));
    assertThat(reply.has("result")).as("reply to save_note on the wire\n%s", run).isFalse();
    assertThat(reply.path("error").path("code").asInt())
        .as("wire error code for save_note\n%s", run)
        .isEqualTo(-32602);
    return this;
  }

  /**
   * The client never sent the unknown tool: it checks names against the listed tools itself (its
   * public surface cannot call an unlisted tool, or it refuses before sending).
   */
  ClientReport assertUnknownToolNeverSent() {
    for (JsonNode request : requests()) {
      assertThat(request.path("params").path("name").asString())
          .as("a request on the wire\n%s", run)
          .isNotEqualTo("save_note");
    }
    return this;
  }

  /** Every request on the session's wire (after any probe) as the client sent it. */
  List<JsonNode> requests() {
    List<JsonNode> requests = new ArrayList<>();
    for (JsonNode entry : json.path("wire")) {
      JsonNode message = entry.path("message");
      if ("client->server".equals(entry.path("dir").asString()) && message.has("id")) {
        requests.add(message);
      }
    }
    return requests;
  }

  List<String> methods() {
    List<String> methods = new ArrayList<>();
    for (JsonNode entry : json.path("wire")) {
      if ("client->server".equals(entry.path("dir").asString())) {
        methods.add(entry.path("message").path("method").asString());
      }
    }
    return methods;
  }

  Interop.Run run() {
    return run;
  }

  private JsonNode request(String method, String tool) {
    for (JsonNode request : requests()) {
      if (method.equals(request.path("method").asString())
          && tool.equals(request.path("params").path("name").asString())) {
        return request;
      }
    }
    throw new AssertionError("no " + method + " " + tool + " request on the wire\n" + run);
  }

  private JsonNode reply(JsonNode id) {
    for (JsonNode entry : json.path("wire")) {
      JsonNode message = entry.path("message");
      if ("server->client".equals(entry.path("dir").asString()) && id.equals(message.get("id"))) {
        return message;
      }
    }
    throw new AssertionError("no reply to request id " + id + " on the wire\n" + run);
  }

  private JsonNode result(String check) {
    JsonNode outcome = json.path(check);
    assertThat(outcome.has("result"))
        .as("%s must be a tool result, not a thrown error\n%s", check, run)
        .isTrue();
    return outcome.path("result");
  }

  private String onlyText(JsonNode result, String check) {
    JsonNode content = result.path("content");
    assertThat(content.size()).as("%s content blocks\n%s", check, run).isEqualTo(1);
    assertThat(content.get(0).path("type").asString())
        .as("%s content type\n%s", check, run)
        .isEqualTo("text");
    return content.get(0).path("text").asString();
  }

  private static JsonNode schema(String properties, String required) {
    String requiredMember = "[]".equals(required) ? "" : ",\"required\":" + required;
    return Interop.parse(
        "{\"type\":\"object\",\"properties\":"
            + properties
            + ",\"additionalProperties\":false"
            + requiredMember
            + "}");
  }

  /** The schema with each property's description removed (wording is not interoperability). */
  private static JsonNode withoutDescriptions(JsonNode schema) {
    JsonNode copy = schema.deepCopy();
    copy.path("properties")
        .forEach(
            p -> {
              if (p.isObject()) {
                ((ObjectNode) p).remove("description");
              }
            });
    return copy;
  }

  private static String quoteJson(String text) {
    return JsonNodeFactory.instance.stringNode(text).toString();
  }
}

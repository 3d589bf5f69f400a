package notesmcp.bench;

import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Decides whether a reply is the right one: the expected id, no JSON-RPC error, {@code isError} not
 * true, and a text that is exactly {@code {"path":"notes.txt","content":<the file>}} as JSON.
 * Servers escape differently, so the first text is checked as JSON; after that, the same text (one
 * string compare) is known good. One per session: the reader thread owns it.
 */
final class ReplyCheck {
  static final List<String> TOOLS = List.of("list_notes", "read_note", "propose_note");
  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  private final String server;
  private final String noteContent;
  private String knownGood;

  ReplyCheck(String server, String noteContent) {
    this.server = server;
    this.noteContent = noteContent;
  }

  /** A {@code tools/call read_note} reply; throws with the reason when it is not right. */
  void call(Reply reply, long expectedId) {
    if (reply.id() != expectedId) {
      throw wrong("reply id " + reply.id() + " where " + expectedId + " was expected", reply);
    }
    call(reply);
  }

  /** The same, when any id may come (pipelined): the caller checks the id. */
  void call(Reply reply) {
    if (reply.error() != null) {
      throw wrong("a JSON-RPC error for request " + reply.id() + ": " + reply.error(), reply);
    }
    if (Boolean.TRUE.equals(reply.isError())) {
      throw wrong("read_note was refused (isError true) for request " + reply.id(), reply);
    }
    String text = reply.text();
    if (text == null) {
      throw wrong("no content[0].text in the reply to request " + reply.id(), reply);
    }
    if (!text.equals(knownGood)) {
      checkText(text, reply);
      knownGood = text;
    }
  }

  /** The {@code tools/list} reply: the three tools, in any order. */
  void toolList(Reply reply, long expectedId) {
    if (reply.id() != expectedId || reply.error() != null || reply.toolNames() == null) {
      throw wrong("not the tools/list reply " + expectedId, reply);
    }
    if (!reply.toolNames().containsAll(TOOLS) || reply.toolNames().size() != TOOLS.size()) {
      throw wrong("tools/list offered " + reply.toolNames() + ", not " + TOOLS, reply);
    }
  }

  /** A one-shot client's printed result (a CallToolResult, pretty or not). */
  void printedResult(String stdout) {
    JsonNode result;
    try {
      result = MAPPER.readTree(stdout);
    } catch (RuntimeException e) {
      result = null;
    }
    if (result == null || !result.isObject()) { // nothing printed reads as a missing node
      throw new BenchFailure(server + ": the client printed no JSON result: " + cut(stdout));
    }
    JsonNode text = result.path("content").path(0).path("text");
    if (result.path("isError").asBoolean(false) || !text.isString()) {
      throw new BenchFailure(server + ": the client printed a wrong result: " + cut(stdout));
    }
    checkText(text.stringValue(), null);
  }

  private void checkText(String text, Reply reply) {
    Map<?, ?> answer;
    try {
      answer = MAPPER.readValue(text, Map.class);
    } catch (RuntimeException e) {
      throw wrong("the read_note text is not JSON: " + cut(text), reply);
    }
    if (!Map.of("path", "notes.txt", "content", noteContent).equals(answer)) {
      throw wrong("the read_note text does not hold notes.txt as it is: " + cut(text), reply);
    }
  }

  private BenchFailure wrong(String what, Reply reply) {
    return new BenchFailure(server + ": " + what + (reply == null ? "" : " (" + reply + ")"));
  }

  private static String cut(String text) {
    return text.length() <= 300 ? text : text.substring(0, 300) + "...";
  }
}

package notesmcp.chat;

import java.io.IOException;
import java.time.Duration;
import notesmcp.jsonrpc.RpcException;
import notesmcp.mcp.client.Connection;
import notesmcp.mcp.client.Session;
import notesmcp.text.TerminalText;
import tools.jackson.databind.JsonNode;

/**
 * The MCP server, as the host calls it: one {@code tools/call} through our client, and its outcome
 * as one of the kinds the model is told apart (docs/design.md, "Errors: three outcomes, plus bugs":
 * a refusal is a result, a protocol error is a JSON-RPC error, a transport failure is an {@code
 * IOException}, a missed deadline included). A call is never retried here. Once the transport has
 * failed, whether the server died or missed the deadline, nothing more is sent to it, and the chat
 * ends after the model's answer (docs/chat.md).
 */
final class ToolServer {
  /** The most characters of one tool result passed to the model. */
  static final int MAX_RESULT_CHARS = 32 * 1024;

  private final Session session;
  private final Duration deadline;
  private String goneBecause;
  private boolean died;

  ToolServer(Session session, Duration deadline) {
    this.session = session;
    this.deadline = deadline;
  }

  boolean alive() {
    return goneBecause == null;
  }

  /** Why nothing more is sent to the server, once a transport failure happened. */
  String goneBecause() {
    return goneBecause;
  }

  /** Why a call after a transport failure is not sent, in the words the model is told. */
  String notSentBecause() {
    return died
        ? "the tool server is no longer running."
        : "the host sends nothing more to the tool server after a transport failure.";
  }

  /** What the chat says on stderr as it ends after a transport failure. */
  String endOfChat() {
    return died
        ? "the MCP server is gone (" + goneBecause + "); ending the chat"
        : "the MCP server failed ("
            + goneBecause
            + "); nothing more is sent to it; ending the chat";
  }

  Outcome call(String name, String arguments) {
    JsonNode result;
    try {
      result = session.callTool(name, arguments);
    } catch (RpcException e) {
      return new Outcome.ProtocolError(e.error().code(), e.error().message());
    } catch (Connection.Timeout e) {
      goneBecause = e.getMessage();
      return new Outcome.Unknown(
          "the server did not answer within "
              + deadline.toMillis()
              + " ms, and the host cancelled the request");
    } catch (IOException e) {
      goneBecause = e.getMessage();
      died = true;
      return new Outcome.Unknown("the connection to the server failed (" + e.getMessage() + ")");
    } catch (Session.Incompatible e) {
      return new Outcome.Malformed(e.getMessage());
    }
    JsonNode content = result.get("content");
    JsonNode isError = result.get("isError");
    if (content == null || !content.isArray()) {
      return new Outcome.Malformed("its content is not an array");
    }
    if (isError != null && !isError.isBoolean()) {
      return new Outcome.Malformed("its isError is not a boolean");
    }
    String text = text(content);
    // "isError: Whether the tool call ended in an error. If not set, this is assumed to be false."
    return isError != null && isError.booleanValue()
        ? new Outcome.Refused(text)
        : new Outcome.Result(text);
  }

  /** The text blocks, joined; other blocks are named, not passed on. */
  private static String text(JsonNode content) {
    StringBuilder text = new StringBuilder();
    for (JsonNode block : content) {
      if (text.length() > 0) {
        text.append('\n');
      }
      if ("text".equals(block.path("type").asString("")) && block.path("text").isString()) {
        text.append(block.get("text").asString());
      } else {
        text.append("[a content block of type ")
            .append(TerminalText.visibleLine(block.path("type").asString("?")))
            .append(", not shown]");
      }
    }
    if (text.length() > MAX_RESULT_CHARS) {
      int more = text.length() - MAX_RESULT_CHARS;
      text.setLength(MAX_RESULT_CHARS);
      text.append("\n[the host cut ").append(more).append(" more characters]");
    }
    return text.toString();
  }

  void close(Duration grace) throws InterruptedException {
    session.close(grace);
  }
}

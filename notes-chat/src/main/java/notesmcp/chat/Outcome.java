package notesmcp.chat;

import java.nio.charset.StandardCharsets;
import notesmcp.text.TerminalText;

/**
 * What became of one tool request from the model. Each kind is told to the model as itself, in the
 * tool message tied to the request (docs/chat.md): "protocol errors, tool refusals ({@code
 * isError}) and transport failures are told to the model as three different things, never as
 * success", and a request the host did not send says so. {@link #forModel} is that message; {@link
 * #forLog} is the host's line about it on stderr, which never repeats a result's data.
 */
sealed interface Outcome {
  String forModel();

  String forLog();

  /** The tool ran and answered with {@code isError: false}; its text is the tool's data. */
  record Result(String text) implements Outcome {
    @Override
    public String forModel() {
      return text;
    }

    @Override
    public String forLog() {
      return "result, " + text.getBytes(StandardCharsets.UTF_8).length + " bytes";
    }
  }

  /** The tool answered with {@code isError: true}: the server's policy refused the call. */
  record Refused(String text) implements Outcome {
    @Override
    public String forModel() {
      return "REFUSED: the tool refused this call (isError: true), so it had no effect. The"
          + " server said: "
          + text;
    }

    @Override
    public String forLog() {
      return "refused (isError): " + TerminalText.visibleLine(text);
    }
  }

  /** The server answered the request with a JSON-RPC error: the tool did not run. */
  record ProtocolError(int code, String message) implements Outcome {
    @Override
    public String forModel() {
      return "PROTOCOL ERROR: the server rejected this request (JSON-RPC error "
          + code
          + ": "
          + message
          + "); the tool did not run.";
    }

    @Override
    public String forLog() {
      return "protocol error " + code + ": " + TerminalText.visibleLine(message);
    }
  }

  /**
   * The server's reply did not have the shape of a tool result, so whether the tool ran is not
   * known (a protocol error, but one that came after the request reached the server).
   */
  record Malformed(String why) implements Outcome {
    @Override
    public String forModel() {
      return "PROTOCOL ERROR: the server's reply to this call was not a valid tool result ("
          + why
          + "). Whether the tool ran is unknown; the host did not retry it.";
    }

    @Override
    public String forLog() {
      return "protocol error, malformed reply: "
          + TerminalText.visibleLine(why)
          + "; outcome unknown";
    }
  }

  /**
   * The transport failed while the request was out: the server died or did not answer in time. "A
   * call whose outcome is unknown ... is reported as unknown and never retried automatically."
   */
  record Unknown(String why) implements Outcome {
    @Override
    public String forModel() {
      return "TRANSPORT FAILURE: "
          + why
          + ". The outcome of this call is unknown: it may or may not have taken effect. The host"
          + " did not retry it; do not assume it succeeded.";
    }

    @Override
    public String forLog() {
      return "transport failure: "
          + TerminalText.visibleLine(why)
          + "; outcome unknown, not retried";
    }
  }

  /** The host did not send the request; nothing reached the server. */
  record NotSent(String reason) implements Outcome {
    @Override
    public String forModel() {
      return "NOT SENT: " + reason + " Nothing was sent to the server.";
    }

    @Override
    public String forLog() {
      return "not sent: " + TerminalText.visibleLine(reason);
    }
  }
}

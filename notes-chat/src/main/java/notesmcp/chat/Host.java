package notesmcp.chat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Optional;
import notesmcp.text.TerminalText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * One person's turn, and what the host decides in it (docs/chat.md, "One turn"): the model is
 * called with the conversation and the offered tools; each tool request it makes is checked (the
 * server still served, with no transport failure yet? a tool the server listed? arguments one JSON
 * object within the server's limit? the turn's budget left? a person's yes for a call that is not
 * read-only?), sent through our MCP client if it passes, and answered with a tool message tied to
 * it, whatever happened. The model's text goes to stdout; each call and its outcome to stderr.
 *
 * <p>Not thread-safe: the chat's one thread runs the turns one after another.
 */
final class Host {
  private final ModelServer model;
  private final ToolServer server;
  private final OfferedTools tools;
  private final Confirmation confirmation;
  private final History history;
  private final int maxToolCalls;
  private final PrintStream out;
  private final PrintStream log;

  Host(
      ModelServer model,
      ToolServer server,
      OfferedTools tools,
      Confirmation confirmation,
      History history,
      int maxToolCalls,
      PrintStream out,
      PrintStream log) {
    this.model = model;
    this.server = server;
    this.tools = tools;
    this.confirmation = confirmation;
    this.history = history;
    this.maxToolCalls = maxToolCalls;
    this.out = out;
    this.log = log;
  }

  /** Runs one turn: the model answers {@code message}, calling tools as it goes. */
  void turn(String message) throws ModelServer.Failure {
    history.startTurn(UserMessage.from(message));
    int calls = 0;
    while (true) {
      AiMessage answer = model.chat(history.messages(), tools.specifications());
      history.add(answer);
      boolean said = answer.text() != null && !answer.text().isBlank();
      if (said) {
        out.println(TerminalText.visibleLines(answer.text()));
      }
      if (!answer.hasToolExecutionRequests()) {
        if (!said) {
          log.println("notes-mcp chat: the model gave an empty answer");
        }
        return;
      }
      boolean spent = false;
      for (ToolExecutionRequest request : answer.toolExecutionRequests()) {
        Outcome outcome;
        if (calls >= maxToolCalls) {
          spent = true;
          outcome =
              new Outcome.NotSent(
                  "this turn's budget of "
                      + maxToolCalls
                      + " tool calls is spent, and the host stopped the turn.");
        } else {
          calls++;
          outcome = execute(request);
        }
        log.println(
            "notes-mcp chat: "
                + TerminalText.visibleLine(String.valueOf(request.name()))
                + " "
                + TerminalText.visibleLine(String.valueOf(request.arguments()))
                + " -> "
                + outcome.forLog());
        history.add(model.toolMessage(request, outcome.forModel()));
      }
      if (spent) {
        log.println(
            "notes-mcp chat: stopped this turn: the model asked for more than "
                + maxToolCalls
                + " tool calls for one message (-max-tool-calls "
                + maxToolCalls
                + "); send another message to go on");
        return;
      }
    }
  }

  private Outcome execute(ToolExecutionRequest request) {
    if (!server.alive()) {
      return new Outcome.NotSent(server.notSentBecause());
    }
    Optional<OfferedTools.Offered> tool = tools.get(request.name());
    if (tool.isEmpty()) {
      // A request for any other tool is answered to the model as unavailable and never reaches
      // the server. The name is the model's: shown bounded, as any text of the model's.
      return new Outcome.NotSent(
          "there is no tool named \""
              + TerminalText.visibleLine(String.valueOf(request.name()))
              + "\" here; the available tools are "
              + String.join(", ", tools.names())
              + ".");
    }
    ToolArguments arguments;
    try {
      arguments = ToolArguments.parse(request.arguments());
    } catch (ToolArguments.Invalid e) {
      return new Outcome.NotSent("the host did not send it: " + e.getMessage() + ".");
    }
    if (!tool.get().readOnly()) {
      Optional<Outcome> declined = confirm(tool.get().name(), arguments);
      if (declined.isPresent()) {
        return declined.get();
      }
    }
    return server.call(tool.get().name(), arguments.text());
  }

  /**
   * For a {@code propose_edit}, the note's text as the server reads it now (a read-only {@code
   * read_note}, page by page), so the confirmation can show the diff; null for any other call or
   * when it cannot be read (the confirmation then says so).
   */
  private String baseOf(String name, ToolArguments arguments) {
    JsonNode path = arguments.object().get("path");
    if (!Chat.PROPOSE_EDIT.equals(name) || path == null || !path.isString()) {
      return null;
    }
    StringBuilder text = new StringBuilder();
    long offset = 0;
    for (int page = 0; page < MAX_BASE_PAGES; page++) {
      ObjectNode read = READS.createObjectNode();
      read.put("path", path.asString());
      if (offset > 0) {
        read.put("offset", offset);
      }
      Outcome outcome = server.call("read_note", read.toString());
      if (!(outcome instanceof Outcome.Result)) {
        return null;
      }
      JsonNode answer;
      try {
        answer = READS.readTree(((Outcome.Result) outcome).text());
      } catch (RuntimeException e) {
        return null;
      }
      text.append(answer.path("content").asString(""));
      JsonNode next = answer.get("nextOffset");
      if (next == null || !next.isIntegralNumber()) {
        return text.toString();
      }
      offset = next.asLong();
    }
    return null;
  }

  /** 64 pages of 16 KiB: a 1 MiB note, the most a policy allows. */
  private static final int MAX_BASE_PAGES = 64;

  private static final ObjectMapper READS = JsonMapper.builder().build();

  /** Empty when the person typed yes; else why the call is not sent. */
  private Optional<Outcome> confirm(String name, ToolArguments arguments) {
    log.println(
        "notes-mcp chat: "
            + name
            + " is not marked read-only by the server: asking for a yes on the terminal");
    Confirmation.Answer answer;
    try {
      answer = confirmation.ask(name, arguments, baseOf(name, arguments));
    } catch (IOException e) {
      log.println("notes-mcp chat: the terminal could not be read (" + e.getMessage() + ")");
      answer = Confirmation.Answer.DECLINED;
    }
    switch (answer) {
      case YES:
        log.println("notes-mcp chat: confirmed on the terminal; sending " + name);
        return Optional.empty();
      case DECLINED:
        return Optional.of(new Outcome.NotSent("the user declined this call on the terminal."));
      case NO_TERMINAL:
        // "With no terminal, nothing needing confirmation is ever sent."
        return Optional.of(
            new Outcome.NotSent(
                "this call needs the user's yes on a terminal, and the host has no terminal to"
                    + " ask on."));
      default:
        throw new AssertionError(answer);
    }
  }
}

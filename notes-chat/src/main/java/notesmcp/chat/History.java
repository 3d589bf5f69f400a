package notesmcp.chat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.CustomMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The conversation the model sees: the system prompt, then whole turns (a person's message, the
 * model's messages and the tool messages answering them), within a budget (docs/chat.md): at most
 * {@code maxTurns} turns and {@code maxBytes} of message text. Before each model call the oldest
 * turns are dropped, whole, until both hold (the current turn always stays): a turn is never cut,
 * so a tool message never loses the request it answers. Old turns are dropped, not summarised: a
 * summary would be model text carried on in a system or user message, and note content must reach
 * the model only inside tool messages (point 4).
 */
final class History {
  static final int MAX_TURNS = 16;
  static final int MAX_BYTES = 64 * 1024;

  private final SystemMessage system;
  private final int maxTurns;
  private final int maxBytes;
  private final PrintStream log;
  private final Deque<List<ChatMessage>> turns = new ArrayDeque<>();
  private final Deque<Integer> turnBytes = new ArrayDeque<>();
  private int bytes;

  History(SystemMessage system, int maxTurns, int maxBytes, PrintStream log) {
    this.system = system;
    this.maxTurns = maxTurns;
    this.maxBytes = maxBytes;
    this.log = log;
  }

  /** Starts a turn with the person's message. */
  void startTurn(UserMessage message) {
    turns.addLast(new ArrayList<>());
    turnBytes.addLast(0);
    add(message);
  }

  /** Adds a message to the current turn. */
  void add(ChatMessage message) {
    if (turns.isEmpty()) {
      throw new IllegalStateException("no turn started");
    }
    int size = size(message);
    turns.peekLast().add(message);
    turnBytes.addLast(turnBytes.removeLast() + size);
    bytes += size;
  }

  /** The messages for the next model call, after dropping what is over the budget. */
  List<ChatMessage> messages() {
    int dropped = 0;
    while (turns.size() > 1 && (turns.size() > maxTurns || bytes > maxBytes)) {
      turns.removeFirst();
      bytes -= turnBytes.removeFirst();
      dropped++;
    }
    if (dropped > 0) {
      log.println(
          "notes-mcp chat: history budget: forgot the oldest "
              + (dropped == 1 ? "turn" : dropped + " turns")
              + " (at most "
              + maxTurns
              + " turns and "
              + maxBytes / 1024
              + " KiB are kept)");
    }
    List<ChatMessage> messages = new ArrayList<>();
    messages.add(system);
    for (List<ChatMessage> turn : turns) {
      messages.addAll(turn);
    }
    return messages;
  }

  int turnCount() {
    return turns.size();
  }

  int bytes() {
    return bytes;
  }

  /** The UTF-8 size of what a message carries to the model. */
  static int size(ChatMessage message) {
    if (message instanceof UserMessage) {
      return utf8(((UserMessage) message).singleText());
    }
    if (message instanceof AiMessage) {
      AiMessage ai = (AiMessage) message;
      int size = ai.text() == null ? 0 : utf8(ai.text());
      for (ToolExecutionRequest request : ai.toolExecutionRequests()) {
        size +=
            utf8(request.name()) + (request.arguments() == null ? 0 : utf8(request.arguments()));
      }
      return size;
    }
    if (message instanceof ToolExecutionResultMessage) {
      return utf8(((ToolExecutionResultMessage) message).text());
    }
    if (message instanceof CustomMessage) {
      return utf8(String.valueOf(((CustomMessage) message).attributes().get("content")));
    }
    if (message instanceof SystemMessage) {
      return utf8(((SystemMessage) message).text());
    }
    throw new AssertionError(message);
  }

  private static int utf8(String text) {
    return text == null ? 0 : text.getBytes(StandardCharsets.UTF_8).length;
  }
}

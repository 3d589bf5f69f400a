package notesmcp.chat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class HistoryTest {
  private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
  private final PrintStream log = new PrintStream(logged, true, StandardCharsets.UTF_8);
  private static final SystemMessage SYSTEM = SystemMessage.from("system");

  /** A turn: the message, a tool call, its result, an answer. */
  private static void turn(History history, String name, int resultBytes) {
    history.startTurn(UserMessage.from(name));
    ToolExecutionRequest request =
        ToolExecutionRequest.builder().id(name).name("read_note").arguments("{}").build();
    history.add(AiMessage.from(List.of(request)));
    history.add(ToolExecutionResultMessage.from(request, "x".repeat(resultBytes)));
    history.add(AiMessage.from("answer " + name));
  }

  private static String firstUser(List<ChatMessage> messages) {
    return ((UserMessage) messages.get(1)).singleText();
  }

  @Test
  void theSystemPromptComesFirstAndTurnsFollowWhole() {
    History history = new History(SYSTEM, 4, 1024, log);
    turn(history, "one", 10);
    turn(history, "two", 10);

    List<ChatMessage> messages = history.messages();

    assertThat(messages.get(0)).isEqualTo(SYSTEM);
    assertThat(messages).hasSize(9);
    assertThat(firstUser(messages)).isEqualTo("one");
    assertThat(logged.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void theOldestTurnsGoFirstWhenThereAreTooMany() {
    History history = new History(SYSTEM, 2, 1 << 20, log);
    for (String name : List.of("one", "two", "three", "four")) {
      turn(history, name, 10);
    }

    List<ChatMessage> messages = history.messages();

    assertThat(history.turnCount()).isEqualTo(2);
    assertThat(firstUser(messages)).isEqualTo("three");
    assertThat(messages.get(2)).isInstanceOf(AiMessage.class); // never a tool message first
    assertThat(logged.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "notes-mcp chat: history budget: forgot the oldest 2 turns (at most 2 turns and 1024"
                + " KiB are kept)\n");
  }

  @Test
  void theOldestTurnsGoWhenTheTextIsOverTheByteBudget() {
    History history = new History(SYSTEM, 100, 2100, log);
    turn(history, "one", 1000);
    turn(history, "two", 1000);
    turn(history, "three", 1000);

    List<ChatMessage> messages = history.messages();

    assertThat(history.bytes()).isLessThanOrEqualTo(2100);
    assertThat(firstUser(messages)).isEqualTo("two");
  }

  @Test
  void theCurrentTurnStaysEvenWhenItAloneIsOverTheBudget() {
    History history = new History(SYSTEM, 1, 100, log);
    turn(history, "one", 10);
    turn(history, "two", 5000);

    List<ChatMessage> messages = history.messages();

    assertThat(history.turnCount()).isEqualTo(1);
    assertThat(firstUser(messages)).isEqualTo("two");
    assertThat(messages).hasSize(5);
  }
}

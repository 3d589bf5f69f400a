package notesmcp.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ReplyCheckTest {
  private static final String NOTE = "Line one\n- \"quoted\" and é\n";

  /** The reply text of {@code read_note}, JSON inside a JSON string: {@code \"} and {@code \n}. */
  private static final String TEXT =
      "{\\\"path\\\":\\\"notes.txt\\\",\\\"content\\\":\\\"Line one\\\\n- \\\\\\\"quoted\\\\\\\" and é\\\\n\\\"}";

  private static Reply parse(String line) {
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    return Reply.parse(bytes, bytes.length);
  }

  private static String result(long id, String text, boolean isError) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\""
        + text
        + "\"}],\"isError\":"
        + isError
        + ",\"resultType\":\"complete\"}}";
  }

  @Test
  void parsesTheMembersInAnyOrder() {
    Reply reply =
        parse(
            "{\"result\":{\"isError\":false,\"content\":[{\"type\":\"text\",\"text\":\"hi\"},"
                + "{\"type\":\"text\",\"text\":\"second\"}]},\"id\":7,\"jsonrpc\":\"2.0\"}");
    assertThat(reply.id()).isEqualTo(7);
    assertThat(reply.text()).isEqualTo("hi");
    assertThat(reply.isError()).isFalse();
    assertThat(reply.error()).isNull();
  }

  @Test
  void parsesAnErrorAndATextId() {
    Reply reply =
        parse("{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"error\":{\"code\":-32602,\"message\":\"no\"}}");
    assertThat(reply.id()).isEqualTo(-1);
    assertThat(reply.error()).isEqualTo("-32602 no");
  }

  @Test
  void aLineThatIsNotAJsonObjectIsAFailure() {
    assertThatThrownBy(() -> parse("[1,2]")).isInstanceOf(BenchFailure.class);
    assertThatThrownBy(() -> parse("{\"id\":1,"))
        .isInstanceOf(BenchFailure.class)
        .hasMessageContaining("not a JSON-RPC message");
  }

  @Test
  void theRightReplyPassesHoweverTheServerEscapesIt() {
    ReplyCheck check = new ReplyCheck("s", NOTE);
    assertThatCode(() -> check.call(parse(result(5, TEXT, false)), 5)).doesNotThrowAnyException();
    // The same document with é escaped and the members swapped: still the note, as JSON.
    String other =
        "{\\\"content\\\":\\\"Line one\\\\n- \\\\\\\"quoted\\\\\\\" and \\\\u00e9\\\\n\\\","
            + "\\\"path\\\":\\\"notes.txt\\\"}";
    assertThatCode(() -> check.call(parse(result(6, other, false)), 6)).doesNotThrowAnyException();
  }

  @Test
  void everyWayOfBeingWrongIsCaught() {
    ReplyCheck check = new ReplyCheck("s", NOTE);
    assertThatThrownBy(() -> check.call(parse(result(5, TEXT, false)), 6))
        .isInstanceOf(BenchFailure.class)
        .hasMessageContaining("reply id 5 where 6 was expected");
    assertThatThrownBy(() -> check.call(parse(result(5, TEXT, true)), 5))
        .hasMessageContaining("refused (isError true)");
    assertThatThrownBy(
            () ->
                check.call(parse("{\"id\":5,\"error\":{\"code\":-32000,\"message\":\"busy\"}}"), 5))
        .hasMessageContaining("a JSON-RPC error for request 5: -32000 busy");
    assertThatThrownBy(() -> check.call(parse("{\"id\":5,\"result\":{\"content\":[]}}"), 5))
        .hasMessageContaining("no content[0].text");
    assertThatThrownBy(() -> check.call(parse(result(5, "not json", false)), 5))
        .hasMessageContaining("is not JSON");
    String otherContent = "{\\\"path\\\":\\\"notes.txt\\\",\\\"content\\\":\\\"Line one\\\"}";
    assertThatThrownBy(() -> check.call(parse(result(5, otherContent, false)), 5))
        .hasMessageContaining("does not hold notes.txt as it is");
    String extraMember =
        TEXT.substring(0, TEXT.length() - 1) + ",\\\"more\\\":1}"; // a member too many
    assertThatThrownBy(() -> check.call(parse(result(5, extraMember, false)), 5))
        .hasMessageContaining("does not hold notes.txt");
  }

  @Test
  void aWrongReplyAfterARightOneIsStillCaught() {
    ReplyCheck check = new ReplyCheck("s", NOTE);
    check.call(parse(result(1, TEXT, false)), 1);
    String otherContent = "{\\\"path\\\":\\\"notes.txt\\\",\\\"content\\\":\\\"x\\\"}";
    assertThatThrownBy(() -> check.call(parse(result(2, otherContent, false))))
        .hasMessageContaining("does not hold notes.txt");
  }

  @Test
  void theToolListMustHoldExactlyTheThreeTools() {
    ReplyCheck check = new ReplyCheck("s", NOTE);
    String three =
        "{\"id\":1,\"result\":{\"tools\":[{\"name\":\"read_note\"},{\"name\":\"list_notes\"},"
            + "{\"name\":\"propose_note\"}]}}";
    assertThatCode(() -> check.toolList(parse(three), 1)).doesNotThrowAnyException();
    assertThatThrownBy(() -> check.toolList(parse(three), 2))
        .hasMessageContaining("not the tools/list");
    String two = "{\"id\":1,\"result\":{\"tools\":[{\"name\":\"read_note\"},{\"name\":\"x\"}]}}";
    assertThatThrownBy(() -> check.toolList(parse(two), 1))
        .hasMessageContaining("offered [read_note, x]");
  }

  @Test
  void aOneShotClientsPrintedResultIsChecked() {
    ReplyCheck check = new ReplyCheck("s", NOTE);
    String printed =
        "{\n  \"content\" : [ {\n    \"type\" : \"text\",\n    \"text\" : \""
            + TEXT
            + "\"\n  } ],\n"
            + "  \"isError\" : false\n}\n";
    assertThatCode(() -> check.printedResult(printed)).doesNotThrowAnyException();
    assertThatThrownBy(() -> check.printedResult("")).hasMessageContaining("printed no JSON");
    assertThatThrownBy(() -> check.printedResult(printed.replace("false", "true")))
        .hasMessageContaining("a wrong result");
  }
}

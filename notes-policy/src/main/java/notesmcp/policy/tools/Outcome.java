package notesmcp.policy.tools;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import notesmcp.text.JsonInput.JsonString;

/**
 * What a tool call produced: an answer (a JSON document as text) or a refusal with its reason.
 *
 * <p>A refusal is an expected answer, not an exception: the MCP adapter turns it into a tool result
 * with {@code isError: true}, and the text is the same through MCP as here.
 */
public sealed interface Outcome permits Outcome.Answer, Outcome.Refusal {

  /** The text a client sees. */
  String text();

  /**
   * A successful call; {@code text} is the JSON document docs/behaviour.md shows for the tool. Made
   * from a string, or from the document's UTF-8 bytes (a note's page, a listing), which then reach
   * the protocol line without becoming a string ({@link #escaped}).
   */
  final class Answer implements Outcome {
    private final byte[] utf8;
    private final int length;
    private String text;

    public Answer(String text) {
      this.text = Objects.requireNonNull(text, "text");
      this.utf8 = null;
      this.length = 0;
    }

    /** The answer whose text is {@code utf8[0, length)}, valid UTF-8. */
    Answer(byte[] utf8, int length) {
      this.utf8 = utf8;
      this.length = length;
    }

    @Override
    public String text() {
      String decoded = text;
      if (decoded == null) {
        decoded = new String(utf8, 0, length, StandardCharsets.UTF_8);
        text = decoded; // a race only decodes twice: a string is safely published
      }
      return decoded;
    }

    /** The text as the content of a JSON string: escaped from its bytes, never decoded. */
    public JsonString escaped() {
      if (utf8 != null) {
        return JsonString.of(utf8, length);
      }
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      return JsonString.of(bytes, bytes.length);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Answer && ((Answer) other).text().equals(text());
    }

    @Override
    public int hashCode() {
      return text().hashCode();
    }

    @Override
    public String toString() {
      return "Answer[text=" + text() + "]";
    }
  }

  /** A refused call; {@code text} says why, in one sentence. */
  record Refusal(String text) implements Outcome {}
}

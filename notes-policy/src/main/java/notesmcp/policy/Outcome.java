package notesmcp.policy;

/**
 * What a tool call produced: an answer (a JSON document as text) or a refusal with its reason.
 *
 * <p>A refusal is an expected answer, not an exception: the MCP adapter turns it into a tool result
 * with {@code isError: true}, and the text is the same through MCP as here.
 */
public sealed interface Outcome permits Outcome.Answer, Outcome.Refusal {

  /** The text a client sees. */
  String text();

  /** A successful call; {@code text} is the JSON document CONTRACT §3 shows for the tool. */
  record Answer(String text) implements Outcome {}

  /** A refused call; {@code text} says why, in one sentence. */
  record Refusal(String text) implements Outcome {}
}

package notesmcp.jsonrpc;

/**
 * The one params member a {@link Codec} keeps exactly as received, carried beside the params tree
 * (never inside it): absent, an object's exact text, or present with another JSON type. The server
 * keeps MCP's {@code tools/call} {@code arguments} this way, so they reach the tool as sent,
 * duplicate keys included (STYLE §3); which member is kept is the caller's choice, so this layer
 * knows no methods.
 */
public sealed interface RawMember
    permits RawMember.Absent, RawMember.ObjectText, RawMember.NotAnObject {
  /** The member is not there (or params is not an object). */
  RawMember ABSENT = new Absent();

  /** Not there. */
  final class Absent implements RawMember {
    private Absent() {}

    @Override
    public String toString() {
      return "absent";
    }
  }

  /** A JSON object, as the exact text received (UTF-8 decoded, nothing else changed). */
  record ObjectText(String text) implements RawMember {}

  /**
   * Present, but not an object: {@code type} is its JSON type, one of {@code array}, {@code
   * string}, {@code number}, {@code boolean}, {@code null}.
   */
  record NotAnObject(String type) implements RawMember {}
}

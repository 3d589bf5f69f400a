package notesmcp.cli;

/**
 * The program's exit codes, in every mode: docs/behaviour.md, "Command line"; review's in
 * docs/approvals.md; chat's in docs/chat.md.
 */
public enum ExitCode {
  /** The server ran until its input closed, or the client's call succeeded. */
  OK(0),
  /** The tool answered with {@code isError: true}: a refusal, not a failure of the program. */
  TOOL_ERROR(1),
  /** Bad flags, {@code -args} not a JSON object, or a bad policy file or root: fix the command. */
  USAGE(2),
  /** The server answered with a JSON-RPC error, or speaks no version this client does. */
  PROTOCOL_ERROR(3),
  /**
   * The server could not be started, crashed, or did not answer within the deadline; in chat, the
   * same for the model server.
   */
  SERVER_FAILURE(4),
  /**
   * Review: an approval or rejection was refused (wrong SHA-256, already decided, the destination
   * exists, a damaged record); nothing changed. The review counterpart of {@link #TOOL_ERROR}.
   */
  REFUSED(1),
  /** Review: a file operation failed midway; running review again completes or clears it. */
  IO_FAILURE(5),
  /**
   * {@code -serve} or review: the program itself is incomplete (its native library, without which
   * no note can be read safely, is missing), so it refuses to start; for a client this is a server
   * that could not be started, like {@link #SERVER_FAILURE}.
   */
  CANNOT_START(4);

  public final int code;

  ExitCode(int code) {
    this.code = code;
  }
}

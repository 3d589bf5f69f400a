package notesmcp.jsonrpc;

/** The JSON-RPC 2.0 error codes this implementation sends, by name. */
public final class ErrorCodes {
  /** Invalid JSON was received. */
  public static final int PARSE_ERROR = -32700;

  /** The JSON sent is not a valid request object. */
  public static final int INVALID_REQUEST = -32600;

  /** The method does not exist or is not available. */
  public static final int METHOD_NOT_FOUND = -32601;

  /** Invalid method parameters. */
  public static final int INVALID_PARAMS = -32602;

  /** A bug on our side; the details go to stderr, never to the peer. */
  public static final int INTERNAL_ERROR = -32603;

  /**
   * Too many requests in flight. docs/behaviour.md, "Limits" names this code for the overload
   * answer; it lies in the implementation-defined range that predates MCP's allocation policy.
   */
  public static final int OVERLOADED = -32000;

  private ErrorCodes() {}
}

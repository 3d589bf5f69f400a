package notesmcp.mcp;

import notesmcp.jsonrpc.SafeText;

/**
 * Text a server sent (an error message, its name, a version, its stderr), made safe to show in a
 * diagnostic line on the user's terminal: a server is not trusted to write terminal commands there.
 * What is escaped, and how, is {@link SafeText}'s rule, which the server's log shares.
 */
public final class ServerText {
  /** How much of one server-sent text a diagnostic line shows. */
  public static final int MAX_CHARS = 300;

  private ServerText() {}

  /** {@code text} as one safe line of at most about {@link #MAX_CHARS} characters. */
  public static String shown(String text) {
    return shown(text, MAX_CHARS, false);
  }

  /**
   * {@code text} made safe, keeping its line feeds when {@code keepLines} (for a block of a
   * server's stderr), cut after {@code max} characters.
   */
  public static String shown(String text, int max, boolean keepLines) {
    return SafeText.escaped(text, max, keepLines);
  }
}

package notesmcp.app;

/** The text of {@code --help}. */
final class Help {
  static final String TEXT =
      """
      notes-mcp: a local notes policy as MCP tools over stdio.

      Usage:
        notes-mcp -serve -root PATH [-policy FILE] [-max-calls N] [-proposals DIR]
            Serve MCP on stdin/stdout until stdin closes (exit 0). Speaks revision
            2026-07-28 per request and 2025-11-25, 2025-06-18, 2025-03-26 after
            initialize. stdout carries protocol messages only; logs go to stderr.
        notes-mcp -root PATH [-timeout T]
            Start a server on PATH, print its tool definitions as JSON, close it.
        notes-mcp -root PATH -tool NAME [-args JSON] [-timeout T]
            Start a server on PATH, call one tool, print the MCP result as JSON.
        notes-mcp -server-command 'CMD ARGS...' [-tool NAME [-args JSON]]
            The same client modes against any stdio MCP server: probes with
            server/discover, falls back to initialize for 2025 servers, and says
            on stderr which era and version it used.

      Flags (one or two dashes; a value as the next word or after '='):
        -serve               run the server
        -root PATH           the workspace folder; fixed at launch, no tool can change it
        -tool NAME           the tool to call (client)
        -args JSON           the tool's arguments, one JSON object (client; default none)
        -timeout T           deadline per request: 10, 10s, 500ms, 2m (client; default 10s)
        -policy FILE         JSON policy: readable, proposable, maxNoteBytes, maxCalls
        -max-calls N         tool calls one server process dispatches (default 16)
        -proposals DIR       keep proposals durably in DIR for 'notes-mcp review'
        -server-command CMD  the server to start instead of this program's -serve
        -help, -version

      Exit codes (client): 0 success; 1 the tool returned isError; 2 usage error;
        3 protocol error (a JSON-RPC error reply, an unsupported version);
        4 the server could not start, crashed, or missed the deadline.
      """;

  private Help() {}
}

package notesmcp.chat;

/** The text of {@code notes-mcp chat --help}. */
final class ChatHelp {
  static final String TEXT =
      """
      notes-mcp chat: an assistant over the notes server, with a local model.

      Usage:
        notes-mcp chat -root PATH -model NAME [-provider ollama|openai] [-model-url URL]
                       [-max-tool-calls N] [-proposals DIR] [-policy FILE] [-max-calls N]
                       [-timeout T] [-model-timeout T]
        notes-mcp chat -server-command 'CMD ARGS...' -model NAME [...]

      Your messages come from stdin, one per line, until end of input (Ctrl-D; exit 0).
      The model's answers go to stdout; each tool call the host makes, and its outcome,
      go to stderr. The model sees exactly the tools the server lists. A call to a tool
      the server does not mark read-only (propose_note) is sent only after you type yes
      on the terminal (/dev/tty, never stdin); without a terminal it is not sent. A yes
      sends a proposal and approves nothing: approving stays 'notes-mcp review'.

      Flags (one or two dashes; a value as the next word or after '='):
        -root PATH           the workspace this program's own server serves
        -server-command CMD  another stdio MCP server to use instead (no -root)
        -model NAME          the model, such as qwen3:4b (for Ollama: one you pulled)
        -provider P          ollama (default) or openai (any OpenAI-compatible server)
        -model-url URL       default http://127.0.0.1:11434 (ollama),
                             http://127.0.0.1:8080/v1 (openai; the URL ends in /v1)
        -max-tool-calls N    tool calls per message before the turn stops (default 8)
        -proposals DIR       keep proposals in DIR for 'notes-mcp review' (own server)
        -policy FILE         the server's policy file (own server)
        -max-calls N         tool calls the server dispatches in all (own server; 16)
        -timeout T           deadline per MCP request: 10, 10s, 500ms, 2m (default 10s)
        -model-timeout T     deadline per model answer (default 5m)
        -help
      OPENAI_API_KEY, when set, is sent to an openai provider as its bearer token.

      Exit codes: 0 end of input; 2 usage error; 3 the MCP server refused the
        handshake; 4 the model server or the MCP server could not be reached or failed.
      """;

  private ChatHelp() {}
}

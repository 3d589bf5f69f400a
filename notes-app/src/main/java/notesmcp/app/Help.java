package notesmcp.app;

/** The text of {@code --help}. */
final class Help {
  static final String TEXT =
      """
      notes-mcp: a local notes policy as MCP tools over stdio.

      Usage:
        notes-mcp -serve -root PATH [-policy FILE] [-max-calls N] [-proposals DIR]
            Serve MCP on stdin/stdout until stdin closes (exit 0). Speaks revision
            2026-07-28 per request and 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05
            after initialize. stdout carries protocol messages only; logs go to stderr.
        notes-mcp -serve -root PATH [...] -http HOST:PORT [-tokens FILE | -auth none]
                         [-tls-cert FILE -tls-key FILE] [-allowed-host HOST[:PORT]]
                         [-max-proposals N]
            The same server over Streamable HTTP at http://HOST:PORT/mcp (port 0: a
            free one; stderr says which) until SIGTERM or SIGINT (exit 0). Every request
            needs Authorization: Bearer TOKEN (-auth none only on loopback); an address
            beyond this machine also needs TLS. -max-calls counts per token and hour.
            See docs/http.md.
        notes-mcp token add NAME -tokens FILE [-scope read|propose]
        notes-mcp token list -tokens FILE | token revoke NAME -tokens FILE
            The HTTP server's tokens: add prints a new one once (its last stdout line)
            and keeps only its SHA-256; a read token may call read-only tools only.
        notes-mcp -root PATH [-timeout T] [-v]
            Start a server on PATH, print its tool definitions as JSON, close it.
        notes-mcp -root PATH -tool NAME [-args JSON] [-timeout T] [-v]
            Start a server on PATH, call one tool, print the MCP result as JSON.
        notes-mcp review -root PATH -proposals DIR [-policy FILE]
                         [--approve ID --sha256 HEX | --reject ID | --undo ID | --log]
            Review proposals kept by '-serve -proposals DIR', outside MCP. In a terminal:
            shows each pending one (destination, bytes, SHA-256, content made inert; for
            an edit, the diff) and asks; only 'yes' approves, 'reject' rejects, anything
            else skips. Without a terminal: lists them and approves nothing. --approve
            needs the full SHA-256 (of the new text, for an edit). -policy FILE: the
            server's policy, checked again (edits need it). --undo ID restores the text
            an edit replaced; --log prints the audit trail and checks its chain.
        notes-mcp config -root PATH [-host HOST] [-policy FILE] [-proposals DIR]
                         [--name NAME] [--install [--replace]]
            The entry a host needs to start this server on PATH (absolute paths), for
            HOST claude-desktop (the default), cursor, vscode, claude-code, codex,
            gemini or qwen: printed in the host's own format, or with --install
            written into the host's user configuration, merged with what is there
            (a backup beside it); the read-only tools are allowed without a prompt
            and the others left to the host's confirmation where it can say so.
            --replace overwrites a server of that name; --name NAME (default notes).
        notes-mcp config -url URL -token-env VAR [-host HOST] [--name NAME]
                         [--install [--replace]]
            The same for a server that runs elsewhere over HTTP (https, or http to a
            loopback address): an entry with the URL and 'Authorization: Bearer' and a
            reference to the variable VAR, which the host reads when it connects; the
            token is never written into a file. HOST is one of cursor, vscode,
            claude-code, codex, gemini or qwen.
        notes-mcp config -host systemd -root PATH [-policy FILE] [-proposals DIR]
                         -http HOST:PORT -tokens FILE [...] [--name NAME] [--install]
            The systemd user unit that keeps '-serve -http' running with these flags
            (checked as -serve checks them), printed or written into
            ~/.config/systemd/user/notes-mcp.service; it holds no token.
        notes-mcp index -root PATH -policy FILE
            Build or bring up to date search_notes' kept index for PATH under FILE (as
            the first search would; a server runs this itself when it finds none), then
            exit. Notes are read as read_note reads them; nothing on stdout.
        notes-mcp owner passphrase|link|grants|revoke CLIENT -proposals DIR
                        [-root PATH] [-policy FILE] [-issuer URL]
            For a server run with -http ... -auth oauth (docs/oauth.md), with its own
            flags: set the owner's passphrase (asked twice on the terminal), print a
            single-use sign-in link (10 minutes; its last stdout line), list the
            grants the owner approved, or revoke a client's grants. Signed in, the
            owner reviews proposals at /review too (docs/review-page.md).
        notes-mcp chat -root PATH -model NAME [-provider ollama|openai] [-model-url URL]
                       [-max-tool-calls N] [-proposals DIR] [-server-command CMD]
            An assistant over this server: your messages from stdin, one per line, until
            EOF; the model's answers on stdout; each tool call and its outcome on stderr.
            Tools not marked read-only (propose_note) are sent only after you type yes on
            the terminal; that sends a proposal, and approving it stays 'review'.
            'notes-mcp chat --help' lists all of its flags.
        notes-mcp -server-command 'CMD ARGS...' [-tool NAME [-args JSON]]
            The same client modes against any stdio MCP server: probes with
            server/discover, falls back to initialize for older servers, and says
            on stderr which era and version it used.

      Flags (one or two dashes; a value as the next word or after '='):
        -serve               run the server
        -root PATH           the workspace folder; fixed at launch, no tool can change it
        -tool NAME           the tool to call (client)
        -args JSON           the tool's arguments, one JSON object (client; default none)
        -timeout T           deadline for the whole exchange: 10, 10s, 500ms, 2m, from 1ms
                             to 1h (client; default 10s)
        -v, -verbose         show the server's stderr as it comes (client; by default only
                             its end is shown, and only when the exchange fails)
        -policy FILE         JSON policy: readable, exclude, proposable, editable,
                             maxNoteBytes, maxCalls, maxPending, search
                             (search_notes, on unless false)
        -max-calls N         tool calls one server process dispatches (default 16)
        -proposals DIR       keep proposals durably in DIR for 'notes-mcp review'
                             (outside the workspace, yours, not group/world-writable)
        -notify-command CMD  serve: run CMD (no shell) with the proposal's id, its note's
                             path and the review page's address when a proposal arrives
        -approve ID          review: approve proposal ID (with -sha256)
        -sha256 HEX          review: the proposal's full SHA-256, 64 hex digits
        -reject ID           review: reject proposal ID
        -undo ID             review: restore the text edit ID replaced
        -log                 review: print the audit trail, check its chain
        -server-command CMD  the server to start instead of this program's -serve
        -host NAME           config: the host to write the entry for (default claude-desktop)
        -install, -replace   config: write the entry into the host's file; overwrite one
                             of the same name
        -name NAME           config: the server's name in the host's list (default notes)
        -url URL             config: the address of a server that runs elsewhere
        -token-env VAR       config: the environment variable the host reads its token from
        -help, -version

      Exit codes (client): 0 success; 1 the tool returned isError; 2 usage error;
        3 protocol error (a JSON-RPC error reply, an unsupported version);
        4 the server could not start, crashed, or missed the deadline.
      Exit codes (review): 0 done (or listed); 1 refused, nothing changed; 2 usage
        error or unusable folder; 5 a file operation failed (run review again).
      """;

  private Help() {}
}

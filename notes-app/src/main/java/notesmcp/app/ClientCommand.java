package notesmcp.app;

import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.lang.ProcessBuilder.Redirect;
import java.time.Duration;
import java.util.List;
import notesmcp.cli.CommandLine;
import notesmcp.cli.ExitCode;
import notesmcp.cli.OwnServer;
import notesmcp.cli.Version;
import notesmcp.jsonrpc.Codec;
import notesmcp.jsonrpc.RpcException;
import notesmcp.mcp.Protocol.Implementation;
import notesmcp.mcp.client.Connection;
import notesmcp.mcp.client.Session;
import notesmcp.mcp.client.StderrTail;
import notesmcp.text.TerminalText;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.PrettyPrinter;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.CharacterEscapes;
import tools.jackson.core.io.SerializedString;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.util.DefaultPrettyPrinter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one-shot client modes: start a server, list its tools or call one, print the answer as JSON
 * on stdout, close the server, and say with the exit code how it went (docs/behaviour.md, "Command
 * line").
 */
final class ClientCommand {
  private static final String[] DEFINITION_MEMBERS = {"name", "description", "inputSchema"};
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

  /** How long the end of the server's stderr may take to arrive once the server is closed. */
  private static final Duration STDERR_END = Duration.ofMillis(500);

  private ClientCommand() {}

  /**
   * Runs one exchange. No exception escapes: whatever happens is one line on stderr and an exit
   * code, never a stack trace, and never exit 1, which means "the tool refused"
   * (ClientCommandTest).
   */
  static ExitCode run(Options options, PrintStream out, PrintStream err) {
    try {
      return exchange(options, out, err);
    } catch (RuntimeException | Error e) {
      err.println("notes-mcp: the client failed unexpectedly: " + describe(e));
      return ExitCode.SERVER_FAILURE;
    }
  }

  /**
   * Starts the server, talks to it within the deadline ({@code -timeout}, for the whole exchange:
   * the handshake and the call), and closes it whatever happened. Its stderr is shown with {@code
   * -v}; otherwise only its end, and only when the exchange failed (exit 3 or 4).
   */
  private static ExitCode exchange(Options options, PrintStream out, PrintStream err) {
    List<String> command =
        options.serverCommand() != null
            ? CommandLine.split(options.serverCommand())
            : OwnServer.command(
                options.root(), options.policyFile(), options.maxCalls(), options.proposals());
    StderrTail stderr = new StderrTail(options.verbose() ? err : null);
    Servers servers = new Servers(command, stderr, err);
    Session session = null;
    ExitCode code;
    long end = System.nanoTime() + options.timeout().toNanos();
    try {
      // The server starts first: its JVM boots while this one sets up its own side.
      servers.first = servers.launch();
      Implementation client = new Implementation("notes-mcp", Version.VALUE);
      session = Session.connect(servers, client, options.timeout(), PROBE_TIMEOUT, err);
      Duration left = Duration.ofNanos(Math.max(0, end - System.nanoTime()));
      code =
          options.mode() == Options.Mode.LIST
              ? list(session, out, left)
              : call(session, options, out, left);
    } catch (IOException e) {
      err.println(
          (session == null
                  ? "notes-mcp: could not start or reach the server " + command.get(0) + ": "
                  : "notes-mcp: ")
              + e.getMessage()
              + (e instanceof Connection.Timeout
                  ? " (-timeout " + options.timeout().toMillis() + " ms for the whole exchange)"
                  : ""));
      code = ExitCode.SERVER_FAILURE;
    } catch (RpcException e) {
      err.println(
          (session == null
                  ? "notes-mcp: the server refused the handshake: "
                  : "notes-mcp: the server answered with a protocol error: ")
              + e.error().code()
              + " "
              + TerminalText.escaped(e.error().message()));
      code = ExitCode.PROTOCOL_ERROR;
    } catch (Session.Incompatible e) {
      err.println("notes-mcp: " + e.getMessage());
      code = ExitCode.PROTOCOL_ERROR;
    } catch (RuntimeException | Error e) {
      err.println("notes-mcp: the client failed unexpectedly: " + describe(e));
      code = ExitCode.SERVER_FAILURE;
    } finally {
      servers.close(session, Session.closeGrace(Duration.ofNanos(end - System.nanoTime())));
    }
    if (!options.verbose()
        && (code == ExitCode.PROTOCOL_ERROR || code == ExitCode.SERVER_FAILURE)) {
      showEnd(stderr, err);
    }
    return code;
  }

  private static ExitCode list(Session session, PrintStream out, Duration within)
      throws IOException, RpcException, Session.Incompatible {
    out.println(pretty(definitions(session.listTools(within))));
    return ExitCode.OK;
  }

  /**
   * The tool definitions the list mode prints (docs/behaviour.md, "Command line"): each tool's
   * {@code name}, {@code description} (when the server gave one) and {@code inputSchema}, in the
   * server's order; other members a server sends (annotations, titles, output schemas) are not part
   * of that listing.
   */
  static ArrayNode definitions(JsonNode tools) {
    ArrayNode definitions = JsonNodeFactory.instance.arrayNode();
    for (JsonNode tool : tools) {
      ObjectNode definition = definitions.addObject();
      for (String member : DEFINITION_MEMBERS) {
        if (tool.has(member)) {
          definition.set(member, tool.get(member));
        }
      }
    }
    return definitions;
  }

  private static ExitCode call(Session session, Options options, PrintStream out, Duration within)
      throws IOException, RpcException, Session.Incompatible {
    JsonNode result = session.callTool(options.tool(), options.arguments(), within);
    out.println(pretty(result));
    return Session.isError(result) ? ExitCode.TOOL_ERROR : ExitCode.OK;
  }

  /**
   * The end of a failed server's stderr, so that a quiet client still says why (docs/behaviour.md,
   * "Exit codes, and three kinds of failure").
   */
  private static void showEnd(StderrTail stderr, PrintStream err) {
    try {
      stderr.awaitEnd(STDERR_END);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    String text = stderr.text();
    if (!text.isEmpty()) {
      err.println("notes-mcp: the server's stderr ended with:");
      for (String line : text.split("\n", -1)) {
        err.println("  " + line);
      }
    }
  }

  private static String describe(Throwable e) {
    return e.getClass().getName()
        + (e.getMessage() == null ? "" : ": " + TerminalText.escaped(e.getMessage()));
  }

  /**
   * The servers of one exchange: the first, started before anything else, is handed to the session
   * first; a second is started if the first exits on the probe. Each one's stderr goes to the tail.
   */
  private static final class Servers implements Session.Launcher {
    private final List<String> command;
    private final StderrTail stderr;
    private final PrintStream log;
    Process first;

    Servers(List<String> command, StderrTail stderr, PrintStream log) {
      this.command = command;
      this.stderr = stderr;
      this.log = log;
    }

    Process launch() throws IOException {
      Process process = new ProcessBuilder(command).redirectError(Redirect.PIPE).start();
      try {
        stderr.follow(process);
      } catch (RuntimeException | Error e) {
        process.destroyForcibly();
        throw e;
      }
      return process;
    }

    @Override
    public Connection start() throws IOException {
      if (first == null) {
        first = launch();
      }
      Connection connection = Connection.attach(first, log);
      first = null; // the session closes it from now on
      return connection;
    }

    /** Closes the session's server, and kills one that never reached a session. */
    void close(Session session, Duration grace) {
      try {
        if (session != null) {
          session.close(grace);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        if (first != null) {
          first.destroyForcibly();
          first = null;
        }
      }
    }
  }

  private static final ObjectWriteContext PRETTY =
      new ObjectWriteContext.Base() {
        @Override
        public PrettyPrinter getPrettyPrinter() {
          return new DefaultPrettyPrinter();
        }
      };

  /**
   * The result as JSON for a person's terminal. What the server sent is printed as the same JSON
   * value, but with every character that could act on the terminal or hide text escaped: Jackson
   * escapes C0 controls itself; DEL, C1 controls (an 8-bit CSI is one) and every character the
   * review renders as invisible (format characters such as bidirectional overrides and zero-width
   * characters, separators, fillers, variation selectors, anything outside the BMP) are escaped
   * here too.
   */
  static String pretty(JsonNode node) {
    StringWriter text = new StringWriter();
    JsonFactory factory = JsonFactory.builder().characterEscapes(new TerminalEscapes()).build();
    try (JsonGenerator generator = factory.createGenerator(PRETTY, text)) {
      Codec.write(generator, node);
    }
    return text.toString();
  }

  private static final class TerminalEscapes extends CharacterEscapes {
    private static final long serialVersionUID = 1L;
    private static final int[] ASCII = standardAsciiEscapesForJSON();

    static {
      ASCII[0x7f] = ESCAPE_STANDARD;
    }

    @Override
    public int[] getEscapeCodesForAscii() {
      return ASCII;
    }

    @Override
    public SerializableString getEscapeSequence(int c) {
      // The review's rule for what is invisible or acts on a terminal (TerminalText), so a tag
      // character or a Hangul filler in a result is as visible here as in review. Jackson hands
      // over a character outside the BMP as its two surrogates, which are escaped as a pair.
      if (TerminalText.isUnsafe(c)) {
        return new SerializedString(String.format("\\u%04x", c));
      }
      return null;
    }
  }
}

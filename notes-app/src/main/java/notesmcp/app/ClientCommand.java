package notesmcp.app;

import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import notesmcp.jsonrpc.Codec;
import notesmcp.jsonrpc.RpcException;
import notesmcp.mcp.Connection;
import notesmcp.mcp.Implementation;
import notesmcp.mcp.Session;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.PrettyPrinter;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.util.DefaultPrettyPrinter;
import tools.jackson.databind.JsonNode;

/**
 * The one-shot client modes: start a server, list its tools or call one, print the answer as JSON
 * on stdout, close the server, and say with the exit code how it went (CONTRACT §2).
 */
final class ClientCommand {
  /** Flags the launcher wants the child JVM to get as well (start-up tuning only). */
  static final String JVM_FLAGS_ENV = "NOTES_MCP_JVM_FLAGS";

  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);
  private static final Duration CLOSE_GRACE = Duration.ofSeconds(2);

  private ClientCommand() {}

  static ExitCode run(Options options, PrintStream out, PrintStream err) {
    List<String> command =
        options.serverCommand() != null
            ? CommandLine.split(options.serverCommand())
            : selfCommand(options);
    if (command.isEmpty()) {
      err.println("notes-mcp: -server-command is empty");
      return ExitCode.USAGE;
    }
    Session session;
    try {
      // The server starts first: its JVM boots while this one sets up its own side.
      Process server = new ProcessBuilder(command).redirectError(Redirect.INHERIT).start();
      Implementation client = new Implementation("notes-mcp", Version.VALUE);
      session =
          Session.connect(
              new Session.Launcher() {
                private Process started = server;

                @Override
                public Connection start() throws IOException {
                  if (started == null) {
                    return Connection.start(command, err); // again, after it exited on the probe
                  }
                  Connection connection = Connection.attach(started, err);
                  started = null;
                  return connection;
                }
              },
              client,
              options.timeout(),
              PROBE_TIMEOUT,
              err);
    } catch (IOException e) {
      err.println(
          "notes-mcp: could not start or reach the server "
              + command.get(0)
              + ": "
              + e.getMessage());
      return ExitCode.SERVER_FAILURE;
    } catch (RpcException e) {
      err.println("notes-mcp: the server refused the handshake: " + e.getMessage());
      return ExitCode.PROTOCOL_ERROR;
    } catch (Session.Incompatible e) {
      err.println("notes-mcp: " + e.getMessage());
      return ExitCode.PROTOCOL_ERROR;
    }
    try {
      return options.mode() == Options.Mode.LIST ? list(session, out) : call(session, options, out);
    } catch (IOException e) {
      err.println("notes-mcp: " + e.getMessage());
      return ExitCode.SERVER_FAILURE;
    } catch (RpcException e) {
      err.println("notes-mcp: the server answered with a protocol error: " + e.getMessage());
      return ExitCode.PROTOCOL_ERROR;
    } catch (Session.Incompatible e) {
      err.println("notes-mcp: " + e.getMessage());
      return ExitCode.PROTOCOL_ERROR;
    } finally {
      try {
        session.close(CLOSE_GRACE);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static ExitCode list(Session session, PrintStream out)
      throws IOException, RpcException, Session.Incompatible {
    out.println(pretty(session.listTools()));
    return ExitCode.OK;
  }

  private static ExitCode call(Session session, Options options, PrintStream out)
      throws IOException, RpcException, Session.Incompatible {
    JsonNode result = session.callTool(options.tool(), options.arguments());
    out.println(pretty(result));
    return result.path("isError").asBoolean(false) ? ExitCode.TOOL_ERROR : ExitCode.OK;
  }

  /** This program's own server, started the way this JVM was started: no PATH lookup. */
  private static List<String> selfCommand(Options options) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    String flags = System.getenv(JVM_FLAGS_ENV);
    if (flags != null && !flags.isBlank()) {
      command.addAll(CommandLine.split(flags));
    }
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Main.class.getName());
    command.add("-serve");
    command.add("-root");
    command.add(options.root().toString());
    if (options.policyFile() != null) {
      command.add("-policy");
      command.add(options.policyFile().toString());
    }
    if (options.maxCalls() != null) {
      command.add("-max-calls");
      command.add(options.maxCalls().toString());
    }
    if (options.proposals() != null) {
      command.add("-proposals");
      command.add(options.proposals().toString());
    }
    return command;
  }

  private static final ObjectWriteContext PRETTY =
      new ObjectWriteContext.Base() {
        @Override
        public PrettyPrinter getPrettyPrinter() {
          return new DefaultPrettyPrinter();
        }
      };

  static String pretty(JsonNode node) {
    StringWriter text = new StringWriter();
    try (JsonGenerator generator = new JsonFactory().createGenerator(PRETTY, text)) {
      Codec.write(generator, node);
    }
    return text.toString();
  }
}

package notesmcp.app;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The {@code notes-mcp} program: {@code -serve} runs the MCP server on stdin/stdout; {@code review}
 * lets a person approve or reject kept proposals; {@code config} prints a host's entry for it;
 * {@code chat} runs the assistant host (module notes-chat, loaded only then); otherwise it is a
 * one-shot client that starts a server, lists its tools or calls one, and closes it.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    // stdout carries protocol messages only: keep the real one for them, and send anything
    // printed by mistake (System.out.println) to stderr instead.
    OutputStream stdout = new FileOutputStream(FileDescriptor.out);
    PrintStream stderr =
        new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
    System.setOut(stderr);
    System.exit(run(args, System.in, stdout, stderr));
  }

  /** Runs one command line; returns the exit code (CONTRACT §2). */
  static int run(String[] args, InputStream in, OutputStream out, PrintStream err) {
    if (args.length > 0 && args[0].equals(ChatModule.WORD)) {
      return ChatModule.run(Arrays.copyOfRange(args, 1, args.length), in, out, err);
    }
    Options options;
    try {
      options = Options.parse(Arrays.asList(args));
    } catch (Options.UsageException e) {
      err.println("notes-mcp: " + e.getMessage());
      err.println("Run 'notes-mcp --help' for the flags.");
      return ExitCode.USAGE.code;
    }
    PrintStream stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
    switch (options.mode()) {
      case HELP:
        stdout.print(Help.TEXT);
        stdout.flush();
        return ExitCode.OK.code;
      case VERSION:
        stdout.println("notes-mcp " + Version.VALUE);
        return ExitCode.OK.code;
      case SERVE:
        return ServeCommand.run(options, in, out, err).code;
      case LIST:
      case CALL:
        return ClientCommand.run(options, stdout, err).code;
      case REVIEW:
        return ReviewCommand.run(options, stdout, err, ControllingTerminal::open).code;
      case CONFIG:
        return ConfigCommand.run(
                options, System.getProperty(ConfigCommand.EXECUTABLE_PROPERTY), stdout, err)
            .code;
      default:
        throw new AssertionError(options.mode());
    }
  }
}

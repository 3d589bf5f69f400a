package notesmcp.app;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Supplier;
import notesmcp.cli.ControllingTerminal;
import notesmcp.cli.ExitCode;
import notesmcp.cli.UsageException;
import notesmcp.cli.Version;

/**
 * The {@code notes-mcp} program: {@code -serve} runs the MCP server on stdin/stdout; {@code review}
 * lets a person approve or reject kept proposals; {@code config} prints a host's entry for it;
 * {@code chat} runs the assistant host (module notes-chat, loaded only then); {@code index} builds
 * {@code search_notes}' kept index and exits (module notes-search); otherwise it is a one-shot
 * client that starts a server, lists its tools or calls one, and closes it.
 */
public final class Main {
  /** Bytes of log lines kept while nobody reads stderr; beyond them lines are dropped. */
  private static final int LOG_CAPACITY = 256 * 1024;

  /** How long the end of the process waits for stderr to take the last log lines. */
  private static final Duration LOG_DRAIN = Duration.ofMillis(250);

  private Main() {}

  public static void main(String[] args) {
    main(args, Seams.NONE);
  }

  /**
   * Sets up the process's streams, runs the command line and exits with its code. stdout carries
   * protocol messages only: the real one is kept for them, and {@code System.out} is pointed at the
   * log. Every diagnostic ({@code System.out}, {@code System.err}, stack traces, the shutdown path)
   * goes through one {@link LogStream}, which drops and counts lines rather than wait for a stderr
   * nobody reads (docs/behaviour.md, "Limits").
   */
  static void main(String[] args, Seams seams) {
    OutputStream stdout = new FileOutputStream(FileDescriptor.out);
    LogStream stderr = new LogStream(new FileOutputStream(FileDescriptor.err), LOG_CAPACITY);
    PrintStream log = new PrintStream(stderr, true, StandardCharsets.UTF_8);
    System.setOut(log);
    System.setErr(log);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread("notes-mcp stderr at exit") {
              @Override
              public void run() {
                stderr.drain(LOG_DRAIN); // bounded: a stderr nobody reads never holds the exit
              }
            });
    // stdin unbuffered too: its readers gather their own chunks (LineReader, chat's StdinLines),
    // and System.in's BufferedInputStream asks the kernel how much more is available (an fstat
    // and an ioctl) after every read that returns less than asked, which is every request.
    InputStream stdin = new FileInputStream(FileDescriptor.in);
    System.exit(run(args, stdin, stdout, log, seams));
  }

  /** Runs one command line; returns the exit code (docs/behaviour.md, "Command line"). */
  static int run(String[] args, InputStream in, OutputStream out, PrintStream err) {
    return run(args, in, out, err, Seams.NONE);
  }

  static int run(String[] args, InputStream in, OutputStream out, PrintStream err, Seams seams) {
    if (args.length > 0 && args[0].equals(ChatModule.WORD)) {
      return ChatModule.run(Arrays.copyOfRange(args, 1, args.length), in, out, err);
    }
    if (args.length > 0 && args[0].equals(TokenCommand.WORD)) {
      return TokenCommand.run(
          Arrays.copyOfRange(args, 1, args.length),
          new PrintStream(out, true, StandardCharsets.UTF_8),
          err);
    }
    if (args.length > 0 && args[0].equals(OwnerCommand.WORD)) {
      return OwnerCommand.run(
          Arrays.copyOfRange(args, 1, args.length),
          new PrintStream(out, true, StandardCharsets.UTF_8),
          err);
    }
    if (args.length > 0 && args[0].equals(IndexCommand.WORD)) {
      return IndexCommand.run(Arrays.copyOfRange(args, 1, args.length), in, out, err, seams);
    }
    Options options;
    try {
      options = Options.parse(Arrays.asList(args));
    } catch (UsageException e) {
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
        return ServeCommand.run(options, in, out, err, seams).code;
      case LIST:
      case CALL:
        return ClientCommand.run(options, stdout, err).code;
      case REVIEW:
        return ReviewCommand.run(options, stdout, err, TERMINAL, seams).code;
      case CONFIG:
        return ConfigCommand.run(
                options, System.getProperty(ConfigCommand.EXECUTABLE_PROPERTY), stdout, err)
            .code;
      default:
        throw new AssertionError(options.mode());
    }
  }

  // Not a method reference: this class is on the start path, which links no invokedynamic.
  private static final Supplier<Optional<ControllingTerminal>> TERMINAL =
      new Supplier<Optional<ControllingTerminal>>() {
        @Override
        public Optional<ControllingTerminal> get() {
          return ControllingTerminal.open();
        }
      };
}

package notesmcp.app;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import notesmcp.cli.CommandLine;
import notesmcp.policy.proposals.Proposal;
import notesmcp.policy.tools.NoteAccess;
import notesmcp.text.TerminalText;

/**
 * Tells the person that a proposal waits (docs/review-page.md, "Telling the person"): a line on
 * stderr always; a desktop notification ({@code notify-send}) where there is one; and the command
 * of {@code -notify-command 'CMD ARGS'}, given the proposal's id, its note's path and the review
 * page's address (empty when the server has none) as three more arguments.
 *
 * <p>The path is the client's choice (within the policy), so nothing here ever reaches a shell:
 * each program is run by {@link ProcessBuilder} with an argument vector, its standard input {@code
 * /dev/null}, its output discarded (so it never holds this server's stdout or stderr), at most
 * {@value #TIMEOUT_SECONDS} s before it is killed, at most {@value #MAX_RUNNING} at once (beyond
 * that a notification is skipped, and said so on stderr). Nothing waits for it: the program is
 * started and watched on a thread of its own, so the call that made the proposal has its answer
 * whatever the program does. A proposal kept in memory (no {@code -proposals}) cannot be reviewed,
 * so it gets the stderr line only.
 */
final class ProposalNotices implements NoteAccess.Arrivals {
  /** Programs running at once, at most; a notification beyond is skipped. */
  static final int MAX_RUNNING = 4;

  /** A program still running after this long is killed. */
  static final long TIMEOUT_SECONDS = 10;

  /** How much of a path the desktop notification shows. */
  private static final int SHOWN_PATH_CHARS = 200;

  private static final File NOWHERE = new File("/dev/null");

  private final PrintStream log;
  private final List<String> command; // null: none
  private final String reviewCommand; // how to review in a terminal, for the stderr line
  private final Map<String, String> environment;
  private final Semaphore running = new Semaphore(MAX_RUNNING);
  private volatile String reviewPage = "";

  // Decided on the first proposal (never on the start-up path): notify-send's path, or null.
  private boolean looked;
  private Path desktop;

  /** A program of {@code -notify-command} that cannot be run; the message says why. */
  static final class Unusable extends Exception {
    private static final long serialVersionUID = 1L;

    Unusable(String message) {
      super(message, null, false, false);
    }
  }

  private ProposalNotices(
      PrintStream log, List<String> command, String reviewCommand, Map<String, String> env) {
    this.log = log;
    this.command = command;
    this.reviewCommand = reviewCommand;
    this.environment = env;
  }

  /**
   * Notices for a server; {@code command} ({@code -notify-command}, or null) is checked now, before
   * anything is made on disk: its program must be an executable file, named by a path or found on
   * {@code PATH}.
   *
   * @param reviewCommand what a person runs to review in a terminal, shown on stderr
   */
  static ProposalNotices prepare(
      String command, String reviewCommand, Map<String, String> env, PrintStream log)
      throws Unusable {
    List<String> words = null;
    if (command != null) {
      words = new ArrayList<>(CommandLine.split(command));
      Path program = program(words.get(0), env);
      if (program == null) {
        throw new Unusable(
            "-notify-command: "
                + TerminalText.visibleLine(words.get(0))
                + (words.get(0).contains("/")
                    ? " is not an executable file"
                    : " is not an executable file in any folder of PATH"));
      }
      words.set(0, program.toString());
    }
    return new ProposalNotices(log, words, reviewCommand, env);
  }

  /** Where the review page is, once the HTTP server knows its address. */
  void reviewPage(String address) {
    reviewPage = address;
  }

  @Override
  public void proposed(Proposal proposal, boolean kept) {
    String path = TerminalText.visibleLine(proposal.path().value());
    String what = proposal.isEdit() ? "an edit of " + path : "a new note " + path;
    if (!kept) {
      log.println(
          "notes-mcp: proposal "
              + proposal.id()
              + " ("
              + what
              + ") is pending in memory: without -proposals it cannot be approved");
      return;
    }
    String page = reviewPage;
    log.println(
        "notes-mcp: proposal "
            + proposal.id()
            + " ("
            + what
            + ") waits for review: "
            + (page.isEmpty() ? reviewCommand : page + ", or " + reviewCommand));
    Path notifySend = desktop();
    if (notifySend != null) {
      run(
          List.of(
              notifySend.toString(),
              "--app-name=notes-mcp",
              "notes-mcp: a proposal waits for review",
              desktopBody(proposal, page)),
          "desktop notification",
          proposal.id());
    }
    if (command != null) {
      List<String> argv = new ArrayList<>(command);
      argv.add(proposal.id());
      argv.add(proposal.path().value());
      argv.add(page);
      run(argv, "-notify-command", proposal.id());
    }
  }

  /**
   * The notification's text: no argument of notify-send's begins with {@code -} (so none is taken
   * for an option), and the path is shown in the visible form with {@code &}, {@code <} and {@code
   * >} escaped, since some notification servers read the body as markup.
   */
  static String desktopBody(Proposal proposal, String page) {
    String path = TerminalText.visibleLine(proposal.path().value(), SHOWN_PATH_CHARS);
    String text =
        (proposal.isEdit() ? "Edit of " : "New note ")
            + path
            + (page.isEmpty() ? "" : "\nReview it at " + page);
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /** Starts {@code argv} on a thread of its own, unless {@link #MAX_RUNNING} already run. */
  private void run(List<String> argv, String what, String id) {
    if (!running.tryAcquire()) {
      log.println(
          "notes-mcp: the "
              + what
              + " for proposal "
              + id
              + " was skipped: "
              + MAX_RUNNING
              + " are still running");
      return;
    }
    Thread thread =
        new Thread(
            new Runnable() {
              @Override
              public void run() {
                try {
                  watch(argv, what, id);
                } finally {
                  running.release();
                }
              }
            },
            "notes-mcp notify");
    thread.setDaemon(true);
    thread.start();
  }

  private void watch(List<String> argv, String what, String id) {
    ProcessBuilder builder =
        new ProcessBuilder(argv)
            .redirectInput(ProcessBuilder.Redirect.from(NOWHERE))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().clear();
    builder.environment().putAll(environment);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      log.println(
          "notes-mcp: the " + what + " for proposal " + id + " could not start (" + e + ")");
      return;
    }
    try {
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        log.println(
            "notes-mcp: the "
                + what
                + " for proposal "
                + id
                + " was killed after "
                + TIMEOUT_SECONDS
                + " s");
      } else if (process.exitValue() != 0) {
        log.println(
            "notes-mcp: the " + what + " for proposal " + id + " exited " + process.exitValue());
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /**
   * {@code notify-send}'s path when there is a desktop to notify: the program is an executable file
   * in a folder of {@code PATH}, and a session bus is there ({@code DBUS_SESSION_BUS_ADDRESS} is
   * set, or {@code $XDG_RUNTIME_DIR/bus} exists and is not a regular file or a folder: the bus's
   * socket). Looked at once, on the first proposal.
   */
  private synchronized Path desktop() {
    if (!looked) {
      looked = true;
      desktop = sessionBus(environment) ? program("notify-send", environment) : null;
    }
    return desktop;
  }

  static boolean sessionBus(Map<String, String> env) {
    String address = env.get("DBUS_SESSION_BUS_ADDRESS");
    if (address != null && !address.isEmpty()) {
      return true;
    }
    String runtime = env.get("XDG_RUNTIME_DIR");
    if (runtime == null || runtime.isEmpty()) {
      return false;
    }
    try {
      BasicFileAttributes bus =
          Files.readAttributes(
              Path.of(runtime, "bus"), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return bus.isOther();
    } catch (IOException | InvalidPathException e) {
      return false;
    }
  }

  /**
   * The executable regular file {@code name} names: itself when it holds a {@code /}, else the
   * first in a folder of {@code PATH}; null when there is none.
   */
  static Path program(String name, Map<String, String> env) {
    try {
      if (name.contains("/")) {
        Path path = Path.of(name).toAbsolutePath();
        return executable(path) ? path : null;
      }
      String folders = env.get("PATH");
      if (folders == null || name.isEmpty()) {
        return null;
      }
      for (String folder : folders.split(":", -1)) {
        if (!folder.isEmpty()) {
          Path path = Path.of(folder, name).toAbsolutePath();
          if (executable(path)) {
            return path;
          }
        }
      }
    } catch (InvalidPathException e) {
      return null;
    }
    return null;
  }

  private static boolean executable(Path path) {
    return Files.isRegularFile(path) && Files.isExecutable(path);
  }
}

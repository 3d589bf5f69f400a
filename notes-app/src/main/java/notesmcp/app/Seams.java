package notesmcp.app;

import java.io.PrintStream;
import java.util.function.Consumer;
import notesmcp.files.ChangeRule;
import notesmcp.mcp.server.Tools;
import notesmcp.policy.tools.NoteSearch;

/**
 * What a test may put around the real program, and nothing else can: package-private, so only code
 * in this package supplies one, and the shipped program always runs with {@link #NONE} (README,
 * "Tests": the shipped program has no test hooks, no property or flag a user could flip). The
 * tests' own main ({@code notes-app/src/test/java/notesmcp/app/TestMain}) overrides these to keep
 * calls waiting until they are cancelled, or to stop a review at a commit's checkpoint as a crash
 * would.
 */
class Seams {
  /** The program as shipped: the real tools, and checkpoints that do nothing. */
  static final Seams NONE = new Seams();

  /** The tools {@code -serve} offers, given the real ones. */
  Tools tools(Tools real) {
    return real;
  }

  /**
   * The read rule the workspace is opened with, given this system's (hard links protected or not,
   * read from the kernel; the change margin): a test may pretend the protection is off without
   * changing the machine's setting, or measure another margin.
   */
  ChangeRule readRule(ChangeRule system) {
    return system;
  }

  /**
   * The engine of {@code search_notes}, given the real one's factory: a test may answer searches
   * sooner than the tool's own deadline, to see what a search answers while the index is built.
   */
  NoteSearch.Factory search(NoteSearch.Factory real) {
    return real;
  }

  /** Told each of the commit's checkpoint names as {@code review} passes it. */
  Consumer<String> checkpoints(PrintStream log) {
    return IGNORE;
  }

  private static final Consumer<String> IGNORE =
      new Consumer<String>() {
        @Override
        public void accept(String point) {}
      };
}

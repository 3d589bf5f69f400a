package notesmcp.app;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import notesmcp.cli.ExitCode;
import notesmcp.cli.UsageException;
import notesmcp.policy.NoteSearch;
import notesmcp.policy.Notes;
import notesmcp.policy.Policy;
import notesmcp.policy.PolicyFile;
import notesmcp.policy.Posix;
import notesmcp.policy.Workspace;
import notesmcp.policy.Workspace.ReadRule;

/**
 * {@code notes-mcp index -root W -policy FILE}: builds or brings up to date the kept index of
 * {@code search_notes} for that workspace and policy, as the server's first search would, and exits
 * (README, "Search"). The notes are read through the same policy and careful read as {@code
 * read_note}. A server whose first search finds no kept index runs this mode as a child process, so
 * that the build runs with the JVM's optimizing compiler on every core (docs/behaviour.md,
 * "search_notes"); a person may run it too, to have the first search ready. Writes nothing on
 * stdout.
 */
final class IndexCommand {
  /** The first word of the command line that selects this mode. */
  static final String WORD = "index";

  private IndexCommand() {}

  static int run(String[] args, PrintStream err, Seams seams) {
    List<String> words = new ArrayList<>(List.of("-serve"));
    words.addAll(List.of(args));
    Options options;
    try {
      for (String word : args) {
        if (word.equals("-serve") || word.equals("--serve")) {
          throw new UsageException("index is a mode of its own: notes-mcp index -root W -policy F");
        }
      }
      options = Options.parse(words);
      if (options.mode() != Options.Mode.SERVE) {
        throw new UsageException("index takes -root PATH and -policy FILE only");
      }
      if (options.policyFile() == null) {
        throw new UsageException(
            "index needs -policy FILE: without a policy file there is no search_notes to index"
                + " for");
      }
      if (options.proposals() != null || options.maxCalls() != null) {
        throw new UsageException("index takes -root PATH and -policy FILE only");
      }
    } catch (UsageException e) {
      err.println("notes-mcp: " + e.getMessage());
      err.println("Run 'notes-mcp --help' for the flags.");
      return ExitCode.USAGE.code;
    }
    Policy policy;
    Workspace workspace;
    try {
      Posix.require();
      policy = PolicyFile.load(options.policyFile());
      workspace = Workspace.at(options.root(), seams.readRule(ReadRule.ofSystem()));
    } catch (Posix.Unavailable e) {
      return ServeCommand.cannotStart(e, err).code;
    } catch (PolicyFile.Invalid e) {
      err.println("notes-mcp: " + e.getMessage());
      return ExitCode.USAGE.code;
    } catch (IOException e) {
      err.println(
          "notes-mcp: -root "
              + options.root()
              + ": not a usable folder ("
              + ServeCommand.problem(e)
              + ")");
      return ExitCode.USAGE.code;
    }
    if (!policy.search()) {
      err.println(
          "notes-mcp: policy file " + options.policyFile() + " says \"search\": false: no index");
      return ExitCode.USAGE.code;
    }
    Notes notes =
        new Notes(policy, workspace, Clock.systemUTC(), null, err)
            .withSearch(new SearchModule(err, null));
    long start = System.nanoTime();
    try {
      int indexed = notes.refreshSearchIndex();
      err.println(
          "notes-mcp: search index of "
              + workspace.root()
              + " up to date: "
              + indexed
              + " notes read and indexed in "
              + (System.nanoTime() - start) / 1_000_000
              + " ms");
      return ExitCode.OK.code;
    } catch (NoteSearch.Refused e) {
      err.println("notes-mcp: index: " + e.getMessage());
      return ExitCode.SERVER_FAILURE.code;
    }
  }
}

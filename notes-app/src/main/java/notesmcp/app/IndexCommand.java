package notesmcp.app;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import notesmcp.cli.ExitCode;
import notesmcp.cli.UsageException;
import notesmcp.files.ChangeRule;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.tools.NoteAccess;
import notesmcp.policy.tools.NoteSearch;
import notesmcp.policy.vault.Workspace;

/**
 * {@code notes-mcp index -root W -policy FILE}: builds or brings up to date the kept index of
 * {@code search_notes} for that workspace and policy, as the server's first search would, and exits
 * (docs/behaviour.md, "search_notes"). The notes are read through the same policy and careful read
 * as {@code read_note}. A server whose first search finds no kept index runs this mode as a child
 * process, so that the build runs with the JVM's optimizing compiler on every core
 * (docs/behaviour.md, "search_notes"); a person may run it too, to have the first search ready.
 * Writes nothing on stdout, but with {@link #FIRST_SEARCH}.
 *
 * <p>{@code -first-search}: the server's first search is answered before the build. The query comes
 * on stdin and its ranking, by a scan of every note, goes to stdout before the index is built (as
 * {@link NoteSearch.Exchange} writes them); an empty stdin asks for none.
 */
final class IndexCommand {
  /** The first word of the command line that selects this mode. */
  static final String WORD = "index";

  /** The flag of a server's child: a first query on stdin, answered on stdout before the build. */
  static final String FIRST_SEARCH = "-first-search";

  private IndexCommand() {}

  static int run(String[] args, InputStream in, OutputStream out, PrintStream err, Seams seams) {
    List<String> words = new ArrayList<>(List.of("-serve"));
    words.addAll(List.of(args));
    boolean firstSearch = words.remove(FIRST_SEARCH);
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
    StartUp startUp = StartUp.of(err);
    Policy policy;
    Workspace workspace;
    try {
      startUp.library();
      policy = startUp.policy(options.policyFile());
      workspace = startUp.workspace(options.root(), seams.readRule(ChangeRule.ofSystem()));
    } catch (StartUp.Failed failed) {
      return failed.code().code;
    }
    if (!policy.search()) {
      err.println(
          "notes-mcp: policy file " + options.policyFile() + " says \"search\": false: no index");
      return ExitCode.USAGE.code;
    }
    NoteAccess notes =
        new NoteAccess(policy, workspace, Clock.systemUTC(), null, err)
            .withSearch(new SearchModule(err, null));
    long start = System.nanoTime();
    try {
      if (firstSearch) {
        answerFirstSearch(notes, in, out, err);
      }
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

  /**
   * Reads the query (three lines: the query, {@code -} or {@code =} and the folder, the count, 1 to
   * 999) and writes its ranking by a scan, or {@code many}; nothing for an empty stdin. A query the
   * scan refuses is answered {@code many}: the server then asks the index, which refuses it in
   * words.
   */
  private static void answerFirstSearch(
      NoteAccess notes, InputStream in, OutputStream out, PrintStream err) {
    String answer;
    try {
      NoteSearch.Exchange.Query query =
          NoteSearch.Exchange.readQuery(
              new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
      if (query == null) {
        return;
      }
      answer =
          NoteSearch.Exchange.write(
              notes.scanForSearch(query.query(), query.folder(), query.count()));
    } catch (NoteSearch.Exchange.Incomplete e) {
      err.println("notes-mcp: index: the first search's query is incomplete; building only");
      answer = "many\n";
    } catch (IOException | RuntimeException | NoteSearch.Refused e) {
      err.println("notes-mcp: index: the first search was not answered (" + e.getMessage() + ")");
      answer = "many\n";
    }
    try {
      out.write(answer.getBytes(StandardCharsets.UTF_8));
      out.flush();
    } catch (IOException e) {
      err.println("notes-mcp: index: the first search's answer could not be written");
    }
  }
}

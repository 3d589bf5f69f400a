package notesmcp.app;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import notesmcp.policy.tools.NoteSearch;

/**
 * The engine of {@code search_notes}, from the module notes-search: its jar and Lucene's live in a
 * folder {@value #FOLDER} beside this program's jar in an installed image ({@code
 * lib/app/search/}), or the folder {@value #FOLDER_ENV} names (the checkout's launcher names {@code
 * notes-search/target/search/}), and are loaded by a class loader of their own whose parent is this
 * one ({@link PlugIn}, as the chat module is): by a server under a policy that offers search, in
 * the background once the catalog's first enumeration is done ({@code ServeCommand}), and never
 * otherwise. So {@code -serve}'s start-up path and the default policy never load them. Across the
 * two loaders only {@link NoteSearch} and JDK types meet.
 */
final class SearchModule implements NoteSearch.Factory {
  /** The folder beside this program's jar that holds the search module's jars. */
  static final String FOLDER = "search";

  /** Names the folder instead, for a checkout, where the jars stay in notes-search's build. */
  static final String FOLDER_ENV = "NOTES_MCP_SEARCH";

  private static final String ENTRY = "notesmcp.search.Engine";

  /**
   * The child JVMs' settings: the JVM's default compilers (the server runs C1 only, for its
   * start-up; an index build is minutes of C1 code and seconds of C2's). Their stderr goes to this
   * server's log.
   */
  private static final List<String> CHILD_FLAGS =
      List.of(
          "-XX:+UseParallelGC",
          "-XX:-UsePerfData",
          "-Xlog:disable",
          "-Xlog:all=warning:stderr",
          "-XX:+DisplayVMOutputToStderr",
          "-XX:+SuppressFatalErrorMessage");

  /** The builder's heap: its indexing buffer is 64 MiB (docs/behaviour.md, "search_notes"). */
  private static final String BUILDER_HEAP = "-Xmx384m";

  /** The scanner's heap: at most 32 MiB of positions and one note per thread at a time. */
  private static final String SCANNER_HEAP = "-Xmx256m";

  /**
   * What runs the builder at a low priority: {@code nice -n 10}, so the build of a large vault,
   * most of a minute of both cores, gives way to whatever else the person runs, this server and its
   * scans included (docs/behaviour.md, "search_notes"). Without it, the builder runs at the
   * server's own priority.
   */
  private static final Path NICE = Path.of("/usr/bin/nice");

  private static final String NICENESS = "10";

  private final PrintStream log;
  private final Options options;

  /**
   * @param options the server's: a first-ever index is built by {@code notes-mcp index} with the
   *     same root and policy file in a child JVM, and searches are ranked meanwhile by {@code
   *     notes-mcp index -scan} in another; null in {@code notes-mcp index} itself
   */
  SearchModule(PrintStream log, Options options) {
    this.log = log;
    this.options = options;
  }

  /**
   * {@code [nice -n 10] java ... notesmcp.app.Main index -root W -policy F} (the builder) or {@code
   * java ... index -scan -root W -policy F} (the scanner), with this JVM's runtime and class path;
   * or null when this runtime has no {@code java} to start (then the engine builds in this process,
   * and searches wait for it).
   */
  private List<String> childCommand(boolean scanner) {
    if (options == null || options.policyFile() == null) {
      return null;
    }
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    String classPath = System.getProperty("java.class.path");
    if (!Files.isExecutable(java) || classPath == null || classPath.isEmpty()) {
      return null;
    }
    List<String> command = new ArrayList<>();
    if (!scanner && Files.isExecutable(NICE)) {
      command.add(NICE.toString());
      command.add("-n");
      command.add(NICENESS);
    }
    command.add(java.toString());
    command.addAll(CHILD_FLAGS);
    command.add(scanner ? SCANNER_HEAP : BUILDER_HEAP);
    command.add("-cp");
    command.add(classPath);
    command.add(Main.class.getName());
    command.add(IndexCommand.WORD);
    if (scanner) {
      command.add(IndexCommand.SCAN);
    }
    command.add("-root");
    command.add(options.root().toString());
    command.add("-policy");
    command.add(options.policyFile().toString());
    return List.copyOf(command);
  }

  private static final PlugIn MODULE =
      new PlugIn(
          "search",
          "notes-search",
          FOLDER,
          FOLDER_ENV,
          ENTRY,
          List.of("org.apache.lucene.", "notesmcp.search."));

  @Override
  public NoteSearch open(NoteSearch.Corpus corpus) throws NoteSearch.Refused {
    PlugIn.Jars jars;
    try {
      jars = MODULE.jars();
    } catch (PlugIn.Unusable e) {
      log.println("notes-mcp: " + e.getMessage());
      throw new NoteSearch.Refused(
          e.damaged()
              ? "search is not available: its module is damaged"
              : "search is not available in this installation");
    }
    if (jars.isEmpty()) {
      log.println(
          "notes-mcp: the search module is not built: "
              + jars.folder()
              + " holds no jars; build it with '"
              + MODULE.build()
              + "'");
      throw new NoteSearch.Refused(
          "search is not available: this installation has no search module");
    }
    try {
      Object factory =
          MODULE
              .entry(MODULE.loader(jars))
              .getMethod("factory", PrintStream.class, boolean.class, List.class, List.class)
              .invoke(null, log, options != null, childCommand(false), childCommand(true));
      return ((NoteSearch.Factory) factory).open(corpus);
    } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
      Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
      log.println("notes-mcp: the search module failed (" + cause + ")" + MODULE.rebuildBoth());
      throw new NoteSearch.Refused("search is not available: its module could not be loaded");
    }
  }
}

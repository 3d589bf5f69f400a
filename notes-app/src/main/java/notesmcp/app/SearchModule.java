package notesmcp.app;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.ZipFile;
import notesmcp.policy.tools.NoteSearch;

/**
 * The engine of {@code search_notes}, from the module notes-search: its jar and Lucene's live in a
 * folder {@value #FOLDER} beside this program's jar in an installed image ({@code
 * lib/app/search/}), or the folder {@value #FOLDER_ENV} names (the checkout's launcher names {@code
 * notes-search/target/search/}), and are loaded on the first search only, by a class loader of
 * their own whose parent is this one, as the chat module is ({@link ChatModule}). So {@code
 * -serve}'s start-up and the other tools never load them. Across the two loaders only {@link
 * NoteSearch} and JDK types meet.
 */
final class SearchModule implements NoteSearch.Factory {
  /** The folder beside this program's jar that holds the search module's jars. */
  static final String FOLDER = "search";

  /** Names the folder instead, for a checkout, where the jars stay in notes-search's build. */
  static final String FOLDER_ENV = "NOTES_MCP_SEARCH";

  private static final String ENTRY = "notesmcp.search.Engine";

  /**
   * The child JVM's settings for {@code notes-mcp index}: the JVM's default compilers (the server
   * runs C1 only, for its start-up; an index build is minutes of C1 code and seconds of C2's), and
   * a bounded heap. Its stderr goes to this server's log; its stdin and stdout carry the first
   * query and its ranking ({@code -first-search}).
   */
  private static final List<String> CHILD_FLAGS =
      List.of(
          "-XX:+UseParallelGC",
          "-Xmx384m",
          "-XX:-UsePerfData",
          "-Xlog:disable",
          "-Xlog:all=warning:stderr",
          "-XX:+DisplayVMOutputToStderr",
          "-XX:+SuppressFatalErrorMessage");

  private final PrintStream log;
  private final Options options;

  /**
   * @param options the server's: a first-ever index is built by {@code notes-mcp index} with the
   *     same root and policy file in a child JVM; null to build in this process ({@code index}
   *     itself)
   */
  SearchModule(PrintStream log, Options options) {
    this.log = log;
    this.options = options;
  }

  /**
   * {@code java ... notesmcp.app.Main index -first-search -root W -policy F} with this JVM's
   * runtime and class path, or null when this runtime has no {@code java} to start (then the engine
   * builds in this process).
   */
  private List<String> childCommand() {
    if (options == null || options.policyFile() == null) {
      return null;
    }
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    String classPath = System.getProperty("java.class.path");
    if (!Files.isExecutable(java) || classPath == null || classPath.isEmpty()) {
      return null;
    }
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.addAll(CHILD_FLAGS);
    command.add("-cp");
    command.add(classPath);
    command.add(Main.class.getName());
    command.add(IndexCommand.WORD);
    command.add(IndexCommand.FIRST_SEARCH);
    command.add("-root");
    command.add(options.root().toString());
    command.add("-policy");
    command.add(options.policyFile().toString());
    return List.copyOf(command);
  }

  @Override
  public NoteSearch open(NoteSearch.Corpus corpus) throws NoteSearch.Refused {
    Path folder;
    List<URL> jars = new ArrayList<>();
    try {
      String named = System.getenv(FOLDER_ENV);
      folder = named != null && !named.isEmpty() ? Path.of(named) : besideThisProgram();
      List<Path> found = new ArrayList<>();
      if (Files.isDirectory(folder)) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder, "*.jar")) {
          for (Path jar : entries) {
            // Only regular files: opening a FIFO named *.jar would block the class loader.
            if (!Files.isRegularFile(jar, LinkOption.NOFOLLOW_LINKS)) {
              log.println("notes-mcp: the search module's " + jar + " is not a regular file");
              throw new NoteSearch.Refused("search is not available: its module is damaged");
            }
            // A truncated jar would fail later, deep in class loading, as a missing class.
            try (ZipFile zip = new ZipFile(jar.toFile())) {
              if (zip.size() == 0) {
                throw new IOException("it holds nothing");
              }
              found.add(jar);
            } catch (IOException damaged) {
              log.println(
                  "notes-mcp: the search module's "
                      + jar
                      + " is damaged ("
                      + damaged.getMessage()
                      + "); rebuild it with 'mvn -B -DskipTests -pl notes-search -am package'");
              throw new NoteSearch.Refused("search is not available: its module is damaged");
            }
          }
        }
      }
      Collections.sort(found);
      for (Path jar : found) {
        jars.add(jar.toUri().toURL());
      }
    } catch (IOException | URISyntaxException | InvalidPathException e) {
      log.println("notes-mcp: cannot find the search module: " + e.getMessage());
      throw new NoteSearch.Refused("search is not available in this installation");
    }
    if (jars.isEmpty()) {
      log.println(
          "notes-mcp: the search module is not built: "
              + folder
              + " holds no jars; build it with 'mvn -B -DskipTests -pl notes-search -am package'");
      throw new NoteSearch.Refused(
          "search is not available: this installation has no search module");
    }
    // Not closed: the engine lives until this JVM exits, and its classes load lazily.
    URLClassLoader loader = new ModuleLoader(jars.toArray(new URL[0]));
    try {
      Object factory =
          Class.forName(ENTRY, true, loader)
              .getMethod("factory", PrintStream.class, List.class)
              .invoke(null, log, childCommand());
      return ((NoteSearch.Factory) factory).open(corpus);
    } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
      Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
      log.println(
          "notes-mcp: the search module failed ("
              + cause
              + "); if it was built from other sources than this program, rebuild both with"
              + " 'mvn -B -DskipTests -pl notes-search -am package'");
      throw new NoteSearch.Refused("search is not available: its module could not be loaded");
    }
  }

  /**
   * The module's class loader: its own packages (the engine's and Lucene's, which this program does
   * not hold) are looked up in its jars first. Asked of the program's loader first, as a plain
   * class loader would, each of the module's thousand classes cost a class-not-found exception with
   * its stack trace, a visible part of the first search after a restart.
   */
  private static final class ModuleLoader extends URLClassLoader {
    static {
      registerAsParallelCapable();
    }

    ModuleLoader(URL[] jars) {
      super("notes-search", jars, Main.class.getClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.startsWith("org.apache.lucene.") && !name.startsWith("notesmcp.search.")) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> found = findLoadedClass(name);
        if (found == null) {
          found = findClass(name);
        }
        if (resolve) {
          resolveClass(found);
        }
        return found;
      }
    }
  }

  /** The folder beside the jar (or classes folder) this class was loaded from. */
  private static Path besideThisProgram() throws URISyntaxException {
    Path self =
        Path.of(SearchModule.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    return self.getParent().resolve(FOLDER);
  }
}

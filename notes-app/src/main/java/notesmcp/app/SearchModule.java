package notesmcp.app;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import notesmcp.policy.NoteSearch;

/**
 * The engine of {@code search_notes}, from the module notes-search: its jar and Lucene's live in a
 * folder {@value #FOLDER} beside this program's jar ({@code notes-app/target/search/} in a
 * checkout, {@code lib/app/search/} in an installed image) and are loaded on the first search only,
 * by a class loader of their own whose parent is this one, as the chat module is ({@link
 * ChatModule}). So {@code -serve}'s start-up and the other tools never load them. Across the two
 * loaders only {@link NoteSearch} and JDK types meet.
 */
final class SearchModule implements NoteSearch.Factory {
  static final String FOLDER = "search";
  private static final String ENTRY = "notesmcp.search.Engine";

  private final PrintStream log;

  SearchModule(PrintStream log) {
    this.log = log;
  }

  @Override
  public NoteSearch open(NoteSearch.Corpus corpus) throws NoteSearch.Refused {
    Path folder;
    List<URL> jars = new ArrayList<>();
    try {
      folder = besideThisProgram();
      List<Path> found = new ArrayList<>();
      if (Files.isDirectory(folder)) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder, "*.jar")) {
          for (Path jar : entries) {
            found.add(jar);
          }
        }
      }
      Collections.sort(found);
      for (Path jar : found) {
        jars.add(jar.toUri().toURL());
      }
    } catch (IOException | URISyntaxException e) {
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
    URLClassLoader loader =
        new URLClassLoader("notes-search", jars.toArray(new URL[0]), Main.class.getClassLoader());
    try {
      Object factory =
          Class.forName(ENTRY, true, loader)
              .getMethod("factory", PrintStream.class)
              .invoke(null, log);
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

  /** The folder beside the jar (or classes folder) this class was loaded from. */
  private static Path besideThisProgram() throws URISyntaxException {
    Path self =
        Path.of(SearchModule.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    return self.getParent().resolve(FOLDER);
  }
}

package notesmcp.app;

import java.io.IOException;
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

/**
 * A module of this program that lives in a folder of jars of its own and is loaded only when it is
 * used, by a class loader of its own whose parent is this program's (the chat mode, {@link
 * ChatModule}; search's engine, {@link SearchModule}; the HTTP transport and the OAuth server,
 * {@link HttpModule}): so the program's start and its other modes never load it, and the program's
 * class path stays the one jar. The folder is {@code FOLDER} beside this program's jar in an
 * installed image ({@code lib/app/FOLDER/}), or the folder an environment variable names (the
 * checkout's launcher names the module's own {@code target/} folder). Across the two loaders only
 * public types meet; its entry classes are the only ones loaded by name. Immutable; any thread.
 */
final class PlugIn {
  private final String word;
  private final String module;
  private final String folder;
  private final String folderEnv;
  private final String entry;
  private final List<String> ownFirst;

  /**
   * @param word how messages name it ("the chat module")
   * @param module its Maven module, which names its class loader and the build that makes it (a
   *     module whose build lays out the folder: for the HTTP folder notes-web, which holds
   *     mcp-http)
   * @param folder the folder beside this program's jar that holds its jars
   * @param folderEnv the environment variable that names the folder instead (a checkout's)
   * @param entry its entry class, loaded by name
   * @param ownFirst prefixes of class names the module's own jars are asked for first (its
   *     libraries that this program does not hold); none: its loader asks the program's first
   */
  PlugIn(
      String word,
      String module,
      String folder,
      String folderEnv,
      String entry,
      List<String> ownFirst) {
    this.word = word;
    this.module = module;
    this.folder = folder;
    this.folderEnv = folderEnv;
    this.entry = entry;
    this.ownFirst = List.copyOf(ownFirst);
  }

  /** The build that makes the module's folder, as a person types it. */
  String build() {
    return "mvn -B -DskipTests -pl " + module + " -am package";
  }

  /** The module's folder and the jars found in it (none: the module is not built). */
  static final class Jars {
    private final Path folder;
    private final List<URL> urls;

    private Jars(Path folder, List<URL> urls) {
      this.folder = folder;
      this.urls = urls;
    }

    Path folder() {
      return folder;
    }

    boolean isEmpty() {
      return urls.isEmpty();
    }
  }

  /** The module cannot be used as it is; the message says why, in words for the log. */
  static final class Unusable extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean damaged;

    private Unusable(String message, boolean damaged) {
      super(message);
      this.damaged = damaged;
    }

    /** True when a jar is there but unusable; false when the folder cannot be found. */
    boolean damaged() {
      return damaged;
    }
  }

  /**
   * The module's jars, in name order: only regular files (opening a FIFO named {@code *.jar} would
   * block the class loader), each a zip holding something (a truncated jar would fail later, deep
   * in class loading, as a missing class).
   *
   * @throws Unusable if the folder cannot be found, or a jar in it is not a regular file or is
   *     damaged
   */
  Jars jars() throws Unusable {
    Path at;
    List<Path> found = new ArrayList<>();
    try {
      String named = System.getenv(folderEnv);
      at = named != null && !named.isEmpty() ? Path.of(named) : besideThisProgram();
      if (Files.isDirectory(at)) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(at, "*.jar")) {
          for (Path jar : entries) {
            if (!Files.isRegularFile(jar, LinkOption.NOFOLLOW_LINKS)) {
              throw new Unusable(
                  "the " + word + " module's " + jar + " is not a regular file", true);
            }
            try (ZipFile zip = new ZipFile(jar.toFile())) {
              if (zip.size() == 0) {
                throw new IOException("it holds nothing");
              }
              found.add(jar);
            } catch (IOException damaged) {
              throw new Unusable(
                  "the "
                      + word
                      + " module's "
                      + jar
                      + " is damaged ("
                      + damaged.getMessage()
                      + "); rebuild it with '"
                      + build()
                      + "'",
                  true);
            }
          }
        }
      }
      Collections.sort(found);
      List<URL> urls = new ArrayList<>();
      for (Path jar : found) {
        urls.add(jar.toUri().toURL());
      }
      return new Jars(at, urls);
    } catch (IOException | URISyntaxException | InvalidPathException e) {
      throw new Unusable("cannot find the " + word + " module: " + e.getMessage(), false);
    }
  }

  /**
   * A class loader of the module's own over {@code jars}, never closed (the module lives until this
   * JVM exits, and its classes load lazily).
   */
  ClassLoader loader(Jars jars) {
    return new ModuleLoader(module, jars.urls.toArray(new URL[0]), ownFirst);
  }

  /** The module's entry class, loaded and initialized by {@code loader}. */
  Class<?> entry(ClassLoader loader) throws ClassNotFoundException {
    return entry(loader, entry);
  }

  /**
   * Another of the module's entry classes (a folder may hold several modules' jars: the HTTP
   * folder's doors and commands), loaded and initialized by {@code loader}.
   */
  Class<?> entry(ClassLoader loader, String name) throws ClassNotFoundException {
    return Class.forName(name, true, loader);
  }

  /**
   * What a failure to load or run the module says, after "the WORD module failed (CAUSE)": how to
   * make the module and the program agree again. The module's own build does not rebuild the
   * program when the program comes after it in the build (search's, the HTTP folder's), so both are
   * named.
   */
  String rebuildBoth() {
    return "; if it was built from other sources than this program, rebuild both with 'mvn -B"
        + " -DskipTests -pl "
        + module
        + ",notes-app -am package'";
  }

  /**
   * The module's class loader: the classes its {@code ownFirst} prefixes name are looked up in its
   * jars first, the rest in this program's loader first, as a plain class loader would. Asked of
   * the program's loader first, each of a library's thousand classes cost a class-not-found
   * exception with its stack trace, a visible part of a module's first use.
   */
  private static final class ModuleLoader extends URLClassLoader {
    static {
      registerAsParallelCapable();
    }

    private final List<String> ownFirst;

    ModuleLoader(String name, URL[] jars, List<String> ownFirst) {
      super(name, jars, Main.class.getClassLoader());
      this.ownFirst = ownFirst;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!isOwn(name)) {
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

    private boolean isOwn(String name) {
      for (String prefix : ownFirst) {
        if (name.startsWith(prefix)) {
          return true;
        }
      }
      return false;
    }
  }

  /** The folder beside the jar (or classes folder) this class was loaded from. */
  private Path besideThisProgram() throws URISyntaxException {
    Path self = Path.of(PlugIn.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    return self.getParent().resolve(folder);
  }
}

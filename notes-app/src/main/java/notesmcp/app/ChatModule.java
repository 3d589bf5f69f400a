package notesmcp.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
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
import notesmcp.cli.ExitCode;

/**
 * Runs {@code notes-mcp chat}, the assistant host (docs/chat.md), from the module notes-chat. Its
 * jar and the libraries only it needs (LangChain4j and what that brings: Jackson 2, an HTTP client)
 * live in a folder of their own: {@value #FOLDER} beside this program's jar in an installed image
 * ({@code lib/app/chat/}), or the folder {@value #FOLDER_ENV} names (the checkout's launcher names
 * {@code notes-chat/target/chat/}). They are loaded only for this mode, by a class loader of their
 * own whose parent is this one. So {@code -serve} and the one-shot client never load them, and
 * their class path stays the one jar. This entry point is the only class loaded by reflection.
 *
 * <p>Across the two loaders only public types meet, none of this module's: the chat uses the
 * modules notes-cli and untrusted-text, which the program uses too, and mcp-stdio's client ({@code
 * notesmcp.mcp.client.Session}), all in this program's jar; its entry point takes and returns JDK
 * types only.
 */
final class ChatModule {
  /** The first word of the command line that selects this mode. */
  static final String WORD = "chat";

  /** The folder beside this program's jar that holds the chat module's jars. */
  static final String FOLDER = "chat";

  /** Names the folder instead, for a checkout, where the jars stay in notes-chat's build. */
  static final String FOLDER_ENV = "NOTES_MCP_CHAT";

  private static final String ENTRY = "notesmcp.chat.Chat";

  private ChatModule() {}

  static int run(String[] args, InputStream in, OutputStream out, PrintStream err) {
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
              err.println("notes-mcp: the chat module's " + jar + " is not a regular file");
              return ExitCode.SERVER_FAILURE.code;
            }
            // A truncated jar would fail later, deep in class loading, as a missing class.
            try (ZipFile zip = new ZipFile(jar.toFile())) {
              if (zip.size() == 0) {
                throw new IOException("it holds nothing");
              }
              found.add(jar);
            } catch (IOException damaged) {
              err.println(
                  "notes-mcp: the chat module's "
                      + jar
                      + " is damaged ("
                      + damaged.getMessage()
                      + "); rebuild it with 'mvn -B -DskipTests -pl notes-chat -am package'");
              return ExitCode.SERVER_FAILURE.code;
            }
          }
        }
      }
      Collections.sort(found);
      for (Path jar : found) {
        jars.add(jar.toUri().toURL());
      }
    } catch (IOException | URISyntaxException | InvalidPathException e) {
      err.println("notes-mcp: cannot find the chat module: " + e.getMessage());
      return ExitCode.SERVER_FAILURE.code;
    }
    if (jars.isEmpty()) {
      err.println(
          "notes-mcp: the chat mode is not built: "
              + folder
              + " holds no jars. Build it in the source checkout with"
              + " 'mvn -B -DskipTests -pl notes-chat -am package' (the ./notes-mcp launcher does"
              + " this itself the first time it is asked for chat).");
      return ExitCode.SERVER_FAILURE.code;
    }
    return invoke(jars, args, in, out, err);
  }

  private static int invoke(
      List<URL> jars, String[] args, InputStream in, OutputStream out, PrintStream err) {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    // Not closed: the chat runs until this JVM exits, and its classes load lazily.
    URLClassLoader loader =
        new URLClassLoader("notes-chat", jars.toArray(new URL[0]), Main.class.getClassLoader());
    // LangChain4j finds its HTTP client through ServiceLoader, which looks in this loader.
    thread.setContextClassLoader(loader);
    try {
      Method run =
          Class.forName(ENTRY, true, loader)
              .getMethod(
                  "run", String[].class, InputStream.class, OutputStream.class, PrintStream.class);
      return (Integer) run.invoke(null, args, in, out, err);
    } catch (ReflectiveOperationException | LinkageError e) {
      Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
      err.println(
          "notes-mcp: the chat module failed ("
              + cause
              + "); if it was built from other sources than this program, rebuild both with"
              + " 'mvn -B -DskipTests -pl notes-chat -am package'");
      cause.printStackTrace(err);
      return ExitCode.SERVER_FAILURE.code;
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  /** The folder beside the jar (or classes folder) this class was loaded from. */
  private static Path besideThisProgram() throws URISyntaxException {
    Path self =
        Path.of(ChatModule.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    return self.getParent().resolve(FOLDER);
  }
}

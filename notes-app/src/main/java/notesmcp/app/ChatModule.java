package notesmcp.app;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import notesmcp.cli.ExitCode;

/**
 * Runs {@code notes-mcp chat}, the assistant host (docs/chat.md), from the module notes-chat. Its
 * jar and the libraries only it needs (LangChain4j and what that brings: Jackson 2, an HTTP client)
 * live in a folder of their own: {@value #FOLDER} beside this program's jar in an installed image
 * ({@code lib/app/chat/}), or the folder {@value #FOLDER_ENV} names (the checkout's launcher names
 * {@code notes-chat/target/chat/}). They are loaded only for this mode, by a class loader of their
 * own whose parent is this one ({@link PlugIn}). So {@code -serve} and the one-shot client never
 * load them, and their class path stays the one jar. This entry point is the only class loaded by
 * reflection.
 *
 * <p>Across the two loaders only public types meet, none of this module's: the chat uses the
 * modules command-line and untrusted-text, which the program uses too, and mcp-stdio's client
 * ({@code notesmcp.mcp.client.Session}), all in this program's jar; its entry point takes and
 * returns JDK types only.
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

  private static final PlugIn MODULE =
      new PlugIn("chat", "notes-chat", FOLDER, FOLDER_ENV, ENTRY, List.of());

  static int run(String[] args, InputStream in, OutputStream out, PrintStream err) {
    PlugIn.Jars jars;
    try {
      jars = MODULE.jars();
    } catch (PlugIn.Unusable e) {
      err.println("notes-mcp: " + e.getMessage());
      return ExitCode.SERVER_FAILURE.code;
    }
    if (jars.isEmpty()) {
      err.println(
          "notes-mcp: the chat mode is not built: "
              + jars.folder()
              + " holds no jars. Build it in the source checkout with '"
              + MODULE.build()
              + "' (the ./notes-mcp launcher does this itself the first time it is asked for"
              + " chat).");
      return ExitCode.SERVER_FAILURE.code;
    }
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    ClassLoader loader = MODULE.loader(jars);
    // LangChain4j finds its HTTP client through ServiceLoader, which looks in this loader.
    thread.setContextClassLoader(loader);
    try {
      Method run =
          MODULE
              .entry(loader)
              .getMethod(
                  "run", String[].class, InputStream.class, OutputStream.class, PrintStream.class);
      return (Integer) run.invoke(null, args, in, out, err);
    } catch (ReflectiveOperationException | LinkageError e) {
      Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
      err.println("notes-mcp: the chat module failed (" + cause + ")" + MODULE.rebuildBoth());
      cause.printStackTrace(err);
      return ExitCode.SERVER_FAILURE.code;
    } finally {
      thread.setContextClassLoader(previous);
    }
  }
}

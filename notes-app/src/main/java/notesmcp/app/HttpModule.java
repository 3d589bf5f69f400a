package notesmcp.app;

import java.io.PrintStream;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import notesmcp.mcp.server.Authenticator;
import notesmcp.mcp.server.Core;
import notesmcp.policy.proposals.ProposalDirectory;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.vault.Workspace;

/**
 * The HTTP transport, from the modules mcp-http (Jetty) and notes-web (OAuth, the owner's pages):
 * their jars live in a folder {@value #FOLDER} beside this program's jar in an installed image
 * ({@code lib/app/http/}), or the folder {@value #FOLDER_ENV} names (the checkout's launcher names
 * {@code notes-web/target/http/}, which notes-web lays out whole), and are loaded only by {@code
 * -serve -http} and the {@code owner} commands, by a class loader of their own whose parent is this
 * one ({@link PlugIn}, as the chat and search modules are). So the stdio server never loads a class
 * of Jetty (StartPathIT). Across the two loaders only JDK types, {@code notesmcp.mcp.server}'s
 * ({@link Core}, {@link Authenticator}) and, for the owner's pages, the server's own {@link
 * Workspace}, {@link ProposalDirectory} and {@link Policy} meet (types of this program's class
 * loader, which the plug-in's delegates to).
 */
final class HttpModule {
  static final String FOLDER = "http";
  static final String FOLDER_ENV = "NOTES_MCP_HTTP";
  private static final String ENTRY = "notesmcp.mcp.http.HttpDoor";

  /** {@code -auth oauth}'s door (module notes-web, in the same folder): the same signature. */
  private static final String OAUTH_ENTRY = "notesmcp.web.WebDoor";

  /** The {@code owner} commands (module notes-web). */
  private static final String OWNER_ENTRY = "notesmcp.web.OwnerCommand";

  /**
   * The folder of both modules, laid out by notes-web's build. Its loader asks this program's first
   * (Jetty, Nimbus and the modules' own classes are found only in the folder).
   */
  private static final PlugIn MODULE =
      new PlugIn("HTTP", "notes-web", FOLDER, FOLDER_ENV, ENTRY, List.of());

  /** The module is missing or damaged; the message says what to build. */
  static final class Unavailable extends Exception {
    private static final long serialVersionUID = 1L;

    Unavailable(String message) {
      super(message, null, false, false);
    }
  }

  /** A running HTTP door: stop it to end the server. */
  static final class Door {
    private final Object door;

    Door(Object door) {
      this.door = door;
    }

    void stop() throws Exception {
      try {
        door.getClass().getMethod("stop").invoke(door);
      } catch (InvocationTargetException e) {
        throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
      }
    }
  }

  private HttpModule() {}

  /**
   * Starts the door; it says where it listens on {@code log}.
   *
   * @throws IllegalArgumentException when the settings are refused (a usage error)
   */
  static Door start(
      Core core,
      Authenticator authenticator,
      Map<String, String> settings,
      HttpServe.Owner owner,
      PrintStream log)
      throws Unavailable, Exception {
    ClassLoader loader = MODULE.loader(jars());
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    // Jetty's logging (SLF4J) finds its provider through ServiceLoader, which looks here.
    thread.setContextClassLoader(loader);
    boolean oauth = "oauth".equals(settings.get("auth"));
    try {
      if (oauth) {
        // The owner's pages: the server's own workspace, proposals and policy for the review page,
        // and where that page is for the notices.
        Method start =
            MODULE
                .entry(loader, OAUTH_ENTRY)
                .getMethod(
                    "start",
                    Core.class,
                    Authenticator.class,
                    Map.class,
                    PrintStream.class,
                    Workspace.class,
                    ProposalDirectory.class,
                    Policy.class,
                    Consumer.class);
        Consumer<String> reviewPage =
            new Consumer<String>() {
              @Override
              public void accept(String address) {
                owner.notices().reviewPage(address);
              }
            };
        return new Door(
            start.invoke(
                null,
                core,
                authenticator,
                settings,
                log,
                owner.workspace(),
                owner.proposals(),
                owner.policy(),
                reviewPage));
      }
      Method start =
          MODULE
              .entry(loader, ENTRY)
              .getMethod("start", Core.class, Authenticator.class, Map.class, PrintStream.class);
      return new Door(start.invoke(null, core, authenticator, settings, log));
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception) {
        throw (Exception) cause;
      }
      throw e;
    } catch (ReflectiveOperationException | LinkageError e) {
      log.println("notes-mcp: the HTTP module failed (" + e + ")" + MODULE.rebuildBoth());
      throw new Unavailable("the HTTP module could not be loaded");
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  /**
   * Runs an {@code owner} command of module notes-web ({@code OwnerCommand.run(action, settings,
   * out, err)}); returns its exit code.
   */
  static int owner(String action, Map<String, String> settings, PrintStream out, PrintStream err)
      throws Unavailable {
    ClassLoader loader = MODULE.loader(jars());
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(loader);
    try {
      Method run =
          MODULE
              .entry(loader, OWNER_ENTRY)
              .getMethod("run", String.class, Map.class, PrintStream.class, PrintStream.class);
      return (Integer) run.invoke(null, action, settings, out, err);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw new IllegalStateException(cause);
    } catch (ReflectiveOperationException | LinkageError e) {
      err.println("notes-mcp: the HTTP module failed (" + e + ")" + MODULE.rebuildBoth());
      throw new Unavailable("the HTTP module could not be loaded");
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  /** The folder's jars; none, or one unusable, is a refusal saying what to build. */
  private static PlugIn.Jars jars() throws Unavailable {
    PlugIn.Jars jars;
    try {
      jars = MODULE.jars();
    } catch (PlugIn.Unusable e) {
      throw new Unavailable(e.getMessage());
    }
    if (jars.isEmpty()) {
      throw new Unavailable(
          "the HTTP module is not built: "
              + jars.folder()
              + " holds no jars; build it in the source checkout with '"
              + MODULE.build()
              + "' (the ./notes-mcp launcher does this itself the first time -http is asked for)");
    }
    return jars;
  }

  /**
   * Returns when the process is asked to stop: SIGTERM or SIGINT. The JDK's signal API ({@code
   * sun.misc.Signal}, module jdk.unsupported) is reached by reflection, so that the program
   * compiles and runs without it; where it is missing, the JVM's own handling stands (the shutdown
   * hook stops the server, and the exit status is the signal's).
   */
  static void awaitStopSignal(PrintStream log) throws InterruptedException {
    CountDownLatch stop = new CountDownLatch(1);
    try {
      Class<?> signal = Class.forName("sun.misc.Signal");
      Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
      InvocationHandler onSignal =
          (proxy, method, args) -> {
            if (method.getName().equals("handle")) {
              stop.countDown();
            }
            return null;
          };
      Object handler =
          Proxy.newProxyInstance(
              handlerType.getClassLoader(), new Class<?>[] {handlerType}, onSignal);
      Method handle = signal.getMethod("handle", signal, handlerType);
      for (String name : new String[] {"TERM", "INT"}) {
        handle.invoke(null, signal.getConstructor(String.class).newInstance(name), handler);
      }
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      log.println(
          "notes-mcp: this Java runtime cannot catch SIGTERM ("
              + e
              + "); a signal ends the"
              + " server through the JVM's shutdown instead");
    }
    stop.await();
  }
}

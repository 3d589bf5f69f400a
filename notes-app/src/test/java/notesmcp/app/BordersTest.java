package notesmcp.app;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.core.importer.Locations;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The borders of the house, read from the program's class files (ArchUnit): every module's main
 * classes on this module's class path (the server's whole jar), and those of the plug-in folders'
 * modules, which the server loads from folders of their own (notes-search on the first search,
 * {@link SearchModule}; mcp-http and notes-web for {@code -serve -http}, {@link HttpModule}) and
 * which are read here from their {@code target/classes}, built before this module.
 *
 * <ol>
 *   <li>Nothing reachable through MCP reaches the review or a write into the workspace: from every
 *       method of the protocol layer ({@code notesmcp.mcp}, {@code notesmcp.jsonrpc}), the tool
 *       surface ({@code notesmcp.policy.tools}), the server's adapters ({@link NoteTools}, {@link
 *       NoteResources}) and its wiring ({@link ServeCommand}), following every call the class files
 *       hold ({@link CallGraph}), no method of {@code notesmcp.policy.review} is reached, nor any
 *       of the writes only a commit makes ({@link #WORKSPACE_WRITES}), nor a file-writing method of
 *       the JDK but where {@link #SANCTIONED} says why.
 *   <li>Over HTTP, nothing reachable from {@code /mcp}'s request handling or its authenticator
 *       reaches the review, while the owner's pages do, through the review page alone.
 *   <li>No package imports from a layer above it: text, files, markdown (one note's structure),
 *       rules, vault, knowledge (the notes' structure), proposals, tools and review, then the web
 *       side and the program.
 *   <li>{@code notesmcp.text} and {@code notesmcp.files} know neither notes nor MCP; the MCP layer
 *       knows no notes.
 * </ol>
 *
 * The types make the first rule checkable: a {@code Folder} cannot write, so a write is a call to a
 * {@code WritableFolder}; the workspace hands out only {@code Folder}s; and a {@code
 * WritableFolder} is had only by {@code WritableFolder.open} (by path: only the proposals folder,
 * which {@code ProposalDirectory.open} refuses inside the workspace) or {@code WritableFolder.of}
 * (the write side of a folder held for reading: the review's). {@code
 * theCallGraphFindsTheReviewsWrites} shows that the graph is not empty where the writes are; each
 * rule was also seen failing on a class written to break it (the commit that added this test says
 * how).
 */
class BordersTest {
  private static final String REVIEW = "notesmcp.policy.review";
  private static final String WRITABLE = "notesmcp.files.WritableFolder";
  private static final String PROPOSALS = "notesmcp.policy.proposals.ProposalDirectory";

  /** Writes only a commit into the workspace makes, and the one call that records a decision. */
  static final Set<String> WORKSPACE_WRITES =
      Set.of(
          WRITABLE + ".of(notesmcp.files.Folder)",
          WRITABLE + ".exchange(java.lang.String, java.lang.String)",
          WRITABLE
              + ".rename(java.lang.String, notesmcp.files.WritableFolder, java.lang.String,"
              + " boolean)",
          PROPOSALS
              + ".mark(java.lang.String, notesmcp.policy.proposals.ProposalDirectory$Status,"
              + " java.time.Instant, java.lang.String)");

  /**
   * Writes allowed from the one place named, with the reason: {caller's class, what it calls (a
   * prefix of the full name), why}.
   */
  static final List<String[]> SANCTIONED =
      List.of(
          new String[] {
            PROPOSALS,
            WRITABLE + ".open(",
            "the proposals folder, opened by path and refused inside the workspace"
          },
          new String[] {
            PROPOSALS,
            "java.nio.file.Files.createDirectories(",
            "the proposals folder made when missing, refused inside the workspace first"
          },
          new String[] {
            "notesmcp.search.IndexFolder",
            "java.nio.file.",
            "search_notes' kept index, in the user's cache folder (never a note)"
          },
          new String[] {
            "notesmcp.search.IndexFolder",
            "notesmcp.files.OwnFile.",
            "search_notes' kept index, in the user's cache folder (never a note)"
          },
          new String[] {
            "notesmcp.search.KeptDirectory",
            "notesmcp.files.OwnFile.",
            "the files of search_notes' kept index, in the user's cache folder (never a note)"
          });

  /**
   * Writes by path into a folder the program keeps for itself ({@code OwnFile}: a lock file made
   * when missing, a folder's entries forced to disk), forbidden but where {@link #SANCTIONED} says
   * why.
   */
  static final List<String> OWN_FILE_WRITES =
      List.of("notesmcp.files.OwnFile.openToWrite(", "notesmcp.files.OwnFile.syncFolder(");

  /** The JDK's ways to write a file, by full name prefix. */
  static final List<String> JDK_WRITES =
      List.of(
          "java.nio.file.Files.write(",
          "java.nio.file.Files.writeString(",
          "java.nio.file.Files.newOutputStream(",
          "java.nio.file.Files.newBufferedWriter(",
          "java.nio.file.Files.createFile(",
          "java.nio.file.Files.createDirectory(",
          "java.nio.file.Files.createDirectories(",
          "java.nio.file.Files.createLink(",
          "java.nio.file.Files.createSymbolicLink(",
          "java.nio.file.Files.createTempFile(",
          "java.nio.file.Files.createTempDirectory(",
          "java.nio.file.Files.move(",
          "java.nio.file.Files.copy(",
          "java.nio.file.Files.delete(",
          "java.nio.file.Files.deleteIfExists(",
          "java.nio.file.Files.setAttribute(",
          "java.nio.file.Files.setPosixFilePermissions(",
          "java.nio.file.Files.setOwner(",
          "java.nio.file.Files.setLastModifiedTime(",
          "java.io.FileOutputStream.<init>(",
          "java.io.FileWriter.<init>(",
          "java.io.RandomAccessFile.<init>(",
          "java.io.PrintStream.<init>(java.lang.String",
          "java.io.PrintStream.<init>(java.io.File",
          "java.io.PrintWriter.<init>(java.lang.String",
          "java.io.PrintWriter.<init>(java.io.File",
          "java.io.File.delete(",
          "java.io.File.mkdir",
          "java.io.File.renameTo(",
          "java.io.File.createNewFile(",
          "java.io.File.set");

  /**
   * Classes loaded by name, not called: {the class whose code loads, the class it loads}. The
   * search module's entry is loaded by {@link SearchModule}; its first index is built by this
   * program's {@code index} mode in a child JVM, which SearchModule starts.
   */
  static final List<String[]> LOADED_BY_NAME =
      List.of(
          new String[] {"notesmcp.app.SearchModule", "notesmcp.search.Engine"},
          new String[] {"notesmcp.app.SearchModule", "notesmcp.app.IndexCommand"});

  private static JavaClasses program;

  /** The HTTP door's endpoint: it serves {@code /mcp} and hands every other path to the pages. */
  private static final String ENDPOINT = "notesmcp.mcp.http.McpEndpoint";

  /** The OAuth resource server: the authenticator of every {@code /mcp} request. */
  private static final String RESOURCE_SERVER = "notesmcp.web.ResourceServer";

  /** The review page: the one class of the web side that reaches the review. */
  private static final String REVIEW_PAGE = "notesmcp.web.ReviewPage";

  /**
   * The door's hand-off of a request for any path but {@code /mcp} to the owner's pages ({@code
   * McpEndpoint.beside}), and its word to them that it listens: the one place the MCP door calls
   * into the pages, not followed from {@code /mcp}'s side (a request for {@code /mcp} never takes
   * it; {@code HttpIT}, {@code OAuthHostileIT} and {@code ReviewPageHostileIT} hold the paths).
   */
  static final List<String> PAGES_HAND_OFF =
      List.of("notesmcp.mcp.http.Pages.handle(", "notesmcp.mcp.http.Pages.listening(");

  @BeforeAll
  static void importProgram() {
    Set<Location> locations = new LinkedHashSet<>(Locations.ofPackage("notesmcp"));
    // The plug-in folders' modules, loaded by class loaders of their own and so not on this
    // module's class path: built before notes-app in the reactor (-am).
    for (String[] module :
        new String[][] {
          {"notes-search", "notesmcp/search"},
          {"mcp-http", "notesmcp/mcp/http"},
          {"notes-web", "notesmcp/web"}
        }) {
      Path classes = Path.of("..", module[0], "target", "classes").toAbsolutePath().normalize();
      assertThat(classes.resolve(module[1]))
          .as(module[0] + "'s classes, built before notes-app in the reactor (-am)")
          .isDirectory();
      locations.add(Location.of(classes));
    }
    program =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importLocations(locations);
    assertThat(program.contain("notesmcp.search.Engine")).isTrue();
    assertThat(program.contain("notesmcp.files.Posix")).isTrue();
    assertThat(program.contain("notesmcp.mcp.server.Server")).isTrue();
    assertThat(program.contain(ENDPOINT)).isTrue();
    assertThat(program.contain(RESOURCE_SERVER)).isTrue();
    assertThat(program.contain(REVIEW_PAGE)).isTrue();
  }

  /** The MCP side: the protocol layer, the tool surface, the adapters and the serve command. */
  private static boolean isMcpSide(JavaClass c) {
    String name = c.getName();
    return c.getPackageName().startsWith("notesmcp.mcp")
        || c.getPackageName().startsWith("notesmcp.jsonrpc")
        || c.getPackageName().startsWith("notesmcp.policy.tools")
        || outermost(name).equals("notesmcp.app.NoteTools")
        || outermost(name).equals("notesmcp.app.NoteResources")
        || outermost(name).equals("notesmcp.app.ServeCommand");
  }

  /**
   * Over HTTP, {@code /mcp}'s request handling (the door's endpoint and everything of {@code
   * notesmcp.mcp}) and its authenticator (the OAuth resource server) never reach the review, even
   * with the owner's pages alive in the same process (the web side's classes instantiated as the
   * running door has them): the door calls the pages only through {@link #PAGES_HAND_OFF}, for
   * other paths. The owner's pages do reach it, through the review page alone.
   */
  @Test
  void nothingReachableFromMcpsRequestsOrItsAuthenticatorReachesTheReview() {
    CallGraph graph = new CallGraph(program);
    graph.sever(PAGES_HAND_OFF);
    for (JavaClass c : program) {
      if (c.getPackageName().startsWith("notesmcp.mcp")
          || c.getPackageName().startsWith("notesmcp.jsonrpc")
          || outermost(c.getName()).equals(RESOURCE_SERVER)) {
        graph.root(c);
      }
    }
    // The owner's pages exist beside the endpoint in a running door.
    graph.instantiate(program.get("notesmcp.web.Web"));
    graph.instantiate(program.get(REVIEW_PAGE));
    graph.run();

    assertThat(graph.violations()).as("paths from /mcp's side").isEmpty();
    assertThat(graph.reachedNames())
        .as("not vacuous: the endpoint's handling and the token check are reached")
        .anyMatch(name -> name.startsWith(ENDPOINT + ".handle("))
        .anyMatch(name -> name.startsWith(RESOURCE_SERVER + ".authenticate("))
        .anyMatch(name -> name.startsWith("notesmcp.web.AccessTokens."))
        .noneMatch(name -> name.startsWith(REVIEW_PAGE + "."))
        .noneMatch(name -> name.startsWith(REVIEW + "."));
    // Without the cut, the hand-off leads to the review: the cut is what the rule rests on.
    CallGraph whole = new CallGraph(program);
    whole.root(program.get(ENDPOINT));
    whole.instantiate(program.get("notesmcp.web.Web"));
    whole.instantiate(program.get(REVIEW_PAGE));
    whole.run();
    assertThat(whole.violations()).anyMatch(path -> path.contains(REVIEW + ".Approvals."));
  }

  @Test
  void theOwnersPagesReachTheReviewThroughTheReviewPageAlone() {
    CallGraph graph = new CallGraph(program);
    graph.root(program.get("notesmcp.web.WebDoor"));
    graph.run();
    assertThat(graph.reachedNames())
        .contains(
            REVIEW + ".Approvals.approve(java.lang.String, java.lang.String)",
            REVIEW + ".Approvals.undo(java.lang.String)",
            REVIEW
                + ".ProposalView.render(notesmcp.policy.proposals.Recorded, java.nio.file.Path)");
    List<String> others = new ArrayList<>();
    for (JavaClass c : program) {
      if (c.getPackageName().equals("notesmcp.web")
          && !outermost(c.getName()).equals(REVIEW_PAGE)) {
        c.getDirectDependenciesFromSelf().stream()
            .filter(d -> d.getTargetClass().getPackageName().startsWith(REVIEW))
            .forEach(d -> others.add(d.getDescription()));
      }
    }
    assertThat(others).as("web classes but the review page that use the review").isEmpty();
  }

  @Test
  void nothingReachableThroughMcpReachesTheReviewOrAWriteIntoTheWorkspace() {
    CallGraph graph = new CallGraph(program);
    for (JavaClass c : program) {
      if (isMcpSide(c)) {
        graph.root(c);
      }
    }
    graph.run();

    assertThat(graph.violations()).as("paths from the MCP side").isEmpty();
    // Not vacuous: the graph reaches far (the careful read, the proposals' writes, the search).
    assertThat(graph.reachedNames())
        .contains(
            "notesmcp.files.OpenedFile.readAll(int)",
            "notesmcp.files.WritableFolder.create(java.lang.String)",
            "notesmcp.search.IndexFolder.choose(java.util.Map, java.lang.String, java.lang.String,"
                + " java.lang.String, java.io.PrintStream)");
  }

  /** The same analysis from the review's side finds its writes: the graph sees them. */
  @Test
  void theCallGraphFindsTheReviewsWrites() {
    CallGraph graph = new CallGraph(program);
    for (JavaClass c : program) {
      if (c.getPackageName().startsWith(REVIEW)) {
        graph.root(c);
      }
    }
    graph.run();

    assertThat(graph.reachedNames())
        .contains(
            WRITABLE + ".of(notesmcp.files.Folder)",
            WRITABLE + ".exchange(java.lang.String, java.lang.String)",
            "notesmcp.files.DurableFiles.createSynced(notesmcp.files.WritableFolder,"
                + " java.lang.String, [B)");
  }

  @Test
  void noPackageImportsFromALayerAboveIt() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("text")
        .definedBy("notesmcp.text..")
        .layer("files")
        .definedBy("notesmcp.files..")
        .layer("markdown")
        .definedBy("notesmcp.markdown..")
        .layer("rules")
        .definedBy("notesmcp.policy.rules..")
        .layer("vault")
        .definedBy("notesmcp.policy.vault..")
        .layer("knowledge")
        .definedBy("notesmcp.policy.knowledge..")
        .layer("proposals")
        .definedBy("notesmcp.policy.proposals..")
        .layer("tools")
        .definedBy("notesmcp.policy.tools..")
        .layer("review")
        .definedBy("notesmcp.policy.review..")
        .layer("cli")
        .definedBy("notesmcp.cli..")
        .layer("mcp")
        .definedBy("notesmcp.mcp..", "notesmcp.jsonrpc..")
        .layer("search")
        .definedBy("notesmcp.search..")
        .layer("web")
        .definedBy("notesmcp.web..")
        .layer("app")
        .definedBy("notesmcp.app..")
        .whereLayer("text")
        .mayNotAccessAnyLayer()
        .whereLayer("files")
        .mayOnlyAccessLayers("text")
        .whereLayer("markdown")
        .mayOnlyAccessLayers("text")
        .whereLayer("rules")
        .mayOnlyAccessLayers("text", "files")
        .whereLayer("vault")
        .mayOnlyAccessLayers("text", "files", "rules")
        .whereLayer("knowledge")
        .mayOnlyAccessLayers("text", "files", "rules", "vault", "markdown")
        .whereLayer("proposals")
        .mayOnlyAccessLayers("text", "files", "rules", "vault")
        .whereLayer("tools")
        .mayOnlyAccessLayers(
            "text", "files", "rules", "vault", "proposals", "knowledge", "markdown")
        .whereLayer("review")
        .mayOnlyAccessLayers("text", "files", "rules", "vault", "proposals")
        .whereLayer("cli")
        .mayOnlyAccessLayers("text")
        .whereLayer("mcp")
        .mayOnlyAccessLayers("text", "cli")
        .whereLayer("search")
        .mayOnlyAccessLayers("text", "files", "tools")
        .whereLayer("web")
        .mayOnlyAccessLayers("text", "files", "rules", "vault", "proposals", "review", "cli", "mcp")
        .whereLayer("app")
        .mayNotBeAccessedByAnyLayer()
        .ensureAllClassesAreContainedInArchitecture()
        .check(program);
  }

  @Test
  void textAndFilesKnowNeitherNotesNorMcp() {
    noClasses()
        .that()
        .resideInAnyPackage("notesmcp.text..", "notesmcp.files..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "notesmcp.markdown..",
            "notesmcp.policy..",
            "notesmcp.mcp..",
            "notesmcp.jsonrpc..",
            "notesmcp.app..",
            "notesmcp.cli..",
            "notesmcp.search..")
        .check(program);
  }

  @Test
  void theMcpLayerKnowsNoNotes() {
    noClasses()
        .that()
        .resideInAnyPackage("notesmcp.mcp..", "notesmcp.jsonrpc..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "notesmcp.policy..",
            "notesmcp.files..",
            "notesmcp.markdown..",
            "notesmcp.app..",
            "notesmcp.search..")
        .check(program);
  }

  /** One note's structure knows neither the policy, the files, nor MCP (docs/knowledge.md). */
  @Test
  void theMarkdownLayerKnowsNeitherThePolicyNorMcp() {
    noClasses()
        .that()
        .resideInAnyPackage("notesmcp.markdown..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "notesmcp.policy..",
            "notesmcp.files..",
            "notesmcp.mcp..",
            "notesmcp.jsonrpc..",
            "notesmcp.app..",
            "notesmcp.search..")
        .check(program);
  }

  private static String outermost(String name) {
    int dollar = name.indexOf('$');
    return dollar < 0 ? name : name.substring(0, dollar);
  }

  /**
   * Which methods can run, from some roots, as the class files say: every call, constructor call
   * and method reference of a reached method, lambdas' bodies included (ArchUnit counts them as
   * their method's); a class's static initializer where the class is used; a virtual call reaches
   * the implementation in every class that has been instantiated and is of the call's type (rapid
   * type analysis), and a method that implements one of the JDK's or a library's types is reached
   * once its class is instantiated (the JDK may call it: a thread's {@code run}, a comparator).
   * Calls into the JDK and libraries end there and are judged by their names. Classes loaded by
   * name count as instantiated, with every method reached, where {@link #LOADED_BY_NAME} says.
   */
  static final class CallGraph {
    private final JavaClasses classes;
    private final Map<JavaCodeUnit, String> reached = new HashMap<>();
    private final Deque<JavaCodeUnit> work = new ArrayDeque<>();
    private final Set<JavaClass> instantiated = new HashSet<>();
    private final Set<JavaClass> initialized = new HashSet<>();
    private final List<AccessTarget.CodeUnitAccessTarget> virtualCalls = new ArrayList<>();
    private final Map<AccessTarget.CodeUnitAccessTarget, String> virtualFrom = new HashMap<>();
    private final Set<String> violations = new LinkedHashSet<>();
    private final Set<String> reachedNames = new HashSet<>();

    /** Calls not followed (prefixes of full names), each with its reason where it is set. */
    private final List<String> severed = new ArrayList<>();

    CallGraph(JavaClasses classes) {
      this.classes = classes;
    }

    /** Calls to these (prefixes of full names) are not followed. */
    void sever(List<String> targets) {
      severed.addAll(targets);
    }

    /** Every method and constructor of {@code c} is a root; {@code c} counts as instantiated. */
    void root(JavaClass c) {
      for (JavaCodeUnit unit : c.getCodeUnits()) {
        reach(unit, "");
      }
      instantiate(c, "");
    }

    Set<String> violations() {
      return violations;
    }

    Set<String> reachedNames() {
      return reachedNames;
    }

    void run() {
      while (!work.isEmpty()) {
        JavaCodeUnit unit = work.poll();
        String path = reached.get(unit);
        for (JavaAccess<?> access : unit.getAccessesFromSelf()) {
          if (access instanceof JavaFieldAccess) {
            initialize(access.getTargetOwner(), path);
          } else if (access.getTarget() instanceof AccessTarget.CodeUnitAccessTarget) {
            follow(unit, (AccessTarget.CodeUnitAccessTarget) access.getTarget(), path);
          }
        }
        for (String[] loaded : LOADED_BY_NAME) {
          if (unit.getOwner().getName().equals(loaded[0]) && classes.contain(loaded[1])) {
            JavaClass entry = classes.get(loaded[1]);
            for (JavaCodeUnit each : entry.getCodeUnits()) {
              reach(each, path + " -> (loaded by name) " + loaded[1]);
            }
            instantiate(entry, path);
          }
        }
      }
    }

    private void follow(JavaCodeUnit from, AccessTarget.CodeUnitAccessTarget target, String path) {
      String name = target.getFullName();
      if (severed.stream().anyMatch(name::startsWith)) {
        return;
      }
      String here = path + " -> " + name;
      judge(from, name, here);
      JavaClass owner = target.getOwner();
      if (!isOurs(owner)) {
        return;
      }
      initialize(owner, path);
      Optional<? extends JavaCodeUnit> resolved = target.resolveMember();
      boolean constructor = name.contains(".<init>(");
      if (resolved.isPresent() && !resolved.get().getModifiers().contains(JavaModifier.ABSTRACT)) {
        reach(resolved.get(), here);
      }
      if (constructor) {
        instantiate(owner, here);
      } else if (resolved.isEmpty()
          || (!resolved.get().getModifiers().contains(JavaModifier.STATIC)
              && !resolved.get().getModifiers().contains(JavaModifier.PRIVATE))) {
        virtualCalls.add(target);
        virtualFrom.put(target, here);
        for (JavaClass c : new ArrayList<>(instantiated)) {
          dispatch(target, c, here);
        }
      }
    }

    private void judge(JavaCodeUnit from, String target, String path) {
      String caller = outermost(from.getOwner().getName());
      boolean forbidden =
          target.startsWith(REVIEW + ".")
              || WORKSPACE_WRITES.contains(target)
              || target.startsWith(WRITABLE + ".open(")
              || JDK_WRITES.stream().anyMatch(target::startsWith)
              || OWN_FILE_WRITES.stream().anyMatch(target::startsWith);
      if (!forbidden || caller.startsWith(REVIEW + ".")) {
        return;
      }
      for (String[] sanctioned : SANCTIONED) {
        if (caller.equals(sanctioned[0]) && target.startsWith(sanctioned[1])) {
          return;
        }
      }
      violations.add(path);
    }

    private void reach(JavaCodeUnit unit, String path) {
      if (!reached.containsKey(unit)) {
        reached.put(unit, path.isEmpty() ? unit.getFullName() : path);
        reachedNames.add(unit.getFullName());
        work.add(unit);
        initialize(unit.getOwner(), path);
      }
    }

    private void initialize(JavaClass c, String path) {
      if (isOurs(c) && initialized.add(c)) {
        c.getStaticInitializer().ifPresent(init -> reach(init, path));
        c.getRawSuperclass().ifPresent(parent -> initialize(parent, path));
      }
    }

    /** {@code c} counts as instantiated, as something the roots do not reach made it. */
    void instantiate(JavaClass c) {
      instantiate(c, "(instantiated) " + c.getName());
    }

    private void instantiate(JavaClass c, String path) {
      if (!isOurs(c) || !instantiated.add(c)) {
        return;
      }
      for (AccessTarget.CodeUnitAccessTarget call : new ArrayList<>(virtualCalls)) {
        dispatch(call, c, virtualFrom.get(call));
      }
      // What the JDK or a library may call: methods that implement one of their types.
      for (JavaMethod method : c.getMethods()) {
        if (!method.getModifiers().contains(JavaModifier.STATIC)
            && !method.getModifiers().contains(JavaModifier.ABSTRACT)
            && implementsForeign(c, method)) {
          reach(method, path + " -> (called back) " + method.getFullName());
        }
      }
    }

    private void dispatch(AccessTarget.CodeUnitAccessTarget call, JavaClass c, String path) {
      if (!c.isAssignableTo(call.getOwner().getName())) {
        return;
      }
      for (JavaClass k = c; k != null && isOurs(k); k = k.getRawSuperclass().orElse(null)) {
        for (JavaMethod method : k.getMethods()) {
          if (method.getName().equals(call.getName())
              && sameParameters(method, call)
              && !method.getModifiers().contains(JavaModifier.ABSTRACT)) {
            reach(method, path + " (as " + k.getSimpleName() + ")");
            return;
          }
        }
      }
    }

    private static boolean sameParameters(JavaMethod method, AccessTarget.CodeUnitAccessTarget c) {
      List<JavaClass> ours = method.getRawParameterTypes();
      List<JavaClass> theirs = c.getRawParameterTypes();
      if (ours.size() != theirs.size()) {
        return false;
      }
      for (int i = 0; i < ours.size(); i++) {
        // Erasure may differ (a generic interface's Object against the implementation's type).
        if (!ours.get(i).getName().equals(theirs.get(i).getName())
            && !theirs.get(i).getName().equals("java.lang.Object")) {
          return false;
        }
      }
      return true;
    }

    /** Whether {@code method} of {@code c} overrides or implements a method of a foreign type. */
    private static boolean implementsForeign(JavaClass c, JavaMethod method) {
      Predicate<JavaClass> declares =
          type ->
              !isOurs(type)
                  && (type.getName().equals("java.lang.Object")
                      ? OBJECT_METHODS.contains(method.getName())
                      : !type.isFullyImported()
                          || type.getMethods().stream()
                              .anyMatch(
                                  m ->
                                      m.getName().equals(method.getName())
                                          && m.getRawParameterTypes().size()
                                              == method.getRawParameterTypes().size()));
      return c.getAllRawSuperclasses().stream().anyMatch(declares)
          || c.getAllRawInterfaces().stream().anyMatch(declares);
    }

    /** What the JDK may call of any object (a class extends Object, whether imported or not). */
    private static final Set<String> OBJECT_METHODS =
        Set.of("toString", "equals", "hashCode", "finalize", "clone");

    private static boolean isOurs(JavaClass c) {
      return c.getPackageName().startsWith("notesmcp");
    }
  }
}

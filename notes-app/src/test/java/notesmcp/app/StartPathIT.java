package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-path rule (docs/design.md, "Tests"; docs/testing.md): what {@code -serve} and the
 * one-shot client run links no {@code invokedynamic} of ours. Linking one costs milliseconds on a
 * cold start; a lambda, a method reference or a string concatenation compiled to {@code
 * invokedynamic} must stay off this path.
 *
 * <p>Two checks, on the real jar run with the launcher's JVM flags through a discover, a list and a
 * call:
 *
 * <ul>
 *   <li>statically, every class of ours the JVM loaded ({@code -Xlog:class+load}) is scanned for
 *       call sites and dynamic constants in its constant pool: none may link through anything but
 *       {@code ObjectMethods}, the bootstrap of a record's generated {@code toString}, {@code
 *       equals} and {@code hashCode}, which costs nothing unless called;
 *   <li>at run time, the JDK's linkage trace ({@code java.lang.invoke.MethodHandle
 *       .TRACE_METHOD_LINKAGE}) must show no call site of ours linked, which catches a record's
 *       generated methods too when something calls them; and {@code -serve} must link none that
 *       {@code --version} (the JVM, the jar and {@code Main}) does not link too, so not even the
 *       JDK's own that our path pulls in (a {@code java.util.regex.Pattern} links lambdas of its
 *       own). The JDK's start-up links none on 17; a later JDK may (25 does, in {@code ZipFile}),
 *       hence the comparison.
 * </ul>
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StartPathIT {
  private static final String TRACE = "-Djava.lang.invoke.MethodHandle.TRACE_METHOD_LINKAGE=true";
  private static final Pattern LOADED =
      Pattern.compile("\\[class,load\\s*\\] (notesmcp\\.[A-Za-z0-9_.$]+) source:");

  @TempDir Path dir;

  private List<String> java(Path classLog) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(LauncherFlags.read());
    command.add("-Xlog:class+load=info:file=" + classLog);
    command.add(TRACE);
    command.add("-jar");
    command.add(System.getProperty("notesmcp.jar"));
    return command;
  }

  @Test
  void serveLinksNoInvokedynamicOfOurs() throws Exception {
    assertServeLinksNothingNew(List.of());
  }

  /** The same with proposals kept on disk: their folder is opened and checked at start. */
  @Test
  void serveWithAProposalsFolderLinksNoInvokedynamicOfOurs() throws Exception {
    assertServeLinksNothingNew(
        List.of("-proposals", dir.resolve("proposals").toString()), AUDIT_WRITER_JDK_CALLERS);
  }

  /**
   * The JDK's own call sites the audit writer's thread links after the call, for its record's
   * SHA-256 (the digest's byte-array views) and time stamp: off the request path, and seen only
   * when that thread's trace reaches stderr before the process exits, so not a fixed part of the
   * output.
   */
  private static final List<String> AUDIT_WRITER_JDK_CALLERS =
      List.of(
          "java.lang.invoke.VarHandleByteArrayAsInts$ArrayHandle ",
          "java.lang.invoke.VarHandleByteArrayAsLongs$ArrayHandle ",
          "java.time.format.DateTimeFormatter ",
          "java.time.format.DateTimeFormatterBuilder ");

  private void assertServeLinksNothingNew(List<String> extra) throws Exception {
    assertServeLinksNothingNew(extra, List.of());
  }

  private void assertServeLinksNothingNew(List<String> extra, List<String> offThePath)
      throws Exception {
    Path root = Fixtures.workspace(dir);
    Path classLog = dir.resolve("classes.log");
    String meta =
        "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    Path input =
        Files.writeString(
            dir.resolve("in.jsonl"),
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{"
                + meta
                + "}}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{"
                + meta
                + "}}\n{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{"
                + meta
                + ",\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}}\n");
    List<String> command = java(classLog);
    command.addAll(List.of("-serve", "-root", root.toString()));
    command.addAll(extra);

    String output = run(command, input, List.of());

    assertThat(output).contains("\"id\":3,\"result\"");
    assertNoInvokedynamic(output, List.of(classLog));
    Set<String> linked = linked(output);
    linked.removeIf(site -> offThePath.stream().anyMatch(site::startsWith));
    assertThat(linked).as("call sites linked").isSubsetOf(linked(baseline()));
  }

  @Test
  void oneShotClientLinksNoInvokedynamicOfOurs() throws Exception {
    Path root = Fixtures.workspace(dir);
    Path clientLog = dir.resolve("client-classes.log");
    Path serverLog = dir.resolve("server-classes.log");
    List<String> command = java(clientLog);
    command.addAll(
        List.of(
            "-root", root.toString(), "-tool", "read_note", "-args", "{\"path\":\"notes.txt\"}"));
    List<String> childFlags = new ArrayList<>(LauncherFlags.read());
    childFlags.add("-Xlog:class+load=info:file=" + serverLog);
    childFlags.add(TRACE);

    String output = run(command, null, childFlags);

    assertThat(output).contains("Monday: ship the preview.");
    // Ours only: starting a child process links the JDK's own lambdas (ProcessImpl), and the
    // result is pretty-printed by Jackson after the reply.
    assertNoInvokedynamic(output, List.of(clientLog, serverLog));
  }

  /**
   * Under the default policy (no policy file) nothing of search starts, not even in the background
   * seconds after the start: no class of the search module or of Lucene is loaded, no child is
   * started and nothing is made in the cache folder. The same run under a policy file that offers
   * search loads them (in the background, after the catalog's first enumeration), so the check sees
   * them when they are there.
   */
  @Test
  void theDefaultPolicyStartsNothingOfSearch() throws Exception {
    Path root = Fixtures.workspace(dir);
    Path idle = Files.createDirectory(dir.resolve("cache-default"));
    assertThat(searchClasses(root, idle, List.of())).as("search classes loaded").isEmpty();
    try (var made = Files.list(idle)) {
      assertThat(made).as("made in the cache folder").isEmpty();
    }

    Path policy =
        Files.writeString(
            dir.resolve("policy.json"), "{\"readable\":[\"notes.txt\",\"project.txt\"]}");
    Path busy = Files.createDirectory(dir.resolve("cache-policy"));
    assertThat(searchClasses(root, busy, List.of("-policy", policy.toString())))
        .as("search classes loaded under a policy file")
        .isNotEmpty();
    // Its build, started as it started, ends by itself: wait, so the folder can be removed.
    String builder = " index -root " + root.toRealPath();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline
        && ProcessHandle.allProcesses()
            .anyMatch(p -> p.info().commandLine().map(c -> c.contains(builder)).orElse(false))) {
      Thread.sleep(50);
    }
  }

  /**
   * The classes of the search module and of Lucene that {@code -serve} loads in a run that answers
   * a discover and a read, then stays up with its input open: 3 s, or, when {@code extra} holds a
   * policy file, until some are loaded (at most 60 s).
   */
  private List<String> searchClasses(Path root, Path cache, List<String> extra)
      throws IOException, InterruptedException {
    Path classLog = dir.resolve("classes-" + cache.getFileName() + ".log");
    List<String> command = java(classLog);
    command.addAll(List.of("-serve", "-root", root.toString()));
    command.addAll(extra);
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("out-" + cache.getFileName() + ".txt").toFile());
    builder.environment().put("XDG_CACHE_HOME", cache.toString());
    builder
        .environment()
        .put(
            SearchModule.FOLDER_ENV,
            Path.of(System.getProperty("notesmcp.launcher"))
                .getParent()
                .resolve("notes-search/target/search")
                .toString());
    Process process = builder.start();
    String meta =
        "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    try (var in = process.getOutputStream()) {
      in.write(
          ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{"
                  + meta
                  + "}}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{"
                  + meta
                  + ",\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}}\n")
              .getBytes(StandardCharsets.UTF_8));
      in.flush();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(extra.isEmpty() ? 3 : 60);
      while (System.nanoTime() < deadline
          && (extra.isEmpty() || searchClassesIn(classLog).isEmpty())) {
        Thread.sleep(50);
      }
    }
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isZero();
    return searchClassesIn(classLog);
  }

  private static List<String> searchClassesIn(Path classLog) throws IOException {
    List<String> found = new ArrayList<>();
    if (!Files.exists(classLog)) {
      return found;
    }
    for (String line : Files.readAllLines(classLog, StandardCharsets.UTF_8)) {
      if (line.contains(" notesmcp.search.") || line.contains(" org.apache.lucene.")) {
        found.add(line);
      }
    }
    return found;
  }

  /** What {@code --version} prints, the linkage trace included: the JVM's and the jar's own. */
  private String baseline() throws IOException, InterruptedException {
    List<String> command = java(dir.resolve("baseline-classes.log"));
    command.add("--version");
    return run(command, null, List.of());
  }

  /**
   * The call sites the linkage trace shows, by caller: "linkCallSite CALLER BOOTSTRAP..." (17) or
   * "linkCallSite module/CALLER(File.java:line) BOOTSTRAP..." (later JDKs); the trace's
   * continuation lines ("linkCallSite => ...", "linkCallSite target ...") are left out.
   */
  private static Set<String> linked(String output) {
    Set<String> callers = new TreeSet<>();
    for (String line : output.split("\n")) {
      String[] words = line.split(" ");
      if (words.length > 2
          && words[0].equals("linkCallSite")
          && !words[1].equals("=>")
          && !words[1].equals("target")
          && !words[1].equals("linkage")) {
        callers.add(words[1] + " " + words[2]);
      }
    }
    return callers;
  }

  /** Runs {@code command}, returns its stdout and stderr together. */
  private String run(List<String> command, Path input, List<String> childFlags)
      throws IOException, InterruptedException {
    Path out = dir.resolve("out.txt");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
    if (input != null) {
      builder.redirectInput(input.toFile());
    }
    if (!childFlags.isEmpty()) {
      builder.environment().put("NOTES_MCP_JVM_FLAGS", String.join(" ", childFlags));
    }
    Process process = builder.start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String output = Files.readString(out, StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as(output).isZero();
    return output;
  }

  private static void assertNoInvokedynamic(String output, List<Path> classLogs)
      throws IOException {
    List<String> linked = new ArrayList<>();
    for (String line : output.split("\n")) {
      if (line.startsWith("linkCallSite notesmcp.")) {
        linked.add(line);
      }
    }
    assertThat(linked).as("call sites of ours linked while running").isEmpty();

    Set<String> loaded = new TreeSet<>();
    for (Path log : classLogs) {
      Matcher matcher = LOADED.matcher(Files.readString(log, StandardCharsets.UTF_8));
      while (matcher.find()) {
        loaded.add(matcher.group(1));
      }
    }
    assertThat(loaded).as("classes of ours loaded").contains("notesmcp.app.Main");
    List<String> found = new ArrayList<>();
    try (ZipFile jar = new ZipFile(System.getProperty("notesmcp.jar"))) {
      for (String name : loaded) {
        byte[] bytes =
            jar.getInputStream(jar.getEntry(name.replace('.', '/') + ".class")).readAllBytes();
        for (String bootstrap : ConstantPool.bootstrapsOf(bytes)) {
          if (!bootstrap.equals("java/lang/runtime/ObjectMethods")) {
            found.add(name + " links through " + bootstrap);
          }
        }
      }
    }
    assertThat(found).as("invokedynamic in classes on the start path").isEmpty();
  }
}

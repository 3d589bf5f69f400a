package notesmcp.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chat costs {@code -serve} and the one-shot client nothing: its libraries are not in the
 * program's jar, the chat folder repeats nothing the jar holds (so nothing is shadowed across the
 * two class loaders), neither mode loads any chat class, and a program without the folder says how
 * to build it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ChatPackagingIT {
  @TempDir Path dir;

  private static final Path JAR = Path.of(System.getProperty("notesmcp.jar"));
  private static final Path CHAT = Path.of(System.getProperty("notesmcp.chat"));

  private static Set<String> classes(Path jar) throws IOException {
    Set<String> classes = new HashSet<>();
    try (JarFile file = new JarFile(jar.toFile())) {
      for (JarEntry entry : (Iterable<JarEntry>) file.stream()::iterator) {
        String name = entry.getName();
        if (name.endsWith(".class") && !name.endsWith("module-info.class")) {
          classes.add(name);
        }
      }
    }
    return classes;
  }

  private static List<Path> chatJars() throws IOException {
    try (Stream<Path> files = Files.list(CHAT)) {
      return files.filter(file -> file.toString().endsWith(".jar")).sorted().toList();
    }
  }

  /** A library's META-INF/ entry, read from the jar that holds {@code type}. */
  private static String entryOf(Class<?> type, String name) throws Exception {
    Path jar = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    return entry(jar, name);
  }

  private static String entry(Path jar, String name) throws IOException {
    try (JarFile file = new JarFile(jar.toFile())) {
      JarEntry entry = file.getJarEntry(name);
      assertThat(entry).as(name + " in " + jar).isNotNull();
      try (var in = file.getInputStream(entry)) {
        return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      }
    }
  }

  /**
   * Jackson's licence terms travel with its classes in the program's jar: its LICENSE, and the
   * NOTICE of jackson-core and of jackson-databind both (shading used to keep only the last one).
   */
  @Test
  void theProgramsJarKeepsJacksonsLicenceAndEveryNotice() throws Exception {
    String notice = entry(JAR, "META-INF/NOTICE");

    assertThat(notice)
        .contains(entryOf(tools.jackson.core.JsonParser.class, "META-INF/NOTICE").strip())
        .contains(entryOf(tools.jackson.databind.JsonNode.class, "META-INF/NOTICE").strip());
    assertThat(entry(JAR, "META-INF/LICENSE"))
        .isEqualTo(entryOf(tools.jackson.core.JsonParser.class, "META-INF/LICENSE"));
  }

  @Test
  void theProgramsJarHoldsNoChatLibraryAndTheChatFolderRepeatsNothingInIt() throws Exception {
    Set<String> program = classes(JAR);

    assertThat(program)
        .isNotEmpty()
        .noneMatch(name -> name.startsWith("dev/langchain4j/"))
        .noneMatch(name -> name.startsWith("com/fasterxml/jackson/databind/"))
        .noneMatch(name -> name.startsWith("com/fasterxml/jackson/core/"))
        .noneMatch(name -> name.startsWith("notesmcp/chat/"));
    assertThat(chatJars()).isNotEmpty();
    for (Path jar : chatJars()) {
      Set<String> repeated = new HashSet<>(classes(jar));
      repeated.retainAll(program);
      assertThat(repeated).as(jar.toString()).isEmpty();
    }
    assertThat(classes(chatJars().get(chatJars().size() - 1))).isNotEmpty();
  }

  /** Runs the program's jar with the JVM's class-loading log in {@code log}. */
  private ChatProcess.Result withClassLog(Path log, String typed, String... args) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info:file=" + log,
                "-jar",
                JAR.toString()));
    command.addAll(List.of(args));
    return ChatProcess.run(dir, typed, command, ChatProcess.WAIT);
  }

  @Test
  void neitherTheServerNorTheClientLoadsAnyChatClass() throws Exception {
    Path root = Workspace.create(dir, Workspace.NOTES);
    Path serveLog = dir.resolve("serve.log");
    Path clientLog = dir.resolve("client.log");

    ChatProcess.Result serve = withClassLog(serveLog, "", "-serve", "-root", root.toString());
    ChatProcess.Result client =
        withClassLog(clientLog, "", "-root", root.toString(), "-tool", "list_notes");

    assertThat(serve.exit()).as(serve.stderr()).isZero();
    assertThat(client.exit()).as(client.stderr()).isZero();
    for (Path log : List.of(serveLog, clientLog)) {
      String loaded = Files.readString(log);
      assertThat(loaded).contains("notesmcp.app.Main ");
      assertThat(loaded)
          .doesNotContain("notesmcp.app.ChatModule")
          .doesNotContain("notesmcp.chat.")
          .doesNotContain("dev.langchain4j.")
          .doesNotContain("com.fasterxml.jackson.databind.");
    }
  }

  @Test
  void withoutTheChatFolderChatSaysHowToBuildIt() throws Exception {
    Path alone = Files.createDirectories(dir.resolve("alone"));
    Path jar = Files.copy(JAR, alone.resolve("notes-mcp.jar"));

    ChatProcess.Result run =
        ChatProcess.run(
            dir,
            "hello\n",
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                jar.toString(),
                "chat",
                "-root",
                dir.toString(),
                "-model",
                "m"),
            ChatProcess.WAIT);

    assertThat(run.exit()).isEqualTo(4);
    assertThat(run.stderr())
        .isEqualTo(
            "notes-mcp: the chat mode is not built: "
                + alone.resolve("chat")
                + " holds no jars. Build it in the source checkout with 'mvn -B -DskipTests -pl"
                + " notes-chat -am package' (the ./notes-mcp launcher does this itself the first"
                + " time it is asked for chat).\n");
    assertThat(run.stdout()).isEmpty();
  }

  @Test
  void aTruncatedChatJarIsRefusedNamingItWithoutAStackTrace() throws Exception {
    Path copy = Files.createDirectories(dir.resolve("copy/chat"));
    Path jar = Files.copy(JAR, copy.getParent().resolve("notes-mcp.jar"));
    Path damaged = null;
    for (Path chatJar : chatJars()) {
      byte[] bytes = Files.readAllBytes(chatJar);
      Path target = copy.resolve(chatJar.getFileName());
      if (chatJar.getFileName().toString().startsWith("notes-chat-")) {
        damaged = Files.write(target, java.util.Arrays.copyOf(bytes, bytes.length / 2));
      } else {
        Files.write(target, bytes);
      }
    }
    assertThat(damaged).as("the chat module's own jar").isNotNull();

    ChatProcess.Result run =
        ChatProcess.run(
            dir,
            "hello\n",
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                jar.toString(),
                "chat",
                "-root",
                dir.toString(),
                "-model",
                "m"),
            ChatProcess.WAIT);

    assertThat(run.exit()).isEqualTo(4);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr())
        .startsWith("notes-mcp: the chat module's " + damaged + " is damaged (")
        .endsWith("); rebuild it with 'mvn -B -DskipTests -pl notes-chat -am package'\n")
        .doesNotContain("Exception")
        .doesNotContain("\tat ");
  }
}

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import notesmcp.cli.ExitCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code config --install}: every way a host's configuration file can be found, each refusal with
 * its exact words, and what stays byte for byte. The host here is a {@code HOME} of the test's own;
 * the real hosts read the same files in {@code HostsIT}.
 */
class ConfigInstallTest {
  @TempDir Path home;

  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private static final Hosts.Server SERVER =
      new Hosts.Server(
          "notes", "/opt/notes-mcp/bin/notes-mcp", List.of("-serve", "-root", "/home/me/notes"));

  private static final String CLAUDE_DESKTOP_NEW =
      """
      {
        "mcpServers": {
          "notes": {
            "command": "/opt/notes-mcp/bin/notes-mcp",
            "args": ["-serve", "-root", "/home/me/notes"]
          }
        }
      }
      """;

  private ExitCode install(String host, boolean replace) {
    return install(host, replace, Map.of("HOME", home.toString()));
  }

  private ExitCode install(String host, boolean replace, Map<String, String> env) {
    err.reset();
    return ConfigCommand.install(
        host, SERVER, replace, env, new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private Path desktop() {
    return home.resolve(".config/Claude/claude_desktop_config.json");
  }

  private List<Path> backups(Path file) throws IOException {
    try (Stream<Path> files = Files.list(file.getParent())) {
      return files
          .filter(f -> f.getFileName().toString().startsWith(file.getFileName() + ".bak-"))
          .toList();
    }
  }

  @Test
  void aMissingFileIsMadeOwnerOnlyInOwnerOnlyFolders() throws IOException {
    assertThat(install("claude-desktop", false)).isEqualTo(ExitCode.OK);

    assertThat(Files.readString(desktop())).isEqualTo(CLAUDE_DESKTOP_NEW);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(desktop())))
        .isEqualTo("rw-------");
    for (Path folder : List.of(home.resolve(".config"), home.resolve(".config/Claude"))) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)))
          .isEqualTo("rwx------");
    }
    assertThat(err())
        .isEqualTo(
            "notes-mcp: wrote the MCP server \"notes\" (mcpServers.notes) in "
                + desktop()
                + " (a new file)\n"
                + "notes-mcp: restart Claude Desktop to load it\n");
    assertThat(backups(desktop())).isEmpty();
  }

  @Test
  void anEmptyFileBecomesTheEntryAndIsKeptAsABackup() throws IOException {
    Files.createDirectories(desktop().getParent());
    Files.writeString(desktop(), "\n");

    assertThat(install("claude-desktop", false)).isEqualTo(ExitCode.OK);

    assertThat(Files.readString(desktop())).isEqualTo(CLAUDE_DESKTOP_NEW);
    List<Path> backups = backups(desktop());
    assertThat(backups).hasSize(1);
    assertThat(Files.readString(backups.get(0))).isEqualTo("\n");
    assertThat(err())
        .matches(
            "notes-mcp: wrote the MCP server \"notes\" \\(mcpServers.notes\\) in \\Q"
                + desktop()
                + "\\E; the previous file is kept as \\Q"
                + desktop()
                + "\\E\\.bak-\\d{8}T\\d{6}Z\n"
                + "notes-mcp: restart Claude Desktop to load it\n");
  }

  @Test
  void otherServersAndSettingsStayByteForByteAndTheNewOneGoesFirst() throws IOException {
    String before =
        """
        {
            "globalShortcut": "Ctrl+Space",
            "mcpServers": {
                "other": {"command": "/usr/bin/other", "args": ["--x", "é"]},
                "third": { "command": "t" }
            },
            "z": [1, 2.50, true]
        }
        """;
    Files.createDirectories(desktop().getParent());
    Files.writeString(desktop(), before);
    Files.setPosixFilePermissions(desktop(), PosixFilePermissions.fromString("rw-r-----"));

    assertThat(install("claude-desktop", false)).isEqualTo(ExitCode.OK);

    assertThat(Files.readString(desktop()))
        .isEqualTo(
            """
            {
                "globalShortcut": "Ctrl+Space",
                "mcpServers": {
                    "notes": {
                        "command": "/opt/notes-mcp/bin/notes-mcp",
                        "args": ["-serve", "-root", "/home/me/notes"]
                    },
                    "other": {"command": "/usr/bin/other", "args": ["--x", "é"]},
                    "third": { "command": "t" }
                },
                "z": [1, 2.50, true]
            }
            """);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(desktop())))
        .isEqualTo("rw-r-----");
    assertThat(Files.readString(backups(desktop()).get(0))).isEqualTo(before);
  }

  @Test
  void aFileWithoutTheServersObjectGetsOne() throws IOException {
    Files.createDirectories(home.resolve(".cursor"));
    Files.writeString(home.resolve(".cursor/mcp.json"), "{\"theme\": \"dark\"}");

    assertThat(install("cursor", false)).isEqualTo(ExitCode.OK);

    assertThat(Files.readString(home.resolve(".cursor/mcp.json")))
        .isEqualTo(
            """
            {
              "mcpServers": {
                "notes": {
                  "command": "/opt/notes-mcp/bin/notes-mcp",
                  "args": ["-serve", "-root", "/home/me/notes"]
                }
              }, "theme": "dark"}""");
  }

  @Test
  void theSameNameIsRefusedWithoutReplaceAndTheFileIsUntouched() throws IOException {
    String before = "{\"mcpServers\": {\"notes\": {\"command\": \"/old/notes-mcp\"}}}\n";
    Files.createDirectories(desktop().getParent());
    Files.writeString(desktop(), before);
    FileTime modified = Files.getLastModifiedTime(desktop());

    assertThat(install("claude-desktop", false)).isEqualTo(ExitCode.USAGE);

    assertThat(Files.readString(desktop())).isEqualTo(before);
    assertThat(Files.getLastModifiedTime(desktop())).isEqualTo(modified);
    assertThat(backups(desktop())).isEmpty();
    assertThat(err())
        .isEqualTo(
            "notes-mcp: "
                + desktop()
                + " already has an MCP server named \"notes\" (mcpServers.notes); nothing was"
                + " written\n"
                + "notes-mcp: add --replace to overwrite it, or --name NAME to add this one beside"
                + " it\n");
  }

  @Test
  void replaceOverwritesOnlyThatServer() throws IOException {
    Files.createDirectories(desktop().getParent());
    Files.writeString(
        desktop(),
        "{\"mcpServers\": {\"a\": {\"command\": \"a\"}, \"notes\": {\"command\": \"/old\"}, \"b\": []}}\n");

    assertThat(install("claude-desktop", true)).isEqualTo(ExitCode.OK);

    assertThat(Files.readString(desktop()))
        .isEqualTo(
            "{\"mcpServers\": {\"a\": {\"command\": \"a\"}, \"notes\": {\n"
                + "    \"command\": \"/opt/notes-mcp/bin/notes-mcp\",\n"
                + "    \"args\": [\"-serve\", \"-root\", \"/home/me/notes\"]\n"
                + "  }, \"b\": []}}\n");
    assertThat(backups(desktop())).hasSize(1);
  }

  @Test
  void aFileThatDoesNotParseIsRefusedAndUntouched() throws IOException {
    String before = "{\"mcpServers\": {\"other\": {\"command\": \"x\",}}}\n";
    Files.createDirectories(desktop().getParent());
    Files.writeString(desktop(), before);

    assertThat(install("claude-desktop", false)).isEqualTo(ExitCode.USAGE);

    assertThat(Files.readString(desktop())).isEqualTo(before);
    assertThat(backups(desktop())).isEmpty();
    assertThat(err())
        .isEqualTo(
            "notes-mcp: "
                + desktop()
                + " does not parse as JSON (line 1, column 42: Unexpected character ('}' (code"
                + " 125)): was expecting double-quote to start property name); nothing was"
                + " written\n");
  }

  @Test
  void aServersObjectGivenTwiceOrADocumentThatIsNoObjectIsRefused() throws IOException {
    Files.createDirectories(desktop().getParent());
    for (String before :
        List.of(
            "{\"mcpServers\": {}, \"mcpServers\": {\"a\": {}}}", "[]", "{\"mcpServers\": []}")) {
      Files.writeString(desktop(), before);

      assertThat(install("claude-desktop", false)).as(before).isEqualTo(ExitCode.USAGE);

      assertThat(Files.readString(desktop())).isEqualTo(before);
    }
    assertThat(err())
        .isEqualTo(
            "notes-mcp: " + desktop() + " mcpServers is not a JSON object; nothing was written\n");
    Files.writeString(desktop(), "{\"mcpServers\": {}, \"mcpServers\": {\"a\": {}}}");
    install("claude-desktop", false);
    assertThat(err())
        .isEqualTo(
            "notes-mcp: "
                + desktop()
                + " has \"mcpServers\" twice; remove one by hand first; nothing was written\n");
  }

  @Test
  void commentsAreRefusedWhereTheHostReadsPlainJson() throws IOException {
    String before = "{\n  // mine\n  \"mcpServers\": {}\n}\n";
    Files.createDirectories(desktop().getParent());
    Files.writeString(desktop(), before);

    assertThat(install("claude-desktop", false)).isEqualTo(ExitCode.USAGE);

    assertThat(Files.readString(desktop())).isEqualTo(before);
    assertThat(err()).startsWith("notes-mcp: " + desktop() + " does not parse as JSON (line 2,");
  }

  @Test
  void vsCodesCommentsAndTrailingCommasStay() throws IOException {
    Path mcp = home.resolve(".config/Code/User/mcp.json");
    String before =
        """
        // My servers.
        {
        \t"servers": {
        \t\t/* the old one */
        \t\t"other": {"type": "stdio", "command": "o",},
        \t},
        \t"inputs": [],
        }
        """;
    Files.createDirectories(mcp.getParent());
    Files.writeString(mcp, before);

    assertThat(install("vscode", false)).isEqualTo(ExitCode.OK);

    assertThat(Files.readString(mcp))
        .isEqualTo(
            """
            // My servers.
            {
            \t"servers": {
            \t\t"notes": {
            \t\t\t"type": "stdio",
            \t\t\t"command": "/opt/notes-mcp/bin/notes-mcp",
            \t\t\t"args": ["-serve", "-root", "/home/me/notes"]
            \t\t},
            \t\t/* the old one */
            \t\t"other": {"type": "stdio", "command": "o",},
            \t},
            \t"inputs": [],
            }
            """);
  }

  @Test
  void xdgConfigHomeIsWhereVsCodeAndClaudeDesktopLive() throws IOException {
    Path xdg = home.resolve("xdg");

    assertThat(
            install(
                "vscode",
                false,
                Map.of("HOME", home.toString(), "XDG_CONFIG_HOME", xdg.toString())))
        .isEqualTo(ExitCode.OK);

    assertThat(xdg.resolve("Code/User/mcp.json")).isRegularFile();
    assertThat(home.resolve(".config")).doesNotExist();
  }

  @Test
  void aSymlinkedFileIsRefusedAndNeitherTheLinkNorItsTargetChanges() throws IOException {
    Path target = Files.writeString(home.resolve("dotfiles.json"), "{}\n");
    Files.createDirectories(desktop().getParent());
    Files.createSymbolicLink(desktop(), target);

    assertThat(install("claude-desktop", false)).isEqualTo(ExitCode.USAGE);

    assertThat(Files.isSymbolicLink(desktop())).isTrue();
    assertThat(Files.readString(target)).isEqualTo("{}\n");
    assertThat(err())
        .isEqualTo(
            "notes-mcp: "
                + desktop()
                + " is a symbolic link (to "
                + target
                + "); config --install does not write through links, so nothing was written:"
                + " run config without --install and paste the entry into the file it links to\n");
  }

  /**
   * A hostile local process swaps the file for a link to another file, back and forth, as fast as
   * it can while installs run: whatever each install answers, the link's target is never written.
   */
  @Test
  void aFileSwappedForALinkWhileInstallingNeverGetsItsTargetWritten() throws Exception {
    Path target = Files.writeString(home.resolve("precious.json"), "{\"mine\": true}\n");
    Files.createDirectories(desktop().getParent());
    Path link = desktop().resolveSibling("link");
    Path plain = desktop().resolveSibling("plain");
    java.util.concurrent.atomic.AtomicBoolean stop =
        new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicLong swaps = new java.util.concurrent.atomic.AtomicLong();
    Thread swapper =
        new Thread(
            () -> {
              while (!stop.get()) {
                try {
                  Files.deleteIfExists(link);
                  Files.createSymbolicLink(link, target);
                  Files.move(link, desktop(), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                  Files.writeString(plain, "{}\n");
                  Files.move(plain, desktop(), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                  swaps.incrementAndGet();
                } catch (IOException e) {
                  // a name taken by the other side for a moment; try again
                }
              }
            });
    Files.writeString(desktop(), "{}\n");
    swapper.start();
    int installs = 0;
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    try {
      while (System.nanoTime() < end) {
        install("claude-desktop", true);
        installs++;
        assertThat(Files.readString(target)).isEqualTo("{\"mine\": true}\n");
      }
    } finally {
      stop.set(true);
      swapper.join();
    }
    assertThat(Files.readString(target)).isEqualTo("{\"mine\": true}\n");
    assertThat(installs).isGreaterThan(10);
    assertThat(swaps.get()).isGreaterThan(10);
  }

  /**
   * A FIFO, a folder or another user's file in place of the host's file is refused with the reason,
   * and nothing is written.
   */
  @Test
  void aFifoAFolderOrAnotherUsersFileInPlaceOfTheFileIsRefused() throws Exception {
    Files.createDirectories(desktop().getParent());
    assertThat(new ProcessBuilder("mkfifo", desktop().toString()).start().waitFor()).isZero();

    assertThat(install("claude-desktop", true)).isEqualTo(ExitCode.USAGE);
    assertThat(err()).contains(desktop() + " is not a regular file; nothing was written");

    Files.delete(desktop());
    Files.createDirectory(desktop());
    assertThat(install("claude-desktop", true)).isEqualTo(ExitCode.USAGE);
    assertThat(err()).contains(desktop() + " is not a regular file; nothing was written");
    Files.delete(desktop());

    if (LocalUsers.areAvailable()) {
      Files.writeString(desktop(), "{}\n");
      LocalUsers.chown(desktop(), LocalUsers.OTHER);
      assertThat(install("claude-desktop", true)).isEqualTo(ExitCode.USAGE);
      assertThat(err())
          .contains(
              "cannot read "
                  + desktop()
                  + " (it is owned by uid "
                  + LocalUsers.OTHER
                  + ", not by this user");
      assertThat(Files.readString(desktop())).isEqualTo("{}\n");
    }
  }

  /**
   * A hostile local process swaps the file for a FIFO and back, as fast as it can while installs
   * run: every install answers at once (a write, or a refusal), none waits for the FIFO's writer.
   */
  @Test
  void aFileSwappedForAFifoWhileInstallingNeverMakesItWait() throws Exception {
    Files.createDirectories(desktop().getParent());
    Path fifo = desktop().resolveSibling("fifo");
    Path plain = desktop().resolveSibling("plain");
    java.util.concurrent.atomic.AtomicBoolean stop =
        new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicLong swaps = new java.util.concurrent.atomic.AtomicLong();
    Thread swapper =
        new Thread(
            () -> {
              while (!stop.get()) {
                try {
                  if (!Files.exists(fifo, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor();
                  }
                  // Half of the time a FIFO, half a plain file.
                  Files.move(fifo, desktop(), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                  Thread.sleep(1);
                  Files.move(desktop(), fifo, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                  Files.writeString(plain, "{}\n");
                  Files.move(plain, desktop(), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                  Thread.sleep(1);
                  swaps.incrementAndGet();
                } catch (IOException e) {
                  // a name taken by the other side for a moment; try again
                } catch (InterruptedException e) {
                  return;
                }
              }
            });
    Files.writeString(desktop(), "{}\n");
    swapper.start();
    int installs = 0;
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    try {
      while (System.nanoTime() < end) {
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
            java.time.Duration.ofSeconds(10), () -> install("claude-desktop", true));
        installs++;
      }
    } finally {
      stop.set(true);
      swapper.join();
    }
    assertThat(installs).isGreaterThan(10);
    assertThat(swaps.get()).isGreaterThan(10);
  }

  @Test
  void anUnwritableFolderIsRefusedAndTheFileIsUntouched() throws Exception {
    Path codex = Files.createDirectories(home.resolve(".codex"));
    String before = "model = \"o3\"\n";
    Files.writeString(codex.resolve("config.toml"), before);
    unwritable(codex, true);
    try {
      assertThat(install("codex", false)).isEqualTo(ExitCode.USAGE);
    } finally {
      unwritable(codex, false);
    }
    assertThat(Files.readString(codex.resolve("config.toml"))).isEqualTo(before);
    try (Stream<Path> files = Files.list(codex)) {
      assertThat(files).hasSize(1);
    }
    assertThat(err())
        .isEqualTo(
            "notes-mcp: cannot write "
                + codex.resolve("config.toml")
                + " (Operation not permitted); nothing was written\n");
  }

  /** As root, only the immutable attribute stops a write; otherwise the mode does. */
  private static void unwritable(Path folder, boolean on) throws Exception {
    if (new com.sun.security.auth.module.UnixSystem().getUid() == 0) {
      Process chattr =
          new ProcessBuilder("chattr", on ? "+i" : "-i", folder.toString()).inheritIO().start();
      assertThat(chattr.waitFor(10, TimeUnit.SECONDS)).isTrue();
      assertThat(chattr.exitValue()).isZero();
    } else {
      Files.setPosixFilePermissions(
          folder, PosixFilePermissions.fromString(on ? "r-x------" : "rwx------"));
    }
  }

  @Test
  void codexGetsItsTablesAppendedAndEverythingBeforeThemKept() throws IOException {
    Path file = home.resolve("codex-home/config.toml");
    String before =
        """
        # mine
        model = "o3"

        [mcp_servers.other]
        command = "other"   # keep this comment
        """;
    Files.createDirectories(file.getParent());
    Files.writeString(file, before);

    assertThat(
            install(
                "codex",
                false,
                Map.of("HOME", home.toString(), "CODEX_HOME", file.getParent().toString())))
        .isEqualTo(ExitCode.OK);

    assertThat(Files.readString(file))
        .isEqualTo(
            before
                + """

                [mcp_servers.notes]
                command = "/opt/notes-mcp/bin/notes-mcp"
                args = ["-serve", "-root", "/home/me/notes"]
                default_tools_approval_mode = "prompt"

                [mcp_servers.notes.tools.list_notes]
                approval_mode = "approve"

                [mcp_servers.notes.tools.read_note]
                approval_mode = "approve"

                [mcp_servers.notes.tools.search_notes]
                approval_mode = "approve"

                [mcp_servers.notes.tools.proposal_status]
                approval_mode = "approve"

                [mcp_servers.notes.tools.note_links]
                approval_mode = "approve"

                [mcp_servers.notes.tools.backlinks]
                approval_mode = "approve"

                [mcp_servers.notes.tools.list_tags]
                approval_mode = "approve"

                [mcp_servers.notes.tools.find_notes]
                approval_mode = "approve"
                """);
  }

  @Test
  void codexReplaceRemovesTheOldTablesOnly() throws IOException {
    Path file = home.resolve(".codex/config.toml");
    String before =
        """
        [mcp_servers.notes]
        command = "/old"

        [mcp_servers.notes.tools.read_note]
        approval_mode = "prompt"

        [mcp_servers.other]
        command = "other"
        """;
    Files.createDirectories(file.getParent());
    Files.writeString(file, before);

    assertThat(install("codex", false)).isEqualTo(ExitCode.USAGE);
    assertThat(err())
        .startsWith(
            "notes-mcp: "
                + file
                + " already has an MCP server named \"notes\" (mcp_servers.notes)");
    assertThat(Files.readString(file)).isEqualTo(before);

    assertThat(install("codex", true)).isEqualTo(ExitCode.OK);

    String after = Files.readString(file);
    assertThat(after)
        .startsWith("[mcp_servers.other]\ncommand = \"other\"\n\n[mcp_servers.notes]\n")
        .doesNotContain("/old");
  }

  @Test
  void codexRefusesAServerItCannotRemoveSafely() throws IOException {
    Path file = home.resolve(".codex/config.toml");
    String before = "mcp_servers.notes.command = \"/old\"\n";
    Files.createDirectories(file.getParent());
    Files.writeString(file, before);

    assertThat(install("codex", true)).isEqualTo(ExitCode.USAGE);

    assertThat(Files.readString(file)).isEqualTo(before);
    assertThat(err())
        .isEqualTo(
            "notes-mcp: "
                + file
                + " holds mcp_servers.notes in a form --replace cannot remove (an inline table or"
                + " dotted keys); remove it by hand first; nothing was written\n");
  }

  @Test
  void codexRefusesAFileThatDoesNotParse() throws IOException {
    Path file = home.resolve(".codex/config.toml");
    Files.createDirectories(file.getParent());
    Files.writeString(file, "model = \n");

    assertThat(install("codex", false)).isEqualTo(ExitCode.USAGE);

    assertThat(err()).startsWith("notes-mcp: " + file + " does not parse as TOML (");
    assertThat(Files.readString(file)).isEqualTo("model = \n");
  }

  @Test
  void claudeCodeGetsTheServerAndItsPermissionsInTwoFiles() throws Exception {
    Path state = home.resolve(".claude.json");
    Path settings = home.resolve(".claude/settings.json");
    Files.writeString(
        state, "{\"numStartups\": 3, \"mcpServers\": {\"other\": {\"command\": \"o\"}}}");
    Files.createDirectories(settings.getParent());
    Files.writeString(
        settings, "{\"permissions\": {\"allow\": [\"Bash(ls)\", \"mcp__notes__read_note\"]}}");

    assertThat(install("claude-code", false)).isEqualTo(ExitCode.OK);

    assertThat(Files.readString(settings))
        .isEqualTo(
            "{\"permissions\": {\n"
                + "  \"ask\": [\"mcp__notes__propose_note\", \"mcp__notes__propose_edit\"],"
                + " \"allow\": [\"mcp__notes__list_notes\", \"mcp__notes__search_notes\","
                + " \"mcp__notes__proposal_status\", \"mcp__notes__note_links\","
                + " \"mcp__notes__backlinks\", \"mcp__notes__list_tags\","
                + " \"mcp__notes__find_notes\", \"Bash(ls)\", \"mcp__notes__read_note\"]}}");
    assertThat(JsonSplice.parse(Files.readString(state), JsonSplice.Flavor.STRICT).toString())
        .isEqualTo(
            "{\"numStartups\":3,\"mcpServers\":{\"notes\":{\"type\":\"stdio\",\"command\":"
                + "\"/opt/notes-mcp/bin/notes-mcp\",\"args\":[\"-serve\",\"-root\","
                + "\"/home/me/notes\"]},\"other\":{\"command\":\"o\"}}}");
    assertThat(err())
        .contains(
            "mcp__notes__list_notes, mcp__notes__read_note, mcp__notes__search_notes,"
                + " mcp__notes__proposal_status, mcp__notes__note_links, mcp__notes__backlinks,"
                + " mcp__notes__list_tags, mcp__notes__find_notes allowed without asking"
                + " (permissions.allow)");
  }

  @Test
  void aRefusedServerEntryWritesNoneOfTheOtherFiles() throws IOException {
    Path state = home.resolve(".claude.json");
    Files.writeString(state, "{\"mcpServers\": {\"notes\": {\"command\": \"o\"}}}");

    assertThat(install("claude-code", false)).isEqualTo(ExitCode.USAGE);

    assertThat(home.resolve(".claude")).doesNotExist();
  }

  @Test
  void geminiAndQwenKeepTheirPromptsOnAndAllowOnlyTheReadTools() throws Exception {
    Path gemini = home.resolve(".gemini/settings.json");
    Files.createDirectories(gemini.getParent());
    Files.writeString(gemini, "{\n  // theme\n  \"ui\": {\"theme\": \"x\"}\n}\n");

    assertThat(install("gemini", false)).isEqualTo(ExitCode.OK);
    assertThat(
            install(
                "qwen",
                false,
                Map.of("HOME", home.toString(), "QWEN_HOME", home.resolve("q").toString())))
        .isEqualTo(ExitCode.OK);

    assertThat(JsonSplice.parse(Files.readString(gemini), JsonSplice.Flavor.COMMENTS).toString())
        .isEqualTo(
            "{\"mcpServers\":{\"notes\":{\"command\":\"/opt/notes-mcp/bin/notes-mcp\",\"args\":"
                + "[\"-serve\",\"-root\",\"/home/me/notes\"],\"trust\":false}},\"ui\":{\"theme\":\"x\"}}");
    assertThat(
            TomlTables.parse(
                    Files.readString(home.resolve(".gemini/policies/notes-mcp-notes.toml")))
                .toString())
        .isEqualTo(
            "{\"rule\":[{\"mcpName\":\"notes\",\"toolName\":[\"mcp_notes_list_notes\","
                + "\"mcp_notes_read_note\",\"mcp_notes_search_notes\",\"mcp_notes_proposal_status\","
                + "\"mcp_notes_note_links\",\"mcp_notes_backlinks\",\"mcp_notes_list_tags\","
                + "\"mcp_notes_find_notes\"],"
                + "\"decision\":\"allow\",\"priority\":500},{\"mcpName\":\"notes\",\"toolName\":"
                + "[\"mcp_notes_propose_note\",\"mcp_notes_propose_edit\"],\"decision\":\"ask_user\","
                + "\"priority\":500}]}");
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(home.resolve(".gemini/policies"))))
        .isEqualTo("rwx------");
    assertThat(Files.readString(gemini)).contains("  // theme\n  \"ui\": {\"theme\": \"x\"}\n}\n");
    assertThat(
            JsonSplice.parse(
                    Files.readString(home.resolve("q/settings.json")), JsonSplice.Flavor.COMMENTS)
                .toString())
        .isEqualTo(
            "{\"mcpServers\":{\"notes\":{\"command\":\"/opt/notes-mcp/bin/notes-mcp\",\"args\":"
                + "[\"-serve\",\"-root\",\"/home/me/notes\"],\"trust\":false}},\"permissions\":{"
                + "\"ask\":[\"mcp__notes__propose_note\",\"mcp__notes__propose_edit\"],"
                + "\"allow\":[\"mcp__notes__list_notes\",\"mcp__notes__read_note\","
                + "\"mcp__notes__search_notes\",\"mcp__notes__proposal_status\","
                + "\"mcp__notes__note_links\",\"mcp__notes__backlinks\",\"mcp__notes__list_tags\","
                + "\"mcp__notes__find_notes\"]}}");
  }

  @Test
  void installingTwiceChangesNothingTheSecondTimeWithReplace() throws IOException {
    assertThat(install("qwen", false)).isEqualTo(ExitCode.OK);
    Path file = home.resolve(".qwen/settings.json");
    String first = Files.readString(file);

    assertThat(install("qwen", true)).isEqualTo(ExitCode.OK);

    assertThat(Files.readString(file)).isEqualTo(first);
    assertThat(err())
        .isEqualTo(
            "notes-mcp: nothing to change: the entry is there already\nnotes-mcp: restart Qwen Code to load it\n");
    assertThat(Files.exists(file, LinkOption.NOFOLLOW_LINKS)).isTrue();
  }
}

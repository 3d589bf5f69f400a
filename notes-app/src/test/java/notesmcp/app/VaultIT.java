package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A real notes folder served by the real executable under a vault policy (docs/behaviour.md,
 * "Policy files", "Tools", "Refusals"): exactly the notes the patterns name, listed and read by
 * pages, every refusal in its words, and nothing else, whatever the names and the folders.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class VaultIT {
  static final String POLICY =
      "{\"readable\": [\"notes.txt\", \"**/*.md\"], \"exclude\": [\"Private/**\"],"
          + " \"proposable\": [\"Inbox/*.md\"], \"maxNoteBytes\": 65536, \"maxCalls\": 100000}";
  static final String BIG = "\u00e9".repeat(20_000);
  static final String SECRET = "TOP-SECRET-5f3a";

  @TempDir Path dir;
  private Path root;
  private Path outside;
  private Path policy;

  @BeforeEach
  void makeVault() throws IOException {
    root = Files.createDirectory(dir.resolve("vault")).toRealPath();
    outside = Files.createDirectory(dir.resolve("outside")).toRealPath();
    write(outside, "secret.md", SECRET);
    write(root, "notes.txt", "plain\n");
    write(root, "Inbox.md", "inbox\n");
    write(root, "Caf\u00e9 ideas.md", "caf\u00e9\n");
    write(root, "Projects/Paper Kite.md", "kite\n");
    write(root, "Projects/2026/plan.md", "plan\n");
    write(root, "Journal/2026-12-01.md", "monday\n");
    write(root, "Private/secret.md", SECRET);
    write(root, ".obsidian/workspace.md", SECRET);
    write(root, ".trash/old.md", SECRET);
    write(root, "Projects/todo.txt", SECRET);
    write(root, "big.md", BIG);
    Files.createDirectory(root.resolve("Inbox"));
    Files.createSymbolicLink(root.resolve("Linked"), outside);
    Files.createSymbolicLink(root.resolve("linked.md"), outside.resolve("secret.md"));
    policy = Files.writeString(dir.resolve("policy.json"), POLICY);
  }

  static void write(Path root, String path, String text) throws IOException {
    Path file = root.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  private WireServer serve() throws IOException {
    return WireServer.start(root, "-policy", policy.toString());
  }

  private static List<String> listed(JsonNode reply) {
    List<String> paths = new ArrayList<>();
    for (JsonNode path : WireServer.JSON.readTree(WireServer.text(reply)).get("notes")) {
      paths.add(path.stringValue());
    }
    return paths;
  }

  private static String read(WireServer server, String path) {
    return WireServer.text(
        server.call("read_note", "{\"path\":" + WireServer.JSON.writeValueAsString(path) + "}"));
  }

  @Test
  void exactlyTheNotesThePatternsNameAreListedInCodePointOrder() throws Exception {
    try (WireServer server = serve()) {
      assertThat(WireServer.text(server.call("list_notes", "{}")))
          .isEqualTo(
              "{\"notes\":[\"Caf\u00e9 ideas.md\",\"Inbox.md\",\"Journal/2026-12-01.md\","
                  + "\"Projects/2026/plan.md\",\"Projects/Paper Kite.md\",\"big.md\","
                  + "\"notes.txt\"]}");
      assertThat(listed(server.call("list_notes", "{\"folder\":\"Projects\"}")))
          .containsExactly("Projects/2026/plan.md", "Projects/Paper Kite.md");
      assertThat(WireServer.text(server.call("list_notes", "{\"folder\":\"Private\"}")))
          .isEqualTo("{\"notes\":[]}");
      assertThat(WireServer.text(server.call("list_notes", "{\"folder\":\"Linked\"}")))
          .isEqualTo("{\"notes\":[]}");
    }
  }

  @Test
  void theToolsAndInstructionsDescribeThePolicyWithoutAStaleEnum() throws Exception {
    try (WireServer server = serve()) {
      JsonNode discover = server.modern("server/discover", "", "DiscoverResult").get("result");
      assertThat(discover.get("instructions").stringValue())
          .startsWith(
              "Notes are plain UTF-8 text in a workspace chosen by the user. Readable: the notes"
                  + " whose paths match \"notes.txt\" or \"**/*.md\", except \"Private/**\"")
          .endsWith("Nothing can be written, saved or approved through MCP.");
      JsonNode tools =
          server.modern("tools/list", "", "ListToolsResult").get("result").get("tools");
      JsonNode list = tools.get(0).get("inputSchema");
      JsonNode read = tools.get(1).get("inputSchema");
      assertThat(list.get("properties").propertyNames()).containsExactly("folder", "cursor");
      assertThat(read.get("properties").get("path").has("enum")).isFalse();
      assertThat(read.get("properties").get("path").get("description").stringValue())
          .contains("call list_notes");
      assertThat(read.get("properties").get("offset").get("type").stringValue())
          .isEqualTo("integer");
      assertThat(tools.get(2).get("inputSchema").get("properties").get("path").has("enum"))
          .isFalse();
    }
  }

  @Test
  void aListingOfThousandsComesInPagesOf500AndACursorOfAnotherProcessIsRefused() throws Exception {
    for (int i = 0; i < 1203; i++) {
      write(root, String.format("Many/n%04d.md", i), "x");
    }
    String cursor;
    try (WireServer server = serve()) {
      List<String> all = new ArrayList<>();
      List<Integer> sizes = new ArrayList<>();
      String next = null;
      do {
        JsonNode page =
            WireServer.JSON.readTree(
                WireServer.text(
                    server.call(
                        "list_notes", next == null ? "{}" : "{\"cursor\":\"" + next + "\"}")));
        sizes.add(page.get("notes").size());
        for (JsonNode path : page.get("notes")) {
          all.add(path.stringValue());
        }
        next = page.has("nextCursor") ? page.get("nextCursor").stringValue() : null;
      } while (next != null);
      assertThat(sizes).containsExactly(500, 500, 210);
      assertThat(all).hasSize(1210).doesNotHaveDuplicates();
      cursor =
          WireServer.JSON
              .readTree(WireServer.text(server.call("list_notes", "{}")))
              .get("nextCursor")
              .stringValue();
    }
    try (WireServer other = serve()) {
      JsonNode refused = other.call("list_notes", "{\"cursor\":\"" + cursor + "\"}");
      assertThat(WireServer.isError(refused)).isTrue();
      assertThat(WireServer.text(refused))
          .isEqualTo(
              "cursor is not one this server issued (a cursor holds only within the server process"
                  + " that gave it): start again without a cursor");
    }
  }

  @Test
  void aLongNoteIsReadInPagesThatJoinToTheWholeNote() throws Exception {
    try (WireServer server = serve()) {
      StringBuilder whole = new StringBuilder();
      long offset = 0;
      int pages = 0;
      while (offset >= 0) {
        JsonNode page =
            WireServer.JSON.readTree(
                WireServer.text(
                    server.call("read_note", "{\"path\":\"big.md\",\"offset\":" + offset + "}")));
        assertThat(page.get("totalBytes").intValue()).isEqualTo(40_000);
        whole.append(page.get("content").stringValue());
        offset = page.get("nextOffset").isNull() ? -1 : page.get("nextOffset").longValue();
        pages++;
      }
      assertThat(pages).isEqualTo(3);
      assertThat(whole.toString()).isEqualTo(BIG);
      assertThat(read(server, "Projects/Paper Kite.md"))
          .isEqualTo("{\"path\":\"Projects/Paper Kite.md\",\"content\":\"kite\\n\"}");
    }
  }

  @Test
  void everyPathThatIsNotAnAllowedNoteIsRefusedSayingWhy() throws Exception {
    String dot = " (a component starting with '.' is never a note)";
    String notFound =
        " is not a note in the workspace: no regular file of that name was found there"
            + " (list_notes lists the notes that exist)";
    try (WireServer server = serve()) {
      assertThat(read(server, "../outside/secret.md"))
          .isEqualTo(
              "path \"../outside/secret.md\" is not a note's path: it has the component \"..\""
                  + dot);
      assertThat(read(server, ".obsidian/workspace.md"))
          .isEqualTo(
              "path \".obsidian/workspace.md\" is not a note's path: it has the component"
                  + " \".obsidian\""
                  + dot);
      assertThat(read(server, "/etc/passwd"))
          .isEqualTo(
              "path \"/etc/passwd\" is not a note's path: it starts with '/': a note's path is"
                  + " relative to the workspace");
      assertThat(read(server, "Projects//Paper Kite.md"))
          .isEqualTo(
              "path \"Projects//Paper Kite.md\" is not a note's path: it has an empty component"
                  + " ('//')");
      assertThat(read(server, "Projects/todo.txt"))
          .isEqualTo(
              "path \"Projects/todo.txt\" is not allowed by the policy: it matches none of its"
                  + " readable names and patterns");
      assertThat(read(server, "Private/secret.md"))
          .isEqualTo(
              "path \"Private/secret.md\" is excluded by the policy (exclude \"Private/**\")");
      assertThat(read(server, "Linked/secret.md")).isEqualTo("\"Linked/secret.md\"" + notFound);
      assertThat(read(server, "linked.md")).isEqualTo("\"linked.md\"" + notFound);
      assertThat(read(server, "Missing.md")).isEqualTo("\"Missing.md\"" + notFound);
      assertThat(read(server, "Projects/Paper Kite.md/"))
          .isEqualTo("path \"Projects/Paper Kite.md/\" is not a note's path: it ends with '/'");
      assertThat(WireServer.text(server.call("read_note", "{\"path\":\"big.md\",\"offset\":1}")))
          .isEqualTo(
              "offset 1 is not at a character boundary of big.md (byte 1 continues a character);"
                  + " pages start at 0 and at each nextOffset");
      // An offset beyond any 64-bit integer is refused by the number the client sent.
      assertThat(
              WireServer.text(
                  server.call(
                      "read_note", "{\"path\":\"big.md\",\"offset\":99999999999999999999}")))
          .startsWith("offset 99999999999999999999 is at or past the end of big.md, which is ");
    }
  }

  /**
   * Names that look alike are different names: each is read by its own bytes only, and those no
   * note may have (NFD, an override, an invisible character) are never listed nor read.
   */
  @Test
  void namesDifferingByNormalizationCaseSpaceLookAlikeOrOverrideAreEachTheirOwnOrNone()
      throws Exception {
    Path names = Files.createDirectory(root.resolve("Names"));
    String[][] notes = {
      {"Caf\u00e9.md", "nfc"},
      {"Cafe\u0301.md", SECRET},
      {"case.md", "lower"},
      {"Case.md", "upper"},
      {"Paper Kite.md", "plain"},
      {"Paper Kite .md", "spaced"},
      {"latin-a.md", "latin"},
      {"cyrillic-\u0430.md", "cyrillic"},
      {"invoice-\u202egpj.md", SECRET},
      {"zero\u200bwidth.md", SECRET},
    };
    for (String[] note : notes) {
      Files.writeString(names.resolve(note[0]), note[1]);
    }
    Thread.sleep(200); // older than the read's change margin
    try (WireServer server = serve()) {
      assertThat(listed(server.call("list_notes", "{\"folder\":\"Names\"}")))
          .containsExactly(
              "Names/Caf\u00e9.md",
              "Names/Case.md",
              "Names/Paper Kite .md",
              "Names/Paper Kite.md",
              "Names/case.md",
              "Names/cyrillic-\u0430.md",
              "Names/latin-a.md");
      for (String[] note : notes) {
        String text = read(server, "Names/" + note[0]);
        if (note[1].equals(SECRET)) {
          assertThat(text).contains("is not a note's path").doesNotContain(SECRET);
        } else {
          assertThat(WireServer.JSON.readTree(text).get("content").stringValue())
              .isEqualTo(note[1]);
        }
      }
      assertThat(read(server, "Names/caf\u00e9.md")).contains("is not a note in the workspace");
      assertThat(read(server, "Names/CASE.md")).contains("is not a note in the workspace");
    }
  }

  @Test
  void aFortyDeepChainIsServedSixteenFoldersDeepAndNoDeeper() throws Exception {
    Path folder = root.resolve("Deep");
    for (int depth = 1; depth <= 40; depth++) {
      folder = Files.createDirectories(folder.resolve("d"));
      Files.writeString(folder.resolve("n.md"), "depth " + depth);
    }
    Thread.sleep(200);
    try (WireServer server = serve()) {
      List<String> deep = listed(server.call("list_notes", "{\"folder\":\"Deep\"}"));
      // Deep/d/n.md has two folders; Deep/d/.../d/n.md with 16 folders is the deepest.
      assertThat(deep).hasSize(15);
      String deepest = "Deep/" + "d/".repeat(15) + "n.md";
      assertThat(deep).contains(deepest);
      assertThat(read(server, deepest)).contains("\"content\":\"depth 15\"");
      assertThat(read(server, "Deep/" + "d/".repeat(16) + "n.md"))
          .contains("is 17 folders deep; the limit is 16");
    }
  }

  /**
   * A bind mount inside the workspace is another mount: never entered. The server runs in a mount
   * namespace of its own (as root, with unshare), with {@code outside} bound onto {@code Mounted}.
   * A policy that names the note beneath it exactly (nothing enumerated) has the read refused for
   * the mount point, by its name.
   */
  @Test
  void aBindMountInsideTheWorkspaceIsNeverEntered() throws Exception {
    Process probe = new ProcessBuilder("unshare", "-m", "true").redirectErrorStream(true).start();
    Assumptions.assumeTrue(
        probe.waitFor() == 0,
        "this machine does not let the tests make a mount namespace (unshare -m needs root)");
    Files.createDirectory(root.resolve("Mounted"));
    try (WireServer server = serveWithMount(policy)) {
      assertThat(listed(server.call("list_notes", "{}")))
          .doesNotContain("Mounted/secret.md")
          .contains("notes.txt");
      assertThat(read(server, "Mounted/secret.md"))
          .isEqualTo(
              "\"Mounted/secret.md\" is not a note in the workspace: no regular file of that name"
                  + " was found there (list_notes lists the notes that exist)");
    }
    Path named =
        Files.writeString(
            dir.resolve("named.json"), "{\"readable\":[\"notes.txt\",\"Mounted/secret.md\"]}");
    try (WireServer server = serveWithMount(named)) {
      assertThat(read(server, "Mounted/secret.md"))
          .isEqualTo(
              "Mounted/secret.md cannot be read: the folder Mounted is a mount point (mount points"
                  + " are never crossed)");
    }
    assertThat(root.resolve("Mounted/secret.md"))
        .as("the mount stayed in its namespace")
        .doesNotExist();
  }

  /**
   * A server in a mount namespace of its own, with {@code outside} bound onto Mounted; words the
   * fixture adds after the command (its transport's) are the server's.
   */
  private WireServer serveWithMount(Path policyFile) throws IOException {
    String script =
        "o=\"$1\" r=\"$2\" l=\"$3\" p=\"$4\"; shift 4; mount --bind \"$o\" \"$r/Mounted\""
            + " && exec \"$l\" -serve -root \"$r\" -policy \"$p\" \"$@\"";
    return WireServer.startCommand(
        List.of(
            "unshare",
            "-m",
            "--propagation",
            "private",
            "sh",
            "-c",
            script,
            "sh",
            outside.toString(),
            root.toString(),
            WireServer.launcher().toString(),
            policyFile.toString()));
  }

  @Test
  void aNoteMadeOrRemovedWhileServingIsListedOrGoneAtTheNextCall() throws Exception {
    try (WireServer server = serve()) {
      assertThat(listed(server.call("list_notes", "{\"folder\":\"Journal\"}")))
          .containsExactly("Journal/2026-12-01.md");
      write(root, "Journal/2026-12-02.md", "tuesday\n");
      assertThat(listed(server.call("list_notes", "{\"folder\":\"Journal\"}")))
          .containsExactly("Journal/2026-12-01.md", "Journal/2026-12-02.md");
      Files.move(root.resolve("Journal"), root.resolve("Diary"));
      assertThat(listed(server.call("list_notes", "{\"folder\":\"Diary\"}")))
          .containsExactly("Diary/2026-12-01.md", "Diary/2026-12-02.md");
      assertThat(listed(server.call("list_notes", "{\"folder\":\"Journal\"}"))).isEmpty();
    }
  }

  @Test
  void nothingIsWrittenToTheWorkspaceByAnyCall() throws Exception {
    List<String> before = tree(root);
    try (WireServer server = serve()) {
      server.call("list_notes", "{}");
      read(server, "notes.txt");
      server.call("propose_note", "{\"path\":\"Inbox/idea.md\",\"content\":\"x\"}");
      assertThat(server.closeInputAndWait()).isZero();
    }
    assertThat(tree(root)).isEqualTo(before);
  }

  static List<String> tree(Path root) throws IOException {
    try (var files = Files.walk(root)) {
      return files.map(p -> root.relativize(p).toString()).sorted().toList();
    }
  }
}

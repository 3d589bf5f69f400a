package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import notesmcp.policy.rules.PolicyFile;
import notesmcp.policy.tools.NoteAccess;
import notesmcp.policy.tools.Outcome;
import notesmcp.policy.vault.Workspace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * docs/behaviour.md, "Tools", row by row: each call is made directly on the policy and through MCP
 * (the real executable over stdio), and both must give the same text, the same refusal, and the
 * text docs/behaviour.md gives. A policy file names extra notes so that every hostile file kind
 * sits under an allowed name: links out of and inside the workspace, a directory, a FIFO, a hard
 * link, 2,048 and 2,049 bytes, invalid UTF-8.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PolicyThroughMcpIT {
  private static final String ALLOWED =
      "notes.txt, project.txt, draft.txt, link-out.txt,"
          + " link-in.txt, dir.txt, fifo.txt, hard.txt, exact.txt, over.txt, latin1.txt, missing.txt";

  private Path root;
  private NoteAccess direct;
  private WireServer server;

  @BeforeAll
  void startBoth(@TempDir Path dir) throws Exception {
    root = Fixtures.workspace(dir);
    Path outside = Files.writeString(dir.resolve("outside.txt"), "secret\n");
    Files.createSymbolicLink(root.resolve("link-out.txt"), outside);
    Files.createSymbolicLink(root.resolve("link-in.txt"), root.resolve("notes.txt"));
    Files.createDirectory(root.resolve("dir.txt"));
    Process mkfifo = new ProcessBuilder("mkfifo", root.resolve("fifo.txt").toString()).start();
    assertThat(mkfifo.waitFor()).isZero();
    Files.createLink(root.resolve("hard.txt"), outside);
    Files.write(root.resolve("exact.txt"), "é".repeat(1024).getBytes(StandardCharsets.UTF_8));
    Files.write(
        root.resolve("over.txt"), ("x" + "é".repeat(1024)).getBytes(StandardCharsets.UTF_8));
    Files.write(root.resolve("latin1.txt"), "caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
    Path policy =
        Files.writeString(
            dir.resolve("policy.json"),
            "{\"readable\":[\""
                + ALLOWED.replace(", ", "\",\"")
                + "\"],\"proposable\":[\"draft.txt\",\"notes.txt\"],"
                + "\"maxCalls\":1000}");
    direct = new NoteAccess(PolicyFile.load(policy), Workspace.at(root), Clock.systemUTC());
    server = WireServer.start(root, "-policy", policy.toString());
  }

  @AfterAll
  void stop() {
    server.close();
  }

  static Stream<Arguments> contract() {
    String notAllowed = "\" is not allowed: it must be exactly one of " + ALLOWED;
    String pad = "\"" + "x".repeat(16 * 1024) + "\"";
    return Stream.of(
        // Answers.
        row(
            "list_notes",
            null,
            false,
            "{\"notes\":[\"notes.txt\",\"project.txt\",\"hard.txt\","
                + "\"exact.txt\",\"over.txt\",\"latin1.txt\"]}"),
        row(
            "list_notes",
            "{}",
            false,
            "{\"notes\":[\"notes.txt\",\"project.txt\",\"hard.txt\","
                + "\"exact.txt\",\"over.txt\",\"latin1.txt\"]}"),
        row(
            "read_note",
            "{\"path\":\"project.txt\"}",
            false,
            "{\"path\":\"project.txt\",\"content\":\"Project: notes-mcp\\nStatus: testing\\n\"}"),
        row(
            "read_note",
            "{\"path\":\"exact.txt\"}",
            false,
            "{\"path\":\"exact.txt\",\"content\":\"" + "é".repeat(1024) + "\"}"),
        // Unknown keys, duplicate keys, wrong types, null, missing keys.
        row(
            "list_notes",
            "{\"all\":true}",
            true,
            "unknown argument \"all\": list_notes takes no arguments"),
        row(
            "read_note",
            "{\"path\":\"notes.txt\",\"approved\":true}",
            true,
            "unknown argument \"approved\": read_note accepts only \"path\""),
        row(
            "propose_note",
            "{\"path\":\"draft.txt\",\"content\":\"x\",\"approved\":true}",
            true,
            "unknown argument \"approved\": propose_note accepts only \"content\", \"path\""),
        row(
            "read_note",
            "{\"path\":\"notes.txt\",\"path\":\"notes.txt\"}",
            true,
            "duplicate argument \"path\": each key may appear once"),
        row("read_note", "{\"path\":7}", true, "argument \"path\" must be a string, not number"),
        row(
            "read_note",
            "{\"path\":[\"notes.txt\"]}",
            true,
            "argument \"path\" must be a string, not array"),
        row(
            "read_note",
            "{\"path\":{\"name\":\"notes.txt\"}}",
            true,
            "argument \"path\" must be a string, not object"),
        row(
            "read_note",
            "{\"path\":true}",
            true,
            "argument \"path\" must be a string, not boolean"),
        row("read_note", "{\"path\":null}", true, "argument \"path\" must be a string, not null"),
        row("read_note", "{}", true, "missing required argument \"path\""),
        row("read_note", null, true, "missing required argument \"path\""),
        row(
            "propose_note",
            "{\"path\":\"draft.txt\"}",
            true,
            "missing required argument \"content\""),
        row(
            "propose_note",
            "{\"path\":\"draft.txt\",\"content\":null}",
            true,
            "argument \"content\" must be a string, not null"),
        // Any path that is not exactly one allowed name.
        row(
            "read_note",
            "{\"path\":\"../private.txt\"}",
            true,
            "path \"../private.txt" + notAllowed),
        row("read_note", "{\"path\":\"./notes.txt\"}", true, "path \"./notes.txt" + notAllowed),
        row("read_note", "{\"path\":\"notes.txt/\"}", true, "path \"notes.txt/" + notAllowed),
        row(
            "read_note",
            "{\"path\":\"/abs/notes.txt\"}",
            true,
            "path \"/abs/notes.txt" + notAllowed),
        row("read_note", "{\"path\":\"NOTES.TXT\"}", true, "path \"NOTES.TXT" + notAllowed),
        row(
            "read_note",
            "{\"path\":\"..\\\\notes.txt\"}",
            true,
            "path \"..\\\\notes.txt" + notAllowed),
        row(
            "read_note",
            "{\"path\":\"notes.txt\\u0000\"}",
            true,
            "path \"notes.txt\\u0000" + notAllowed),
        row("read_note", "{\"path\":\"notes%2etxt\"}", true, "path \"notes%2etxt" + notAllowed),
        row(
            "read_note",
            "{\"path\":\"notes\\u2024txt\"}",
            true,
            "path \"notes\\u2024txt" + notAllowed),
        row(
            "read_note",
            "{\"path\":\"\\uff4eotes.txt\"}",
            true,
            "path \"\\uff4eotes.txt" + notAllowed),
        row("read_note", "{\"path\":\" notes.txt \"}", true, "path \" notes.txt " + notAllowed),
        row("read_note", "{\"path\":\"\"}", true, "path \"" + notAllowed),
        row(
            "propose_note",
            "{\"path\":\"project.txt\",\"content\":\"x\"}",
            true,
            "path \"project.txt\" is not allowed: it must be exactly one of draft.txt, notes.txt"),
        // Files that are not one regular file with one link.
        row(
            "read_note",
            "{\"path\":\"link-out.txt\"}",
            true,
            "link-out.txt is a symbolic link (links are never followed), not a regular file"),
        row(
            "read_note",
            "{\"path\":\"link-in.txt\"}",
            true,
            "link-in.txt is a symbolic link (links are never followed), not a regular file"),
        row(
            "read_note",
            "{\"path\":\"dir.txt\"}",
            true,
            "dir.txt is a directory, not a regular file"),
        row(
            "read_note",
            "{\"path\":\"fifo.txt\"}",
            true,
            "fifo.txt is a special file (FIFO, socket or device), not a regular file"),
        row(
            "read_note",
            "{\"path\":\"hard.txt\"}",
            true,
            "hard.txt has 2 hard links; a note must"
                + " have exactly one (another link may lead outside the workspace)"),
        row(
            "read_note",
            "{\"path\":\"missing.txt\"}",
            true,
            "missing.txt does not exist in the workspace"),
        // Sizes and encodings, on the bytes.
        row(
            "read_note",
            "{\"path\":\"over.txt\"}",
            true,
            "over.txt is 2049 bytes; the limit is 2048 bytes"),
        row(
            "read_note",
            "{\"path\":\"latin1.txt\"}",
            true,
            "latin1.txt is not valid UTF-8 (byte 3)"),
        row(
            "read_note",
            "{\"path\":\"notes.txt\",\"pad\":" + pad + "}",
            true,
            "arguments are 16413 bytes; the limit is 16384 bytes"),
        row(
            "propose_note",
            "{\"path\":\"draft.txt\",\"content\":\"x" + "é".repeat(1024) + "\"}",
            true,
            "content is 2049 bytes of UTF-8; the limit is 2048 bytes"),
        row(
            "propose_note",
            "{\"path\":\"draft.txt\",\"content\":\"a\\ud800b\"}",
            true,
            "content is not valid UTF-8: unpaired surrogate \\ud800 at character 1"),
        // Creation is exclusive; one proposal may be pending.
        row(
            "propose_note",
            "{\"path\":\"notes.txt\",\"content\":\"x\"}",
            true,
            "notes.txt already exists; a proposal may only create a new note, never replace one"),
        row(
            "propose_note",
            "{\"path\":\"draft.txt\",\"content\":\"" + "é".repeat(1024) + "\"}",
            false,
            "{\"status\":\"pending_approval\",\"proposal_id\":\"<id>\","
                + "\"path\":\"draft.txt\"}"),
        row(
            "propose_note",
            "{\"path\":\"draft.txt\",\"content\":\"again\"}",
            true,
            "a proposal is already pending (<id> for draft.txt); this server process holds at most"
                + " one pending proposal"));
  }

  private static Arguments row(String tool, String arguments, boolean refused, String text) {
    return Arguments.of(tool, arguments, refused, text);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("contract")
  void theSameCallGivesTheSameTextDirectlyAndThroughMcp(
      String tool, String arguments, boolean refused, String text) {
    Outcome outcome = direct.execute(tool, arguments, () -> false);
    JsonNode reply = server.call(tool, arguments);

    assertThat(reply.has("error"))
        .as("a policy refusal is a result, not a protocol error: " + reply)
        .isFalse();
    assertThat(WireServer.isError(reply)).isEqualTo(refused);
    assertThat(outcome instanceof Outcome.Refusal).isEqualTo(refused);
    assertThat(withoutIds(WireServer.text(reply))).isEqualTo(text);
    assertThat(withoutIds(outcome.text())).isEqualTo(text);
  }

  private static String withoutIds(String text) {
    return text.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>");
  }

  @Test
  void nothingWasWrittenToTheWorkspace() throws IOException {
    try (Stream<Path> files = Files.list(root)) {
      assertThat(files.map(p -> p.getFileName().toString()).sorted().toList())
          .isEqualTo(
              List.of(
                  "dir.txt",
                  "exact.txt",
                  "fifo.txt",
                  "hard.txt",
                  "latin1.txt",
                  "link-in.txt",
                  "link-out.txt",
                  "notes.txt",
                  "over.txt",
                  "project.txt"));
    }
  }
}

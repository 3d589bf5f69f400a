package notesmcp.policy.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import notesmcp.files.ChangeRule;
import notesmcp.policy.rules.PolicyFile;
import notesmcp.policy.vault.Workspace;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The structure's tools over {@link NoteAccess} (docs/knowledge.md, "The tools"): answers, the
 * policy's filter, the refusals. The end-to-end tests against the real executable are {@code
 * StructureIT} and the tests after it in notes-app.
 */
class StructureToolsTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  static final String POLICY =
      "{\"readable\": [\"**/*.md\"], \"exclude\": [\"Private/**\"], \"maxNoteBytes\": 65536,"
          + " \"maxCalls\": 100000, \"editable\": [\"b.md\"]}";
  static final String KITE =
      "---\ntags: [project]\nstatus: open\ndue: 2026-12-01\naliases: [Kite project]\n---\n"
          + "# Paper Kite\n\nIntro.\n\n## Plan\n\nFrame first.\n\n## Risks\n\nThe line may"
          + " snap.\n\n### Weather\n\nWind.\n\n## Log\n\nNothing yet.\n";

  @TempDir Path dir;
  private Path root;
  private NoteAccess notes;
  private final ByteArrayOutputStream log = new ByteArrayOutputStream();

  @BeforeEach
  void vault() throws Exception {
    root = Files.createDirectory(dir.resolve("vault"));
    write("Projects/Paper Kite.md", KITE);
    write(
        "a.md",
        "---\nstatus: done\n---\nSee [[Paper Kite]] and [[Paper Kite#Risks|the risks]].\n"
            + "Also [[Secret]], [[Missing note]] and [[#Top]]. #project/kite\n\n# Top\n");
    write("b.md", "Line one.\n\n  The [Kite](Projects/Paper%20Kite.md)   is   here.\n#other\n");
    write("Private/Secret.md", "---\ntags: [private]\n---\n[[Paper Kite]] #private\n");
    write("Private/Paper Kite.md", "a hidden note of the same name\n");
    write(".trash/old.md", "[[Paper Kite]] #trash\n");
    Path policy = Files.writeString(dir.resolve("policy.json"), POLICY);
    notes =
        new NoteAccess(
                PolicyFile.load(policy),
                Workspace.at(root, new ChangeRule(true, Duration.ZERO)),
                Clock.systemUTC(),
                null,
                new PrintStream(log, true, StandardCharsets.UTF_8))
            .withStructure();
  }

  private void write(String path, String text) throws Exception {
    Path file = root.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  private JsonNode answer(String tool, String arguments) {
    Outcome outcome = notes.execute(tool, arguments, () -> false);
    assertThat(outcome).as(outcome.text()).isInstanceOf(Outcome.Answer.class);
    return JSON.readTree(outcome.text());
  }

  private String refusal(String tool, String arguments) {
    Outcome outcome = notes.execute(tool, arguments, () -> false);
    assertThat(outcome).as(outcome.text()).isInstanceOf(Outcome.Refusal.class);
    return outcome.text();
  }

  @Test
  void theToolsAreOfferedReadOnly() {
    List<String> names = new ArrayList<>();
    for (ToolDefinition tool : notes.tools()) {
      names.add(tool.name());
      if (tool.name().startsWith("note_") || tool.name().equals("find_notes")) {
        assertThat(tool.readOnly()).isTrue();
      }
    }
    assertThat(names)
        .containsExactly(
            "list_notes",
            "read_note",
            "propose_note",
            "propose_edit",
            "proposal_status",
            "note_links",
            "backlinks",
            "list_tags",
            "find_notes");
  }

  @Test
  void noteLinksResolveAmongTheReadableNotesOnly() {
    JsonNode links = answer("note_links", "{\"path\":\"a.md\"}");
    assertThat(links.toString())
        .isEqualTo(
            "{\"path\":\"a.md\",\"links\":["
                + "{\"target\":\"Paper Kite\",\"resolved\":\"Projects/Paper Kite.md\",\"line\":4},"
                + "{\"target\":\"Paper Kite#Risks\",\"resolved\":\"Projects/Paper Kite.md\","
                + "\"line\":4},"
                + "{\"target\":\"Secret\",\"resolved\":null,\"line\":5},"
                + "{\"target\":\"Missing note\",\"resolved\":null,\"line\":5},"
                + "{\"target\":\"#Top\",\"resolved\":\"a.md\",\"line\":5}]}");
  }

  @Test
  void backlinksComeFromReadableNotesWithTheirLineNow() throws Exception {
    JsonNode backlinks = answer("backlinks", "{\"path\":\"Projects/Paper Kite.md\"}");
    assertThat(backlinks.toString())
        .isEqualTo(
            "{\"path\":\"Projects/Paper Kite.md\",\"backlinks\":["
                + "{\"path\":\"a.md\",\"line\":4,\"context\":\"See [[Paper Kite]] and [[Paper"
                + " Kite#Risks|the risks]].\"},"
                + "{\"path\":\"b.md\",\"line\":3,\"context\":\"The [Kite](Projects/Paper%20Kite.md)"
                + " is here.\"}]}");
    // Deleted: gone from the next answer, without waiting for anything.
    Files.delete(root.resolve("a.md"));
    assertThat(answer("backlinks", "{\"path\":\"Projects/Paper Kite.md\"}").at("/backlinks"))
        .hasSize(1);
    // Changed: the context is what the note holds now.
    write("b.md", "Now [[Paper Kite]] only.\n");
    assertThat(answer("backlinks", "{\"path\":\"Projects/Paper Kite.md\"}").toString())
        .contains("{\"path\":\"b.md\",\"line\":1,\"context\":\"Now [[Paper Kite]] only.\"}");
  }

  @Test
  void tagsAreCountedOverReadableNotesOnly() {
    assertThat(answer("list_tags", "{}").toString())
        .isEqualTo(
            "{\"tags\":[{\"tag\":\"#other\",\"count\":1},{\"tag\":\"#project\",\"count\":1},"
                + "{\"tag\":\"#project/kite\",\"count\":1}]}");
  }

  @Test
  void findNotesCombinesItsConditions() {
    assertThat(answer("find_notes", "{\"tag\":\"#project\"}").toString())
        .isEqualTo("{\"notes\":[\"Projects/Paper Kite.md\",\"a.md\"]}");
    assertThat(
            answer(
                    "find_notes",
                    "{\"tag\":\"project\",\"property\":{\"name\":\"Status\",\"equals\":\"open\"}}")
                .toString())
        .isEqualTo("{\"notes\":[\"Projects/Paper Kite.md\"]}");
    assertThat(
            answer("find_notes", "{\"property\":{\"name\":\"due\",\"after\":\"2026-11-30\"}}")
                .toString())
        .isEqualTo("{\"notes\":[\"Projects/Paper Kite.md\"]}");
    assertThat(
            answer("find_notes", "{\"property\":{\"name\":\"due\",\"before\":\"2026-12-01\"}}")
                .toString())
        .isEqualTo("{\"notes\":[]}");
    assertThat(answer("find_notes", "{\"folder\":\"Projects\"}").toString())
        .isEqualTo("{\"notes\":[\"Projects/Paper Kite.md\"]}");
    assertThat(answer("find_notes", "{\"tag\":\"private\"}").toString())
        .isEqualTo("{\"notes\":[]}");
    assertThat(answer("find_notes", "{\"modified\":{\"after\":\"2000-01-01\"}}").at("/notes"))
        .hasSize(3);
    assertThat(refusal("find_notes", "{}")).startsWith("find_notes needs at least one of");
    assertThat(refusal("find_notes", "{\"property\":{\"name\":\"a\",\"name\":\"b\"}}"))
        .isEqualTo("duplicate key \"name\" in argument \"property\": each key may appear once");
    assertThat(refusal("find_notes", "{\"property\":{\"name\":\"a\",\"x\":\"b\"}}"))
        .isEqualTo(
            "unknown key \"x\" in argument \"property\": it accepts only \"after\", \"before\","
                + " \"contains\", \"equals\", \"name\"");
    assertThat(refusal("find_notes", "{\"property\":{\"name\":\"due\",\"after\":\"soon\"}}"))
        .startsWith("after \"soon\" is not a date");
    // A day the calendar lacks, a time of day past 23:59, an offset that is none.
    for (String date :
        new String[] {"2026-02-30", "2026-13-01", "2026-12-01T24:00", "2026-12-01T10:30+2"}) {
      assertThat(
              refusal(
                  "find_notes", "{\"property\":{\"name\":\"due\",\"before\":\"" + date + "\"}}"))
          .as(date)
          .startsWith("before \"" + date + "\" is not a date");
    }
    assertThat(
            answer(
                    "find_notes",
                    "{\"property\":{\"name\":\"due\",\"before\":\"2028-02-29T23:59:59.5+02:00\"}}")
                .has("notes"))
        .isTrue();
  }

  @Test
  void readNoteGivesAnOutlineAndOneSection() {
    JsonNode outline =
        answer("read_note", "{\"path\":\"Projects/Paper Kite.md\",\"outline\":true}");
    int start = KITE.indexOf("# Paper Kite"); // ASCII: characters are bytes
    assertThat(outline.at("/outline/0").toString())
        .isEqualTo(
            "{\"heading\":\"Paper Kite\",\"level\":1,\"line\":7,\"offset\":"
                + start
                + ",\"bytes\":"
                + (KITE.length() - start)
                + "}");
    int risks = KITE.indexOf("## Risks");
    assertThat(outline.at("/outline/2").toString())
        .isEqualTo(
            "{\"heading\":\"Risks\",\"level\":2,\"line\":15,\"offset\":"
                + risks
                + ",\"bytes\":"
                + (KITE.indexOf("## Log") - risks)
                + "}");
    assertThat(outline.at("/totalBytes").asInt()).isEqualTo(KITE.length());
    assertThat(outline.at("/outline")).hasSize(5);
    JsonNode section =
        answer("read_note", "{\"path\":\"Projects/Paper Kite.md\",\"section\":\"Risks\"}");
    assertThat(section.toString())
        .isEqualTo(
            "{\"path\":\"Projects/Paper Kite.md\",\"section\":\"Risks\",\"content\":\"## Risks\\n\\n"
                + "The line may snap.\\n\\n### Weather\\n\\nWind.\\n\\n\"}");
    assertThat(
            answer(
                    "read_note",
                    "{\"path\":\"Projects/Paper Kite.md\",\"section\":\"Risks#Weather\"}")
                .at("/content")
                .asString())
        .isEqualTo("### Weather\n\nWind.\n\n");
    assertThat(refusal("read_note", "{\"path\":\"Projects/Paper Kite.md\",\"section\":\"risks\"}"))
        .startsWith("Projects/Paper Kite.md has no heading \"risks\"");
    // An editable note's section ends with the whole note's hash, the base of an edit.
    assertThat(answer("read_note", "{\"path\":\"a.md\",\"section\":\"Top\"}").has("sha256"))
        .isFalse();
  }

  @Test
  void aHiddenNoteIsRefusedAsReadNoteRefusesIt() {
    String read = refusal("read_note", "{\"path\":\"Private/Secret.md\"}");
    assertThat(refusal("backlinks", "{\"path\":\"Private/Secret.md\"}")).isEqualTo(read);
    assertThat(refusal("note_links", "{\"path\":\"Private/Secret.md\"}")).isEqualTo(read);
  }

  /**
   * A link and the note it resolves to may lower-case differently: a final sigma is one at the end
   * of a link's path and not before ".md" in the note's name.
   */
  @Test
  void aLinkThatResolvesIsABacklinkWhateverItsLowerCase() throws Exception {
    write("ΟΔΟΣ.md", "the road\n");
    write("c.md", "[[ΟΔΟΣ]] and [[οδοσ]]\n");
    assertThat(answer("backlinks", "{\"path\":\"ΟΔΟΣ.md\"}").toString())
        .isEqualTo(
            "{\"path\":\"ΟΔΟΣ.md\",\"backlinks\":[{\"path\":\"c.md\",\"line\":1,"
                + "\"context\":\"[[ΟΔΟΣ]] and [[οδοσ]]\"}]}");
    assertThat(answer("note_links", "{\"path\":\"c.md\"}").at("/links/1/resolved").asString())
        .isEqualTo("ΟΔΟΣ.md");
  }
}

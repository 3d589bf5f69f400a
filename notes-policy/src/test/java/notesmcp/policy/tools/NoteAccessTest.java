package notesmcp.policy.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import notesmcp.policy.proposals.Proposal;
import notesmcp.policy.rules.NoteName;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.vault.Rules;
import notesmcp.policy.vault.Workspace;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class NoteAccessTest {
  private static final BooleanSupplier NOT_CANCELLED = () -> false;
  private static final Instant NOW = Instant.parse("2026-08-01T12:00:00Z");
  private static final Pattern PENDING =
      Pattern.compile(
          "\\{\"status\":\"pending_approval\",\"proposal_id\":\"([0-9a-f-]{36})\","
              + "\"path\":\"draft.txt\"}");
  private static final String READABLE = "notes.txt, project.txt, draft.txt";

  @TempDir Path dir;
  private Path root;
  private NoteAccess notes;

  @BeforeEach
  void createWorkspace() throws IOException {
    root = Files.createDirectory(dir.resolve("workspace"));
    Files.writeString(root.resolve("notes.txt"), "Monday: ship.\n\"Data\", not an instruction.\n");
    Files.writeString(root.resolve("project.txt"), "Project: notes-mcp\n");
    notes = notesWith(Policy.defaults());
  }

  private NoteAccess notesWith(Policy policy) throws IOException {
    return new NoteAccess(
        policy, Workspace.at(root, Rules.NO_MARGIN), Clock.fixed(NOW, ZoneOffset.UTC));
  }

  private Outcome call(String tool, String raw) {
    return notes.execute(tool, raw, NOT_CANCELLED);
  }

  // --- tools and their schemas ---

  @Test
  void toolsAreListedInAFixedOrder() {
    assertThat(notes.tools())
        .extracting(ToolDefinition::name)
        .containsExactly("list_notes", "read_note", "propose_note");
    assertThat(notes.has("read_note")).isTrue();
    assertThat(notes.has("save_note")).isFalse();
  }

  @Test
  void onlyProposingRecordsAnything() {
    assertThat(notes.tools())
        .extracting(ToolDefinition::readOnly)
        .containsExactly(true, true, false);
  }

  @Test
  void listNotesSchemaTakesNoArguments() {
    ObjectNode schema = schemaOf("list_notes");

    assertThat(schema.toString())
        .isEqualTo("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}");
  }

  @Test
  void readNoteSchemaIsGeneratedFromTheReadableList() {
    ObjectNode schema = schemaOf("read_note");

    assertThat(schema.get("type").stringValue()).isEqualTo("object");
    assertThat(schema.get("additionalProperties").booleanValue()).isFalse();
    assertThat(schema.get("required").toString()).isEqualTo("[\"path\"]");
    assertThat(schema.get("properties").propertyNames()).containsExactly("path");
    JsonNode path = schema.get("properties").get("path");
    assertThat(path.get("type").stringValue()).isEqualTo("string");
    assertThat(path.get("enum").toString())
        .isEqualTo("[\"notes.txt\",\"project.txt\",\"draft.txt\"]");
  }

  @Test
  void proposeNoteSchemaIsGeneratedFromTheProposableListAndTheSizeLimit() {
    ObjectNode schema = schemaOf("propose_note");

    assertThat(schema.get("additionalProperties").booleanValue()).isFalse();
    assertThat(schema.get("required").toString()).isEqualTo("[\"path\",\"content\"]");
    assertThat(schema.get("properties").propertyNames()).containsExactly("path", "content");
    assertThat(schema.get("properties").get("path").get("enum").toString())
        .isEqualTo("[\"draft.txt\"]");
    JsonNode content = schema.get("properties").get("content");
    assertThat(content.get("type").stringValue()).isEqualTo("string");
    assertThat(content.get("maxLength").intValue()).isEqualTo(2048);
  }

  @Test
  void schemasFollowAConfiguredPolicy() throws IOException {
    notes = notesWith(Policy.of(List.of("b.txt", "a.txt"), List.of("new.md"), 100, 5));

    assertThat(schemaOf("read_note").get("properties").get("path").get("enum").toString())
        .isEqualTo("[\"b.txt\",\"a.txt\"]");
    assertThat(schemaOf("propose_note").get("properties").get("path").get("enum").toString())
        .isEqualTo("[\"new.md\"]");
    assertThat(
            schemaOf("propose_note").get("properties").get("content").get("maxLength").intValue())
        .isEqualTo(100);
  }

  @Test
  void policyWithNothingProposableOffersOnlyTwoTools() throws IOException {
    notes = notesWith(Policy.of(List.of("notes.txt"), List.of(), 2048, 16));

    assertThat(notes.tools())
        .extracting(ToolDefinition::name)
        .containsExactly("list_notes", "read_note");
    assertThatThrownBy(() -> call("propose_note", "{\"path\":\"draft.txt\",\"content\":\"x\"}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown tool \"propose_note\"");
  }

  private ObjectNode schemaOf(String tool) {
    return notes.tools().stream()
        .filter(t -> t.name().equals(tool))
        .findFirst()
        .orElseThrow()
        .inputSchema();
  }

  // --- answers ---

  @Test
  void listNotesAnswersTheReadableNotesThatExistInPolicyOrder() {
    assertThat(call("list_notes", null))
        .isEqualTo(new Outcome.Answer("{\"notes\":[\"notes.txt\",\"project.txt\"]}"));
    assertThat(call("list_notes", "{}"))
        .isEqualTo(new Outcome.Answer("{\"notes\":[\"notes.txt\",\"project.txt\"]}"));
  }

  @Test
  void listNotesLeavesOutLinksAndDirectories() throws IOException {
    Files.delete(root.resolve("project.txt"));
    Files.createSymbolicLink(root.resolve("project.txt"), root.resolve("notes.txt"));
    Files.createDirectory(root.resolve("draft.txt"));

    assertThat(call("list_notes", null))
        .isEqualTo(new Outcome.Answer("{\"notes\":[\"notes.txt\"]}"));
  }

  @Test
  void readNoteAnswersThePathAndTheContentAsJson() {
    assertThat(call("read_note", "{\"path\":\"notes.txt\"}"))
        .isEqualTo(
            new Outcome.Answer(
                "{\"path\":\"notes.txt\",\"content\":\"Monday: ship.\\n\\\"Data\\\", not an"
                    + " instruction.\\n\"}"));
  }

  @Test
  void readNoteOfAMissingAllowedNoteIsARefusal() {
    assertThat(call("read_note", "{\"path\":\"draft.txt\"}"))
        .isEqualTo(new Outcome.Refusal("draft.txt does not exist in the workspace"));
  }

  @Test
  void proposeNoteAnswersPendingApprovalAndWritesNothing() throws IOException {
    Outcome outcome = call("propose_note", "{\"path\":\"draft.txt\",\"content\":\"hello\"}");

    assertThat(outcome).isInstanceOf(Outcome.Answer.class);
    Matcher matcher = PENDING.matcher(outcome.text());
    assertThat(matcher.matches()).as(outcome.text()).isTrue();
    Proposal pending = notes.pending();
    assertThat(pending.id()).isEqualTo(matcher.group(1));
    assertThat(pending.path()).isEqualTo(NoteName.configured("draft.txt"));
    assertThat(pending.content()).isEqualTo("hello");
    assertThat(pending.createdAt()).isEqualTo(NOW);
    assertThat(root.resolve("draft.txt")).doesNotExist();
  }

  @Test
  void proposalOfExactlyTheSizeLimitIsAccepted() {
    String content = "\u20ac".repeat(682) + "xx"; // 2,046 + 2 = 2,048 bytes

    assertThat(call("propose_note", proposal(content))).isInstanceOf(Outcome.Answer.class);
  }

  @Test
  void proposalOverTheSizeLimitIsRefusedCountingUtf8Bytes() {
    String content = "\u20ac".repeat(683); // 683 chars, 2,049 bytes

    assertThat(call("propose_note", proposal(content)))
        .isEqualTo(new Outcome.Refusal("content is 2049 bytes of UTF-8; the limit is 2048 bytes"));
    assertThat(notes.pending()).isNull();
  }

  @Test
  void proposalWithALoneSurrogateIsRefused() {
    assertThat(call("propose_note", "{\"path\":\"draft.txt\",\"content\":\"ab\\ud800c\"}"))
        .isEqualTo(
            new Outcome.Refusal(
                "content is not valid UTF-8: unpaired surrogate \\ud800 at character 2"));
    assertThat(call("propose_note", "{\"path\":\"draft.txt\",\"content\":\"\\udc00\"}"))
        .isEqualTo(
            new Outcome.Refusal(
                "content is not valid UTF-8: unpaired surrogate \\udc00 at character 0"));
    assertThat(call("propose_note", "{\"path\":\"draft.txt\",\"content\":\"x\\ud83d\"}"))
        .isEqualTo(
            new Outcome.Refusal(
                "content is not valid UTF-8: unpaired surrogate \\ud83d at character 1"));
    assertThat(notes.pending()).isNull();
  }

  @Test
  void proposalWithASurrogatePairIsAccepted() {
    assertThat(call("propose_note", "{\"path\":\"draft.txt\",\"content\":\"\\ud83d\\ude00\"}"))
        .isInstanceOf(Outcome.Answer.class);
    assertThat(notes.pending().content()).isEqualTo("\ud83d\ude00");
  }

  @Test
  void proposalForAnExistingNoteIsRefused() throws IOException {
    Files.writeString(root.resolve("draft.txt"), "already here");

    assertThat(call("propose_note", proposal("new text")))
        .isEqualTo(
            new Outcome.Refusal(
                "draft.txt already exists; a proposal may only create a new note, never replace"
                    + " one"));
    assertThat(notes.pending()).isNull();
  }

  @Test
  void proposalOverADanglingSymlinkIsRefused() throws IOException {
    Files.createSymbolicLink(root.resolve("draft.txt"), dir.resolve("outside-target.txt"));

    assertThat(call("propose_note", proposal("new text")))
        .isEqualTo(
            new Outcome.Refusal(
                "draft.txt already exists; a proposal may only create a new note, never replace"
                    + " one"));
    assertThat(dir.resolve("outside-target.txt")).doesNotExist();
  }

  @Test
  void secondProposalIsRefusedWhileOneIsPending() {
    call("propose_note", proposal("first"));
    String id = notes.pending().id();

    assertThat(call("propose_note", proposal("second")))
        .isEqualTo(
            new Outcome.Refusal(
                "a proposal is already pending ("
                    + id
                    + " for draft.txt); this server process holds at most one pending"
                    + " proposal"));
    assertThat(notes.pending().content()).isEqualTo("first");
  }

  private static String proposal(String content) {
    return "{\"path\":\"draft.txt\",\"content\":\"" + content + "\"}";
  }

  // --- docs/behaviour.md, "Refusals": what the policy refuses, each one a refusal that says why
  // ---

  static List<Arguments> refusals() {
    String onlyReadable = " is not allowed: it must be exactly one of " + READABLE;
    return List.of(
        Arguments.of(
            "read_note",
            "{\"path\":\"notes.txt\",\"extra\":1}",
            "unknown argument \"extra\": read_note accepts only \"path\""),
        Arguments.of(
            "propose_note",
            "{\"path\":\"draft.txt\",\"content\":\"x\",\"approved\":true}",
            "unknown argument \"approved\": propose_note accepts only \"content\", \"path\""),
        Arguments.of(
            "list_notes",
            "{\"path\":\"notes.txt\"}",
            "unknown argument \"path\": list_notes takes no arguments"),
        Arguments.of(
            "read_note",
            "{\"path\":\"project.txt\",\"path\":\"notes.txt\"}",
            "duplicate argument \"path\": each key may appear once"),
        Arguments.of(
            "read_note",
            "{\"path\":[\"notes.txt\"]}",
            "argument \"path\" must be a string, not array"),
        Arguments.of(
            "read_note", "{\"path\":null}", "argument \"path\" must be a string, not null"),
        Arguments.of("read_note", "{}", "missing required argument \"path\""),
        Arguments.of("read_note", null, "missing required argument \"path\""),
        Arguments.of(
            "propose_note", "{\"path\":\"draft.txt\"}", "missing required argument \"content\""),
        Arguments.of("read_note", path("../private.txt"), "path \"../private.txt\"" + onlyReadable),
        Arguments.of("read_note", path("./notes.txt"), "path \"./notes.txt\"" + onlyReadable),
        Arguments.of("read_note", path("notes.txt/"), "path \"notes.txt/\"" + onlyReadable),
        Arguments.of("read_note", path("/abs/notes.txt"), "path \"/abs/notes.txt\"" + onlyReadable),
        Arguments.of("read_note", path("NOTES.TXT"), "path \"NOTES.TXT\"" + onlyReadable),
        Arguments.of("read_note", path("notes\\\\txt"), "path \"notes\\\\txt\"" + onlyReadable),
        Arguments.of(
            "read_note", path("notes.txt\\u0000"), "path \"notes.txt\\u0000\"" + onlyReadable),
        Arguments.of("read_note", path("notes%2etxt"), "path \"notes%2etxt\"" + onlyReadable),
        Arguments.of(
            "read_note", path("notes\\u2024txt"), "path \"notes\\u2024txt\"" + onlyReadable),
        Arguments.of("read_note", path(" notes.txt "), "path \" notes.txt \"" + onlyReadable),
        Arguments.of("read_note", path(""), "path \"\"" + onlyReadable),
        Arguments.of(
            "propose_note",
            "{\"path\":\"notes.txt\",\"content\":\"x\"}",
            "path \"notes.txt\" is not allowed: it must be exactly one of draft.txt"),
        Arguments.of("read_note", "[]", "arguments must be a JSON object"),
        Arguments.of(
            "read_note", "{\"path\":\"notes.txt\"}{}", "arguments must be a single JSON object"));
  }

  private static String path(String jsonStringBody) {
    return "{\"path\":\"" + jsonStringBody + "\"}";
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("refusals")
  void policyRefusesWithAReason(String tool, String raw, String reason) {
    assertThat(call(tool, raw)).isEqualTo(new Outcome.Refusal(reason));
    assertThat(notes.pending()).isNull();
  }

  // --- budget, cancellation ---

  @Test
  void callAfterTheBudgetIsSpentIsRefusedAndRefusalsCount() throws IOException {
    notes = notesWith(Policy.defaults().withMaxCalls(3));

    assertThat(call("list_notes", null)).isInstanceOf(Outcome.Answer.class);
    assertThat(call("read_note", "{\"path\":\"../x\"}")).isInstanceOf(Outcome.Refusal.class);
    assertThat(call("read_note", "not json")).isInstanceOf(Outcome.Refusal.class);
    assertThat(call("list_notes", null))
        .isEqualTo(
            new Outcome.Refusal(
                "call budget spent: this server process dispatches at most 3 tool calls; start a"
                    + " new server process to continue"));
    assertThat(call("read_note", "{\"path\":\"notes.txt\"}")).isInstanceOf(Outcome.Refusal.class);
  }

  @Test
  void defaultBudgetIsSixteenCalls() {
    for (int i = 0; i < 16; i++) {
      assertThat(call("list_notes", null)).isInstanceOf(Outcome.Answer.class);
    }
    assertThat(call("list_notes", null).text()).startsWith("call budget spent:");
  }

  @Test
  void zeroBudgetRefusesEveryCall() throws IOException {
    notes = notesWith(Policy.defaults().withMaxCalls(0));

    assertThat(call("list_notes", null).text())
        .isEqualTo(
            "call budget spent: this server process dispatches at most 0 tool calls; start a new"
                + " server process to continue");
  }

  @Test
  void unknownToolIsAnIllegalArgumentAndDoesNotCount() throws IOException {
    notes = notesWith(Policy.defaults().withMaxCalls(1));

    assertThatThrownBy(() -> call("save_note", "{}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown tool \"save_note\"");
    assertThat(call("list_notes", null)).isInstanceOf(Outcome.Answer.class);
  }

  @Test
  void cancelledCallThrowsDoesNotCountAndLeavesNothingPending() throws IOException {
    notes = notesWith(Policy.defaults().withMaxCalls(1));

    assertThatThrownBy(() -> notes.execute("propose_note", proposal("x"), () -> true))
        .isInstanceOf(CancellationException.class)
        .hasMessage("cancelled before propose_note ran");
    assertThat(notes.pending()).isNull();
    assertThat(call("propose_note", proposal("y"))).isInstanceOf(Outcome.Answer.class);
    assertThat(notes.pending().content()).isEqualTo("y");
  }

  @Test
  void cancellationIsCheckedEvenWhenTheBudgetIsSpent() throws IOException {
    notes = notesWith(Policy.defaults().withMaxCalls(0));

    assertThatThrownBy(() -> notes.execute("list_notes", null, () -> true))
        .isInstanceOf(CancellationException.class);
  }
}

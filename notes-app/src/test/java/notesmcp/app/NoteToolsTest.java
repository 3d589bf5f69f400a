package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import notesmcp.files.ChangeRule;
import notesmcp.mcp.server.Tools;
import notesmcp.mcp.server.Tools.Tool;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.tools.NoteAccess;
import notesmcp.policy.tools.ToolDefinition;
import notesmcp.policy.vault.Workspace;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NoteToolsTest {
  private static final BooleanSupplier NOT_CANCELLED = () -> false;

  @TempDir Path dir;
  private NoteAccess notes;
  private NoteTools tools;

  @BeforeEach
  void createTools() throws IOException {
    Files.writeString(dir.resolve("notes.txt"), "hello");
    // No change margin: the note was written a moment ago (the margin is ChangeRuleTest's).
    notes =
        new NoteAccess(
            Policy.defaults(),
            Workspace.at(dir, new ChangeRule(true, Duration.ZERO)),
            Clock.systemUTC());
    tools = new NoteTools(notes);
  }

  @Test
  void definitionsPassThroughUnchanged() {
    assertThat(tools.list()).hasSameSizeAs(notes.tools());
    for (int i = 0; i < notes.tools().size(); i++) {
      Tool tool = tools.list().get(i);
      ToolDefinition definition = notes.tools().get(i);
      assertThat(tool.name()).isEqualTo(definition.name());
      assertThat(tool.description()).isEqualTo(definition.description());
      assertThat(tool.inputSchema()).isEqualTo(definition.inputSchema());
    }
  }

  @Test
  void readingToolsAreMarkedReadOnlyAndProposingIsNot() {
    assertThat(tools.list().get(0).annotations().toString())
        .isEqualTo("{\"readOnlyHint\":true,\"openWorldHint\":false}");
    assertThat(tools.list().get(1).annotations().toString())
        .isEqualTo("{\"readOnlyHint\":true,\"openWorldHint\":false}");
    assertThat(tools.list().get(2).name()).isEqualTo("propose_note");
    assertThat(tools.list().get(2).annotations().toString())
        .isEqualTo(
            "{\"readOnlyHint\":false,\"destructiveHint\":false,\"idempotentHint\":false,"
                + "\"openWorldHint\":false}");
  }

  @Test
  void answerIsAResultWithIsErrorFalse() {
    assertThat(tools.call("read_note", "{\"path\":\"notes.txt\"}", null, null, NOT_CANCELLED))
        .isEqualTo(new Tools.Result("{\"path\":\"notes.txt\",\"content\":\"hello\"}", false));
  }

  @Test
  void refusalIsAResultWithIsErrorTrueAndTheSameText() {
    assertThat(tools.call("read_note", "{\"path\":\"../notes.txt\"}", null, null, NOT_CANCELLED))
        .isEqualTo(
            new Tools.Result(
                "path \"../notes.txt\" is not allowed: it must be exactly one of notes.txt,"
                    + " project.txt, draft.txt",
                true));
  }

  @Test
  void aCancelledCallStopsBeforeThePolicyRuns() {
    BooleanSupplier cancelled = () -> true;

    assertThatThrownBy(
            () ->
                tools.call(
                    "propose_note",
                    "{\"path\":\"draft.txt\",\"content\":\"x\"}",
                    null,
                    null,
                    cancelled))
        .isInstanceOf(CancellationException.class);
    assertThat(notes.pending()).isNull();
  }
}

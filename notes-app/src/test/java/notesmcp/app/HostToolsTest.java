package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import notesmcp.mcp.server.Tools;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.tools.NoteAccess;
import notesmcp.policy.tools.NoteSearch;
import notesmcp.policy.vault.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one list host entries are made from ({@link HostTools}) follows the annotations the server
 * really advertises: every tool it marks read-only is allowed without a prompt, every other tool is
 * asked, and no tool is on both lists.
 */
class HostToolsTest {
  @TempDir Path dir;

  @Test
  void everyToolTheServerListsIsOnTheListItsAnnotationSays() throws IOException {
    NoteTools tools =
        new NoteTools(new NoteAccess(Policy.defaults(), Workspace.at(dir), Clock.systemUTC()));
    // A policy file's every tool: edits, search and the structure's.
    NoteTools vault =
        new NoteTools(
            new NoteAccess(
                    Policy.of(
                            List.of("**/*.md"),
                            List.of(),
                            List.of("Inbox/*.md"),
                            List.of("*.md"),
                            65536,
                            100,
                            0)
                        .withSearch(true),
                    Workspace.at(dir),
                    Clock.systemUTC())
                .withStructure()
                .withSearch(
                    corpus -> {
                      throw new NoteSearch.Refused("not in this test");
                    }));
    assertThat(vault.list()).hasSize(10);
    check(tools);
    check(vault);
  }

  private static void check(NoteTools tools) {
    assertThat(tools.list()).isNotEmpty();
    for (Tools.Tool tool : tools.list()) {
      boolean readOnly = tool.annotations().path("readOnlyHint").asBoolean(false);
      assertThat(readOnly ? HostTools.READ_ONLY : HostTools.ASKED)
          .as(tool.name() + " (readOnlyHint " + readOnly + ")")
          .contains(tool.name());
      assertThat(readOnly ? HostTools.ASKED : HostTools.READ_ONLY).doesNotContain(tool.name());
    }
  }

  @Test
  void noToolIsBothAllowedAndAsked() {
    assertThat(HostTools.READ_ONLY).doesNotContainAnyElementsOf(HostTools.ASKED);
  }
}

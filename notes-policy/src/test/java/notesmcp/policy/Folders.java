package notesmcp.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import notesmcp.policy.Notes.Outcome;
import notesmcp.policy.Notes.Requester;

/** A workspace and a proposals folder in a temporary directory, and the two views on them. */
final class Folders {
  private static final Pattern ID = Pattern.compile("\"proposal_id\":\"([0-9a-f-]{36})\"");

  final Path root;
  final Workspace workspace;
  final ProposalDirectory proposals;
  final Notes notes;

  Folders(Path dir) throws IOException, ProposalDirectory.Unusable {
    root = Files.createDirectories(dir.resolve("workspace"));
    Files.writeString(root.resolve("notes.txt"), "hello\n");
    workspace = Workspace.at(root);
    proposals = ProposalDirectory.open(dir.resolve("proposals"), workspace);
    Policy policy =
        Policy.of(
            List.of("notes.txt", "draft.txt", "todo.txt"),
            List.of("draft.txt", "todo.txt"),
            2048,
            1000);
    notes = new Notes(policy, workspace, Clock.systemUTC(), proposals);
  }

  /** Proposes {@code content} for {@code name} and returns the proposal's id. */
  String propose(String name, String content) {
    Outcome outcome =
        notes.execute(
            Notes.PROPOSE_NOTE,
            "{\"path\":\"" + name + "\",\"content\":" + json(content) + "}",
            new Requester("test-client", "1.0"),
            () -> false);
    assertThat(outcome).as(outcome.text()).isInstanceOf(Outcome.Answer.class);
    Matcher id = ID.matcher(outcome.text());
    assertThat(id.find()).isTrue();
    return id.group(1);
  }

  Approvals approvals() {
    return approvals(point -> {});
  }

  Approvals approvals(Consumer<String> checkpoints) {
    return new Approvals(workspace, proposals, Clock.systemUTC(), System.err, checkpoints);
  }

  Path note(String name) {
    return root.resolve(name);
  }

  Path record(String id) {
    return proposals.path().resolve(id + ".json");
  }

  static String json(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20 || c > 0x7e) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }
}

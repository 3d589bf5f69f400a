package notesmcp.policy.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import notesmcp.policy.proposals.ProposalDirectory;
import notesmcp.policy.proposals.Requester;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.tools.NoteAccess;
import notesmcp.policy.tools.Outcome;
import notesmcp.policy.vault.Workspace;

/** A workspace and a proposals folder in a temporary directory, and the two views on them. */
public final class Folders {
  private static final Pattern ID = Pattern.compile("\"proposal_id\":\"([0-9a-f-]{36})\"");

  public final Path root;
  public final Workspace workspace;
  public final ProposalDirectory proposals;
  public final NoteAccess notes;

  public Folders(Path dir) throws IOException, ProposalDirectory.Unusable {
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
    notes = new NoteAccess(policy, workspace, Clock.systemUTC(), proposals);
  }

  /** Proposes {@code content} for {@code name} and returns the proposal's id. */
  public String propose(String name, String content) {
    Outcome outcome =
        notes.execute(
            NoteAccess.PROPOSE_NOTE,
            "{\"path\":\"" + name + "\",\"content\":" + json(content) + "}",
            new Requester("test-client", "1.0"),
            () -> false);
    assertThat(outcome).as(outcome.text()).isInstanceOf(Outcome.Answer.class);
    Matcher id = ID.matcher(outcome.text());
    assertThat(id.find()).isTrue();
    return id.group(1);
  }

  public Approvals approvals() {
    return approvals(point -> {});
  }

  public Approvals approvals(Consumer<String> checkpoints) {
    return new Approvals(workspace, proposals, Clock.systemUTC(), System.err, checkpoints);
  }

  public Path note(String name) {
    return root.resolve(name);
  }

  public Path record(String id) {
    return proposals.path().resolve(id + ".json");
  }

  public static String json(String text) {
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

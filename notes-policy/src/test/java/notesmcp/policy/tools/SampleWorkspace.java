package notesmcp.policy.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.vault.Rules;
import notesmcp.policy.vault.Workspace;

/**
 * One workspace for the fuzz tests, made once per test JVM: notes.txt and project.txt exist,
 * draft.txt does not. Nothing writes to it (a proposal only records), so every call sees the same.
 */
public final class SampleWorkspace {
  public static final String NOTES_TXT = "Monday: ship.\n\"Data\", not an instruction.\n";
  public static final String PROJECT_TXT = "Project: notes-mcp\n";
  public static final Workspace WORKSPACE = create();

  private SampleWorkspace() {}

  private static Workspace create() {
    try {
      Path root = Files.createTempDirectory("notes-fuzz");
      root.toFile().deleteOnExit();
      Files.writeString(root.resolve("notes.txt"), NOTES_TXT).toFile().deleteOnExit();
      Files.writeString(root.resolve("project.txt"), PROJECT_TXT).toFile().deleteOnExit();
      Rules.waitOutMargin(); // the notes were just written: let them settle
      return Workspace.at(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Fresh notes with the default policy's lists and no call budget to run out: nothing pending, no
   * call counted, whatever an earlier input did.
   */
  public static NoteAccess notes() {
    return new NoteAccess(
        Policy.of(
            List.of("notes.txt", "project.txt", "draft.txt"),
            List.of("draft.txt"),
            Policy.DEFAULT_MAX_NOTE_BYTES,
            Integer.MAX_VALUE),
        WORKSPACE,
        Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
  }
}

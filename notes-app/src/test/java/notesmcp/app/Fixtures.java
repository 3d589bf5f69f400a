package notesmcp.app;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The sample notes every end-to-end test starts from. */
final class Fixtures {
  static final String NOTES = "Monday: ship the preview.\nA note is data, not an instruction.\n";
  static final String PROJECT = "Project: notes-mcp\nStatus: testing\n";

  private Fixtures() {}

  /** A workspace folder inside {@code dir} holding notes.txt and project.txt (no draft.txt). */
  static Path workspace(Path dir) throws IOException {
    Path root = Files.createDirectories(dir.resolve("workspace"));
    Files.writeString(root.resolve("notes.txt"), NOTES, StandardCharsets.UTF_8);
    Files.writeString(root.resolve("project.txt"), PROJECT, StandardCharsets.UTF_8);
    return root;
  }
}

package notesmcp.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Where a folder named on the command line is, or would be once made, decided before anything is
 * created: options are fully checked before anything is created on disk ({@code docs/behaviour.md},
 * "Limits"; {@code StartUpChecksIT}). Stateless; any thread.
 */
public final class PlannedFolder {
  private PlannedFolder() {}

  /**
   * The real path {@code dir} has, or would have once {@code mkdir -p} made it, without creating
   * anything: part by part from the root, each part that exists is resolved to its real path (links
   * followed), a missing part is appended by name, {@code .} is skipped, and {@code ..} goes to the
   * parent of what was resolved so far (a missing part becomes a plain directory, so its {@code ..}
   * is its parent). A relative {@code dir} is taken from the working directory.
   *
   * @throws java.nio.file.NoSuchFileException for a link that leads nowhere: it cannot become a
   *     folder
   */
  public static Path realPathOf(Path dir) throws IOException {
    Path absolute = dir.toAbsolutePath();
    Path resolved = absolute.getRoot();
    for (Path part : absolute) {
      String name = part.toString();
      if (name.equals("..")) {
        resolved = resolved.getParent() == null ? resolved : resolved.getParent();
      } else if (!name.equals(".")) {
        Path next = resolved.resolve(name);
        resolved = Files.notExists(next, LinkOption.NOFOLLOW_LINKS) ? next : next.toRealPath();
      }
    }
    return resolved;
  }
}

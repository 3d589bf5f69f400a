package notesmcp.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * File operations that survive a crash and never replace anything: a file appears under its name
 * complete or not at all, owner-only from its first byte, and no link is ever followed. Every one
 * works relative to a folder held by its descriptor ({@link WritableFolder}), never by path.
 * Stateless; any thread.
 */
public final class DurableFiles {
  /** Prefix of the temporary names {@link #publish} uses; no record or marker starts with it. */
  public static final String TEMP_PREFIX = ".tmp-";

  private DurableFiles() {}

  /**
   * Creates {@code name} in {@code folder} with {@code bytes}, forced to disk. Creation is
   * exclusive ({@code O_CREAT|O_EXCL|O_NOFOLLOW}, mode 0600): it fails if anything, even a dangling
   * link, is at the name.
   *
   * @throws java.nio.file.FileAlreadyExistsException if the name is taken
   */
  public static void createSynced(WritableFolder folder, String name, byte[] bytes)
      throws IOException {
    try (WritableFile file = folder.create(name)) {
      file.write(bytes);
      file.sync();
    }
  }

  /**
   * Publishes {@code bytes} as {@code name} in {@code folder}: written and synced under a temporary
   * name, given the final name by a hard link (atomic, and refused if the name is taken, so nothing
   * is ever replaced), the temporary name removed, the folder synced. A crash leaves either no
   * {@code name} or the complete file, plus at most a stale temporary file for {@link
   * #removeStaleTemporaries}. This is "temp file, fsync, rename, fsync the folder" with the rename
   * made exclusive ({@code docs/approvals.md}).
   */
  public static void publish(WritableFolder folder, String name, byte[] bytes) throws IOException {
    String temp = TEMP_PREFIX + UUID.randomUUID();
    createSynced(folder, temp, bytes);
    try {
      folder.link(temp, folder, name);
    } finally {
      folder.remove(temp);
    }
    folder.sync();
  }

  /**
   * Removes what an interrupted {@link #publish} left in {@code folder}; call with writers locked.
   */
  public static void removeStaleTemporaries(WritableFolder folder) throws IOException {
    byte[] prefix = TEMP_PREFIX.getBytes(StandardCharsets.US_ASCII);
    List<String> stale = new ArrayList<>();
    try (Folder.Entries entries = folder.folder().entries()) {
      Folder.Entry entry;
      while ((entry = entries.next()) != null) {
        String text = entry.text();
        if (text != null && startsWith(entry.name(), prefix)) {
          stale.add(text);
        }
      }
    }
    for (String name : stale) {
      removeIfPresent(folder, name);
    }
  }

  /** Removes {@code name} from {@code folder} if anything is there (never followed). */
  public static void removeIfPresent(WritableFolder folder, String name) throws IOException {
    try {
      folder.remove(name);
    } catch (NoSuchFileException e) {
      // nothing to remove
    }
  }

  private static boolean startsWith(byte[] name, byte[] prefix) {
    if (name.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (name[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }
}

package notesmcp.policy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.UUID;

/**
 * File operations that survive a crash and never replace anything: a file appears under its name
 * complete or not at all, owner-only from its first byte, and no link is ever followed. Used for
 * proposal records, their status markers, and the committed note. Stateless; any thread.
 */
final class DurableFiles {
  /** Prefix of the temporary names {@link #publish} uses; no record or marker starts with it. */
  static final String TEMP_PREFIX = ".tmp-";

  /** "Every file in it is owner-only"; "The committed note is created 0600" (approvals issue). */
  static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

  private static final LinkOption NO_FOLLOW = LinkOption.NOFOLLOW_LINKS;

  private DurableFiles() {}

  /**
   * Creates {@code file} with {@code bytes}, forced to disk. Creation is exclusive ({@code
   * O_CREAT|O_EXCL}): it fails if anything, even a dangling link, is at the name.
   */
  static void createSynced(Path file, byte[] bytes) throws IOException {
    try (FileChannel channel =
        FileChannel.open(
            file,
            Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, NO_FOLLOW),
            OWNER_ONLY)) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      channel.force(true);
    }
  }

  /**
   * Publishes {@code bytes} as {@code dir/name}: written and synced under a temporary name, given
   * the final name by a hard link (atomic, and refused if the name is taken, so nothing is ever
   * replaced), the temporary name removed, the directory synced. A crash leaves either no {@code
   * name} or the complete file, plus at most a stale temporary file for {@link
   * #removeStaleTemporaries}. The approvals issue asks for "temp file, fsync, rename, fsync the
   * directory"; a link is that rename, made exclusive.
   */
  static void publish(Path dir, String name, byte[] bytes) throws IOException {
    Path temp = dir.resolve(TEMP_PREFIX + UUID.randomUUID());
    createSynced(temp, bytes);
    try {
      Files.createLink(dir.resolve(name), temp);
    } finally {
      Files.delete(temp);
    }
    syncDirectory(dir);
  }

  /** Removes what an interrupted {@link #publish} left in {@code dir}; call with writers locked. */
  static void removeStaleTemporaries(Path dir) throws IOException {
    try (var entries = Files.newDirectoryStream(dir, TEMP_PREFIX + "*")) {
      for (Path stale : entries) {
        Files.deleteIfExists(stale);
      }
    }
  }

  /** Forces {@code dir}'s entries to disk, so a name just created or removed survives a crash. */
  static void syncDirectory(Path dir) throws IOException {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }
}

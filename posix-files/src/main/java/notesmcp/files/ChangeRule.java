package notesmcp.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The two facts every careful read depends on beyond the file itself ({@code docs/behaviour.md},
 * "What holds against other processes"):
 *
 * <ul>
 *   <li>{@code hardLinksProtected}: whether the kernel refuses a hard link to a file the linking
 *       user cannot read and write ({@code fs.protected_hardlinks = 1}). Without it another user
 *       who can write a folder can link into it a file only this user can read; so then a folder
 *       writable by another user is refused, at start-up and wherever a read reaches one.
 *   <li>{@code margin}: how long ago the file's and its folder's change times must be, and
 *       unchanged across the read. Within it a read is refused ("changed while it was being read;
 *       try again"), or waited out where a person or a commit is the reader.
 * </ul>
 *
 * Immutable.
 */
public record ChangeRule(boolean hardLinksProtected, Duration margin) {
  /**
   * The margin, as measured against the rename cycle of {@code bench/race/run} ({@code
   * bench/race/README.md}).
   */
  public static final Duration MARGIN = Duration.ofMillis(50);

  static final Path PROTECTED_HARDLINKS = Path.of("/proc/sys/fs/protected_hardlinks");

  public ChangeRule {
    if (margin.isNegative()) {
      throw new IllegalArgumentException("a negative margin");
    }
  }

  /**
   * This system's protection, read from {@code /proc/sys/fs/protected_hardlinks}, and the margin.
   */
  public static ChangeRule ofSystem() {
    return new ChangeRule(hardLinksProtectedBySystem(), MARGIN);
  }

  /**
   * Whether {@code /proc/sys/fs/protected_hardlinks} reads {@code 1}. Anything else (0, missing,
   * unreadable: a container without {@code /proc/sys}) counts as unprotected, the safe side.
   */
  public static boolean hardLinksProtectedBySystem() {
    try (InputStream in = Files.newInputStream(PROTECTED_HARDLINKS)) {
      byte[] value = in.readNBytes(8);
      return value.length >= 1 && value[0] == '1' && (value.length == 1 || value[1] == '\n');
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  public long marginNanos() {
    return margin.toNanos();
  }

  /**
   * Why a folder with these attributes may not be read from, or null: only when hard links are not
   * protected, a folder another user may write (owned by another user than this one or root, or
   * writable by its group or by everyone) is refused.
   */
  public String othersMayWrite(long[] folder) {
    if (hardLinksProtected) {
      return null;
    }
    return writableByOthers(folder, Posix.userId());
  }

  /** Who else may write a folder with these attributes, in words; null when nobody but us. */
  public static String writableByOthers(long[] folder, long me) {
    long owner = folder[Posix.OWNER];
    int mode = (int) folder[Posix.MODE];
    if (owner != me && owner != 0) {
      return "it is owned by another user (uid " + owner + ")";
    }
    if ((mode & 0002) != 0) {
      return "it is writable by every user (mode " + octal(mode) + ")";
    }
    if ((mode & 0020) != 0) {
      return "it is writable by its group (mode " + octal(mode) + ")";
    }
    return null;
  }

  public static String octal(int mode) {
    String digits = Integer.toOctalString(mode & 07777);
    return "0000".substring(Math.min(4, digits.length())) + digits;
  }
}

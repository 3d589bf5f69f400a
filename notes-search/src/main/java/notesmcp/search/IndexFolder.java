package notesmcp.search;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import notesmcp.files.OwnFile;
import notesmcp.files.PlannedFolder;
import notesmcp.policy.tools.NoteSearch;

/**
 * Where a kept index lives (docs/behaviour.md, "search_notes"): {@code
 * $XDG_CACHE_HOME/notes-mcp/search/KEY/}, or {@code ~/.cache/notes-mcp/search/KEY/} when that
 * variable is unset or not absolute. KEY is a hash of the corpus's key (the root's real path and
 * identity, the policy's readable names and size limit, this engine's format), so an index only
 * ever holds notes of one root under one policy.
 *
 * <p>Used only when every folder from the cache folder down is a real folder (not a link), owned by
 * this process's user, and writable by nobody else, and every entry of the index's own folder is a
 * regular file of this user's ({@link KeptDirectory#stray}); the folders this makes are mode 0700.
 * Otherwise the index is kept in memory for this process only, and the log says why. Its files are
 * opened only carefully, never by a plain open of their name ({@link KeptDirectory}, {@link
 * OwnFile}): a FIFO there would block it for ever. Pruned at every open: an index unused for {@link
 * #UNUSED} or whose root is gone (or is another folder now) is deleted, and at most {@link #KEPT}
 * are kept, the most recently used.
 */
final class IndexFolder {
  static final String FORMAT = "notes-search 1 (Lucene 9.12)";
  static final Duration UNUSED = Duration.ofDays(30);
  static final int KEPT = 8;
  private static final String ROOT_FILE = "root";
  private static final String USED_FILE = "used";

  /**
   * What a build of the index in this folder has done so far, for the servers and {@code notes-mcp
   * index} runs that wait for it ({@link #progress}); there only while a build runs.
   */
  static final String PROGRESS_FILE = "progress";

  private static final String PROGRESS_NEW = "progress.new";

  /** How old a progress file may be and still tell of a build that runs. */
  static final long PROGRESS_FRESH_MILLIS = 15_000;

  private IndexFolder() {}

  /** The folder for {@code key}, made and checked, or null (keep the index in memory). */
  static Path choose(
      Map<String, String> environment,
      String key,
      String root,
      String rootIdentity,
      PrintStream log) {
    Path base = NoteSearch.cacheFolder(environment);
    if (base == null) {
      log.println("notes-mcp: search index kept in memory: neither XDG_CACHE_HOME nor HOME is set");
      return null;
    }
    try {
      // Refused at start (StartUp); checked again before anything is made, should it have moved.
      if (PlannedFolder.realPathOf(base).startsWith(Path.of(root))) {
        log.println(
            "notes-mcp: search index kept in memory: the cache folder "
                + base
                + " is inside the workspace");
        return null;
      }
      long uid = effectiveUid();
      Path search = base.resolve("notes-mcp").resolve("search");
      Path folder = search.resolve(hash(FORMAT + "\n" + key));
      for (Path level : List.of(base, base.resolve("notes-mcp"), search, folder)) {
        String problem = problem(level, uid);
        if (problem != null) {
          log.println("notes-mcp: search index kept in memory: " + level + " " + problem);
          return null;
        }
      }
      String stray = KeptDirectory.stray(folder, uid);
      if (stray != null) {
        log.println(
            "notes-mcp: search index kept in memory: "
                + folder
                + " holds what no index there is made of ("
                + stray
                + "); remove that folder, and the next search keeps a new index there");
        return null;
      }
      prune(search, folder, log);
      Path rootFile = folder.resolve(ROOT_FILE);
      if (!Files.exists(rootFile, LinkOption.NOFOLLOW_LINKS)) {
        // Created exclusively (O_EXCL): never through a link, never a FIFO's open.
        Files.write(
            rootFile,
            (root + "\n" + rootIdentity + "\n").getBytes(StandardCharsets.UTF_8),
            StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE);
      }
      // Made if missing (exclusively), and its time set through the file opened carefully: the
      // JDK sets a file's times by opening it, which a FIFO there would block.
      try (OwnFile used = OwnFile.openToWrite(folder, USED_FILE)) {
        Files.setLastModifiedTime(used.path(), FileTime.from(Instant.now()));
      }
      return folder;
    } catch (IOException | RuntimeException e) {
      log.println(
          "notes-mcp: search index kept in memory: the cache folder is unusable (" + e + ")");
      return null;
    }
  }

  /** Why {@code folder} may not hold an index (it is made, mode 0700, when missing), or null. */
  private static String problem(Path folder, long uid) throws IOException {
    try {
      Files.createDirectory(
          folder,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (FileAlreadyExistsException e) {
      // there already: checked below
    }
    if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
      return "is not a folder (a link, or a file)";
    }
    Map<String, Object> unix =
        Files.readAttributes(folder, "unix:uid,mode", LinkOption.NOFOLLOW_LINKS);
    if (((Number) unix.get("uid")).longValue() != uid) {
      return "is owned by another user";
    }
    if ((((Number) unix.get("mode")).intValue() & 022) != 0) {
      return "is writable by other users";
    }
    return null;
  }

  /** This process's effective user id, from /proc (the JDK has no call for it). */
  static long effectiveUid() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
      if (line.startsWith("Uid:")) {
        return Long.parseLong(line.substring(4).trim().split("\\s+")[1]);
      }
    }
    throw new IOException("no Uid line in /proc/self/status");
  }

  /** The identity of a folder by path ("device:inode"), or "gone". */
  static String identityOf(String path) {
    try {
      Map<String, Object> unix =
          Files.readAttributes(Path.of(path), "unix:dev,ino", LinkOption.NOFOLLOW_LINKS);
      return unix.get("dev") + ":" + unix.get("ino");
    } catch (IOException | RuntimeException e) {
      return "gone";
    }
  }

  /** Deletes indexes unused too long, of a root that is gone or replaced, and beyond the newest. */
  private static void prune(Path search, Path current, PrintStream log) throws IOException {
    List<Path> kept = new ArrayList<>();
    try (DirectoryStream<Path> folders = Files.newDirectoryStream(search)) {
      for (Path folder : folders) {
        if (folder.equals(current) || !Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
          continue;
        }
        String why = staleness(folder);
        if (why != null) {
          delete(folder, why, log);
        } else {
          kept.add(folder);
        }
      }
    }
    kept.sort(
        (a, b) -> {
          try {
            return Files.getLastModifiedTime(b.resolve(USED_FILE))
                .compareTo(Files.getLastModifiedTime(a.resolve(USED_FILE)));
          } catch (IOException e) {
            return 0;
          }
        });
    for (Path folder : kept.subList(Math.min(kept.size(), KEPT - 1), kept.size())) {
      delete(folder, "more than " + KEPT + " indexes are kept", log);
    }
  }

  private static String staleness(Path folder) {
    try {
      FileTime used =
          Files.getLastModifiedTime(folder.resolve(USED_FILE), LinkOption.NOFOLLOW_LINKS);
      if (used.toInstant().isBefore(Instant.now().minus(UNUSED))) {
        return "unused for " + UNUSED.toDays() + " days";
      }
      String[] root = readRoot(folder).split("\n", -1);
      if (root.length < 2 || !identityOf(root[0]).equals(root[1])) {
        return "its workspace is gone or is another folder now";
      }
      return null;
    } catch (IOException | RuntimeException e) {
      return "it is incomplete";
    }
  }

  /** The text of {@code folder}'s root file, opened carefully, at most 64 KiB of it. */
  private static String readRoot(Path folder) throws IOException {
    try (OwnFile file = OwnFile.open(folder, ROOT_FILE);
        InputStream in = Files.newInputStream(file.path())) {
      return new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8);
    }
  }

  private static void delete(Path folder, String why, PrintStream log) {
    if (Files.exists(folder.resolve("write.lock"), LinkOption.NOFOLLOW_LINKS)
        && Engine.isLocked(folder)) {
      return; // another server is using it right now
    }
    try {
      Files.walkFileTree(
          folder,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
                throws IOException {
              Files.delete(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
              Files.delete(dir);
              return FileVisitResult.CONTINUE;
            }
          });
      log.println(
          "notes-mcp: search: removed the kept index " + folder.getFileName() + " (" + why + ")");
    } catch (IOException e) {
      log.println("notes-mcp: search: could not remove the kept index " + folder + " (" + e + ")");
    }
  }

  /**
   * How far along a build is, as its progress file says: notes read and indexed, notes to read (0
   * while they are being counted), an estimate of the time left (-1: none yet), and when it was
   * written (milliseconds since the epoch).
   */
  record Progress(int read, int total, long millisLeft, long at) {
    /** Whether it was written recently enough to tell of a build that runs now. */
    boolean isFresh() {
      long age = System.currentTimeMillis() - at;
      return age < PROGRESS_FRESH_MILLIS && age > -PROGRESS_FRESH_MILLIS;
    }
  }

  /**
   * Writes {@code progress} in {@code folder}: a new file made exclusively (never through a link,
   * never a FIFO's open), then renamed over the old one, so a reader sees one whole or the other.
   */
  static void writeProgress(Path folder, Progress progress) throws IOException {
    Path fresh = folder.resolve(PROGRESS_NEW);
    Files.deleteIfExists(fresh);
    Files.write(
        fresh,
        (progress.read()
                + " "
                + progress.total()
                + " "
                + progress.millisLeft()
                + " "
                + progress.at()
                + "\n")
            .getBytes(StandardCharsets.US_ASCII),
        StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE);
    Files.move(
        fresh,
        folder.resolve(PROGRESS_FILE),
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
  }

  /** Removes the progress file: the build has ended. */
  static void clearProgress(Path folder) {
    try {
      Files.deleteIfExists(folder.resolve(PROGRESS_FILE));
    } catch (IOException e) {
      // left behind: it is stale within seconds, and the next build replaces it
    }
  }

  /** What the progress file in {@code folder} says, opened carefully; null when none is usable. */
  static Progress progress(Path folder) {
    String[] fields;
    try (OwnFile file = OwnFile.open(folder, PROGRESS_FILE);
        InputStream in = Files.newInputStream(file.path())) {
      fields = new String(in.readNBytes(128), StandardCharsets.US_ASCII).trim().split(" ");
    } catch (IOException | RuntimeException e) {
      return null;
    }
    try {
      if (fields.length != 4) {
        return null;
      }
      return new Progress(
          Integer.parseInt(fields[0]),
          Integer.parseInt(fields[1]),
          Long.parseLong(fields[2]),
          Long.parseLong(fields[3]));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  static String hash(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}

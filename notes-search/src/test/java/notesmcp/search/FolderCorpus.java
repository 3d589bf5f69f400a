package notesmcp.search;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import notesmcp.policy.tools.NoteSearch;
import notesmcp.text.CodePoints;

/**
 * A corpus over a plain folder for the engine's own tests and its benchmark: every {@code .md} file
 * below the root whose path has no component starting with a dot, read by path with NIO. Not the
 * program's corpus (that one reads through the policy and the careful read); the engine sees only
 * the interface, so what it does with either is the same.
 */
final class FolderCorpus implements NoteSearch.Corpus {
  private final Path root;
  private final int maxNoteBytes;

  FolderCorpus(Path root, int maxNoteBytes) {
    this.root = root;
    this.maxNoteBytes = maxNoteBytes;
  }

  @Override
  public String key() {
    return "folder " + root + " " + IndexFolder.identityOf(root.toString()) + " " + maxNoteBytes;
  }

  @Override
  public String root() {
    return root.toString();
  }

  @Override
  public List<String> notes() {
    List<String> notes = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      files
          .filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
          .map(p -> root.relativize(p).toString())
          .filter(p -> p.endsWith(".md") && !p.startsWith(".") && !p.contains("/."))
          .forEach(notes::add);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    notes.sort(CodePoints.ORDER);
    return notes;
  }

  boolean allowed(String path) {
    return path.endsWith(".md")
        && !path.startsWith(".")
        && !path.contains("/.")
        && !path.contains("..");
  }

  @Override
  public NoteSearch.Identity look(String path) {
    if (!allowed(path)) {
      return null;
    }
    try {
      Map<String, Object> a =
          Files.readAttributes(
              root.resolve(path), "unix:dev,ino,size,ctime,mode", LinkOption.NOFOLLOW_LINKS);
      if ((((Number) a.get("mode")).intValue() & 0170000) != 0100000) {
        return null;
      }
      return new NoteSearch.Identity(
          ((Number) a.get("dev")).longValue(),
          ((Number) a.get("ino")).longValue(),
          ((Number) a.get("size")).longValue(),
          ((FileTime) a.get("ctime")).to(TimeUnit.NANOSECONDS));
    } catch (IOException e) {
      return null;
    }
  }

  @Override
  public NoteSearch.Note read(String path) {
    NoteSearch.Identity before = look(path);
    if (before == null || before.size() > maxNoteBytes) {
      return null;
    }
    try {
      byte[] bytes = Files.readAllBytes(root.resolve(path));
      if (bytes.length > maxNoteBytes) {
        return null;
      }
      String text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
      return new NoteSearch.Note(
          text,
          new NoteSearch.Identity(before.device(), before.inode(), bytes.length, before.changed()));
    } catch (CharacterCodingException e) {
      return null;
    } catch (IOException e) {
      return null;
    }
  }

  @Override
  public int maxNoteBytes() {
    return maxNoteBytes;
  }
}

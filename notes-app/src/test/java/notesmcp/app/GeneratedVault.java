package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/**
 * The benchmark vault's generator (bench/vault/Generate.java) run small, {@link #NOTES} notes, for
 * the end-to-end tests of the notes' structure: the vault with a known link graph, and {@code
 * structure.json}, the generator's own account of every note's structure with every link resolved
 * by docs/knowledge.md's rule among the readable notes, computed apart from the program. Made once
 * in notes-app's {@code target/} and kept (a {@code .complete} file says it is whole); tests that
 * change the vault change a {@link #copy} of it.
 */
final class GeneratedVault {
  static final int NOTES = 400;

  /** The policy of bench/vault/policy.json, with calls enough for a test. */
  static final String POLICY =
      "{\"readable\": [\"**/*.md\"], \"exclude\": [\"Private/**\", \"Templates/**\"],"
          + " \"maxNoteBytes\": 65536, \"maxCalls\": 1000000}";

  private static Path made;
  private static JsonNode structure;

  private GeneratedVault() {}

  /** The folder holding {@code vault/} and {@code structure.json}, made on the first call. */
  static synchronized Path dir() throws IOException, InterruptedException {
    if (made != null) {
      return made;
    }
    Path repo = Path.of(System.getProperty("notesmcp.repo"));
    Path dir = repo.resolve("notes-app/target/generated-vault-" + NOTES);
    if (!Files.exists(dir.resolve(".complete"))) {
      deleteTree(dir);
      Files.createDirectories(dir.getParent());
      Path log = Files.createTempFile("generate", ".log");
      Process generate =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  repo.resolve("untrusted-text/target/classes").toString(),
                  repo.resolve("bench/vault/Generate.java").toString(),
                  "--out",
                  dir.toString(),
                  "--notes",
                  Integer.toString(NOTES))
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      assertThat(generate.waitFor(300, TimeUnit.SECONDS)).isTrue();
      assertThat(generate.exitValue()).as(Files.readString(log)).isZero();
      Files.writeString(dir.resolve(".complete"), "");
    }
    made = dir;
    return made;
  }

  /** The vault itself. */
  static Path vault() throws IOException, InterruptedException {
    return dir().resolve("vault");
  }

  /** structure.json, parsed. */
  static synchronized JsonNode structure() throws IOException, InterruptedException {
    if (structure == null) {
      structure =
          WireServer.JSON.readTree(
              Files.readString(dir().resolve("structure.json"), StandardCharsets.UTF_8));
    }
    return structure;
  }

  /** Every readable note of structure.json. */
  static List<JsonNode> readable() throws IOException, InterruptedException {
    List<JsonNode> notes = new ArrayList<>();
    for (JsonNode note : structure().get("notes")) {
      if (note.get("readable").asBoolean()) {
        notes.add(note);
      }
    }
    return notes;
  }

  /** A copy of the vault in {@code to} (a new folder), to change. */
  static Path copy(Path to) throws IOException, InterruptedException {
    Path from = vault();
    Files.walkFileTree(
        from,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path folder, BasicFileAttributes attributes)
              throws IOException {
            Files.createDirectories(to.resolve(from.relativize(folder).toString()));
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
              throws IOException {
            Files.copy(file, to.resolve(from.relativize(file).toString()));
            return FileVisitResult.CONTINUE;
          }
        });
    return to;
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Files.walkFileTree(
        dir,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
              throws IOException {
            Files.delete(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path folder, IOException e) throws IOException {
            Files.delete(folder);
            return FileVisitResult.CONTINUE;
          }
        });
  }
}

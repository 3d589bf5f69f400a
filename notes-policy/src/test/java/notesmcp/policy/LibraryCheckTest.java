package notesmcp.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check {@link Posix} makes of {@code libnotesmcp.so} before it maps it: a damaged copy (a
 * truncated one crashes the JVM when mapped) is refused with a reason, the one built is accepted.
 */
class LibraryCheckTest {
  @TempDir Path dir;
  private byte[] built;
  private String recorded;

  @BeforeEach
  void readTheBuiltLibrary() throws IOException {
    Path library = Path.of("target", "native", "libnotesmcp.so");
    built = Files.readAllBytes(library);
    try (InputStream in = Posix.class.getResourceAsStream(Posix.RECORDED_SHA256)) {
      recorded = new String(in.readNBytes(64), StandardCharsets.US_ASCII);
    }
  }

  private Path copy(byte[] bytes) throws IOException {
    return Files.write(dir.resolve("libnotesmcp.so"), bytes);
  }

  @Test
  void theLibraryAsBuiltIsAccepted() throws IOException {
    assertThat(Posix.damage(copy(built), recorded)).isNull();
  }

  @Test
  void aTruncatedCopyIsRefusedNamingItsSizeAndBothHashes() throws IOException {
    Path truncated = copy(Arrays.copyOf(built, built.length / 2));

    assertThat(Posix.damage(truncated, recorded))
        .startsWith(
            "it is damaged or not the one built with this program: " + built.length / 2 + " bytes")
        .endsWith("the build recorded " + recorded);
  }

  @Test
  void aFileThatIsNotAnElfSharedObjectIsRefused() throws IOException {
    assertThat(Posix.damage(copy(new byte[0]), recorded))
        .isEqualTo("it is 0 bytes and not an ELF shared object for x86-64");
    byte[] executable = built.clone();
    executable[16] = 2; // ET_EXEC
    assertThat(Posix.damage(copy(executable), recorded))
        .isEqualTo("it is " + built.length + " bytes and not an ELF shared object for x86-64");
  }

  @Test
  void aLinkADirectoryOrNothingIsRefused() throws IOException {
    Path real = copy(built);
    Path link = Files.createSymbolicLink(dir.resolve("link.so"), real);

    assertThat(Posix.damage(link, recorded)).isEqualTo("it is not a regular file");
    assertThat(Posix.damage(dir, recorded)).isEqualTo("it is not a regular file");
    assertThat(Posix.damage(dir.resolve("missing.so"), recorded))
        .isEqualTo("it cannot be read: no such file or folder");
  }

  @Test
  void withoutTheBuildsRecordNothingIsMapped() throws IOException {
    assertThat(Posix.damage(copy(built), null)).contains("is missing, so it cannot be checked");
  }
}

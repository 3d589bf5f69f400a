package notesmcp.files;

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
    try (InputStream in = Posix.class.getResourceAsStream(Posix.RECORD)) {
      recorded = new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip();
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
  void aTruncatedCopyIsRefusedNamingBothRecords() throws IOException {
    byte[] half = Arrays.copyOf(built, built.length / 2);

    assertThat(Posix.damage(copy(half), recorded))
        .isEqualTo(
            "it is damaged or not the one built with this program: CRC-32 and size "
                + Posix.recordOf(half)
                + ", the build recorded "
                + recorded);
    assertThat(recorded).isEqualTo(Posix.recordOf(built)).endsWith(" " + built.length);
  }

  @Test
  void oneFlippedByteIsDamageToo() throws IOException {
    byte[] flipped = built.clone();
    flipped[flipped.length - 100] ^= 1;

    assertThat(Posix.damage(copy(flipped), recorded)).startsWith("it is damaged");
  }

  @Test
  void theRecordIsTheZlibCrc32AndTheSize() {
    assertThat(Posix.recordOf("123456789".getBytes(StandardCharsets.US_ASCII)))
        .isEqualTo("cbf43926 9");
    assertThat(Posix.recordOf(new byte[0])).isEqualTo("00000000 0");
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

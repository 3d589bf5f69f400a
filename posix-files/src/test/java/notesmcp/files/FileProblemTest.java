package notesmcp.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a file operation's failure says to a person: the reason in words, never the exception's
 * class name or the path twice (callers add the path).
 */
class FileProblemTest {
  static Stream<Arguments> failures() {
    return Stream.of(
        Arguments.of(new NoSuchFileException("/w/a"), "no such file or folder"),
        Arguments.of(new AccessDeniedException("/w/a"), "permission denied"),
        Arguments.of(new NotDirectoryException("/w/a"), "not a folder"),
        Arguments.of(new FileAlreadyExistsException("/w/a"), "it already exists"),
        Arguments.of(new DirectoryNotEmptyException("/w/a"), "the folder is not empty"),
        Arguments.of(new FileSystemLoopException("/w/a"), "too many levels of symbolic links"),
        Arguments.of(
            new FileSystemException("/w/a", null, "No space left on device"),
            "No space left on device"),
        Arguments.of(new FileSystemException("/w/a"), "input/output error"),
        Arguments.of(new IOException("Input/output error at block 7"), "input/output error"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("failures")
  void eachFailureIsSaidInWords(IOException failure, String words) {
    assertThat(FileProblem.describe(failure)).isEqualTo(words);
  }
}

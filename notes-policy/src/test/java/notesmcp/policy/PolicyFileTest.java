package notesmcp.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PolicyFileTest {
  private static final String ALLOWED_CHARACTERS =
      " may hold only ASCII letters, digits, '.', '-' and '_'";

  @TempDir Path dir;

  private Path file(String json) throws IOException {
    return Files.writeString(dir.resolve("policy.json"), json);
  }

  @Test
  void goodFileOverridesTheDefaults() throws Exception {
    Policy policy =
        PolicyFile.load(
            file(
                "{\"readable\":[\"b.txt\",\"a.md\"],\"proposable\":[\"new.md\"],"
                    + "\"maxNoteBytes\":100,\"maxCalls\":3}"));

    assertThat(policy.readable()).extracting(NoteName::value).containsExactly("b.txt", "a.md");
    assertThat(policy.proposable()).extracting(NoteName::value).containsExactly("new.md");
    assertThat(policy.maxNoteBytes()).isEqualTo(100);
    assertThat(policy.maxCalls()).isEqualTo(3);
  }

  @Test
  void omittedKeysKeepTheDefaults() throws Exception {
    Policy policy = PolicyFile.load(file("{\"maxCalls\":0}"));

    assertThat(policy.readable())
        .extracting(NoteName::value)
        .containsExactly("notes.txt", "project.txt", "draft.txt");
    assertThat(policy.proposable()).extracting(NoteName::value).containsExactly("draft.txt");
    assertThat(policy.maxNoteBytes()).isEqualTo(2048);
    assertThat(policy.maxCalls()).isZero();
  }

  @Test
  void emptyProposableListIsAllowed() throws Exception {
    assertThat(PolicyFile.load(file("{\"proposable\":[]}")).proposable()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "{\"approve\":true}"
            + " | unknown key \"approve\" (known: readable, proposable, maxNoteBytes, maxCalls, search)",
        "{\"readable\":\"notes.txt\"}   | \"readable\" must be an array of note names",
        "{\"proposable\":{}}            | \"proposable\" must be an array of note names",
        "{\"readable\":[1]}             | \"readable\" must hold only strings",
        "{\"readable\":[null]}          | \"readable\" must hold only strings",
        "{\"readable\":[[\"a\"]]}       | \"readable\" must hold only strings",
        "{\"maxCalls\":\"3\"}           | \"maxCalls\" must be an integer",
        "{\"maxCalls\":1.5}             | \"maxCalls\" must be an integer",
        "{\"maxCalls\":null}            | \"maxCalls\" must be an integer",
        "{\"maxCalls\":99999999999}     | \"maxCalls\" must be an integer",
        "{\"maxNoteBytes\":true}        | \"maxNoteBytes\" must be an integer",
        "{\"readable\":[\"a/b\"]}       | note name \"a/b\"" + ALLOWED_CHARACTERS,
        "{\"readable\":[\"..\"]}        | note name \"..\" is not a file name",
        "{\"readable\":[\"../x\"]}      | note name \"../x\"" + ALLOWED_CHARACTERS,
        "{\"readable\":[\".env\"]}      | note name \".env\" must not start with '.'",
        "{\"readable\":[\"a\\u0000\"]}  | note name \"a\\u0000\"" + ALLOWED_CHARACTERS,
        "{\"readable\":[\"caf\u00e9\"]} | note name \"caf\\u00e9\"" + ALLOWED_CHARACTERS,
        "{\"proposable\":[\"\"]}        | note name \"\" is empty",
        "{\"readable\":[\"a\",\"a\"]}   | \"readable\" lists \"a\" twice",
        "{\"readable\":[]}              | readable must name at least one note",
        "{\"maxNoteBytes\":0}           | maxNoteBytes must be 1..1048576, not 0",
        "{\"maxNoteBytes\":1048577}     | maxNoteBytes must be 1..1048576, not 1048577",
        "{\"maxCalls\":-1}              | maxCalls must be >= 0, not -1",
        "[]                             | must hold one JSON object",
        "\"policy\"                     | must hold one JSON object",
        "{} {}                          | must hold exactly one JSON object",
      })
  void mistakeIsInvalidNamingTheFileAndTheProblem(String json, String problem) throws IOException {
    Path file = file(json);

    assertThatThrownBy(() -> PolicyFile.load(file))
        .isInstanceOf(PolicyFile.Invalid.class)
        .hasMessage("policy file " + file + ": " + problem);
  }

  @Test
  void duplicateKeyIsInvalid() throws IOException {
    Path file = file("{\"maxCalls\":1,\"maxCalls\":100}");

    assertThatThrownBy(() -> PolicyFile.load(file))
        .isInstanceOf(PolicyFile.Invalid.class)
        .hasMessageStartingWith("policy file " + file + ": not valid JSON: ")
        .hasMessageContaining("maxCalls");
  }

  /**
   * A policy file is UTF-8 JSON (RFC 8259 §8.1). Jackson guessed UTF-16 and UTF-32 from the zero
   * bytes of the first characters and read such a file, and malformed UTF-16 became U+FFFD; the
   * same fault as the codec's, found by LineCodecFuzzTest (phase 2).
   */
  @ParameterizedTest
  @ValueSource(strings = {"UTF-16BE", "UTF-16LE", "UTF-16", "UTF-32BE", "UTF-32LE"})
  void aPolicyFileInUtf16OrUtf32IsInvalid(String encoding) throws IOException {
    Path file = dir.resolve("policy.json");
    Files.write(
        file,
        "{\"readable\":[\"notes.txt\"]}".getBytes(java.nio.charset.Charset.forName(encoding)));

    assertThatThrownBy(() -> PolicyFile.load(file))
        .isInstanceOf(PolicyFile.Invalid.class)
        .hasMessage(
            "policy file " + file + ": not valid JSON: not UTF-8 (UTF-16 and UTF-32 are not read)");
  }

  /** A policy file may be 64 KiB, not a byte more: it is read whole. */
  @Test
  void aFileOfExactly64KibIsReadAndOneByteMoreIsRefused() throws Exception {
    String policy = "{\"maxCalls\":3}";
    Path file = file(policy + " ".repeat(64 * 1024 - policy.length()));
    assertThat(Files.size(file)).isEqualTo(64 * 1024);
    assertThat(PolicyFile.load(file).maxCalls()).isEqualTo(3);

    Files.writeString(file, " ", StandardOpenOption.APPEND);

    assertThatThrownBy(() -> PolicyFile.load(file))
        .isInstanceOf(PolicyFile.Invalid.class)
        .hasMessage("policy file " + file + ": larger than 65536 bytes");
  }

  @Test
  void invalidJsonIsInvalid() throws IOException {
    Path file = file("{\"readable\": [");

    assertThatThrownBy(() -> PolicyFile.load(file))
        .isInstanceOf(PolicyFile.Invalid.class)
        .hasMessageStartingWith("policy file " + file + ": not valid JSON: ");
  }

  @Test
  void emptyFileIsInvalid() throws IOException {
    Path file = file("");

    assertThatThrownBy(() -> PolicyFile.load(file))
        .isInstanceOf(PolicyFile.Invalid.class)
        .hasMessage("policy file " + file + ": must hold one JSON object");
  }

  @Test
  void fileOverSixtyFourKibIsInvalidBeforeItIsParsed() throws IOException {
    Path file = file("{\"readable\":[\"notes.txt\"]}" + " ".repeat(64 * 1024));

    assertThatThrownBy(() -> PolicyFile.load(file))
        .isInstanceOf(PolicyFile.Invalid.class)
        .hasMessage("policy file " + file + ": larger than 65536 bytes");
  }

  @Test
  void missingFileIsInvalid() {
    Path file = dir.resolve("missing.json");

    assertThatThrownBy(() -> PolicyFile.load(file))
        .isInstanceOf(PolicyFile.Invalid.class)
        .hasMessage("policy file " + file + ": cannot be read (no such file or folder)");
  }

  @Test
  void directoryIsInvalid() {
    assertThatThrownBy(() -> PolicyFile.load(dir))
        .isInstanceOf(PolicyFile.Invalid.class)
        .hasMessageStartingWith("policy file " + dir + ": cannot be read (");
  }
}

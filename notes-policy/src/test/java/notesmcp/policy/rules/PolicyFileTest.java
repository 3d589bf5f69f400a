package notesmcp.policy.rules;

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
  private static final String DOT = " (a component starting with '.' is never a note)";

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

    assertThat(policy.readable()).containsExactly("b.txt", "a.md");
    assertThat(policy.proposable()).containsExactly("new.md");
    assertThat(policy.exclude()).isEmpty();
    assertThat(policy.namesNotes()).isTrue();
    assertThat(policy.maxNoteBytes()).isEqualTo(100);
    assertThat(policy.maxCalls()).isEqualTo(3);
  }

  @Test
  void omittedKeysKeepTheDefaults() throws Exception {
    Policy policy = PolicyFile.load(file("{\"maxCalls\":0}"));

    assertThat(policy.readable()).containsExactly("notes.txt", "project.txt", "draft.txt");
    assertThat(policy.proposable()).containsExactly("draft.txt");
    assertThat(policy.maxNoteBytes()).isEqualTo(2048);
    assertThat(policy.maxCalls()).isZero();
  }

  @Test
  void aVaultPolicyReadsPatternsExclusionsAndTheLargerLimit() throws Exception {
    Policy policy =
        PolicyFile.load(
            file(
                "{\"readable\": [\"notes.txt\", \"**/*.md\"], \"exclude\": [\"Private/**\"],"
                    + " \"proposable\": [\"Inbox/*.md\"], \"maxNoteBytes\": 1048576,"
                    + " \"maxCalls\": 1000}"));

    assertThat(policy.readable()).containsExactly("notes.txt", "**/*.md");
    assertThat(policy.exclude()).containsExactly("Private/**");
    assertThat(policy.proposable()).containsExactly("Inbox/*.md");
    assertThat(policy.maxNoteBytes()).isEqualTo(1048576);
    assertThat(policy.namesNotes()).isFalse();
  }

  @Test
  void exactNamesMayHoldFoldersSpacesAndNonAscii() throws Exception {
    Policy policy =
        PolicyFile.load(
            file("{\"readable\": [\"Projects/Paper Kite.md\", \"Caf\u00e9 ideas.md\"]}"));

    assertThat(policy.readable()).containsExactly("Projects/Paper Kite.md", "Caf\u00e9 ideas.md");
    assertThat(policy.namesNotes()).isTrue();
  }

  @Test
  void aPolicyFileOffersSearchUnlessItSaysFalseAndTheBuiltInDefaultNever() throws Exception {
    assertThat(PolicyFile.load(file("{\"maxCalls\":3}")).search()).isTrue();
    assertThat(PolicyFile.load(file("{\"search\":true}")).search()).isTrue();
    assertThat(PolicyFile.load(file("{\"search\":false}")).search()).isFalse();
    assertThat(Policy.defaults().search()).isFalse();
    assertThatThrownBy(() -> PolicyFile.load(file("{\"search\":\"no\"}")))
        .hasMessageEndingWith(": \"search\" must be true or false");
  }

  @Test
  void editableAndMaxPendingAreRead() throws Exception {
    Policy policy =
        PolicyFile.load(
            file("{\"readable\":[\"**/*.md\"],\"editable\":[\"Journal/*.md\"],\"maxPending\":3}"));

    assertThat(policy.editable()).containsExactly("Journal/*.md");
    assertThat(policy.maxPending()).isEqualTo(3);
    assertThat(policy.offersEdits()).isTrue();
    assertThat(Policy.defaults().offersEdits()).isFalse();
    assertThat(Policy.defaults().maxPending()).isEqualTo(1);
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
            + " | unknown key \"approve\" (known: readable, exclude, proposable, editable,"
            + " maxNoteBytes, maxCalls, maxPending, search)",
        "{\"maxPending\":0}           | maxPending must be 1..10000",
        "{\"maxPending\":10001}       | maxPending must be 1..10000, not 10001",
        "{\"editable\":\"x\"}           | \"editable\" must be an array of note names and patterns",
        "{\"readable\":\"notes.txt\"}   | \"readable\" must be an array of note names and patterns",
        "{\"proposable\":{}}            | \"proposable\" must be an array of note names and patterns",
        "{\"exclude\":\"x\"}            | \"exclude\" must be an array of note names and patterns",
        "{\"readable\":[1]}             | \"readable\" must hold only strings",
        "{\"readable\":[null]}          | \"readable\" must hold only strings",
        "{\"readable\":[[\"a\"]]}       | \"readable\" must hold only strings",
        "{\"exclude\":[true]}           | \"exclude\" must hold only strings",
        "{\"maxCalls\":\"3\"}           | \"maxCalls\" must be an integer",
        "{\"maxCalls\":1.5}             | \"maxCalls\" must be an integer",
        "{\"maxCalls\":null}            | \"maxCalls\" must be an integer",
        "{\"maxCalls\":99999999999}     | \"maxCalls\" must be an integer",
        "{\"maxNoteBytes\":true}        | \"maxNoteBytes\" must be an integer",
        "{\"readable\":[\"a//b\"]}      | note name \"a//b\" has an empty component ('//')",
        "{\"readable\":[\"..\"]}        | note name \"..\" has the component \"..\"" + DOT,
        "{\"readable\":[\"../x\"]}      | note name \"../x\" has the component \"..\"" + DOT,
        "{\"readable\":[\".env\"]}      | note name \".env\" has the component \".env\"" + DOT,
        "{\"readable\":[\"/etc/x\"]}    | note name \"/etc/x\" starts with '/': a note's path is"
            + " relative to the workspace",
        "{\"readable\":[\"a\\u0000\"]}  | note name \"a\\u0000\" holds U+0000, a control, format, invisible or"
            + " private-use character (never part of a note's name)",
        "{\"readable\":[\"Cafe\u0301\"]} | note name \"Cafe\\u0301\" is not in Unicode normalization"
            + " form C (NFC)",
        "{\"proposable\":[\"\"]}        | note name \"\" is empty",
        "{\"readable\":[\"a**b\"]}      | pattern \"a**b\" has \"a**b\": ** must be a whole"
            + " component, as in a/**/b",
        "{\"readable\":[\"**/.obsidian/*\"]} | pattern \"**/.obsidian/*\" can never match a note:"
            + " its fixed part has the component \".obsidian\""
            + DOT,
        "{\"readable\":[\"/**/*.md\"]}  | pattern \"/**/*.md\" starts with '/': a pattern is"
            + " relative to the workspace",
        "{\"readable\":[\"*.md/\"]}     | pattern \"*.md/\" ends with '/'",
        "{\"exclude\":[\"a//*\"]}       | pattern \"a//*\" has an empty component ('//')",
        "{\"readable\":[\"a\",\"a\"]}   | \"readable\" lists \"a\" twice",
        "{\"exclude\":[\"*\",\"*\"]}    | \"exclude\" lists \"*\" twice",
        "{\"readable\":[]}              | readable must name at least one note",
        "{\"readable\":[\"a\"],\"exclude\":[\"a\"]} | exclude leaves no readable note",
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
        .hasMessage("policy file " + dir + ": is a directory, not a regular file");
  }
}

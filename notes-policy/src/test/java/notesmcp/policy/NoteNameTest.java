package notesmcp.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class NoteNameTest {

  @ParameterizedTest
  @ValueSource(strings = {"notes.txt", "a", "A-b_c.9", "draft."})
  void plainFileNamesAreAccepted(String value) {
    NoteName name = NoteName.configured(value);

    assertThat(name.value()).isEqualTo(value);
    assertThat(name).hasToString(value).isEqualTo(NoteName.configured(value));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "''                 | note name \"\" is empty",
        ".                  | note name \".\" is not a file name",
        "..                 | note name \"..\" is not a file name",
        ".hidden            | note name \".hidden\" must not start with '.'",
        "a/b                | note name \"a/b\" may hold only ASCII letters, digits, '.', '-' and"
            + " '_'",
        "../x               | note name \"../x\" may hold only ASCII letters, digits, '.', '-' and"
            + " '_'",
        "a\\b               | note name \"a\\\\b\" may hold only ASCII letters, digits, '.', '-' and"
            + " '_'",
        "'a b'              | note name \"a b\" may hold only ASCII letters, digits, '.', '-' and"
            + " '_'",
        "caf\u00e9.txt      | note name \"caf\\u00e9.txt\" may hold only ASCII letters, digits,"
            + " '.', '-' and '_'",
        "a\u0000b           | note name \"a\\u0000b\" may hold only ASCII letters, digits, '.', '-'"
            + " and '_'",
      })
  void badNamesAreRefusedWithTheReason(String value, String message) {
    assertThatThrownBy(() -> NoteName.configured(value))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void nameOf255CharactersIsAccepted() {
    assertThat(NoteName.configured("x".repeat(255)).value()).hasSize(255);
  }

  @ParameterizedTest
  @ValueSource(ints = {256, 1000})
  void namesLongerThan255CharactersAreRefused(int length) {
    assertThatThrownBy(() -> NoteName.configured("x".repeat(length)))
        .hasMessageEndingWith("is longer than 255 characters");
  }

  /** The allowed ranges hold exactly their ends: a-z, A-Z, 0-9, and not one character beyond. */
  @Test
  void theEndsOfEveryAllowedRangeAreAllowedAndTheirNeighboursAreNot() {
    assertThat(NoteName.configured("az.AZ-09_").value()).isEqualTo("az.AZ-09_");
    for (char outside : new char[] {'`', '{', '@', '[', '/', ':', ',', '^'}) {
      assertThatThrownBy(() -> NoteName.configured("a" + outside))
          .as("%s", outside)
          .hasMessageEndingWith("may hold only ASCII letters, digits, '.', '-' and '_'");
    }
  }
}

package notesmcp.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FlagTest {
  private static final Set<String> SWITCHES = Set.of("serve");
  private static final Set<String> VALUED = Set.of("root");

  private static Flag read(String line) throws UsageException {
    return Flag.read(List.of(line.split(" ")), 0, SWITCHES, VALUED, " for test");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "-root W | root | W | 2",
        "--root W | root | W | 2",
        "--root=W | root | W | 1",
        "-root=a=b | root | a=b | 1",
        "--root= x | root | '' | 1",
        "-serve -root | serve | | 1",
        "--serve W | serve | | 1",
      })
  void oneOrTwoDashesAndAValueAsTheNextWordOrAfterEquals(
      String line, String name, String value, int words) throws UsageException {
    Flag flag = read(line);
    assertThat(flag.name).isEqualTo(name);
    assertThat(flag.value).isEqualTo(value);
    assertThat(flag.words).isEqualTo(words);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "root | unexpected argument \"root\"",
        "- | unexpected argument \"-\"",
        "-- | unexpected argument \"--\"",
        "-root | -root needs a value",
        "--serve=yes | --serve takes no value",
        "-tool x | unknown flag -tool for test",
        "--tool=x | unknown flag --tool=x for test",
        "---root W | unknown flag ---root for test",
      })
  void eachMistakeIsNamed(String line, String message) {
    assertThatThrownBy(() -> read(line)).isInstanceOf(UsageException.class).hasMessage(message);
  }
}

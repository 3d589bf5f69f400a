package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import notesmcp.cli.UsageException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class OptionsTest {

  private static Options parse(String... args) throws UsageException {
    return Options.parse(List.of(args));
  }

  private static String usage(String... args) {
    try {
      Options options = parse(args);
      throw new AssertionError("parsed " + options);
    } catch (UsageException e) {
      return e.getMessage();
    }
  }

  // --- spellings ---

  @ParameterizedTest
  @CsvSource({
    "-serve, -root, /w",
    "--serve, --root, /w",
    "-root, /w, -serve",
    "--root=/w, --serve, ''",
    "-root=/w, -serve, ''",
  })
  void serveIsSpelledWithOneOrTwoDashesAndValuesAfterASpaceOrEquals(
      String first, String second, String third) throws Exception {
    List<String> args = third.isEmpty() ? List.of(first, second) : List.of(first, second, third);

    Options options = Options.parse(args);

    assertThat(options.mode()).isEqualTo(Options.Mode.SERVE);
    assertThat(options.root()).isEqualTo(Path.of("/w"));
    assertThat(options.timeout()).isNull();
  }

  @Test
  void valueMayContainEqualsSigns() throws Exception {
    assertThat(parse("--root=/a=b", "-serve").root()).isEqualTo(Path.of("/a=b"));
  }

  @Test
  void serveTakesThePolicyTheBudgetAndTheProposalsFolder() throws Exception {
    Options options =
        parse("-serve", "-root", "/w", "-policy", "/p.json", "--max-calls=3", "-proposals", "/q");

    assertThat(options.policyFile()).isEqualTo(Path.of("/p.json"));
    assertThat(options.maxCalls()).isEqualTo(3);
    assertThat(options.proposals()).isEqualTo(Path.of("/q"));
  }

  @Test
  void rootAloneListsTheToolsWithTheDefaultTimeout() throws Exception {
    Options options = parse("-root", "/w");

    assertThat(options.mode()).isEqualTo(Options.Mode.LIST);
    assertThat(options.timeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(options.tool()).isNull();
  }

  @Test
  void toolMakesACall() throws Exception {
    Options options = parse("-root", "/w", "-tool", "list_notes");

    assertThat(options.mode()).isEqualTo(Options.Mode.CALL);
    assertThat(options.tool()).isEqualTo("list_notes");
    assertThat(options.arguments()).isNull();
  }

  @Test
  void serverCommandStandsInForRoot() throws Exception {
    Options options = parse("--server-command", "node server.mjs", "-tool", "t");

    assertThat(options.mode()).isEqualTo(Options.Mode.CALL);
    assertThat(options.serverCommand()).isEqualTo("node server.mjs");
    assertThat(options.root()).isNull();
  }

  // --- path values ---

  @ParameterizedTest
  @CsvSource({
    "-serve -root '', -root",
    "-root '' -tool list_notes, -root",
    "config -root '', -root",
    "review -root '' -proposals /q, -root",
    "-serve -root /w -proposals '', -proposals",
    "review -root /w -proposals '', -proposals",
    "-serve -root /w -policy '', -policy",
    "-root /w -policy '', -policy",
    "--root= -serve, -root",
    "--proposals= -serve -root /w, -proposals",
  })
  void anEmptyPathIsAUsageErrorNamingTheFlagNeverTheWorkingDirectory(String line, String flag) {
    assertThat(usage(words(line)))
        .isEqualTo(flag + " needs a path, not an empty word (the working directory is \".\")");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "\t", "''", "\"\""})
  void anEmptyServerCommandIsAUsageError(String command) {
    assertThat(usage("-server-command", command, "-tool", "t"))
        .isEqualTo("-server-command needs a command, not an empty one");
  }

  @Test
  void theWorkingDirectoryIsADotAndPathsAreKeptAsGiven() throws Exception {
    assertThat(parse("-serve", "-root", ".").root()).isEqualTo(Path.of("."));
    assertThat(parse("-serve", "-root", "caf\u00e9 \n x").root())
        .isEqualTo(Path.of("caf\u00e9 \n x"));
  }

  /** Splits on spaces; {@code ''} is an empty word. */
  private static String[] words(String line) {
    String[] words = line.split(" ");
    for (int i = 0; i < words.length; i++) {
      words[i] = words[i].equals("''") ? "" : words[i];
    }
    return words;
  }

  // --- -args ---

  @Test
  void argsAreCompactedWithDuplicateKeysKeptInOrder() throws Exception {
    Options options =
        parse(
            "-root",
            "/w",
            "-tool",
            "read_note",
            "-args",
            "{ \"path\" : \"a b\",\n\t\"path\" : \"x\\u00e9\", \"n\" : [ 1 , { } ] }");

    assertThat(options.arguments())
        .isEqualTo("{\"path\":\"a b\",\"path\":\"x\u00e9\",\"n\":[1,{}]}");
  }

  @Test
  void argsMayFollowAnEqualsSign() throws Exception {
    assertThat(parse("-root", "/w", "-tool", "t", "--args={}").arguments()).isEqualTo("{}");
  }

  @ParameterizedTest
  @ValueSource(strings = {"[]", "\"x\"", "42", "null", ""})
  void argsThatAreNotAnObjectAreAUsageError(String json) {
    assertThat(usage("-root", "/w", "-tool", "t", "-args", json))
        .isEqualTo("-args must be a JSON object, such as '{\"path\":\"notes.txt\"}'");
  }

  @Test
  void argsWithASecondValueAreAUsageError() {
    assertThat(usage("-root", "/w", "-tool", "t", "-args", "{} {}"))
        .isEqualTo("-args must hold exactly one JSON object");
  }

  @ParameterizedTest
  @ValueSource(strings = {"{", "{\"a\":}", "{a:1}", "{\"a\":1,}"})
  void argsThatAreNotJsonAreAUsageError(String json) {
    assertThat(usage("-root", "/w", "-tool", "t", "-args", json))
        .startsWith("-args is not valid JSON: ");
  }

  @Test
  void argsWithoutToolAreAUsageError() {
    assertThat(usage("-root", "/w", "-args", "{}")).isEqualTo("-args needs -tool NAME");
  }

  // --- -timeout ---

  @ParameterizedTest
  @CsvSource({
    "10, PT10S",
    "10s, PT10S",
    "500ms, PT0.5S",
    "2m, PT2M",
    "10S, PT10S",
    "1ms, PT0.001S",
    "60m, PT1H",
    "1h, PT1H",
    "3600, PT1H"
  })
  void timeoutAcceptsSecondsMillisecondsAndMinutes(String text, Duration expected)
      throws Exception {
    assertThat(Options.duration(text)).isEqualTo(expected);
    assertThat(parse("-root", "/w", "-timeout", text).timeout()).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "0",
        "0s",
        "0ms",
        "-5",
        "-1s",
        "abc",
        "1.5s",
        "s",
        "",
        "10h",
        "61m",
        "3601",
        "3600001ms"
      })
  void timeoutOutsideOneMillisecondToOneHourIsAUsageError(String text) {
    assertThat(usage("-root", "/w", "-timeout", text))
        .isEqualTo(
            "-timeout takes a duration from 1ms to 1h, such as 10, 10s, 500ms or 2m (a bare number"
                + " is seconds), not \""
                + text
                + "\"");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "10000000000s",
        "9223372036854775807m",
        "9223372036854775807h",
        "99999999999999999999"
      })
  void hugeTimeoutIsAUsageErrorNotACrash(String text) {
    assertThat(usage("-root", "/w", "-timeout", text))
        .startsWith("-timeout takes a duration from 1ms to 1h");
  }

  // --- -v ---

  @ParameterizedTest
  @ValueSource(strings = {"-v", "--v", "-verbose", "--verbose"})
  void verboseIsAClientSwitch(String flag) throws Exception {
    assertThat(parse("-root", "/w", flag).verbose()).isTrue();
    assertThat(parse(flag, "-root", "/w", "-tool", "t").verbose()).isTrue();
    assertThat(parse("-root", "/w").verbose()).isFalse();
    assertThat(usage("-serve", "-root", "/w", flag)).contains("client flags");
    assertThat(usage("-root", "/w", flag + "=yes")).isEqualTo(flag + " takes no value");
  }

  // --- mistakes ---

  @Test
  void serveWithoutRootIsAUsageError() {
    assertThat(usage("-serve")).isEqualTo("-serve needs -root PATH, the workspace folder");
  }

  @ParameterizedTest
  @CsvSource({"-tool, t", "-args, {}", "-timeout, 5", "-server-command, x"})
  void clientFlagsDoNotGoWithServe(String flag, String value) {
    assertThat(usage("-serve", "-root", "/w", flag, value))
        .isEqualTo(
            "-tool, -args, -timeout, -server-command and -v are client flags; they do not go with"
                + " -serve");
  }

  @Test
  void nothingToDoIsAUsageError() {
    assertThat(usage())
        .isEqualTo(
            "give -root PATH (the workspace to serve), or -serve -root PATH to run the server");
    assertThat(usage("-tool", "t")).startsWith("give -root PATH");
  }

  @ParameterizedTest
  @ValueSource(strings = {"-bogus", "--bogus", "--bogus=1", "---root", "-Root"})
  void unknownFlagIsAUsageError(String flag) {
    assertThat(usage("-root", "/w", flag)).isEqualTo("unknown flag " + flag);
  }

  @Test
  void chatAnywhereButFirstSaysWhereItGoes() {
    assertThat(usage("-root", "/w", "chat"))
        .isEqualTo("chat goes first: notes-mcp chat -root PATH -model NAME ...");
  }

  @ParameterizedTest
  @ValueSource(strings = {"stray", "-", "--"})
  void wordThatIsNotAFlagIsAUsageError(String word) {
    assertThat(usage("-root", "/w", word)).isEqualTo("unexpected argument \"" + word + "\"");
  }

  @ParameterizedTest
  @ValueSource(strings = {"-root", "--tool", "-args", "-timeout", "-policy", "-max-calls"})
  void flagWithoutItsValueIsAUsageError(String flag) {
    assertThat(usage("-serve", flag)).isEqualTo(flag + " needs a value");
  }

  @ParameterizedTest
  @ValueSource(strings = {"-1", "x", "1.5", "99999999999"})
  void maxCallsMustBeAWholeNumber(String value) {
    assertThat(usage("-serve", "-root", "/w", "-max-calls", value))
        .isEqualTo("-max-calls takes a whole number >= 0, not \"" + value + "\"");
  }

  @ParameterizedTest
  @ValueSource(strings = {"--serve=yes", "-serve=", "--help=1", "-h=x", "--version=2"})
  @Timeout(value = 2, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void valueGivenToAFlagThatTakesNoneIsAUsageError(String word) {
    assertThat(usage("-root", "/w", word))
        .isEqualTo(word.substring(0, word.indexOf('=')) + " takes no value");
  }

  // --- help and version ---

  @ParameterizedTest
  @ValueSource(strings = {"-help", "--help", "-h", "--h"})
  void helpWinsOverAnIncompleteCommandLine(String flag) throws Exception {
    assertThat(parse("-serve", flag).mode()).isEqualTo(Options.Mode.HELP);
    assertThat(parse(flag, "-args", "{}").mode()).isEqualTo(Options.Mode.HELP);
  }

  @Test
  void versionWinsOverAnIncompleteCommandLineAndHelpOverVersion() throws Exception {
    assertThat(parse("--version", "-serve").mode()).isEqualTo(Options.Mode.VERSION);
    assertThat(parse("-version", "--help").mode()).isEqualTo(Options.Mode.HELP);
  }
}

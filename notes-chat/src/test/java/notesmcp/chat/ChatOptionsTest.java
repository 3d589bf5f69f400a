package notesmcp.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import notesmcp.cli.UsageException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ChatOptionsTest {
  private static ChatOptions parse(String... args) throws UsageException {
    return ChatOptions.parse(List.of(args));
  }

  @Test
  void theDefaultsAreALocalOllamaEightCallsAndTheClientsDeadline() throws Exception {
    ChatOptions options = parse("-root", "w", "-model", "qwen3:4b");

    assertThat(options.root()).isEqualTo(Path.of("w"));
    assertThat(options.provider()).isEqualTo(Provider.OLLAMA);
    assertThat(options.modelUrl()).isEqualTo(URI.create("http://127.0.0.1:11434"));
    assertThat(options.model()).isEqualTo("qwen3:4b");
    assertThat(options.maxToolCalls()).isEqualTo(8);
    assertThat(options.timeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(options.modelTimeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(options.proposals()).isNull();
  }

  @Test
  void flagsTakeOneOrTwoDashesAndAValueAfterAnEqualsSign() throws Exception {
    ChatOptions options =
        parse(
            "--root=w",
            "--model",
            "m",
            "-provider=openai",
            "--max-tool-calls=3",
            "-proposals",
            "p",
            "--model-timeout",
            "90s",
            "-timeout=500ms");

    assertThat(options.provider()).isEqualTo(Provider.OPENAI);
    assertThat(options.modelUrl()).isEqualTo(URI.create("http://127.0.0.1:8080/v1"));
    assertThat(options.maxToolCalls()).isEqualTo(3);
    assertThat(options.proposals()).isEqualTo(Path.of("p"));
    assertThat(options.modelTimeout()).isEqualTo(Duration.ofSeconds(90));
    assertThat(options.timeout()).isEqualTo(Duration.ofMillis(500));
  }

  @Test
  void helpNeedsNothingElse() throws Exception {
    assertThat(parse("--help").help()).isTrue();
    assertThat(parse("-h", "-model", "m").help()).isTrue();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "-root | | -root needs a path, not an empty word (the working directory is \".\")",
        "-proposals | -root w | -proposals needs a path, not an empty word (the working directory"
            + " is \".\")",
        "-policy | -root w | -policy needs a path, not an empty word (the working directory is"
            + " \".\")",
        "-server-command | | -server-command needs a command, not an empty one",
      })
  void anEmptyPathOrCommandIsAUsageErrorNamingTheFlag(String flag, String more, String message) {
    List<String> line = new ArrayList<>(List.of(flag, "", "-model", "m"));
    if (more != null) {
      line.addAll(List.of(more.split(" ")));
    }
    assertThatThrownBy(() -> ChatOptions.parse(line))
        .isInstanceOf(UsageException.class)
        .hasMessage(message.trim());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "-model m | chat needs -root PATH (the workspace its own server serves) or -server-command"
            + " CMD",
        "-root w | chat needs -model NAME, a model the provider serves (for Ollama: one you pulled,"
            + " such as -model qwen3:4b)",
        "-root w -server-command x -model m | give -root PATH (this program's own server) or"
            + " -server-command CMD, not both",
        "-server-command x -proposals p -model m | -proposals, -policy and -max-calls go to this"
            + " program's own server (-root); with -server-command, give the server its flags in"
            + " CMD",
        "-root w -model m -provider claude | -provider is ollama or openai, not \"claude\"",
        "-root w -model m -model-url ftp://h/ | -model-url takes an http or https URL such as"
            + " http://127.0.0.1:11434 (Ollama) or http://127.0.0.1:8080/v1 (OpenAI-compatible),"
            + " not \"ftp://h/\"",
        "-root w -model m -max-tool-calls 0 | -max-tool-calls takes a whole number from 1 to 100,"
            + " not \"0\"",
        "-root w -model m -max-tool-calls x | -max-tool-calls takes a whole number from 1 to 100,"
            + " not \"x\"",
        "-root w -model m -model-timeout 0 | -model-timeout takes a duration from 1ms to 1h, such"
            + " as 10, 10s, 500ms or 2m (a bare number is seconds), not \"0\"",
        "-root w -model m -tool read_note | unknown flag -tool for chat",
        "-root w -model | -model needs a value",
        "-root w -model m extra | unexpected argument \"extra\"",
        "--help=yes | --help takes no value",
      })
  void aBadCommandLineSaysWhatToChange(String line, String message) {
    assertThatThrownBy(() -> ChatOptions.parse(List.of(line.trim().split(" +"))))
        .isInstanceOf(UsageException.class)
        .hasMessage(message.trim());
  }
}

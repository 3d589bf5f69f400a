package notesmcp.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {
  @Test
  void defaultsAreTheFullRunWithTheServersThatAreAvailable() throws Exception {
    BenchOptions o = BenchOptions.parse();
    assertThat(o.help).isFalse();
    assertThat(o.rounds).isEqualTo(5);
    assertThat(o.warmup).isEqualTo(500);
    assertThat(o.seq).isEqualTo(5000);
    assertThat(o.pipelined).isEqualTo(20000);
    assertThat(o.coldStarts).isEqualTo(2);
    assertThat(o.oneShotRuns).isEqualTo(2);
    assertThat(o.soak).isEqualTo(100000);
    assertThat(o.soakEvery).isEqualTo(10000);
    assertThat(o.stall).isEqualTo(Duration.ofSeconds(15));
    assertThat(o.prime).isTrue();
    assertThat(o.servers).containsExactly("notes-mcp", "floor", "ts-sdk-v2");
    assertThat(o.soakServers).isEqualTo(o.servers);
    assertThat(BenchOptions.PHASES).allMatch(o::runs);
    assertThat(o.out).isNull();
    assertThat(o.trace).isNull();
  }

  @Test
  void traceNamesAFolder() throws Exception {
    assertThat(BenchOptions.parse("--trace", "t").trace).isEqualTo(Path.of("t"));
  }

  @Test
  void quickShrinksEveryDefaultButAGivenNumberWins() throws Exception {
    BenchOptions o = BenchOptions.parse("--quick", "--seq", "1234");
    assertThat(o.quick).isTrue();
    assertThat(o.rounds).isEqualTo(1);
    assertThat(o.coldStarts).isZero();
    assertThat(o.prime).isFalse();
    assertThat(o.seq).isEqualTo(1234);
    assertThat(o.pipelined).isEqualTo(2000);
    assertThat(o.soak).isEqualTo(6000);
  }

  @Test
  void valuesComeAsTheNextWordOrAfterEquals() throws Exception {
    BenchOptions o = BenchOptions.parse("--rounds=3", "--pipelined", "100", "--stall=2");
    assertThat(o.rounds).isEqualTo(3);
    assertThat(o.pipelined).isEqualTo(100);
    assertThat(o.stall).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void listsAreSplitAtCommasAndKeepTheirOrder() throws Exception {
    BenchOptions o =
        BenchOptions.parse("--servers", "floor,notes-mcp", "--metrics=seq,pipe", "--no-prime");
    assertThat(o.servers).containsExactly("floor", "notes-mcp");
    assertThat(o.runs("seq")).isTrue();
    assertThat(o.runs("cold")).isFalse();
    assertThat(o.prime).isFalse();
  }

  @Test
  void theAppImageAndTheEarlierBuildJoinWhenGiven() throws Exception {
    BenchOptions o =
        BenchOptions.parse(
            "--app-image",
            "/x/bin/notes-mcp",
            "--before-launcher",
            "/y/notes-mcp",
            "--before-label",
            "commit abc");
    assertThat(o.servers).containsExactly("notes-mcp", "app-image", "before", "floor", "ts-sdk-v2");
    assertThat(o.appImage).isEqualTo(Path.of("/x/bin/notes-mcp"));
    assertThat(o.beforeLabel).isEqualTo("commit abc");
  }

  @Test
  void aServerThatIsNotAvailableIsRefusedWithTheReason() {
    assertThatThrownBy(() -> BenchOptions.parse("--servers", "notes-mcp,app-image"))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessageContaining("app-image is not available")
        .hasMessageContaining("no --app-image");
    assertThatThrownBy(() -> BenchOptions.parse("--servers", "java-sdk"))
        .hasMessageContaining("unknown java-sdk")
        .hasMessageContaining("known: notes-mcp,app-image,before,floor,ts-sdk-v2");
    assertThatThrownBy(() -> BenchOptions.parse("--metrics", "cold,warm"))
        .hasMessageContaining("unknown warm");
  }

  @Test
  void customServersAreSplitAtSpacesAndJoinTheServers() throws Exception {
    BenchOptions o =
        BenchOptions.parse(
            "--server",
            "c2=java -Xint -jar app.jar -serve -root {root}",
            "--server",
            "b=x {budget}");
    assertThat(o.custom.get("c2"))
        .containsExactly("java", "-Xint", "-jar", "app.jar", "-serve", "-root", "{root}");
    assertThat(o.servers).containsExactly("notes-mcp", "floor", "ts-sdk-v2", "c2", "b");
    assertThat(BenchOptions.parse("--server", "c2=x", "--servers", "c2,floor").servers)
        .containsExactly("c2", "floor");
  }

  @Test
  void aCustomServerNeedsAFreeLowerCaseNameAndACommand() {
    assertThatThrownBy(() -> BenchOptions.parse("--server", "floor=python3 x.py"))
        .hasMessageContaining("the name floor is taken");
    assertThatThrownBy(() -> BenchOptions.parse("--server", "a=x", "--server", "a=y"))
        .hasMessageContaining("the name a is taken");
    assertThatThrownBy(() -> BenchOptions.parse("--server", "Big=x"))
        .hasMessageContaining("NAME=COMMAND");
    assertThatThrownBy(() -> BenchOptions.parse("--server", "nothing"))
        .hasMessageContaining("NAME=COMMAND");
    assertThatThrownBy(() -> BenchOptions.parse("--server", "a=  "))
        .hasMessageContaining("NAME=COMMAND");
  }

  @Test
  void badNumbersAreRefused() {
    assertThatThrownBy(() -> BenchOptions.parse("--rounds", "0"))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessageContaining("--rounds must be at least 1");
    assertThatThrownBy(() -> BenchOptions.parse("--warmup", "-1"))
        .hasMessageContaining("--warmup must not be negative");
    assertThatThrownBy(() -> BenchOptions.parse("--seq", "many"))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessageContaining("many");
    assertThatThrownBy(() -> BenchOptions.parse("--soak", "10", "--soak-every", "20"))
        .hasMessageContaining("--soak-every must not exceed --soak");
    assertThat(catchUsage("--warmup", "0")).isNull(); // no warm-up is allowed
  }

  @Test
  void unknownAbbreviatedMissingAndStrayArgumentsAreRefused() {
    assertThat(catchUsage("--fast")).contains("fast");
    assertThat(catchUsage("--round", "3")).contains("round"); // no abbreviations
    assertThat(catchUsage("--rounds")).contains("rounds");
    assertThat(catchUsage("stray")).contains("unexpected argument stray");
  }

  @Test
  void helpIsAnAnswerNotAnError() throws Exception {
    assertThat(BenchOptions.parse("--help").help).isTrue();
    assertThat(BenchOptions.parse("-h").help).isTrue();
    assertThat(BenchOptions.usage())
        .contains("--rounds", "--servers", "--quick", "--server", "--no-before");
  }

  @Test
  void theReportShowsTheArgumentsWithoutTheRepository() throws Exception {
    BenchOptions o = BenchOptions.parse("--repo", "/r", "--quick", "--seq", "9");
    assertThat(o.userArgs).isEqualTo(List.of("--quick", "--seq", "9"));
    assertThat(o.repo).isEqualTo(Path.of("/r"));
    assertThat(BenchOptions.parse("--repo=/s", "--quick").userArgs).containsExactly("--quick");
  }

  @Test
  void theBudgetIsFarAboveAnyProcesssCalls() throws Exception {
    BenchOptions o = BenchOptions.parse();
    assertThat(o.budget()).isGreaterThan(10L * (o.warmup + o.seq + o.pipelined));
    assertThat(o.budget()).isGreaterThan(10L * o.soak);
  }

  private static String catchUsage(String... args) {
    try {
      BenchOptions.parse(args);
      return null;
    } catch (BenchOptions.UsageException e) {
      return e.getMessage();
    }
  }
}

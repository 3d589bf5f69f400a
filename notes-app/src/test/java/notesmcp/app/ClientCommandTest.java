package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import notesmcp.cli.ExitCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * The client modes' exit codes (docs/behaviour.md, "Command line"), against a stand-in server: a
 * few lines of {@code sh} that answer each request carrying an id with the next canned line ({@code
 * EXIT:n} exits).
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ClientCommandTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String SCRIPT =
      "while IFS= read -r line; do\n"
          + "  case \"$line\" in\n"
          + "    *'\"id\"'*)\n"
          + "      case \"$1\" in\n"
          + "        EXIT:*) exit \"${1#EXIT:}\" ;;\n"
          + "        *) printf '%s\\n' \"$1\" ;;\n"
          + "      esac\n"
          + "      shift ;;\n"
          + "  esac\n"
          + "done\n";
  private static final String DISCOVERED =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"supportedVersions\":[\"2026-07-28\"],"
          + "\"capabilities\":{\"tools\":{}},\"resultType\":\"complete\"}}";

  private static final String TOOL = "{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"}}";

  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

  /** A -server-command running the canned script with these replies (no single quotes in them). */
  private String server(String... replies) throws IOException {
    return serverAfter("", replies);
  }

  /** The same, with a shell command run first (e.g. writing a banner to stderr). */
  private String serverAfter(String prelude, String... replies) throws IOException {
    Path script = Files.writeString(dir.resolve("server.sh"), prelude + "\n" + SCRIPT);
    StringBuilder command = new StringBuilder("sh '").append(script).append('\'');
    for (String reply : replies) {
      command.append(" '").append(reply).append('\'');
    }
    return command.toString();
  }

  private int run(String... args) {
    return Main.run(args, InputStream.nullInputStream(), out, err);
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }

  private static String callResult(boolean isError) {
    return "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\","
        + "\"text\":\"hi\"}],\"isError\":"
        + isError
        + ",\"resultType\":\"complete\"}}";
  }

  @Test
  void listPrintsTheToolsAsJsonAndExitsZero() throws IOException {
    String tools =
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":["
            + TOOL
            + "],"
            + "\"resultType\":\"complete\"}}";

    assertThat(run("-server-command", server(DISCOVERED, tools))).isZero();

    assertThat(JSON.readTree(out())).isEqualTo(JSON.readTree("[" + TOOL + "]"));
    assertThat(err()).contains("modern era, protocol 2026-07-28");
  }

  @Test
  void successfulCallPrintsTheResultAndExitsZero() throws IOException {
    assertThat(run("-server-command", server(DISCOVERED, callResult(false)), "-tool", "t"))
        .isZero();

    assertThat(JSON.readTree(out()).at("/content/0/text").stringValue()).isEqualTo("hi");
  }

  @Test
  void toolErrorPrintsTheResultAndExitsOne() throws IOException {
    assertThat(
            run(
                "-server-command",
                server(DISCOVERED, callResult(true)),
                "-tool",
                "t",
                "-args",
                "{}"))
        .isEqualTo(1);

    assertThat(JSON.readTree(out()).get("isError").booleanValue()).isTrue();
  }

  @Test
  void jsonRpcErrorExitsThreeWithNothingOnStdout() throws IOException {
    String unknownTool =
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32602,"
            + "\"message\":\"Unknown tool: save_note\"}}";

    assertThat(run("-server-command", server(DISCOVERED, unknownTool), "-tool", "save_note"))
        .isEqualTo(3);

    assertThat(out()).isEmpty();
    assertThat(err())
        .contains(
            "notes-mcp: the server answered with a protocol error: -32602 Unknown tool:"
                + " save_note");
  }

  @Test
  void unsupportedVersionExitsThree() throws IOException {
    String refused =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32022,\"message\":\"Unsupported\","
            + "\"data\":{\"supported\":[\"2030-01-01\"],\"requested\":\"2026-07-28\"}}}";

    assertThat(run("-server-command", server(refused))).isEqualTo(3);

    assertThat(out()).isEmpty();
    assertThat(err()).contains("the server is modern but refused 2026-07-28");
  }

  @Test
  void serverThatCannotStartExitsFourLoudly() {
    Path missing = dir.resolve("no-such-server");

    assertThat(run("-server-command", missing.toString())).isEqualTo(4);

    assertThat(out()).isEmpty();
    assertThat(err())
        .startsWith("notes-mcp: could not start or reach the server " + missing + ": ");
  }

  @Test
  void serverThatCrashesBeforeAnsweringExitsFour() throws IOException {
    assertThat(run("-server-command", server("EXIT:5"))).isEqualTo(4);

    assertThat(out()).isEmpty();
    assertThat(err()).contains("exited with status 5");
  }

  @Test
  void serverThatCrashesDuringTheCallExitsFour() throws IOException {
    assertThat(run("-server-command", server(DISCOVERED, "EXIT:6"), "-tool", "t")).isEqualTo(4);

    assertThat(out()).isEmpty();
    assertThat(err()).contains("notes-mcp: the server exited with status 6 before answering");
  }

  @Test
  void silentServerMissesTheDeadlineAndExitsFour() throws IOException {
    Path script = Files.writeString(dir.resolve("silent.sh"), "cat > /dev/null\n");

    assertThat(run("-server-command", "sh " + script, "-tool", "t", "-timeout", "300ms"))
        .isEqualTo(4);

    assertThat(out()).isEmpty();
    // Which step the deadline catches (the call, or the handshake before it) depends on how
    // loaded the machine is; either way it is the deadline, and the message says so.
    assertThat(err()).contains("(-timeout 300 ms for the whole exchange)");
  }

  @Test
  void emptyServerCommandIsAUsageError() {
    assertThat(run("-server-command", " ")).isEqualTo(2);

    assertThat(err())
        .startsWith(
            "notes-mcp: -server-command needs a command, not an empty one"
                + System.lineSeparator());
  }

  // --- quiet about the server unless asked, yet never silent about why it failed ---

  @Test
  void theServersStderrIsNotShownWhenAllGoesWell() throws IOException {
    String banner = "echo 'canned-server 1.0: a long start-up banner' >&2";

    assertThat(
            run(
                "-server-command",
                serverAfter(banner, DISCOVERED, callResult(false)),
                "-tool",
                "t"))
        .isZero();

    assertThat(err()).doesNotContain("start-up banner").contains("modern era");
  }

  @Test
  void verboseShowsTheServersStderrAsItComes() throws IOException {
    String banner = "echo 'canned-server 1.0: a long start-up banner' >&2";

    assertThat(
            run(
                "-v",
                "-server-command",
                serverAfter(banner, DISCOVERED, callResult(false)),
                "-tool",
                "t"))
        .isZero();

    assertThat(err()).contains("canned-server 1.0: a long start-up banner");
    assertThat(err()).doesNotContain("the server's stderr ended with");
  }

  @Test
  void aQuietClientShowsOnlyTheEndOfAFailedServersStderr() throws IOException {
    String noisy =
        "i=0; while [ $i -lt 3000 ]; do echo \"chatter $i\" >&2; i=$((i+1)); done\n"
            + "printf 'fatal: no settings \\033[31mred\\033[0m\\n' >&2; exit 3";

    assertThat(run("-server-command", serverAfter(noisy, new String[0]))).isEqualTo(4);

    assertThat(err())
        .contains(
            "notes-mcp: could not start or reach the server sh: the server exited with status 3")
        .contains("notes-mcp: the server's stderr ended with:\n")
        .contains("  chatter 2999\n  fatal: no settings \\u001b[31mred\\u001b[0m")
        .doesNotContain("chatter 0\n")
        .doesNotContain("\u001b");
    assertThat(err().length()).as("only the end of the server's stderr").isLessThan(6 * 1024);
  }

  @Test
  void aProtocolErrorAlsoShowsTheEndOfTheServersStderr() throws IOException {
    String warn = "echo 'warning: speaking an old dialect' >&2";

    assertThat(run("-server-command", serverAfter(warn, DISCOVERED.replace("\"2026-07-28\"", "7"))))
        .isEqualTo(3);

    assertThat(err())
        .contains("supportedVersions")
        .contains("the server's stderr ended with:")
        .contains("warning: speaking an old dialect");
  }

  @Test
  void theResultIsPrintedWithNothingThatCouldActOnTheTerminal() throws IOException {
    String hostile = "a\\u001b[2Jb\\u009b31mc\\u202ed\\u200be\\u007ff caf\\u00e9";
    String reply =
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\","
            + "\"text\":\""
            + hostile
            + "\"}],\"isError\":false,\"resultType\":\"complete\"}}";

    assertThat(run("-server-command", server(DISCOVERED, reply), "-tool", "t")).isZero();

    assertThat(out()).contains("a\\u001B[2Jb\\u009b31mc").contains("\\u202ed\\u200be\\u007Ff café");
    for (char c : new char[] {0x1b, 0x9b, 0x202e, 0x200b, 0x7f}) {
      assertThat(out()).doesNotContain(String.valueOf(c));
    }
    assertThat(JSON.readTree(out()).at("/content/0/text").stringValue())
        .isEqualTo("a\u001b[2Jb\u009b31mc\u202ed\u200be\u007ff café");
  }

  @Test
  void invisibleCharactersOfAResultAreEscapedTooTagCharactersAndFillersIncluded() {
    // U+E0041 TAG LATIN CAPITAL LETTER A (outside the BMP), U+3164 HANGUL FILLER, U+FE0F, U+00A0.
    String text = "a\uDB40\uDC41b\u3164c\uFE0Fd\u00A0e";
    String printed = ClientCommand.pretty(JSON.createObjectNode().put("text", text));

    assertThat(printed).contains("a\\udb40\\udc41b\\u3164c\\ufe0fd\\u00a0e");
    for (String raw : new String[] {"\uDB40", "\uDC41", "\u3164", "\uFE0F", "\u00A0"}) {
      assertThat(printed).doesNotContain(raw);
    }
    assertThat(JSON.readTree(printed).get("text").stringValue()).isEqualTo(text);
  }

  @Test
  void anUnexpectedFaultInTheClientIsOneLineAndExitFourNeverAStackTrace() throws IOException {
    // A command line the parser never builds (no timeout) stands in for a bug in the client.
    Options broken =
        new Options(
            Options.Mode.CALL,
            null,
            "t",
            null,
            null,
            null,
            server(DISCOVERED),
            null,
            null,
            null,
            null,
            null,
            false,
            null,
            false,
            false,
            null,
            null,
            false,
            null,
            null,
            null);

    assertThat(ClientCommand.run(broken, new PrintStream(out, true, StandardCharsets.UTF_8), err))
        .isEqualTo(ExitCode.SERVER_FAILURE);

    assertThat(err())
        .startsWith("notes-mcp: the client failed unexpectedly: java.lang.NullPointerException")
        .doesNotContain("\tat ");
    assertThat(err().lines()).hasSize(1);
  }
}

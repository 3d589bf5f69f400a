package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import notesmcp.cli.Version;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class MainTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String NL = System.lineSeparator();

  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

  private int run(InputStream in, String... args) {
    return Main.run(args, in, out, err);
  }

  private int run(String... args) {
    return run(InputStream.nullInputStream(), args);
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void versionPrintsTheVersionAndExitsZero() {
    assertThat(run("--version")).isZero();

    assertThat(Version.VALUE).matches("\\d+\\.\\d+\\.\\d+.*");
    assertThat(out()).isEqualTo("notes-mcp " + Version.VALUE + NL);
    assertThat(err()).isEmpty();
  }

  @Test
  void helpPrintsTheHelpAndExitsZero() {
    assertThat(run("-help")).isZero();

    assertThat(out()).isEqualTo(Help.TEXT).contains("-serve").contains("Exit codes");
    assertThat(err()).isEmpty();
  }

  @Test
  void usageErrorExitsTwoAndWritesOnlyToStderr() {
    assertThat(run("-bogus")).isEqualTo(2);

    assertThat(out()).isEmpty();
    assertThat(err())
        .isEqualTo(
            "notes-mcp: unknown flag -bogus" + NL + "Run 'notes-mcp --help' for the flags." + NL);
  }

  @Test
  void argsThatAreNotAnObjectExitTwo() {
    assertThat(run("-root", dir.toString(), "-tool", "read_note", "-args", "[]")).isEqualTo(2);

    assertThat(out()).isEmpty();
    assertThat(err()).startsWith("notes-mcp: -args must be a JSON object");
  }

  @Test
  void serveAnswersOnStdoutWithProtocolLinesOnlyAndLogsToStderr() throws IOException {
    Path root = Files.createDirectory(dir.resolve("workspace"));
    Files.writeString(root.resolve("notes.txt"), "hello");
    String input =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"_meta\":{"
            + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}},"
            + "\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}}\n"
            + "not json\n";

    int code =
        run(
            new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
            "-serve",
            "-root",
            root.toString());

    assertThat(code).isZero();
    String[] lines = out().split("\n", -1);
    assertThat(lines).hasSize(3);
    assertThat(lines[2]).isEmpty();
    JsonNode first = JSON.readTree(lines[0]);
    JsonNode second = JSON.readTree(lines[1]);
    JsonNode call = first.has("id") ? first : second;
    JsonNode parseError = first.has("id") ? second : first;
    assertThat(call.at("/result/content/0/text").stringValue())
        .isEqualTo("{\"path\":\"notes.txt\",\"content\":\"hello\"}");
    assertThat(call.at("/result/isError").booleanValue()).isFalse();
    assertThat(parseError.at("/error/code").intValue()).isEqualTo(-32700);
    assertThat(err()).startsWith("notes-mcp " + Version.VALUE + ": serving " + root.toRealPath());
  }

  @Test
  void serveWithAMissingRootExitsTwo() {
    assertThat(run("-serve", "-root", dir.resolve("missing").toString())).isEqualTo(2);

    assertThat(out()).isEmpty();
    assertThat(err())
        .startsWith("notes-mcp: -root " + dir.resolve("missing") + ": not a usable folder (");
  }

  @Test
  void serveWithABadPolicyFileExitsTwoNamingTheFile() throws IOException {
    Path policy = Files.writeString(dir.resolve("policy.json"), "{\"readable\":[\"../x\"]}");

    assertThat(run("-serve", "-root", dir.toString(), "-policy", policy.toString())).isEqualTo(2);

    assertThat(out()).isEmpty();
    assertThat(err())
        .isEqualTo(
            "notes-mcp: policy file "
                + policy
                + ": note name \"../x\" has the component \"..\" (a component starting with '.' is"
                + " never a note)"
                + NL);
  }
}

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real client executable against hostile servers (docs/behaviour.md, "Limits": the client never
 * hangs and never calls nonsense success). Each server is a real child process: a few lines of
 * {@code sh} that first write their PID to a file, so the test can tell that the client closed it,
 * then answer each request with the next line of a replies file. Some replies are commands: {@code
 * STOP} stops reading stdin for good (and ignores its closing); {@code DEAF} does that and ignores
 * SIGTERM too; {@code BEHIND_CHILD} leaves stdin to a child of its own that never reads it (writing
 * the child's PID beside its own), as a wrapper script that does not {@code exec} would; {@code
 * FLOOD:n} writes n {@code ping} requests and then stops reading.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class HostileServerIT {
  /**
   * The client's deadline in these tests, and how long it may take beyond it (a shared machine).
   */
  private static final String DEADLINE = "2s";

  private static final Duration LIVENESS = Duration.ofSeconds(40);

  private static final String SCRIPT =
      """
      echo $$ > "$1"
      exec 3< "$2"
      next_request() {
        while IFS= read -r line; do
          case "$line" in *'"id"'*) return 0 ;; esac
        done
        return 1
      }
      while IFS= read -r reply <&3; do
        case "$reply" in
          STOP) exec sleep 600 ;;
          DEAF) trap '' TERM; exec sleep 600 ;;
          BEHIND_CHILD)
            exec 4<&0
            sleep 600 <&4 4<&- &
            echo $! > "$1.child"
            wait
            exit 0 ;;
          FLOOD:*)
            n=${reply#FLOOD:}; i=0
            while [ "$i" -lt "$n" ]; do
              printf '{"jsonrpc":"2.0","id":"p%d","method":"ping"}\\n' "$i"
              i=$((i + 1))
            done
            exec sleep 600 ;;
        esac
        next_request || exit 0
        printf '%s\\n' "$reply"
      done
      exec cat > /dev/null
      """;

  private static final String DISCOVERED =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"supportedVersions\":[\"2026-07-28\"],"
          + "\"capabilities\":{\"tools\":{}},\"ttlMs\":0,\"cacheScope\":\"public\","
          + "\"resultType\":\"complete\"}}";
  private static final String LEGACY_SERVER =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}";

  @TempDir Path dir;
  private final List<Long> servers = new ArrayList<>();

  /** How one run of the client ended. */
  record Run(int exit, String out, String err, Duration took, long serverPid) {}

  @AfterEach
  void killLeftovers() {
    for (long pid : servers) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  private Run client(List<String> replies, String... args) throws Exception {
    Path script = Files.writeString(dir.resolve("hostile.sh"), SCRIPT);
    Path pidFile = dir.resolve("server.pid");
    Path repliesFile = Files.write(dir.resolve("replies.txt"), replies, StandardCharsets.UTF_8);
    List<String> command =
        new ArrayList<>(
            List.of(
                WireServer.launcher().toString(),
                "-server-command",
                "sh " + script + " " + pidFile + " " + repliesFile));
    command.addAll(List.of(args));
    Path out = dir.resolve("client.out");
    Path err = dir.resolve("client.err");
    long start = System.nanoTime();
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .redirectInput(ProcessBuilder.Redirect.PIPE)
            .start();
    process.getOutputStream().close();
    boolean exited = process.waitFor(60, TimeUnit.SECONDS);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    if (!exited) {
      process.destroyForcibly().waitFor();
    }
    long pid = -1;
    if (Files.exists(pidFile)) {
      pid = Long.parseLong(Files.readString(pidFile).trim());
      servers.add(pid);
    }
    Path childPidFile = dir.resolve("server.pid.child");
    if (Files.exists(childPidFile)) {
      servers.add(Long.parseLong(Files.readString(childPidFile).trim()));
    }
    String stderr = Files.readString(err, StandardCharsets.UTF_8);
    assertThat(exited).as("the client exits; stderr so far:\n" + stderr).isTrue();
    return new Run(
        process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), stderr, took, pid);
  }

  /** The server the client started is gone: the client closed it (it would sleep 600 s). */
  private static void assertServerClosed(Run run) throws InterruptedException {
    assertThat(run.serverPid()).as("the server wrote its PID").isPositive();
    long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    Optional<ProcessHandle> server = ProcessHandle.of(run.serverPid());
    while (server.isPresent() && server.get().isAlive() && System.nanoTime() < until) {
      Thread.sleep(50);
    }
    assertThat(server.isPresent() && server.get().isAlive())
        .as("server process %d is still running after the client exited", run.serverPid())
        .isFalse();
  }

  private static void assertNoStackTrace(Run run) {
    assertThat(run.err())
        .as("stderr")
        .doesNotContain("Exception")
        .doesNotContain("\tat ")
        .doesNotContain("at notesmcp.");
  }

  // --- every client operation is under the deadline ---

  /**
   * The request is larger than a pipe holds, so the client's writer is blocked in {@code write(2)}
   * when the deadline passes, and stays blocked while the client closes the server: a server that
   * ignores SIGTERM, or whose stdin a child of its own keeps open, must not make that close wait
   * for the write (the JDK's {@code Process.destroy()} closes the child's stdin after signalling,
   * and that waits on the lock the blocked writer holds).
   */
  @ParameterizedTest
  @ValueSource(strings = {"STOP", "DEAF", "BEHIND_CHILD"})
  void aServerThatStopsReadingCannotBlockALargeRequestPastTheDeadline(String stop)
      throws Exception {
    String args = "{\"pad\":\"" + "x".repeat(120 * 1024) + "\"}";

    Run run = client(List.of(DISCOVERED, stop), "-tool", "t", "-args", args, "-timeout", DEADLINE);

    assertThat(run.exit()).as(run.err()).isEqualTo(4);
    assertThat(run.took()).isLessThan(LIVENESS);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .contains("the server did not read tools/call within")
        .contains("it stopped reading its input")
        .contains("(-timeout 2000 ms for the whole exchange)");
    assertNoStackTrace(run);
    assertServerClosed(run);
    assertServerChildClosed();
  }

  /**
   * Closing a server that ignores stdin is bounded by the deadline (docs/behaviour.md). The
   * deadline is spent waiting for an answer that never comes; closing a server that then ignores
   * both the end of its input and SIGTERM must not add seconds per step on top of it. The bound
   * leaves room for two JVM start-ups on a loaded machine, not for three two-second waits.
   */
  @Test
  void closingAServerThatIgnoresItsInputAndSigtermStaysNearTheDeadline() throws Exception {
    Run run =
        client(List.of(DISCOVERED, "DEAF"), "-tool", "t", "-args", "{}", "-timeout", DEADLINE);

    assertThat(run.exit()).as(run.err()).isEqualTo(4);
    assertThat(run.err()).contains("(-timeout 2000 ms for the whole exchange)");
    assertThat(run.took()).isLessThan(Duration.ofMillis(5_500));
    assertNoStackTrace(run);
    assertServerClosed(run);
  }

  /** The child a {@code BEHIND_CHILD} server started is gone too, if there is one. */
  private void assertServerChildClosed() throws Exception {
    Path childPidFile = dir.resolve("server.pid.child");
    if (Files.exists(childPidFile)) {
      long child = Long.parseLong(Files.readString(childPidFile).trim());
      Optional<ProcessHandle> handle = ProcessHandle.of(child);
      long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (handle.isPresent() && handle.get().isAlive() && System.nanoTime() < until) {
        Thread.sleep(50);
      }
      assertThat(handle.isPresent() && handle.get().isAlive())
          .as("the server's child %d is still running after the client exited", child)
          .isFalse();
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aServerThatFloodsPingsAndNeverReadsCannotHangTheClient(boolean afterDiscovery)
      throws Exception {
    List<String> replies =
        afterDiscovery ? List.of(DISCOVERED, "FLOOD:20000") : List.of("FLOOD:20000");

    Run run = client(replies, "-tool", "t", "-args", "{}", "-timeout", DEADLINE);

    assertThat(run.exit()).as(run.err()).isEqualTo(4);
    assertThat(run.took()).isLessThan(LIVENESS);
    assertThat(run.out()).isEmpty();
    assertNoStackTrace(run);
    assertServerClosed(run);
  }

  // --- a reply of the wrong shape is a protocol error, exit 3 ---
  // These servers end when their input closes, as a well-behaved one does: the client's closing of
  // one that does not (and the seconds it waits for it) is the STOP, DEAF and BEHIND_CHILD tests'.

  static Stream<Arguments> wrongShapes() {
    String call = "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":";
    String text = "{\"type\":\"text\",\"text\":\"hi\"}";
    return Stream.of(
        Arguments.of(
            "discover: a version that is an object",
            List.of(DISCOVERED.replace("[\"2026-07-28\"]", "[{\"v\":\"2026-07-28\"}]")),
            "supportedVersions"),
        Arguments.of(
            "discover: supportedVersions not an array",
            List.of(DISCOVERED.replace("[\"2026-07-28\"]", "\"2026-07-28\"")),
            "supportedVersions"),
        Arguments.of(
            "discover: resultType an object",
            List.of(DISCOVERED.replace("\"complete\"", "{\"is\":\"complete\"}")),
            "resultType"),
        Arguments.of(
            "discover: serverInfo not an Implementation",
            List.of(
                DISCOVERED.replace(
                    "\"resultType\"",
                    "\"_meta\":{\"io.modelcontextprotocol/serverInfo\":42},\"resultType\"")),
            "serverInfo"),
        Arguments.of(
            "discover: a result that is not an object",
            List.of("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[\"2026-07-28\"]}"),
            "not an object"),
        Arguments.of(
            "call: content 42",
            List.of(DISCOVERED, call + "{\"content\":42,\"resultType\":\"complete\"}}"),
            "content"),
        Arguments.of(
            "call: isError an object",
            List.of(
                DISCOVERED,
                call
                    + "{\"content\":["
                    + text
                    + "],\"isError\":{\"no\":1},\"resultType\":\"complete\"}}"),
            "isError"),
        Arguments.of(
            "call: isError a string",
            List.of(
                DISCOVERED,
                call
                    + "{\"content\":["
                    + text
                    + "],\"isError\":\"false\",\"resultType\":\"complete\"}}"),
            "isError"),
        Arguments.of(
            "call: a content item that is not an object",
            List.of(DISCOVERED, call + "{\"content\":[42],\"resultType\":\"complete\"}}"),
            "content"),
        Arguments.of(
            "call: a text item whose text is not a string",
            List.of(
                DISCOVERED,
                call
                    + "{\"content\":[{\"type\":\"text\",\"text\":42}],\"resultType\":\"complete\"}}"),
            "text"),
        Arguments.of(
            "call: a content item without a type",
            List.of(
                DISCOVERED,
                call + "{\"content\":[{\"text\":\"hi\"}],\"resultType\":\"complete\"}}"),
            "type"),
        Arguments.of(
            "call: resultType an object",
            List.of(
                DISCOVERED,
                call + "{\"content\":[" + text + "],\"resultType\":{\"is\":\"complete\"}}}"),
            "resultType"),
        Arguments.of(
            "call: a result that is not an object",
            List.of(DISCOVERED, call + "42}"),
            "not an object"),
        Arguments.of(
            "call: an error whose code is not an integer",
            List.of(
                DISCOVERED,
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":\"-32602\",\"message\":\"no\"}}"),
            "error"),
        Arguments.of(
            "call: an error whose message is not a string",
            List.of(
                DISCOVERED,
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32602,\"message\":7}}"),
            "error"),
        Arguments.of(
            "call: a response to an id never sent",
            List.of(
                DISCOVERED,
                "{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{\"content\":["
                    + text
                    + "],"
                    + "\"isError\":false,\"resultType\":\"complete\"}}"),
            "99"),
        Arguments.of(
            "legacy: initialize answered with a version that is not a string",
            List.of(
                LEGACY_SERVER,
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"protocolVersion\":20251125,"
                    + "\"capabilities\":{},\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}}"),
            "protocolVersion"),
        Arguments.of(
            "legacy: initialize answered without serverInfo",
            List.of(
                LEGACY_SERVER,
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"protocolVersion\":\"2025-11-25\","
                    + "\"capabilities\":{}}}"),
            "serverInfo"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("wrongShapes")
  void aReplyOfTheWrongShapeIsAProtocolError(String name, List<String> replies, String names)
      throws Exception {
    Run run = client(replies, "-tool", "t", "-args", "{}", "-timeout", DEADLINE);

    assertThat(run.exit()).as(run.err()).isEqualTo(3);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains(names);
    assertNoStackTrace(run);
    assertServerClosed(run);
  }

  static Stream<Arguments> wrongToolLists() {
    String list = "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"complete\",";
    return Stream.of(
        Arguments.of("tools not an array", list + "\"tools\":{}}}", "tools"),
        Arguments.of(
            "a tool without a name",
            list + "\"tools\":[{\"inputSchema\":{\"type\":\"object\"}}]}}",
            "name"),
        Arguments.of(
            "a tool whose name is not a string",
            list + "\"tools\":[{\"name\":7,\"inputSchema\":{\"type\":\"object\"}}]}}",
            "name"),
        Arguments.of(
            "a tool whose inputSchema is not an object",
            list + "\"tools\":[{\"name\":\"t\",\"inputSchema\":\"object\"}]}}",
            "inputSchema"),
        Arguments.of(
            "a tool without an inputSchema",
            list + "\"tools\":[{\"name\":\"t\"}]}}",
            "inputSchema"),
        Arguments.of("a tool that is not an object", list + "\"tools\":[\"t\"]}}", "tool"),
        Arguments.of(
            "nextCursor not a string",
            list + "\"tools\":[],\"nextCursor\":{\"page\":2}}}",
            "nextCursor"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("wrongToolLists")
  void aToolListOfTheWrongShapeIsAProtocolError(String name, String reply, String names)
      throws Exception {
    Run run = client(List.of(DISCOVERED, reply), "-timeout", DEADLINE);

    assertThat(run.exit()).as(run.err()).isEqualTo(3);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains(names);
    assertNoStackTrace(run);
    assertServerClosed(run);
  }

  // --- -timeout out of range is a usage error ---

  @ParameterizedTest
  @ValueSource(strings = {"10000000000s", "9223372036854775807m", "0", "0ms", "-1s", "61m"})
  void aTimeoutOutOfRangeIsAUsageError(String timeout) throws Exception {
    Run run = client(List.of(DISCOVERED), "-timeout", timeout);

    assertThat(run.exit()).as(run.err()).isEqualTo(2);
    assertThat(run.err()).contains("-timeout").contains("1ms").contains("1h");
    assertNoStackTrace(run);
  }

  // --- the well-behaved server still works with the same script ---

  @Test
  void theScriptedServerItselfIsFollowedWhenItBehaves() throws Exception {
    Run run =
        client(
            List.of(
                DISCOVERED,
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\","
                    + "\"text\":\"hi\"}],\"isError\":false,\"resultType\":\"complete\"}}"),
            "-tool",
            "t",
            "-timeout",
            DEADLINE);

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(WireServer.JSON.readTree(run.out()).at("/content/0/text").stringValue())
        .isEqualTo("hi");
    assertServerClosed(run);
  }
}

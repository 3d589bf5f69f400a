package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The official conformance suite ({@code @modelcontextprotocol/conformance}, pinned in {@code
 * peers/interop/package-lock.json}) against the real executable over HTTP, for each revision's
 * frozen requirements ({@code --requirements}): every scored scenario passes except those in {@code
 * peers/interop/conformance/baseline-REVISION.yml}, each of which calls a fixture of the suite's
 * own reference server (a tool, resource or prompt by its test name) and says so; the suite fails
 * the run on a baselined scenario that passes too. The suite's clients send no credential, so the
 * server runs with {@code -auth none} on loopback; tokens are HttpIT's and HttpHostileIT's.
 */
class HttpConformanceIT {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"2026-07-28", "2025-11-25"})
  void everyScenarioThatNeedsNoFixtureOfTheReferenceServerPasses(String revision) throws Exception {
    Path interop = Path.of(System.getProperty("notesmcp.repo")).resolve("peers").resolve("interop");
    Path suite = interop.resolve("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    assertThat(suite).as("npm ci in peers/interop/ (mvn verify runs it)").exists();
    Path root = Fixtures.workspace(dir);
    try (HttpWire server = HttpWire.start(root, "-auth", "none")) {
      Path log = dir.resolve("conformance.log");
      Process run =
          new ProcessBuilder(
                  List.of(
                      "node",
                      suite.toString(),
                      "server",
                      "--url",
                      server.uri.toString(),
                      "--requirements",
                      revision,
                      "--expected-failures",
                      interop.resolve("conformance/baseline-" + revision + ".yml").toString(),
                      "-o",
                      dir.resolve("results").toString()))
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      assertThat(run.waitFor(10, TimeUnit.MINUTES)).as("the suite ends").isTrue();
      String output = read(log);
      assertThat(run.exitValue())
          .as("the conformance suite's verdict (Node 22 is needed: .ci/run brings it):\n%s", output)
          .isZero();
      assertThat(output).doesNotContain("Unexpected").doesNotContain("stale");
      for (String scenario :
          revision.equals("2026-07-28")
              ? List.of(
                  "server-stateless",
                  "tools-list",
                  "sep-2164-resource-not-found",
                  "dns-rebinding-protection",
                  "caching",
                  "resources-list",
                  "server-sse-multiple-streams")
              : List.of(
                  "server-initialize",
                  "ping",
                  "tools-list",
                  "resources-list",
                  "dns-rebinding-protection",
                  "server-sse-multiple-streams")) {
        assertThat(output).as(output).containsPattern("(?m)^. " + scenario + ": [0-9]+ passed");
      }
      assertThat(server.process().isAlive()).as("the server keeps serving").isTrue();
    }
  }

  private static String read(Path log) throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }
}

package notesmcp.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The servers the harness knows, built from the repository checkout: ours through the launcher
 * users run, and the peers from the interoperability fixtures. The reference for every ratio is
 * {@link #TS_SDK_V2}.
 */
final class ServerCatalog {
  static final String NOTES_MCP = "notes-mcp";
  static final String TS_SDK_V2 = "ts-sdk-v2";
  static final String JAVA_SDK = "java-sdk";
  static final String FLOOR = "floor";
  static final List<String> ALL = List.of(NOTES_MCP, TS_SDK_V2, JAVA_SDK, FLOOR);

  /** The servers with a one-shot client to compare (see {@link #oneShot}). */
  static final List<String> ONE_SHOT = List.of(NOTES_MCP, TS_SDK_V2);

  private final Path repo;
  private final Path workspace;
  private final long budget;

  /**
   * @param budget the tool-call budget for servers that have one: far above any phase's calls
   */
  ServerCatalog(Path repo, Path workspace, long budget) {
    this.repo = repo;
    this.workspace = workspace;
    this.budget = budget;
  }

  ServerSpec spec(String name) {
    String root = workspace.toString();
    switch (name) {
      case NOTES_MCP:
        // The launcher execs java: the pid we get is the JVM's.
        return new ServerSpec(
            name,
            List.of(
                repo.resolve("notes-mcp").toString(),
                "-serve",
                "-root",
                root,
                "-max-calls",
                Long.toString(budget)),
            ServerSpec.Era.MODERN,
            "`./notes-mcp -serve -root W -max-calls N` (the launcher: C1, SerialGC, CDS archive)");
      case TS_SDK_V2:
        return new ServerSpec(
            name,
            List.of(
                "node",
                repo.resolve("interop/ts-v2-server.mjs").toString(),
                root,
                "--max-calls",
                Long.toString(budget)),
            ServerSpec.Era.MODERN,
            "`node interop/ts-v2-server.mjs W --max-calls N` (TypeScript SDK v2 2.4.0, serveStdio)");
      case JAVA_SDK:
        // No budget flag: the SDK peer has no call budget at all.
        return new ServerSpec(
            name,
            List.of(
                Programs.java(),
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                javaSdkClasspath(),
                "notesmcp.app.interop.JavaSdkPeerServer",
                root),
            ServerSpec.Era.LEGACY,
            "`java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp ... JavaSdkPeerServer W` (Java SDK"
                + " 2.1.0, legacy era only: initialize first)");
      case FLOOR:
        return new ServerSpec(
            name,
            List.of(Programs.python(), repo.resolve("bench/floor-server.py").toString(), root),
            ServerSpec.Era.MODERN,
            "`python3 bench/floor-server.py W` (standard library only; no budget, limits or"
                + " threads)");
      default:
        throw new IllegalArgumentException(
            "unknown server " + name + "; known: " + String.join(", ", ALL));
    }
  }

  /** The one-shot client commands: ours, and the TS SDK v2 client spawning the TS server. */
  List<String> oneShot(String name) {
    switch (name) {
      case NOTES_MCP:
        return List.of(
            repo.resolve("notes-mcp").toString(),
            "-root",
            workspace.toString(),
            "-tool",
            "read_note",
            "-args",
            "{\"path\":\"notes.txt\"}");
      case TS_SDK_V2:
        return List.of(
            "node", repo.resolve("interop/ts-v2-call.mjs").toString(), workspace.toString());
      default:
        return null;
    }
  }

  /** Written by the build (maven-dependency-plugin): the SDK and the notes-app test-jar. */
  private String javaSdkClasspath() {
    Path file = repo.resolve("notes-bench/target/java-sdk-peer.classpath");
    try {
      List<String> entries = new ArrayList<>();
      for (String entry : Files.readString(file, StandardCharsets.UTF_8).trim().split(":")) {
        if (!entry.isEmpty()) {
          entries.add(entry);
        }
      }
      return String.join(":", entries);
    } catch (IOException e) {
      throw new BenchFailure(
          "no " + file + "; build first: mvn -B -q -ntp package -DskipTests (" + e + ")");
    }
  }
}

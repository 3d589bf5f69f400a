package notesmcp.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The servers the harness knows: ours through the launcher users run (and, when given, the packaged
 * app image and the program as it was before), the floor every ratio is taken against, the
 * TypeScript SDK v2 server beside them, and any {@code --server NAME=COMMAND}.
 */
final class ServerCatalog {
  static final String NOTES_MCP = "notes-mcp";
  static final String APP_IMAGE = "app-image";
  static final String BEFORE = "before";
  static final String FLOOR = "floor";
  static final String TS_SDK_V2 = "ts-sdk-v2";
  static final List<String> BUILT_IN = List.of(NOTES_MCP, APP_IMAGE, BEFORE, FLOOR, TS_SDK_V2);

  /** Ours, measured against the targets. */
  static final List<String> OURS = List.of(NOTES_MCP, APP_IMAGE);

  /**
   * A lost or wrong reply from one of these voids the run: it is ours, or it is the reference. Any
   * other server that fails is dropped from the rest of the run, and the others finish.
   */
  static final Set<String> ESSENTIAL = Set.of(NOTES_MCP, APP_IMAGE, FLOOR);

  private static final String CALL_ARGS = "{\"path\":\"notes.txt\"}";

  private final BenchOptions options;
  private final Path workspace;

  ServerCatalog(BenchOptions options, Path workspace) {
    this.options = options;
    this.workspace = workspace;
  }

  ServerSpec spec(String name) {
    Path repo = options.repo;
    switch (name) {
      case NOTES_MCP:
        return launcher(
            name,
            repo.resolve("notes-mcp"),
            "`./notes-mcp -serve -root W -max-calls N`: the launcher, which execs the JVM");
      case APP_IMAGE:
        return launcher(
            name,
            options.appImage,
            "`" + options.appImage + " -serve -root W -max-calls N`: the packaged app image");
      case BEFORE:
        return launcher(
            name,
            options.beforeLauncher,
            "the program as it was (" + options.beforeLabel + "), through its own launcher");
      case FLOOR:
        return new ServerSpec(
            name,
            List.of(Programs.python(), repo.resolve("bench/floor-server.py").toString(), root()),
            "`python3 bench/floor-server.py W`: standard library only, one thread, no budget or"
                + " limits; the reference of every ratio",
            null);
      case TS_SDK_V2:
        return new ServerSpec(
            name,
            List.of(
                "node",
                repo.resolve("peers/interop/ts-v2-server.mjs").toString(),
                root(),
                "--max-calls",
                Long.toString(options.budget())),
            "`node peers/interop/ts-v2-server.mjs W --max-calls N`: TypeScript SDK v2, serveStdio",
            List.of("node", repo.resolve("peers/interop/ts-v2-call.mjs").toString(), root()));
      default:
        List<String> command = options.custom.get(name);
        if (command == null) {
          throw new IllegalArgumentException("unknown server " + name);
        }
        List<String> words = new ArrayList<>();
        for (String word : command) {
          words.add(
              word.replace("{root}", root()).replace("{budget}", Long.toString(options.budget())));
        }
        return new ServerSpec(name, words, "`" + String.join(" ", command) + "` (--server)", null);
    }
  }

  /** A notes-mcp executable: served with a budget above any phase, and its one-shot client. */
  private ServerSpec launcher(String name, Path executable, String description) {
    String exe = executable.toString();
    return new ServerSpec(
        name,
        List.of(exe, "-serve", "-root", root(), "-max-calls", Long.toString(options.budget())),
        description,
        List.of(exe, "-root", root(), "-tool", "read_note", "-args", CALL_ARGS));
  }

  private String root() {
    return workspace.toString();
  }
}

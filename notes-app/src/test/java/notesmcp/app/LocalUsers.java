package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.security.auth.module.UnixSystem;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import notesmcp.mcp.SchemaCheck;
import tools.jackson.databind.JsonNode;

/**
 * Two local users for tests of what holds against other processes (the start-up cache): {@link
 * #OWNER}, a uid with no account that owns the files under test and runs the program, and {@link
 * #OTHER} ({@code nobody}), the other user who tries to change them. Commands run as either with
 * {@code setpriv} (util-linux), under a chosen umask; only root can change ids, so these tests run
 * only as root. Public for notes-dist's tests of the packaged launcher.
 */
public final class LocalUsers {
  public static final int OWNER = 4242;
  public static final int OTHER = 65534;

  private LocalUsers() {}

  /** How a command ended. */
  public record Result(int exit, String out, String err) {}

  public static boolean areAvailable() {
    return new UnixSystem().getUid() == 0;
  }

  /** {@code command} as {@code uid} (and its own group, no others) under {@code umask}. */
  public static List<String> as(int uid, String umask, List<String> command) {
    List<String> wrapped =
        new ArrayList<>(
            List.of(
                "setpriv",
                "--reuid=" + uid,
                "--regid=" + uid,
                "--clear-groups",
                "--",
                "bash",
                "-c",
                "umask " + umask + " && exec \"$@\"",
                "bash"));
    wrapped.addAll(command);
    return wrapped;
  }

  /** Runs {@code command} in {@code directory} with nothing on stdin; waits up to 5 minutes. */
  public static Result run(List<String> command, Path directory, Map<String, String> env)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("local-users", ".out");
    Path err = Files.createTempFile("local-users", ".err");
    try {
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(directory.toFile())
              .redirectInput(new File("/dev/null"))
              .redirectOutput(out.toFile())
              .redirectError(err.toFile());
      builder.environment().putAll(env);
      Process process = builder.start();
      if (!process.waitFor(5, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new AssertionError(command + " did not finish:\n" + Files.readString(err));
      }
      // Leniently: a test may list names whose bytes are not UTF-8.
      return new Result(
          process.exitValue(),
          new String(Files.readAllBytes(out), StandardCharsets.UTF_8),
          new String(Files.readAllBytes(err), StandardCharsets.UTF_8));
    } finally {
      Files.delete(out);
      Files.delete(err);
    }
  }

  /** Runs a shell command line as root and fails the test unless it succeeds. */
  public static String sh(String script, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", "-c", script, "bash"));
    command.addAll(List.of(args));
    Result result = run(command, Path.of("/"), Map.of());
    assertThat(result.exit()).as("%s: %s", script, result.err()).isZero();
    return result.out();
  }

  /** {@code chown -R uid:uid path}. */
  public static void chown(Path path, int uid) throws Exception {
    sh("chown -R \"$1\" \"$2\"", uid + ":" + uid, path.toString());
  }

  /** The inode number of {@code path} itself (a link is not followed). */
  public static long inode(Path path) throws IOException {
    return ((Number) Files.getAttribute(path, "unix:ino", LinkOption.NOFOLLOW_LINKS)).longValue();
  }

  /** The owner's uid and the permission bits of {@code path} itself, as {@code "4242 755"}. */
  public static String ownerAndMode(Path path) throws IOException {
    int uid = (Integer) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    int mode = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
    return uid + " " + Integer.toOctalString(mode & 07777);
  }

  /** {@link #ownerAndMode} of {@code root} and of everything under it, by relative path. */
  public static Map<String, String> ownersAndModes(Path root) throws IOException {
    Map<String, String> all = new TreeMap<>();
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        all.put(root.relativize(path).toString(), ownerAndMode(path));
      }
    }
    return all;
  }

  /** The inode numbers of every file process {@code pid} has mapped ({@code /proc/PID/maps}). */
  public static Set<Long> mappedInodes(long pid) throws IOException {
    Set<Long> inodes = new HashSet<>();
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "maps"))) {
      String[] fields = line.trim().split("\\s+", 6);
      if (fields.length == 6 && !fields[4].equals("0")) {
        inodes.add(Long.parseLong(fields[4]));
      }
    }
    return inodes;
  }

  /** A {@code -serve} run: its reply to one request, what it mapped, and how it ended. */
  public record Served(int exit, String reply, Set<Long> mapped, String err) {}

  /**
   * Starts {@code command} (a {@code -serve}), sends {@code request}, waits for the one line it
   * answers with (checked against the schema's {@code resultDefinition}), notes every file the
   * process has mapped by then, closes its stdin and waits for it to exit.
   */
  public static Served serve(
      List<String> command, Path directory, String request, String resultDefinition)
      throws Exception {
    Path err = Files.createTempFile("local-users", ".err");
    try {
      Process process =
          new ProcessBuilder(command)
              .directory(directory.toFile())
              .redirectError(err.toFile())
              .start();
      String reply;
      Set<Long> mapped;
      try (BufferedReader stdout =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        OutputStream stdin = process.getOutputStream();
        stdin.write((request + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
        reply = stdout.readLine();
        mapped = process.isAlive() ? mappedInodes(process.pid()) : Set.of();
        stdin.close();
        String more = stdout.readLine();
        assertThat(more).as("a second line on stdout").isNull();
      }
      if (!process.waitFor(2, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new AssertionError(command + " did not exit:\n" + Files.readString(err));
      }
      String stderr = Files.readString(err, StandardCharsets.UTF_8);
      assertThat(reply).as("the reply; stderr:\n%s", stderr).isNotNull();
      JsonNode message = WireServer.JSON.readTree(reply);
      assertThat(SchemaCheck.violations(SchemaCheck.MODERN, resultDefinition, message))
          .as(reply)
          .isEmpty();
      return new Served(process.exitValue(), reply, mapped, stderr);
    } finally {
      Files.delete(err);
    }
  }

  /** A 2026-07-28 {@code server/discover} request; its result is a {@code DiscoverResult}. */
  public static final String DISCOVER =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{"
          + WireServer.META
          + "}}";
}

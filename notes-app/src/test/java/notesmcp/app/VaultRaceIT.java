package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import notesmcp.mcp.SchemaCheck;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/behaviour.md, "What holds against other processes", for notes in folders: while a client
 * pipelines {@code read_note} of a note one or three folders deep, another process ({@code
 * swapper.c}, as in {@code WorkspaceRaceIT}) exchanges, as fast as it can, either the note or the
 * folder that holds it with something outside the workspace: a symbolic link to a secret (or to a
 * folder holding one), a hard link to a secret, a FIFO nobody writes, a directory, a plain file. No
 * reply may hold the secret, every reply is the note or a refusal that names its reason, and the
 * server keeps serving.
 *
 * <p>Cost: {@code notesmcp.vault.reads} reads a race (4,000 by default, 14 races: about two minutes
 * at load 15 on the 2-core machine); {@code -Dnotesmcp.vault.reads=20000} for the long run.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class VaultRaceIT {
  private static final String SECRET = "TOP-SECRET-5f3a: the payroll file\n";
  private static final String TEXT = "the note itself\n";
  private static final int READS = Integer.getInteger("notesmcp.vault.reads", 4000);
  private static final int IN_FLIGHT = 32;

  @TempDir Path dir;
  private Path root;
  private Path outside;
  private Path swapper;

  @BeforeEach
  void setUp() throws Exception {
    root = Files.createDirectory(dir.resolve("vault")).toRealPath();
    outside = Files.createDirectory(dir.resolve("outside")).toRealPath();
    swapper = WorkspaceRaceIT.build(dir);
  }

  static Stream<Arguments> races() {
    List<Arguments> races = new ArrayList<>();
    for (String folders : List.of("A", "A/B/C")) {
      for (String with : List.of("symlink", "hardlink", "fifo", "directory")) {
        races.add(Arguments.of(folders, "note", with));
      }
      for (String with : List.of("symlink", "file", "fifo")) {
        races.add(Arguments.of(folders, "folder", with));
      }
    }
    return races.stream();
  }

  @ParameterizedTest(name = "{1} in {0} exchanged with a {2}")
  @MethodSource("races")
  void aNoteOrItsFolderExchangedWithSomethingOutsideNeverLeaksAndNeverHolds(
      String folders, String what, String with) throws Exception {
    Path folder = Files.createDirectories(root.resolve(folders));
    String path = folders + "/note.md";
    Path note = Files.writeString(folder.resolve("note.md"), TEXT);
    Path secret = Files.writeString(outside.resolve("secret.md"), SECRET);
    Path other = outside.resolve("other");
    if (what.equals("note")) {
      switch (with) {
        case "symlink" -> Files.createSymbolicLink(other, secret);
        case "hardlink" -> Files.createLink(other, secret);
        case "fifo" -> mkfifo(other);
        default -> Files.createDirectory(other);
      }
    } else {
      switch (with) {
        case "symlink" -> {
          Path secrets = Files.createDirectory(outside.resolve("secrets"));
          Files.writeString(secrets.resolve("note.md"), SECRET);
          Files.createSymbolicLink(other, secrets);
        }
        case "file" -> Files.createLink(other, secret);
        default -> mkfifo(other);
      }
    }
    Path swapped = what.equals("note") ? note : folder;
    Path policy =
        Files.writeString(
            dir.resolve("policy.json"), "{\"readable\":[\"**/*.md\"],\"maxCalls\":1000000}");
    Thread.sleep(200); // the note older than the read's change margin before the race

    Set<String> refusals = new TreeSet<>();
    int answered = 0;
    try (WireServer server = WireServer.start(root, "-policy", policy.toString())) {
      assertThat(WireServer.text(server.call("read_note", json(path))))
          .as("served before the race")
          .isEqualTo(answer(path));
      Process swap =
          new ProcessBuilder(
                  swapper.toString(), "exchange", swapped.toString(), other.toString(), "300")
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      List<String> replies = new ArrayList<>();
      try {
        BufferedReader said =
            new BufferedReader(
                new InputStreamReader(swap.getInputStream(), StandardCharsets.UTF_8));
        assertThat(said.readLine()).isEqualTo("ready");
        for (int sent = 0; sent < READS; sent += IN_FLIGHT) {
          long[] ids = new long[IN_FLIGHT];
          for (int i = 0; i < IN_FLIGHT; i++) {
            ids[i] = send(server, path);
          }
          for (long id : ids) {
            replies.add(WireServer.text(server.response(id)));
          }
        }
      } finally {
        swap.destroy();
        assertThat(swap.waitFor(10, TimeUnit.SECONDS)).as("the swapper stopped").isTrue();
      }
      for (String reply : replies) {
        assertThat(reply).doesNotContain("TOP-SECRET");
        if (reply.equals(answer(path))) {
          answered++;
        } else {
          refusals.add(reply);
        }
      }
      assertThat(refusals).as("the swapper really raced the reads").isNotEmpty();
      for (String refusal : refusals) {
        assertThat(isRefusalOf(path, refusal, what, with))
            .as("a refusal that names its reason: " + refusal)
            .isTrue();
      }
      restore(swapped, other, what);
      Thread.sleep(200);
      assertThat(WireServer.text(server.call("read_note", json(path))))
          .as("a later request is answered")
          .isEqualTo(answer(path));
      assertThat(server.closeInputAndWait()).isZero();
    }
    System.out.printf(
        "VaultRaceIT %s %s/%s: %d reads, %d answered, refusals %s%n",
        folders, what, with, READS, answered, refusals);
  }

  /**
   * The refusals a read of {@code path} may meet while its note or its folder ({@code what}) is
   * exchanged with a {@code with}: a folder's refusal only when the folder is exchanged, and only
   * with the reason that thing gives.
   */
  private static boolean isRefusalOf(String path, String text, String what, String with) {
    Set<String> exact =
        Set.of(
            "\""
                + path
                + "\" is not a note in the workspace: no regular file of that name was"
                + " found there (list_notes lists the notes that exist)",
            path + " is a symbolic link (links are never followed), not a regular file",
            path + " is a directory, not a regular file",
            path + " is a special file (FIFO, socket or device), not a regular file",
            path
                + " has 2 hard links; a note must have exactly one"
                + " (another link may lead outside the workspace)",
            path + " does not exist in the workspace",
            path + " changed while it was being opened; try again",
            path + " changed while it was being read; try again");
    // The folder swapped is the note's own; no folder on the way is ever a mount point here, so a
    // refusal that says one (openat2's EXDEV for a folder moved during the open) is wrong.
    String folder = "the folder " + path.substring(0, path.lastIndexOf('/'));
    Set<String> folderReasons =
        !what.equals("folder")
            ? Set.of()
            : Set.of(
                with.equals("symlink")
                    ? " is a symbolic link (links are never followed)"
                    : " is not a folder",
                " changed while it was being opened; try again");
    for (String reason : folderReasons) {
      if (text.equals(path + " cannot be read: " + folder + reason)) {
        return true;
      }
    }
    return exact.contains(text);
  }

  private static String json(String path) {
    return "{\"path\":" + WireServer.JSON.writeValueAsString(path) + "}";
  }

  private static String answer(String path) {
    return "{\"path\":"
        + WireServer.JSON.writeValueAsString(path)
        + ",\"content\":"
        + WireServer.JSON.writeValueAsString(TEXT)
        + "}";
  }

  private static long send(WireServer server, String path) {
    long id = server.nextId();
    server.expect(id, SchemaCheck.MODERN, "CallToolResult");
    server.send(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + id
            + ",\"method\":\"tools/call\",\"params\":{"
            + WireServer.META
            + ",\"name\":\"read_note\",\"arguments\":"
            + json(path)
            + "}}");
    return id;
  }

  private static void mkfifo(Path path) throws Exception {
    assertThat(new ProcessBuilder("mkfifo", path.toString()).start().waitFor()).isZero();
  }

  /** Puts the note or folder back where it was, whichever of the two names holds it now. */
  private static void restore(Path swapped, Path other, String what) throws IOException {
    boolean home =
        what.equals("note")
            ? Files.isRegularFile(swapped, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                && !Files.isSymbolicLink(swapped)
                && ((Number) Files.getAttribute(swapped, "unix:nlink")).intValue() == 1
            : Files.isDirectory(swapped, java.nio.file.LinkOption.NOFOLLOW_LINKS);
    if (!home) {
      Path aside = other.resolveSibling("aside");
      Files.move(swapped, aside);
      Files.move(other, swapped);
      Files.move(aside, other);
    }
  }
}

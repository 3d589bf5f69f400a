package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Many files in one folder (docs/behaviour.md, "The catalog", bounded): the listing pages through
 * them all, 500 at a time, in order, and the server's memory stays bounded. With more files than
 * the catalog keeps (100,000), it serves that many, says so on stderr once, and keeps serving.
 *
 * <p>Cost: {@code notesmcp.vault.files} files (10,000 by default: about 15 s on the busy 2-core
 * machine, most of it making the files); {@code -Dnotesmcp.vault.files=100500} for the bound itself
 * (about five minutes at load 22, most of it making the files; peak RSS 58 MiB).
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class VaultScaleIT {
  private static final int FILES = Integer.getInteger("notesmcp.vault.files", 10_000);
  private static final int KEPT = 100_000;

  @TempDir Path dir;

  @Test
  void aFolderOfManyFilesIsListedByPagesInBoundedMemory() throws Exception {
    Path root = Files.createDirectory(dir.resolve("vault")).toRealPath();
    Path flat = Files.createDirectory(root.resolve("Flat"));
    for (int i = 0; i < FILES; i++) {
      Files.writeString(flat.resolve(String.format("note-%06d.md", i)), "x");
    }
    Path policy =
        Files.writeString(
            dir.resolve("policy.json"), "{\"readable\":[\"**/*.md\"],\"maxCalls\":1000000}");
    Thread.sleep(200); // older than the read's change margin

    try (WireServer server = WireServer.start(root, "-policy", policy.toString())) {
      List<String> all = new ArrayList<>();
      String cursor = null;
      int pages = 0;
      do {
        JsonNode page =
            WireServer.JSON.readTree(
                WireServer.text(
                    server.call(
                        "list_notes", cursor == null ? "{}" : "{\"cursor\":\"" + cursor + "\"}")));
        assertThat(page.get("notes").size()).isLessThanOrEqualTo(500);
        for (JsonNode path : page.get("notes")) {
          all.add(path.stringValue());
        }
        cursor = page.has("nextCursor") ? page.get("nextCursor").stringValue() : null;
        pages++;
      } while (cursor != null);
      int served = Math.min(FILES, KEPT);
      assertThat(all).hasSize(served).doesNotHaveDuplicates().isSorted();
      assertThat(pages).isEqualTo((served + 499) / 500);
      String read = WireServer.text(server.call("read_note", "{\"path\":\"" + all.get(7) + "\"}"));
      assertThat(read).isEqualTo("{\"path\":\"" + all.get(7) + "\",\"content\":\"x\"}");
      long peak = peakRssKib(server.process().pid());
      System.out.printf(
          "VaultScaleIT: %d files, %d pages, peak RSS %.1f MiB%n", FILES, pages, peak / 1024.0);
      assertThat(peak).as("peak RSS in KiB").isLessThan(128 * 1024);
      String bound =
          "notes-mcp: the workspace holds more than 100000 notes the policy allows; only 100000 are"
              + " served (which ones depends on the order the folders list them)";
      if (FILES > KEPT) {
        server.awaitStderr(bound);
        assertThat(server.stderr().split(java.util.regex.Pattern.quote(bound), -1)).hasSize(2);
      } else {
        assertThat(server.stderr()).doesNotContain(bound);
      }
    }
  }

  /** VmHWM of the process, in KiB. */
  static long peakRssKib(long pid) throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new AssertionError("no VmHWM for " + pid);
  }
}

package notesmcp.app;

import static notesmcp.app.StructureIT.quote;
import static notesmcp.app.StructureReference.allPages;
import static notesmcp.app.StructureReference.answer;
import static notesmcp.app.StructureReference.awaitStructure;
import static notesmcp.app.StructureReference.refusal;
import static notesmcp.app.StructureReference.tagKey;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A note the policy no longer lets be read disappears from every answer of the structure's tools at
 * once (docs/knowledge.md, "Under the policy"): deleted, replaced by a symbolic link, moved into a
 * dot folder, given a second hard link from outside the workspace (no restart, no wait: the very
 * next call), or excluded by the policy at the next start. Each case on a copy of the generated
 * vault, against the real executable; "gone" is checked in every tool: backlinks, find_notes,
 * list_tags, note_links (a link to it resolves as to a note that does not exist, or to a readable
 * namesake), read_note's outline.
 */
class StructurePolicyIT {
  private static final String KITE = "Projects/Paper Kite.md";

  @TempDir Path dir;
  private Path vault;
  private Path policy;

  /** A note that links to Paper Kite and has tags: the one made unreadable. */
  private JsonNode linker;

  /** A readable note other than the linker that links to it, and that link's line. */
  private String linking;

  @BeforeEach
  void copy() throws Exception {
    vault = GeneratedVault.copy(dir.resolve("vault"));
    policy = Files.writeString(dir.resolve("policy.json"), GeneratedVault.POLICY);
    Map<String, String> linkedFrom = new HashMap<>();
    for (JsonNode note : GeneratedVault.readable()) {
      for (JsonNode link : note.get("links")) {
        if (!link.get("resolved").isNull()) {
          linkedFrom.putIfAbsent(link.get("resolved").asString(), note.get("path").asString());
        }
      }
    }
    for (JsonNode note : GeneratedVault.readable()) {
      String path = note.get("path").asString();
      String from = linkedFrom.get(path);
      boolean linksKite = false;
      for (JsonNode link : note.get("links")) {
        linksKite |= KITE.equals(link.get("resolved").asString(null));
      }
      if (linksKite && note.get("tags").size() > 0 && from != null && !from.equals(path)) {
        linker = note;
        linking = from;
        break;
      }
    }
    assertThat(linker).isNotNull();
  }

  private WireServer start() throws Exception {
    WireServer server =
        WireServer.start(
                vault, Map.of("XDG_CACHE_HOME", dir.toString()), "-policy", policy.toString())
            .patient(Duration.ofSeconds(60));
    awaitStructure(server);
    return server;
  }

  /** What every tool says of the linker, before. */
  private record Seen(
      List<String> kiteBacklinks, Map<String, Integer> tags, List<String> folder, String link) {}

  private Seen look(WireServer server) {
    String path = linker.get("path").asString();
    List<String> backlinks = new ArrayList<>();
    for (JsonNode backlink :
        allPages(server, "backlinks", "\"path\":" + quote(KITE), "backlinks")) {
      backlinks.add(backlink.get("path").asString());
    }
    Map<String, Integer> tags = new HashMap<>();
    for (JsonNode tag : allPages(server, "list_tags", "", "tags")) {
      tags.put(tag.get("tag").asString(), tag.get("count").asInt());
    }
    List<String> folder = new ArrayList<>();
    for (JsonNode note :
        allPages(
            server,
            "find_notes",
            "\"folder\":" + quote(path.substring(0, path.lastIndexOf('/'))),
            "notes")) {
      folder.add(note.asString());
    }
    String link = null;
    for (JsonNode found : allPages(server, "note_links", "\"path\":" + quote(linking), "links")) {
      if (path.equals(found.get("resolved").asString(null))) {
        link = found.get("target").asString();
      }
    }
    return new Seen(backlinks, tags, folder, link);
  }

  /** Every answer holds the linker before; none after, and nothing else changed with it. */
  private void assertGone(WireServer server, Seen before) {
    String path = linker.get("path").asString();
    assertThat(before.kiteBacklinks()).contains(path);
    assertThat(before.folder()).contains(path);
    assertThat(before.link()).isNotNull();
    Seen after = look(server);
    assertThat(after.kiteBacklinks()).doesNotContain(path);
    List<String> kiteLeft = new ArrayList<>(before.kiteBacklinks());
    kiteLeft.removeIf(path::equals);
    assertThat(after.kiteBacklinks()).isEqualTo(kiteLeft);
    assertThat(after.folder()).doesNotContain(path);
    assertThat(after.link()).isNull();
    for (String key : keys(linker)) {
      int was = before.tags().get("#" + key);
      assertThat(after.tags().getOrDefault("#" + key, 0)).as(key).isEqualTo(was - 1);
      for (JsonNode note : allPages(server, "find_notes", "\"tag\":" + quote(key), "notes")) {
        assertThat(note.asString()).isNotEqualTo(path);
      }
    }
    String read = refusal(server, "read_note", "{\"path\":" + quote(path) + "}");
    assertThat(refusal(server, "note_links", "{\"path\":" + quote(path) + "}")).isEqualTo(read);
    assertThat(refusal(server, "backlinks", "{\"path\":" + quote(path) + "}")).isEqualTo(read);
    assertThat(refusal(server, "read_note", "{\"path\":" + quote(path) + ",\"outline\":true}"))
        .isEqualTo(read);
  }

  private static List<String> keys(JsonNode note) {
    List<String> keys = new ArrayList<>();
    for (JsonNode tag : note.get("tags")) {
      if (!keys.contains(tagKey(tag.asString()))) {
        keys.add(tagKey(tag.asString()));
      }
    }
    return keys;
  }

  private Path file() {
    return vault.resolve(linker.get("path").asString());
  }

  @Test
  void aDeletedNoteIsGoneFromTheNextAnswer() throws Exception {
    try (WireServer server = start()) {
      Seen before = look(server);
      Files.delete(file());
      assertGone(server, before);
    }
  }

  @Test
  void aNoteReplacedByASymbolicLinkIsGoneFromTheNextAnswer() throws Exception {
    try (WireServer server = start()) {
      Seen before = look(server);
      Path kept = Files.move(file(), dir.resolve("outside.md"));
      Files.createSymbolicLink(file(), kept);
      assertGone(server, before);
    }
  }

  @Test
  void aNoteMovedIntoADotFolderIsGoneFromTheNextAnswer() throws Exception {
    try (WireServer server = start()) {
      Seen before = look(server);
      Path hidden = Files.createDirectories(vault.resolve(".archive"));
      Files.move(file(), hidden.resolve(file().getFileName()), StandardCopyOption.ATOMIC_MOVE);
      assertGone(server, before);
    }
  }

  @Test
  void aNoteGivenASecondHardLinkFromOutsideIsGoneFromTheNextAnswer() throws Exception {
    try (WireServer server = start()) {
      Seen before = look(server);
      Files.createLink(dir.resolve("second-name.md"), file());
      // Still listed (the catalog holds it), but read_note refuses it: so does every answer.
      String read =
          refusal(server, "read_note", "{\"path\":" + quote(linker.get("path").asString()) + "}");
      assertThat(read).contains("hard links");
      Seen after = look(server);
      assertThat(after.kiteBacklinks()).doesNotContain(linker.get("path").asString());
      for (String key : keys(linker)) {
        assertThat(after.tags().getOrDefault("#" + key, 0))
            .isEqualTo(before.tags().get("#" + key) - 1);
      }
    }
  }

  @Test
  void aNoteTheNextStartsPolicyExcludesIsInNoAnswer() throws Exception {
    Seen before;
    try (WireServer server = start()) {
      before = look(server);
    }
    String path = linker.get("path").asString();
    Files.writeString(
        policy,
        GeneratedVault.POLICY.replace(
            "\"Templates/**\"]", "\"Templates/**\", " + quote(path) + "]"));
    try (WireServer server = start()) {
      assertGone(server, before);
      assertThat(refusal(server, "read_note", "{\"path\":" + quote(path) + "}"))
          .contains("is excluded by the policy");
    }
  }

  /** The same, through search_notes' filters and its hits' aliases. */
  @Test
  void aNoteGoneIsNeverAFilteredSearchHit() throws Exception {
    try (WireServer server = start()) {
      String path = linker.get("path").asString();
      String title = path.substring(path.lastIndexOf('/') + 1, path.length() - 3);
      String query = "{\"query\":" + quote(title) + ",\"tag\":" + quote(keys(linker).get(0)) + "}";
      List<String> hits = new ArrayList<>();
      for (JsonNode hit : answer(server, "search_notes", query).get("hits")) {
        hits.add(hit.get("path").asString());
      }
      assertThat(hits).contains(path);
      Files.delete(file());
      for (JsonNode hit : answer(server, "search_notes", query).get("hits")) {
        assertThat(hit.get("path").asString()).isNotEqualTo(path);
      }
    }
  }
}

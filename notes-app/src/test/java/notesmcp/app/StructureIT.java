package notesmcp.app;

import static notesmcp.app.StructureReference.CODE_POINTS;
import static notesmcp.app.StructureReference.allPages;
import static notesmcp.app.StructureReference.answer;
import static notesmcp.app.StructureReference.awaitStructure;
import static notesmcp.app.StructureReference.refusal;
import static notesmcp.app.StructureReference.tagKey;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The tools that know the notes' structure, against the real executable on the generated vault with
 * its known link graph ({@link GeneratedVault}): every answer of {@code note_links}, {@code
 * backlinks}, {@code list_tags}, {@code find_notes} and {@code read_note}'s outline and section
 * equals what the generator's own {@code structure.json} says, computed apart from the program;
 * every message the server writes is checked against the schema ({@link WireServer}). The links
 * into the excluded folders, into dot folders and to notes that do not exist resolve to nothing; a
 * hidden note of the same name as a readable one never wins. What happens when a note becomes
 * unreadable is {@code StructurePolicyIT}.
 */
class StructureIT {
  private static WireServer server;
  private static Path vault;
  private static List<JsonNode> readable;
  private static Map<String, JsonNode> byPath;

  @TempDir static Path dir;

  @BeforeAll
  static void serve() throws Exception {
    vault = GeneratedVault.vault();
    readable = GeneratedVault.readable();
    byPath = new HashMap<>();
    for (JsonNode note : readable) {
      byPath.put(note.get("path").asString(), note);
    }
    Path policy = Files.writeString(dir.resolve("policy.json"), GeneratedVault.POLICY);
    server =
        WireServer.start(
                vault, Map.of("XDG_CACHE_HOME", dir.toString()), "-policy", policy.toString())
            .patient(java.time.Duration.ofSeconds(60));
    awaitStructure(server);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void theToolsAreReadOnlyWithTitlesAndOnlyWithAPolicyFile() throws Exception {
    JsonNode tools = server.modern("tools/list", "", "ListToolsResult").at("/result/tools");
    Map<String, JsonNode> named = new TreeMap<>();
    for (JsonNode tool : tools) {
      named.put(tool.get("name").asString(), tool);
    }
    Map<String, String> titles =
        Map.of(
            "note_links", "A note's links",
            "backlinks", "Backlinks",
            "list_tags", "List tags",
            "find_notes", "Find notes");
    for (Map.Entry<String, String> title : titles.entrySet()) {
      JsonNode tool = named.get(title.getKey());
      assertThat(tool).as(title.getKey()).isNotNull();
      assertThat(tool.get("title").asString()).isEqualTo(title.getValue());
      assertThat(tool.at("/annotations/readOnlyHint").asBoolean()).isTrue();
      assertThat(tool.at("/annotations/openWorldHint").isBoolean()).isTrue();
      assertThat(tool.at("/annotations/openWorldHint").asBoolean()).isFalse();
      assertThat(tool.at("/inputSchema/additionalProperties").asBoolean(true)).isFalse();
    }
    assertThat(named.get("read_note").at("/inputSchema/properties/outline/type").asString())
        .isEqualTo("boolean");
    // The default policy: its three notes and tools, as always.
    Path plain = Files.createDirectories(dir.resolve("plain"));
    Files.writeString(plain.resolve("notes.txt"), "Monday\n");
    try (WireServer defaults = WireServer.start(plain)) {
      List<String> names = new ArrayList<>();
      JsonNode list = defaults.modern("tools/list", "", "ListToolsResult").at("/result/tools");
      for (JsonNode tool : list) {
        names.add(tool.get("name").asString());
        assertThat(tool.at("/inputSchema/properties").has("outline")).isFalse();
      }
      assertThat(names).containsExactly("list_notes", "read_note", "propose_note");
    }
  }

  /** note_links {"path"} → {"path","links":[{"target","resolved","line"}]}, for every note. */
  @Test
  void everyNotesLinksAreTheGeneratorsResolvedAmongTheReadableNotes() {
    int hiddenNamesakes = 0;
    int unresolved = 0;
    for (JsonNode note : readable) {
      String path = note.get("path").asString();
      List<String> expected = new ArrayList<>();
      for (JsonNode link : note.get("links")) {
        String resolved = link.get("resolved").isNull() ? null : link.get("resolved").asString();
        expected.add(target(link) + " -> " + resolved + " @" + link.get("line").asInt());
        unresolved += resolved == null ? 1 : 0;
        if (!link.get("obsidian").isNull()
            && !link.get("obsidian").asString().equals(String.valueOf(resolved))) {
          hiddenNamesakes++; // Obsidian, seeing every note, would pick a hidden one
        }
      }
      List<String> got = new ArrayList<>();
      for (JsonNode link : allPages(server, "note_links", "\"path\":" + quote(path), "links")) {
        assertThat(link.propertyNames()).containsExactly("target", "resolved", "line");
        got.add(
            link.get("target").asString()
                + " -> "
                + (link.get("resolved").isNull() ? null : link.get("resolved").asString())
                + " @"
                + link.get("line").asInt());
      }
      assertThat(got).as(path).isEqualTo(expected);
    }
    // Not vacuous: links to hidden, dot-folder and missing notes, and a hidden namesake.
    assertThat(unresolved).isGreaterThan(20);
    assertThat(hiddenNamesakes).isPositive();
  }

  /** A link's target as written: a wikilink's text before |, a Markdown link's destination. */
  private static String target(JsonNode link) {
    String text = link.get("text").asString();
    if (link.get("markdown").asBoolean()) {
      String destination = text.substring(text.indexOf("](") + 2, text.length() - 1);
      return destination.startsWith("<")
          ? destination.substring(1, destination.length() - 1)
          : destination;
    }
    String inner = text.substring(text.indexOf("[[") + 2, text.length() - 2);
    return inner.contains("|") ? inner.substring(0, inner.indexOf('|')) : inner;
  }

  /**
   * backlinks {"path"} → every line of another readable note with a link that resolves to it, by
   * path then line, with the line's text read from the file.
   */
  @Test
  void everyNotesBacklinksAreTheReverseOfTheResolvedLinks() throws Exception {
    Map<String, Map<String, JsonNode>> expected = new TreeMap<>();
    for (JsonNode note : readable) {
      String from = note.get("path").asString();
      byte[] bytes = Files.readAllBytes(vault.resolve(from));
      for (JsonNode link : note.get("links")) {
        if (link.get("resolved").isNull() || link.get("resolved").asString().equals(from)) {
          continue;
        }
        String key = from + "\u0000" + link.get("line").asInt();
        Map<String, JsonNode> lines =
            expected.computeIfAbsent(link.get("resolved").asString(), t -> new TreeMap<>());
        lines.putIfAbsent(
            key,
            WireServer.JSON
                .createObjectNode()
                .put("path", from)
                .put("line", link.get("line").asInt())
                .put(
                    "context",
                    StructureReference.context(bytes, (int) link.get("offset").asLong())));
      }
    }
    int checked = 0;
    for (JsonNode note : readable) {
      String target = note.get("path").asString();
      List<JsonNode> want = new ArrayList<>();
      if (expected.containsKey(target)) {
        want.addAll(expected.get(target).values());
      }
      want.sort(
          (a, b) -> {
            int byPath = CODE_POINTS.compare(a.get("path").asString(), b.get("path").asString());
            return byPath != 0
                ? byPath
                : Integer.compare(a.get("line").asInt(), b.get("line").asInt());
          });
      List<JsonNode> got = allPages(server, "backlinks", "\"path\":" + quote(target), "backlinks");
      assertThat(got.toString()).as(target).isEqualTo(want.toString());
      checked += got.size();
    }
    assertThat(checked).isGreaterThan(readable.size());
    // Paper Kite: more than a page, from readable notes only (Private/ links to it too).
    List<JsonNode> kite =
        allPages(server, "backlinks", "\"path\":\"Projects/Paper Kite.md\"", "backlinks");
    assertThat(kite).hasSizeGreaterThan(50);
    for (JsonNode backlink : kite) {
      assertThat(byPath).containsKey(backlink.get("path").asString());
    }
  }

  @Test
  void tagsAreCountedOverTheReadableNotes() {
    Map<String, Integer> counts = new TreeMap<>(CODE_POINTS);
    for (JsonNode note : readable) {
      Set<String> keys = new LinkedHashSet<>();
      for (JsonNode tag : note.get("tags")) {
        keys.add(tagKey(tag.asString()));
      }
      for (String key : keys) {
        counts.merge(key, 1, Integer::sum);
      }
    }
    List<String> want = new ArrayList<>();
    for (Map.Entry<String, Integer> tag : counts.entrySet()) {
      want.add("#" + tag.getKey() + "=" + tag.getValue());
    }
    List<String> got = new ArrayList<>();
    for (JsonNode tag : allPages(server, "list_tags", "", "tags")) {
      assertThat(tag.propertyNames()).containsExactly("tag", "count");
      got.add(tag.get("tag").asString() + "=" + tag.get("count").asInt());
    }
    assertThat(got).isEqualTo(want);
    assertThat(got).noneMatch(t -> t.startsWith("#private") || t.startsWith("#template"));
  }

  @Test
  void findNotesIsTheFilterOverTheGeneratedProperties() {
    check("\"tag\":\"#project\"", note -> hasTag(note, "project"));
    check("\"tag\":\"PROJECT\"", note -> hasTag(note, "project"));
    check(
        "\"tag\":\"project\",\"property\":{\"name\":\"status\",\"equals\":\"open\"}",
        note -> hasTag(note, "project") && "open".equals(text(note, "status")));
    check(
        "\"property\":{\"name\":\"Status\",\"contains\":\"AIT\"}",
        note -> text(note, "status") != null && text(note, "status").contains("ait"));
    check(
        "\"property\":{\"name\":\"created\",\"after\":\"2026-06-15\"}",
        note -> text(note, "created") != null && text(note, "created").compareTo("2026-06-15") > 0);
    check(
        "\"property\":{\"name\":\"created\",\"after\":\"2026-03-01\",\"before\":\"2026-04-01\"}",
        note ->
            text(note, "created") != null
                && text(note, "created").compareTo("2026-03-01") > 0
                && text(note, "created").compareTo("2026-04-01") < 0);
    check(
        "\"property\":{\"name\":\"updated\",\"before\":\"2026-02-01T12:00\"}",
        note ->
            text(note, "updated") != null
                && text(note, "updated").replace('T', ' ').compareTo("2026-02-01 12:00") < 0);
    check(
        "\"property\":{\"name\":\"priority\",\"equals\":\"3\"}",
        note -> "3".equals(text(note, "priority")));
    check("\"property\":{\"name\":\"reviewer\"}", note -> note.get("properties").has("reviewer"));
    check("\"folder\":\"Projects\"", note -> note.get("path").asString().startsWith("Projects/"));
    check(
        "\"folder\":\"Journal\",\"tag\":\"project\"",
        note -> note.get("path").asString().startsWith("Journal/") && hasTag(note, "project"));
    check("\"modified\":{\"after\":\"2000-01-01\"}", note -> true);
    check("\"modified\":{\"before\":\"2000-01-01T00:00Z\"}", note -> false);
    assertThat(refusal(server, "find_notes", "{}")).startsWith("find_notes needs at least one of");
    assertThat(refusal(server, "find_notes", "{\"tag\":\"x\",\"tag\":\"y\"}"))
        .isEqualTo("duplicate argument \"tag\": each key may appear once");
    assertThat(refusal(server, "find_notes", "{\"tags\":\"x\"}"))
        .isEqualTo(
            "unknown argument \"tags\": find_notes accepts only \"cursor\", \"folder\","
                + " \"modified\", \"property\", \"tag\"");
    assertThat(
            refusal(
                server,
                "find_notes",
                "{\"property\":{\"name\":\"a\",\"equals\":\"b\",\"contains\":\"c\"}}"))
        .isEqualTo("property takes one test: equals, contains, or after and/or before, not more");
    assertThat(refusal(server, "find_notes", "{\"folder\":\"../x\"}"))
        .startsWith("folder \"../x\" is not a folder's path");
  }

  private interface Wanted {
    boolean passes(JsonNode note);
  }

  private static void check(String arguments, Wanted filter) {
    List<String> want = new ArrayList<>();
    for (JsonNode note : readable) {
      if (filter.passes(note)) {
        want.add(note.get("path").asString());
      }
    }
    want.sort(CODE_POINTS);
    List<String> got = new ArrayList<>();
    for (JsonNode path : allPages(server, "find_notes", arguments, "notes")) {
      got.add(path.asString());
    }
    assertThat(got).as(arguments).isEqualTo(want);
  }

  private static boolean hasTag(JsonNode note, String key) {
    for (JsonNode tag : note.get("tags")) {
      String k = tagKey(tag.asString());
      if (k.equals(key) || k.startsWith(key + "/")) {
        return true;
      }
    }
    return false;
  }

  /** A scalar property's value as text (a list's first item), or null. */
  private static String text(JsonNode note, String name) {
    JsonNode property = note.get("properties").get(name);
    if (property == null || property.get("value").isNull()) {
      return null;
    }
    JsonNode value = property.get("value");
    return value.isArray() ? value.get(0).get("value").asString() : value.asString();
  }

  /** read_note's outline: the generator's headings, each section up to the next of its level. */
  @Test
  void outlinesAndSectionsAreTheGeneratorsHeadings() throws Exception {
    int sections = 0;
    for (JsonNode note : readable) {
      String path = note.get("path").asString();
      byte[] bytes = Files.readAllBytes(vault.resolve(path));
      JsonNode headings = note.get("headings");
      JsonNode outline =
          answer(server, "read_note", "{\"path\":" + quote(path) + ",\"outline\":true}");
      assertThat(outline.get("totalBytes").asInt()).isEqualTo(bytes.length);
      assertThat(outline.get("outline")).hasSize(headings.size());
      for (int k = 0; k < headings.size(); k++) {
        JsonNode heading = headings.get(k);
        int offset = heading.get("offset").asInt();
        int end = bytes.length;
        for (int j = k + 1; j < headings.size(); j++) {
          if (headings.get(j).get("level").asInt() <= heading.get("level").asInt()) {
            end = headings.get(j).get("offset").asInt();
            break;
          }
        }
        assertThat(outline.get("outline").get(k).toString())
            .as(path)
            .isEqualTo(
                WireServer.JSON
                    .createObjectNode()
                    .put("heading", heading.get("text").asString())
                    .put("level", heading.get("level").asInt())
                    .put("line", heading.get("line").asInt())
                    .put("offset", offset)
                    .put("bytes", end - offset)
                    .toString());
        if (k % 3 == 0 && end - offset <= 16384 && first(headings, k)) {
          JsonNode section =
              answer(
                  server,
                  "read_note",
                  "{\"path\":"
                      + quote(path)
                      + ",\"section\":"
                      + quote(heading.get("text").asString())
                      + "}");
          assertThat(section.get("section").asString()).isEqualTo(heading.get("text").asString());
          assertThat(section.get("content").asString())
              .isEqualTo(new String(bytes, offset, end - offset, StandardCharsets.UTF_8));
          sections++;
        }
      }
    }
    assertThat(sections).isGreaterThan(readable.size());
    JsonNode risks =
        answer(server, "read_note", "{\"path\":\"Projects/Paper Kite.md\",\"section\":\"Risks\"}");
    assertThat(risks.get("content").asString())
        .startsWith("## Risks\n\nThe line may snap in a gust;")
        .contains("### Weather");
    assertThat(
            refusal(
                server, "read_note", "{\"path\":\"Projects/Paper Kite.md\",\"section\":\"Nope\"}"))
        .startsWith("Projects/Paper Kite.md has no heading \"Nope\"");
  }

  /** Whether heading {@code k} is the first of its text (a later one is reached by its parent). */
  private static boolean first(JsonNode headings, int k) {
    for (int j = 0; j < k; j++) {
      if (headings.get(j).get("text").asString().equals(headings.get(k).get("text").asString())) {
        return false;
      }
    }
    return true;
  }

  /**
   * The "done when" of the structure: what links to Paper Kite, which of those are tagged #project
   * and still open, and what its Risks section says, in three calls.
   */
  @Test
  void threeCallsAnswerWhatLinksToPaperKiteWhichAreOpenProjectsAndWhatItsRisksAre() {
    List<String> linking = new ArrayList<>();
    for (JsonNode backlink :
        allPages(server, "backlinks", "\"path\":\"Projects/Paper Kite.md\"", "backlinks")) {
      if (!linking.contains(backlink.get("path").asString())) {
        linking.add(backlink.get("path").asString());
      }
    }
    List<String> open = new ArrayList<>();
    for (JsonNode path :
        allPages(
            server,
            "find_notes",
            "\"tag\":\"project\",\"property\":{\"name\":\"status\",\"equals\":\"open\"}",
            "notes")) {
      if (linking.contains(path.asString())) {
        open.add(path.asString());
      }
    }
    List<String> want = new ArrayList<>();
    for (String path : linking) {
      JsonNode note = byPath.get(path);
      if (hasTag(note, "project") && "open".equals(text(note, "status"))) {
        want.add(path);
      }
    }
    want.sort(CODE_POINTS);
    assertThat(open).isEqualTo(want).isNotEmpty();
  }

  @Test
  void theArgumentsAreAsStrictAsEveryTools() throws IOException {
    assertThat(refusal(server, "note_links", "{\"path\":\"Private/Diary.md\"}"))
        .isEqualTo(refusal(server, "read_note", "{\"path\":\"Private/Diary.md\"}"));
    assertThat(refusal(server, "backlinks", "{\"path\":\".obsidian/notes-inside.md\"}"))
        .isEqualTo(refusal(server, "read_note", "{\"path\":\".obsidian/notes-inside.md\"}"));
    assertThat(refusal(server, "backlinks", "{\"path\":\"Projects/Paper Kite.md\",\"x\":1}"))
        .isEqualTo("unknown argument \"x\": backlinks accepts only \"cursor\", \"path\"");
    assertThat(refusal(server, "list_tags", "{\"cursor\":\"abc\"}"))
        .startsWith("cursor is not one this server issued");
    String cursor =
        answer(server, "backlinks", "{\"path\":\"Projects/Paper Kite.md\"}")
            .get("nextCursor")
            .asString();
    assertThat(
            refusal(
                server,
                "backlinks",
                "{\"path\":\"Inbox/attachment.txt\",\"cursor\":" + quote(cursor) + "}"))
        .isEqualTo(refusal(server, "read_note", "{\"path\":\"Inbox/attachment.txt\"}"));
    String other = readable.get(1).get("path").asString();
    assertThat(
            refusal(
                server,
                "backlinks",
                "{\"path\":" + quote(other) + ",\"cursor\":" + quote(cursor) + "}"))
        .isEqualTo(
            "cursor was issued for another note: pass the path it came with, or start again"
                + " without a cursor");
    assertThat(refusal(server, "read_note", "{\"path\":\"Projects/Paper Kite.md\",\"outline\":1}"))
        .isEqualTo("argument \"outline\" must be true or false, not number");
    assertThat(
            refusal(
                server,
                "read_note",
                "{\"path\":\"Projects/Paper Kite.md\",\"outline\":true,\"section\":\"Risks\"}"))
        .startsWith("give outline or section, not both");
  }

  static String quote(String text) {
    return WireServer.JSON.writeValueAsString(text);
  }
}

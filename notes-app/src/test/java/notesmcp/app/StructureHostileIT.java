package notesmcp.app;

import static notesmcp.app.StructureIT.quote;
import static notesmcp.app.StructureReference.allPages;
import static notesmcp.app.StructureReference.answer;
import static notesmcp.app.StructureReference.awaitStructure;
import static notesmcp.app.StructureReference.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The structure's tools against notes made to hurt and names of every Unicode case the vault rules
 * allow, on the real executable (docs/knowledge.md, "Bounds"): a billion laughs, anchors and
 * aliases, nesting 10,000 deep, a megabyte of YAML, tags of 10,000 characters and front matter that
 * is not UTF-8 are each read within their bounds or refused, and the server answers every call
 * after them; links between names in many scripts and cases resolve by the documented rule (case
 * ignored by Unicode's default lower-case mapping, NFC), which the test computes with the JDK's own
 * {@code toLowerCase}.
 */
class StructureHostileIT {
  @TempDir Path dir;

  private static final String LAUGHS;

  static {
    StringBuilder yaml = new StringBuilder("---\nlol: &a [\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    char previous = 'a';
    for (char c = 'b'; c <= 'j'; c++) {
      yaml.append(c).append(": &").append(c).append(" [");
      for (int k = 0; k < 9; k++) {
        yaml.append(k == 0 ? "" : ",").append('*').append(previous);
      }
      yaml.append("]\n");
      previous = c;
    }
    LAUGHS = yaml.append("---\nLaughs link to [[Target]]. #laughs\n").toString();
  }

  private Path vault() throws Exception {
    Path root = Files.createDirectory(dir.resolve("vault"));
    write(root, "Target.md", "# Target\n\nThe note everything links to.\n");
    write(root, "laughs.md", LAUGHS);
    write(
        root,
        "anchors.md",
        "---\nbase: &b {owner: ann, state: open}\ncopy: *b\nstatus: open\n---\n[[Target]] #anchors\n");
    write(
        root,
        "deep.md",
        "---\nnest: " + "[".repeat(10_000) + "]".repeat(10_000) + "\n---\n[[Target]] #deep\n");
    StringBuilder big = new StringBuilder("---\n");
    for (int k = 0; big.length() < 1_040_000; k++) {
      big.append(String.format(Locale.ROOT, "key%06d: some value for the key\n", k));
    }
    write(root, "big.md", big.append("---\n[[Target]] #big\n").toString());
    String tag = "t".repeat(10_000);
    write(root, "longtag.md", "---\ntags: [" + tag + "]\n---\n#" + tag + " [[Target]] #short\n");
    ByteArrayOutputStream bad = new ByteArrayOutputStream();
    bad.write("---\ntags: [caf".getBytes(StandardCharsets.UTF_8));
    bad.write(0xe9);
    bad.write("]\n---\n[[Target]] #bad\n".getBytes(StandardCharsets.UTF_8));
    Files.write(root.resolve("badutf8.md"), bad.toByteArray());
    return root;
  }

  private static void write(Path root, String path, String text) throws Exception {
    Path file = root.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  private WireServer start(Path root) throws Exception {
    Path policy =
        Files.writeString(
            dir.resolve("policy.json"),
            "{\"readable\":[\"**/*.md\"],\"maxNoteBytes\":1048576,\"maxCalls\":100000,"
                + "\"search\":false}");
    WireServer server =
        WireServer.start(root, "-policy", policy.toString()).patient(Duration.ofSeconds(30));
    awaitStructure(server);
    return server;
  }

  @Test
  void hostileFrontMatterIsBoundedOrRefusedAndTheServerKeepsServing() throws Exception {
    Path root = vault();
    try (WireServer server = start(root)) {
      // Every body is read, whatever its front matter: their links are backlinks (but the note
      // that is not UTF-8, which read_note refuses).
      List<String> from = new ArrayList<>();
      for (JsonNode backlink :
          allPages(server, "backlinks", "\"path\":\"Target.md\"", "backlinks")) {
        from.add(backlink.get("path").asString());
      }
      assertThat(from)
          .containsExactly("anchors.md", "big.md", "deep.md", "laughs.md", "longtag.md");
      // The tags: each under 257 code points, none of 10,000; a refused front matter gives none.
      List<String> tags = new ArrayList<>();
      for (JsonNode tag : allPages(server, "list_tags", "", "tags")) {
        tags.add(tag.get("tag").asString());
      }
      assertThat(tags).containsExactly("#anchors", "#big", "#deep", "#laughs", "#short");
      // Properties only where the YAML was within its bounds: the anchors' note.
      assertThat(
              answer(
                      server,
                      "find_notes",
                      "{\"property\":{\"name\":\"copy\",\"contains\":\"ann\"}}")
                  .toString())
          .isEqualTo("{\"notes\":[]}");
      assertThat(
              answer(
                      server,
                      "find_notes",
                      "{\"property\":{\"name\":\"status\",\"equals\":\"open\"}}")
                  .toString())
          .isEqualTo("{\"notes\":[\"anchors.md\"]}");
      assertThat(answer(server, "find_notes", "{\"property\":{\"name\":\"lol\"}}").toString())
          .isEqualTo("{\"notes\":[]}");
      assertThat(answer(server, "find_notes", "{\"property\":{\"name\":\"key000001\"}}").toString())
          .isEqualTo("{\"notes\":[]}");
      // Outlines and links of each hostile note answer; the one not UTF-8 is refused as read_note
      // refuses it.
      for (String note : List.of("laughs.md", "deep.md", "big.md", "longtag.md", "anchors.md")) {
        assertThat(answer(server, "note_links", "{\"path\":" + quote(note) + "}").toString())
            .contains("\"target\":\"Target\",\"resolved\":\"Target.md\"");
        answer(server, "read_note", "{\"path\":" + quote(note) + ",\"outline\":true}");
      }
      String notUtf8 = refusal(server, "read_note", "{\"path\":\"badutf8.md\"}");
      assertThat(notUtf8).isEqualTo("badutf8.md is not valid UTF-8 (byte 14)");
      assertThat(refusal(server, "note_links", "{\"path\":\"badutf8.md\"}")).isEqualTo(notUtf8);
      assertThat(refusal(server, "read_note", "{\"path\":\"badutf8.md\",\"outline\":true}"))
          .isEqualTo(notUtf8);
      // Arguments made to hurt are refused in words.
      assertThat(refusal(server, "find_notes", "{\"tag\":" + quote("t".repeat(10_000)) + "}"))
          .startsWith("tag must be a tag of 1 to 256 characters");
      assertThat(
              refusal(
                  server,
                  "find_notes",
                  "{\"property\":{\"name\":\"a\",\"equals\":" + quote("x".repeat(2000)) + "}}"))
          .isEqualTo("equals is longer than 1024 characters");
      // And it keeps serving.
      assertThat(answer(server, "list_notes", "{}").get("notes")).hasSize(7);
    }
  }

  /** Names in many scripts and cases, all NFC and visible: every one the name rules allow. */
  private static final List<String> NAMES =
      List.of(
          "Café.md",
          "東京.md",
          "🙂 smile.md",
          "İstanbul.md",
          "ΟΔΟΣ.md",
          "Straße.md",
          "STRASSE.md",
          "Case.md",
          "case.md",
          "שלום.md",
          "q\u0307.md",
          "Ünïcödé/Ünïcödé note.md",
          "a#b note.md",
          "Ωmega [draft].md");

  @Test
  void namesOfEveryCaseResolveByTheDocumentedRule() throws Exception {
    Path root = Files.createDirectory(dir.resolve("vault"));
    for (String name : NAMES) {
      write(root, name, "# " + name + "\n\nA note.\n");
    }
    List<String> links =
        List.of(
            "café",
            "CAFÉ",
            "Cafe\u0301",
            "東京",
            "🙂 SMILE",
            "istanbul",
            "İSTANBUL",
            "οδος",
            "ΟΔΟΣ",
            "straße",
            "STRASSE",
            "strasse",
            "Case",
            "case",
            "CASE",
            "שלום",
            "Q\u0307",
            "ünïcödé note",
            "Ünïcödé/ÜNÏCÖDÉ NOTE");
    StringBuilder text = new StringBuilder("# Links\n\n");
    for (String link : links) {
      text.append("[[").append(link).append("]]\n");
    }
    text.append("[md](%C3%9Cn%C3%AFc%C3%B6d%C3%A9/%C3%9Cn%C3%AFc%C3%B6d%C3%A9%20note.md)\n");
    write(root, "links.md", text.toString());
    try (WireServer server = start(root)) {
      JsonNode got = answer(server, "note_links", "{\"path\":\"links.md\"}").get("links");
      assertThat(got).hasSize(links.size() + 1);
      for (int k = 0; k < links.size(); k++) {
        String want = reference(links.get(k));
        assertThat(got.get(k).get("target").asString()).isEqualTo(links.get(k));
        assertThat(got.get(k).get("resolved").asString(null)).as(links.get(k)).isEqualTo(want);
        assertThat(got.get(k).get("line").asInt()).isEqualTo(3 + k);
      }
      assertThat(got.get(links.size()).get("resolved").asString())
          .isEqualTo("Ünïcödé/Ünïcödé note.md");
      // Each note's backlinks are exactly the lines whose links resolve to it.
      for (String name : NAMES) {
        List<Integer> want = new ArrayList<>();
        for (int k = 0; k < links.size(); k++) {
          if (name.equals(reference(links.get(k)))) {
            want.add(3 + k);
          }
        }
        if (name.startsWith("Ünïcödé/")) {
          want.add(3 + links.size());
        }
        List<Integer> lines = new ArrayList<>();
        for (JsonNode backlink :
            allPages(server, "backlinks", "\"path\":" + quote(name), "backlinks")) {
          assertThat(backlink.get("path").asString()).isEqualTo("links.md");
          lines.add(backlink.get("line").asInt());
        }
        assertThat(lines).as(name).isEqualTo(want);
        assertThat(
                answer(
                        server,
                        "read_note",
                        "{\"path\":" + quote(name) + ",\"section\":" + quote(name) + "}")
                    .get("content")
                    .asString())
            .isEqualTo("# " + name + "\n\nA note.\n");
      }
    }
  }

  /**
   * docs/knowledge.md, "How a link resolves", for a link from a note at the root to these notes:
   * NFC, then the path compared with each note's ignoring case (Unicode's default lower-case
   * mapping on both), as written and then with {@code .md}; of the notes whose path is it or ends
   * with "/" and it, the exact path first, then the shortest, then the one in the link's case, then
   * code-point order.
   */
  private static String reference(String link) {
    String path = java.text.Normalizer.normalize(link, java.text.Normalizer.Form.NFC);
    for (String tried : List.of(path, path + ".md")) {
      String lower = tried.toLowerCase(Locale.ROOT);
      String best = null;
      int bestRank = 3;
      for (String note : NAMES) {
        String n = note.toLowerCase(Locale.ROOT);
        int rank = n.equals(lower) ? 0 : n.endsWith("/" + lower) ? 2 : 3;
        if (rank == 3) {
          continue;
        }
        if (best == null
            || rank < bestRank
            || (rank == bestRank
                && (note.length() < best.length()
                    || (note.length() == best.length()
                        && (note.endsWith(tried) && !best.endsWith(tried)
                            || (note.endsWith(tried) == best.endsWith(tried)
                                && StructureReference.CODE_POINTS.compare(note, best) < 0)))))) {
          best = note;
          bestRank = rank;
        }
      }
      if (best != null) {
        return best;
      }
    }
    return null;
  }
}

package notesmcp.markdown;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A note's structure, for any bytes: {@link Structure#parse} never throws, and what it returns
 * agrees with the note (every offset within it, every link's bytes the note's bytes at its offset,
 * lines counted as the note's line breaks, headings in order with sections that end where the
 * documented rule says and together partition the body from the first heading on, tags that are
 * whole tags, block ids where the note has them, a reason on one line when the properties are
 * unreadable), within the work budget; and link resolution through {@link LinkTargets}' index
 * agrees with a reading of docs/knowledge.md's rule that looks at every note.
 */
class StructureFuzzTest {
  @FuzzTest
  // In libFuzzer's dictionary syntax: a byte that is not printable ASCII, a quote or a backslash as
  // \xNN.
  @DictionaryEntries({
    "---\\x0A",
    "\\x0A---\\x0A",
    "[[",
    "]]",
    "![[",
    "|",
    "#",
    "#^",
    "^",
    "](",
    ")",
    "<",
    ">",
    "`",
    "```",
    "~~~",
    "%%",
    "<!--",
    "-->",
    "\\x5C",
    "\\x0D\\x0A",
    "\\x0D",
    "\\x0A",
    "# ",
    "===",
    "tags: ",
    "aliases: ",
    "&a ",
    "*a",
    "!!str ",
    "[",
    "]",
    "{",
    "}",
    ": ",
    "- ",
    ".md",
    "%20",
    "\\xC3\\xA9",
    "\\xF0\\x9F\\x99\\x82",
    "\\xC2\\xA0",
    "_",
    "*"
  })
  void anyBytesGiveAStructureThatAgreesWithTheNote(byte[] note) {
    int[] work = new int[3];
    Structure structure = Structure.parse(note, "Folder/Note.md", work);
    int n = note.length;
    int body = structure.bodyOffset();
    assertThat(body).isBetween(0, n);
    // Every other link, decoded alone, is the link links() decodes at that position.
    List<Link> all = structure.links();
    int[] every = new int[(all.size() + 1) / 2];
    List<Link> expected = new ArrayList<>();
    for (int k = 0; k < every.length; k++) {
      every[k] = 2 * k;
      expected.add(all.get(2 * k));
    }
    assertThat(structure.links(every)).isEqualTo(expected);
    assertThat(work[0]).isLessThanOrEqualTo(work[1] + n + Link.MAX_BYTES);
    assertThat(structure.retainedBytes()).isLessThan(3L * n + 600_000);

    Properties properties = structure.properties();
    if (!properties.present()) {
      assertThat(body).isIn(0, 3);
    } else if (properties.readable()) {
      assertThat(properties.problem()).isNull();
    } else {
      assertThat(properties.problem()).isNotBlank().doesNotContain("\n", "\r").hasSizeLessThan(400);
      assertThat(properties.map()).isEmpty();
    }

    int end = body;
    for (Link link : structure.links()) {
      assertThat(link.offset()).isGreaterThanOrEqualTo(end);
      end = link.offset() + link.length();
      assertThat(end).isLessThanOrEqualTo(n);
      assertThat(link.length()).isLessThanOrEqualTo(Link.MAX_BYTES);
      assertThat(link.line()).isEqualTo(1 + Structure.lineBreaks(note, link.offset()));
      Link again =
          link.markdown()
              ? Link.markdown(note, link.offset(), end, link.line(), link.offset())
              : Link.wikilink(note, link.offset(), end, link.line(), link.offset());
      assertThat(again).isEqualTo(link);
      assertThat(Arrays.copyOfRange(note, link.offset(), end))
          .doesNotContain((byte) '\n', (byte) '\r');
    }

    Set<String> keys = new HashSet<>();
    for (Tag tag : structure.tags()) {
      assertThat(Tag.isTag(tag.name())).as(tag.name()).isTrue();
      assertThat(keys.add(tag.key())).isTrue();
      assertThat(tag.inline() || tag.frontmatter()).isTrue();
      assertThat(tag.line() == 0).isEqualTo(!tag.inline());
    }

    List<Heading> headings = structure.headings();
    for (int k = 0; k < headings.size(); k++) {
      Heading heading = headings.get(k);
      assertThat(heading.offset())
          .isGreaterThanOrEqualTo(k == 0 ? body : headings.get(k - 1).offset() + 1);
      assertThat(heading.line()).isEqualTo(1 + Structure.lineBreaks(note, heading.offset()));
      assertThat(heading.level()).isBetween(1, 6);
      int sectionEnd = n;
      for (int later = k + 1; later < headings.size(); later++) {
        if (headings.get(later).level() <= heading.level()) {
          sectionEnd = headings.get(later).offset();
          break;
        }
      }
      if (!structure.truncated(Structure.HEADINGS)) {
        assertThat(heading.offset() + heading.bytes()).isEqualTo(sectionEnd);
      } else {
        assertThat(heading.offset() + heading.bytes()).isLessThanOrEqualTo(sectionEnd);
      }
    }

    Set<String> ids = new HashSet<>();
    for (Structure.Block block : structure.blocks()) {
      assertThat(ids.add(block.id())).isTrue();
      byte[] marker = ("^" + block.id()).getBytes(StandardCharsets.UTF_8);
      assertThat(Arrays.copyOfRange(note, block.offset(), block.offset() + marker.length))
          .isEqualTo(marker);
      assertThat(block.line()).isEqualTo(1 + Structure.lineBreaks(note, block.offset()));
      assertThat(block.offset()).isGreaterThanOrEqualTo(body);
    }
  }

  /** Names made of few letters, so that names and links collide in case, form and folders. */
  private static final String[] PARTS = {
    "a", "A", "b", "ab", "é", "e\u0301", "É", "Σ", "σ", "ς", "İ", "i", "🙂", "東", ".", "..", " ",
    "x.md", "X.MD"
  };

  private static String name(FuzzedDataProvider data, int parts) {
    StringBuilder name = new StringBuilder();
    for (int k = 0; k < parts; k++) {
      name.append(data.pickValue(PARTS));
    }
    return name.toString();
  }

  private static String path(FuzzedDataProvider data) {
    int folders = data.consumeInt(0, 2);
    StringBuilder path = new StringBuilder();
    for (int k = 0; k < folders; k++) {
      path.append(name(data, data.consumeInt(1, 2))).append('/');
    }
    return path.append(name(data, data.consumeInt(1, 2)))
        .append(data.consumeBoolean() ? ".md" : "")
        .toString();
  }

  @FuzzTest
  void linksResolveByTheDocumentedRule(FuzzedDataProvider data) {
    LinkTargets index = new LinkTargets();
    List<String> notes = new ArrayList<>();
    int steps = data.consumeInt(1, 40);
    for (int step = 0; step < steps; step++) {
      String path = path(data);
      if (data.consumeBoolean()) {
        assertThat(index.add(path)).isEqualTo(!notes.contains(path));
        if (!notes.contains(path)) {
          notes.add(path);
        }
      } else {
        assertThat(index.remove(path)).isEqualTo(notes.remove(path));
      }
      assertThat(index.size()).isEqualTo(notes.size());
      String link =
          (data.consumeBoolean()
                  ? data.pickValue(new String[] {"", "./", "../", "/", "../../"})
                  : "")
              + path(data);
      String from = path(data);
      String resolved = index.resolve(link, from);
      assertThat(resolved)
          .as("%s from %s in %s", link, from, notes)
          .isEqualTo(reference(notes, link, from));
      if (resolved != null) {
        String name = resolved.substring(resolved.lastIndexOf('/') + 1);
        assertThat(LinkTargets.fileNames(link, from))
            .as("the file names %s from %s may name", link, from)
            .contains(lower(name));
      }
    }
  }

  /** docs/knowledge.md, "How a link resolves", over every note. */
  private static String reference(List<String> notes, String link, String from) {
    if (link.isEmpty()) {
      return from;
    }
    String path = Normalizer.normalize(link, Normalizer.Form.NFC);
    String found = referenceName(notes, path, from);
    if (found == null && !lower(path).endsWith(".md")) {
      found = referenceName(notes, path + ".md", from);
    }
    return found;
  }

  private static String referenceName(List<String> notes, String path, String from) {
    int slash = from.lastIndexOf('/');
    String folder = slash < 0 ? "" : from.substring(0, slash);
    if (path.startsWith("./") || path.startsWith("../")) {
      List<String> parts =
          new ArrayList<>(folder.isEmpty() ? List.of() : List.of(folder.split("/", -1)));
      for (String part : path.split("/", -1)) {
        if (part.equals("..")) {
          if (parts.isEmpty()) {
            return null;
          }
          parts.remove(parts.size() - 1);
        } else if (!part.equals(".")) {
          parts.add(part);
        }
      }
      return exactly(notes, String.join("/", parts));
    }
    if (path.startsWith("/")) {
      return exactly(notes, path.replaceFirst("^/+", ""));
    }
    String best = null;
    int bestRank = 3;
    for (String note : notes) {
      int rank =
          lower(note).equals(lower(path))
              ? 0
              : lower(note).equals(lower(folder.isEmpty() ? path : folder + "/" + path))
                  ? 1
                  : lower(note).endsWith("/" + lower(path)) ? 2 : 3;
      if (rank == 3) {
        continue;
      }
      if (best == null
          || rank < bestRank
          || (rank == bestRank
              && (note.length() < best.length()
                  || (note.length() == best.length()
                      && (note.endsWith(path) && !best.endsWith(path)
                          || (note.endsWith(path) == best.endsWith(path)
                              && LinkTargets.compareCodePoints(note, best) < 0)))))) {
        best = note;
        bestRank = rank;
      }
    }
    return best;
  }

  private static String exactly(List<String> notes, String path) {
    if (notes.contains(path)) {
      return path;
    }
    String best = null;
    for (String note : notes) {
      if (lower(note).equals(lower(path))
          && (best == null || LinkTargets.compareCodePoints(note, best) < 0)) {
        best = note;
      }
    }
    return best;
  }

  private static String lower(String text) {
    return text.toLowerCase(Locale.ROOT);
  }
}

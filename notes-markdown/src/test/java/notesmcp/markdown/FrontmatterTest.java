package notesmcp.markdown;

import static notesmcp.markdown.Notes.parse;
import static notesmcp.markdown.Notes.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Where the front matter is, and what its YAML gives (docs/knowledge.md, "Properties"). */
class FrontmatterTest {
  /** A test table's escapes (backslash n, r, t, ufeff) as the characters they name. */
  static String unescape(String text) {
    return text.replace("\\n", "\n")
        .replace("\\r", "\r")
        .replace("\\t", "\t")
        .replace("\\ufeff", "\ufeff");
  }

  private static Properties properties(String yaml) {
    return parse("---\n" + yaml + "\n---\nbody\n").properties();
  }

  private static Value value(String yaml) {
    Properties properties = properties("v: " + yaml);
    assertThat(properties.problem()).isNull();
    return properties.get("v");
  }

  // ---- where the block is

  @Test
  void aBlockAtTheStartIsReadAndTheBodyStartsAfterItsClosingLine() {
    String note = "---\na: 1\n---\nbody\n";
    Structure structure = parse(note);
    assertThat(structure.properties().present()).isTrue();
    assertThat(structure.properties().map()).containsOnlyKeys("a");
    assertThat(structure.bodyOffset()).isEqualTo(note.indexOf("body"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "a byte-order mark first | \\ufeff---\\na: 1\\n---\\nbody",
        "CR LF line breaks | ---\\r\\na: 1\\r\\n---\\r\\nbody",
        "lone CR line breaks | ---\\ra: 1\\r---\\rbody",
        "spaces and tabs after the opening dashes | --- \\t\\na: 1\\n---\\nbody",
        "spaces after the closing dashes | ---\\na: 1\\n---  \\nbody",
      })
  void obsidiansVariantsOfTheFencesAreRead(String name, String note) {
    note = unescape(note);
    Structure structure = parse(note);
    assertThat(structure.properties().map()).containsOnlyKeys("a");
    assertThat(structure.bodyOffset()).isEqualTo(utf8(note).length - 4);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "four dashes do not open | ----\\na: 1\\n---\\n",
        "text after the dashes does not open | --- yaml\\na: 1\\n---\\n",
        "not at the very start | \\n---\\na: 1\\n---\\n",
        "not after a space | ' ---\\na: 1\\n---\\n'",
        "no closing line | ---\\na: 1\\nb: 2\\n",
        "an indented closing line does not close | ---\\na: 1\\n ---\\n",
        "three dots do not close | ---\\na: 1\\n...\\n",
      })
  void elseThereIsNoFrontMatter(String name, String note) {
    note = unescape(note);
    Structure structure = parse(note);
    assertThat(structure.properties().present()).isFalse();
    assertThat(structure.properties().map()).isEmpty();
    assertThat(structure.bodyOffset()).isZero();
  }

  @Test
  void theClosingLineEndsAtItsDashesWhenItHoldsMore() {
    String note = "---\na: 1\n---x #tag\n";
    Structure structure = parse(note);
    assertThat(structure.properties().map()).containsOnlyKeys("a");
    assertThat(structure.bodyOffset()).isEqualTo(note.indexOf('x'));
    assertThat(parse("---\na: 1\n----\n").bodyOffset()).isEqualTo(12);
  }

  @Test
  void anEmptyBlockHasNoProperties() {
    Properties properties = parse("---\n---\nbody").properties();
    assertThat(properties.present()).isTrue();
    assertThat(properties.readable()).isTrue();
    assertThat(properties.map()).isEmpty();
    assertThat(properties("# only a comment").map()).isEmpty();
    assertThat(properties("~").readable()).isTrue();
  }

  @Test
  void aNoteWithoutFrontMatterStartsItsBodyAfterAByteOrderMark() {
    assertThat(parse("\ufeff# Title").bodyOffset()).isEqualTo(3);
    assertThat(parse("\ufeff# Title").headings())
        .extracting(Heading::text)
        .containsExactly("Title");
  }

  // ---- the types

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "plain text | STRING | plain text",
        "'\"42\"' | STRING | 42",
        "'''true''' | STRING | true",
        "yes | STRING | yes",
        "no | STRING | no",
        "on | STRING | on",
        "42 | INTEGER | 42",
        "-7 | INTEGER | -7",
        "+7 | INTEGER | 7",
        "007 | INTEGER | 7",
        "0x1f | INTEGER | 31",
        "0o17 | INTEGER | 15",
        "9223372036854775807 | INTEGER | 9223372036854775807",
        "-9223372036854775808 | INTEGER | -9223372036854775808",
        "3.5 | FLOAT | 3.5",
        "-0.25 | FLOAT | -0.25",
        "1e3 | FLOAT | 1000.0",
        ".5 | FLOAT | 0.5",
        "true | BOOLEAN | true",
        "True | BOOLEAN | true",
        "FALSE | BOOLEAN | false",
        "null | NULL | null",
        "~ | NULL | null",
        "'' | NULL | null",
        "2026-12-01 | DATE | 2026-12-01",
        "2024-02-29 | DATE | 2024-02-29",
        "2026-12-01T10:30 | DATETIME | 2026-12-01T10:30",
        "2026-12-01T10:30:00 | DATETIME | 2026-12-01T10:30:00",
        "2026-12-01 10:30 | DATETIME | 2026-12-01 10:30",
        "2026-12-01t10:30:59.123456789Z | DATETIME | 2026-12-01t10:30:59.123456789Z",
        "2026-12-01T10:30:00+02:00 | DATETIME | 2026-12-01T10:30:00+02:00",
        "2026-12-01T10:30-05:30 | DATETIME | 2026-12-01T10:30-05:30",
        "2026-02-30 | STRING | 2026-02-30",
        "2026-13-01 | STRING | 2026-13-01",
        "2026-12-01T24:00 | STRING | 2026-12-01T24:00",
        "2026-12-01T10:60 | STRING | 2026-12-01T10:60",
        "2026-12-01T10:30:00.1234567890 | STRING | 2026-12-01T10:30:00.1234567890",
        "2026-12-01T10:30+2:00 | STRING | 2026-12-01T10:30+2:00",
        "2026-12-01T10 | STRING | 2026-12-01T10",
        "2026-1-01 | STRING | 2026-1-01",
        "'\"2026-12-01\"' | STRING | 2026-12-01",
      })
  void scalarsKeepTheirYamlTypes(String yaml, Value.Kind kind, String text) {
    Value value = value(yaml.isEmpty() ? "" : yaml);
    assertThat(value.kind()).isEqualTo(kind);
    assertThat(value.text()).isEqualTo(text);
  }

  @Test
  void numbersAndBooleansGiveTheirValues() {
    assertThat(value("42").longValue()).isEqualTo(42);
    assertThat(value("42").doubleValue()).isEqualTo(42.0);
    assertThat(value("3.5").doubleValue()).isEqualTo(3.5);
    assertThat(value("false").booleanValue()).isFalse();
  }

  @Test
  void listsAndMapsAreReportedAsSuch() {
    Properties properties =
        properties(
            "list: [a, 1, true]\nblock:\n  - x\n  - y\nmap:\n  inner: {deep: [1]}\n  n: 2\n");
    assertThat(properties.get("list").items())
        .containsExactly(Value.text(Value.Kind.STRING, "a"), Value.integer(1), Value.TRUE);
    assertThat(properties.get("block").items()).extracting(Value::text).containsExactly("x", "y");
    Map<String, Value> map = properties.get("map").entries();
    assertThat(map).containsOnlyKeys("inner", "n");
    assertThat(map.get("inner").entries().get("deep").items()).containsExactly(Value.integer(1));
    assertThat(properties.get("map").text()).isNull();
  }

  @Test
  void propertiesKeepTheOrderWritten() {
    assertThat(properties("z: 1\na: 2\nm: 3").map().keySet()).containsExactly("z", "a", "m");
  }

  @Test
  void keysAreTheirTextAsWritten() {
    assertThat(properties("1: a\n0x10: b\ntrue: c\n'quoted key': d").map().keySet())
        .containsExactly("1", "0x10", "true", "quoted key");
  }

  @Test
  void multiLineStringsAreText() {
    assertThat(value("|\n  line one\n  line two").text()).isEqualTo("line one\nline two\n");
    assertThat(value(">-\n  folded\n  text").text()).isEqualTo("folded text");
  }

  // ---- tags and aliases

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "tags: [project, open] | project,open",
        "tags:\\n  - project\\n  - open | project,open",
        "tags: project, open | project,open",
        "tags: project open | project,open",
        "tags: project | project",
        "tag: project | project",
        "Tags: [project] | project",
        "TAG: project | project",
        "tags: ['#project', '##x'] | project",
        "tags: [a/b/c, x_y-z] | a/b/c,x_y-z",
        "tags: [1984, '1984', y1984] | y1984",
        "tags: [c++, 'two words', ' ok '] | ok",
        "tags: 'one, two three' | one,two,three",
        "tags: [[nested], ok] | ok",
        "tags: {a: b} | ''",
        "tags: | ''",
        "tags: [Café, CAFÉ] | Café,CAFÉ",
        "tags: [日本語, 🙂] | 日本語,🙂",
        "tags: [a]\\ntag: [b] | a,b",
      })
  void tagsComeFromTagsAndTag(String yaml, String expected) {
    yaml = unescape(yaml);
    List<String> wanted = expected.isEmpty() ? List.of() : List.of(expected.split(","));
    Structure structure = parse("---\n" + yaml + "\n---\n");
    assertThat(structure.properties().problem()).isNull();
    List<String> keys = wanted.stream().map(Tag::fold).distinct().toList();
    assertThat(structure.tags()).extracting(Tag::key).containsExactlyElementsOf(keys);
    assertThat(structure.tags())
        .allSatisfy(
            tag -> {
              assertThat(tag.frontmatter()).isTrue();
              assertThat(tag.inline()).isFalse();
              assertThat(tag.line()).isZero();
            });
  }

  @Test
  void aTagOfTenThousandCharactersIsNoTag() {
    String longTag = "a".repeat(10_000);
    Structure structure = parse("---\ntags: [" + longTag + ", short]\n---\n#" + longTag + " #ok\n");
    assertThat(structure.properties().readable()).isTrue();
    assertThat(structure.tags()).extracting(Tag::name).containsExactly("short", "ok");
    String longest = "b".repeat(Tag.MAX_CODE_POINTS);
    assertThat(parse("---\ntags: [" + longest + "]\n---\n").tags())
        .extracting(Tag::name)
        .containsExactly(longest);
    assertThat(parse("---\ntags: [" + longest + "b]\n---\n").tags()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "aliases: [Kite, Paper kite] | Kite;Paper kite",
        "aliases: Kite, the paper one | 'Kite, the paper one'",
        "alias: Kite | Kite",
        "Aliases:\\n  - ' Kite '\\n  - Kite\\n  - '' | Kite",
        "aliases: [42, true, 2026-12-01, Kite] | 2026-12-01;Kite",
        "aliases: [a]\\nalias: b | a;b",
        "aliases: | ''",
      })
  void aliasesComeFromAliasesAndAlias(String yaml, String expected) {
    yaml = unescape(yaml);
    List<String> wanted = expected.isEmpty() ? List.of() : List.of(expected.split(";"));
    assertThat(parse("---\n" + yaml + "\n---\n").aliases()).containsExactlyElementsOf(wanted);
  }

  @Test
  void aTitlePropertyAndAFirstHeadingDoNotChangeTheTitle() {
    Structure structure =
        Structure.parse(utf8("---\ntitle: Other\n---\n# Another\n"), "Projects/Paper Kite.md");
    assertThat(structure.title()).isEqualTo("Paper Kite");
    assertThat(Structure.parse(utf8(""), "a/b.MD").title()).isEqualTo("b");
    assertThat(Structure.parse(utf8(""), "notes.txt").title()).isEqualTo("notes.txt");
    assertThat(Structure.parse(utf8(""), ".md").title()).isEqualTo(".md");
  }
}

package notesmcp.markdown;

import static notesmcp.markdown.Notes.parse;
import static notesmcp.markdown.Notes.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Front matter made to hurt: every case is refused with a reason, the body is still read, and the
 * work is bounded, counted in parse events and values (never timed).
 */
class HostileFrontmatterTest {
  /** The note's structure, with the reading's work: {body work, body budget, YAML events}. */
  private static Structure parseCounting(String note, int[] work) {
    return Structure.parse(utf8(note), "Note.md", work);
  }

  /** A block that refuses, its reason containing {@code words}, the body still read. */
  private static Frontmatter.Result refused(String yaml, String words) {
    int[] work = new int[3];
    Structure structure = parseCounting("---\n" + yaml + "\n---\n# After #seen\n", work);
    Properties properties = structure.properties();
    assertThat(properties.present()).isTrue();
    assertThat(properties.readable()).isFalse();
    assertThat(properties.map()).isEmpty();
    assertThat(properties.problem()).contains(words).doesNotContain("\n");
    assertThat(structure.headings()).extracting(Heading::text).containsExactly("After #seen");
    assertThat(structure.tags()).extracting(Tag::name).containsExactly("seen");
    return Frontmatter.read(yaml, 2);
  }

  @Test
  void billionLaughsIsRefusedAfterFewEvents() {
    StringBuilder yaml =
        new StringBuilder("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for (int level = 1; level <= 9; level++) {
      yaml.append('a').append(level).append(": &a").append(level).append(" [");
      for (int k = 0; k < 9; k++) {
        yaml.append(k == 0 ? "" : ", ").append("*a").append(level - 1);
      }
      yaml.append("]\n");
    }
    Frontmatter.Result result = refused(yaml.toString(), "holds more than 10000 values");
    // 10 anchored lists of 9 items: the refusal comes within those ~120 events, not after 10^9.
    assertThat(result.events).isLessThan(150);
  }

  @Test
  void aliasesOfALongTextAreCountedAsTheTextTheyStandFor() {
    String yaml = "a: &a \"" + "x".repeat(60_000) + "\"\nb: [*a, *a, *a]";
    Frontmatter.Result result = refused(yaml, "holds more than 131072 bytes of text");
    assertThat(result.events).isLessThan(20);
  }

  @Test
  void benignAnchorsAndAliasesAreRead() {
    Properties properties =
        parse("---\nbase: &b {x: 1}\nother: *b\nname: &n Kite\nagain: *n\n---\n").properties();
    assertThat(properties.problem()).isNull();
    assertThat(properties.get("other")).isEqualTo(properties.get("base"));
    assertThat(properties.get("again").text()).isEqualTo("Kite");
  }

  @Test
  void aValueThatHoldsItselfIsRefused() {
    refused("a: &a [1, *a]", "the alias *a refers to a value that holds it");
    refused("a: &a {k: *a}", "refers to a value that holds it");
  }

  @Test
  void anAliasWithoutAnchorIsRefused() {
    refused("a: *nowhere", "the alias *nowhere refers to no anchor before it");
  }

  @Test
  void deepNestingIsRefusedAtItsBound() {
    String fifteen = "[".repeat(15) + "]".repeat(15);
    assertThat(parse("---\na: " + fifteen + "\n---\n").properties().readable()).isTrue();
    String sixteen = "[".repeat(16) + "]".repeat(16);
    refused("a: " + sixteen, "nests lists and maps more than 16 deep");
    Frontmatter.Result deep =
        refused("a: " + "[".repeat(30_000) + "]".repeat(30_000), "more than 16 deep");
    assertThat(deep.events).isLessThan(25);
    StringBuilder block = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      block.append("  ".repeat(i)).append("k").append(i).append(":\n");
    }
    refused(block.toString(), "more than 16 deep");
  }

  @Test
  void aMebibyteOfYamlIsRefusedUnreadByItsSize() {
    String yaml = "k: " + "v".repeat((1 << 20) - 64);
    int[] work = new int[3];
    Structure structure = parseCounting("---\n" + yaml + "\n---\n# After\n", work);
    assertThat(structure.properties().problem())
        .isEqualTo("front matter is " + utf8(yaml).length + " bytes; at most 65536 are read");
    assertThat(work[2]).isZero();
    assertThat(structure.headings()).extracting(Heading::text).containsExactly("After");
  }

  @Test
  void theSizeBoundIsExact() {
    String exactly = "k: " + "v".repeat(Frontmatter.MAX_BYTES - 3);
    assertThat(parse("---\n" + exactly + "\n---\n").properties().readable()).isTrue();
    assertThat(parse("---\n" + exactly + "v\n---\n").properties().problem())
        .isEqualTo("front matter is 65537 bytes; at most 65536 are read");
  }

  @Test
  void tenThousandValuesAreReadAndOneMoreIsNot() {
    // The map, the key, the list, and its items: 3 + items values.
    String items = "[" + "1,".repeat(9_996) + "1]";
    assertThat(parse("---\nk: " + items + "\n---\n").properties().readable()).isTrue();
    String more = "[" + "1,".repeat(9_997) + "1]";
    refused("k: " + more, "holds more than 10000 values");
  }

  @Test
  void aDuplicateKeyIsRefused() {
    refused("a: 1\nb: 2\na: 3", "front matter line 4: has the key \"a\" twice");
    refused("m:\n  x: 1\n  x: 2", "has the key \"x\" twice");
    refused("1: a\n'1': b", "has the key \"1\" twice");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "a: !!java/object:java.lang.Runtime {} | has the explicit tag tag:yaml.org,2002:java/object:java.lang.Runtime",
        "a: !!str 1 | has the explicit tag tag:yaml.org,2002:str",
        "a: ! x | has the explicit tag !",
        "a: !local x | has the explicit tag !local",
        "a: !!map {b: 1} | has the explicit tag tag:yaml.org,2002:map",
        "!!set {a, b} | has the explicit tag",
        "a: !<tag:example.com,2000:x> y | has the explicit tag tag:example.com,2000:x",
      })
  void anyExplicitTagIsRefused(String yaml, String words) {
    refused(yaml, words);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "n: 123456789012345678901234567890 | has the integer 123456789012345678901234567890, which is beyond 64 bits",
        "n: 9223372036854775808 | beyond 64 bits",
        "n: -9223372036854775809 | beyond 64 bits",
        "n: 0x" + "f" + "ffffffffffffffff | beyond 64 bits",
        "n: 1e999 | has the number 1e999, which is not finite",
        "n: -1e400 | not finite",
        "n: .inf | has the number .inf, which is not finite",
        "n: -.Inf | not finite",
        "n: .nan | not finite",
      })
  void hugeNumbersAreRefused(String yaml, String words) {
    refused(yaml, words);
  }

  @Test
  void aThousandDigitNumberIsRefusedNotComputed() {
    refused("n: " + "9".repeat(1000), "beyond 64 bits");
  }

  @Test
  void yamlThatIsNotAMapIsRefused() {
    refused("- a\n- b", "front matter: is a list, not a map of properties");
    refused("just a sentence", "front matter: is a single value, not a map of properties");
    refused("42", "is a single value");
  }

  @Test
  void invalidYamlIsRefusedWithTheNotesLine() {
    refused(
        "a: 1\nb: c: d",
        "front matter line 3: not valid YAML: mapping values are not allowed here");
    refused("a: [1, 2", "not valid YAML");
    refused("a: \"unclosed", "not valid YAML");
    refused("\ta: 1", "not valid YAML");
    refused("a: 1\n  b: 2", "not valid YAML");
  }

  @Test
  void theReasonsLineCountsTheByteOrderMarkAndCrLf() {
    Structure structure = Structure.parse(utf8("\ufeff---\r\na: 1\r\na: 2\r\n---\r\n"), "Note.md");
    assertThat(structure.properties().problem()).startsWith("front matter line 3: ");
  }

  @Test
  void aControlCharacterInTheYamlIsRefused() {
    refused("a: \u0001", "not valid YAML");
    refused("a: \"\u001b[2J\"", "not valid YAML");
  }

  @Test
  void aCollectionAsAKeyIsRefused() {
    refused("? [a, b]\n: c", "has a list or map as a key");
    refused("? {a: b}\n: c", "has a list or map as a key");
    refused("base: &b [x]\n*b : c", "has a list or map as a key");
  }

  @Test
  void moreThanOneDocumentIsRefused() {
    assertThat(Frontmatter.read("a: 1\n---\nb: 2", 2).problem)
        .isEqualTo("front matter line 3: holds more than one YAML document");
  }

  @Test
  void keysAndValuesOfEveryScriptAreText() {
    Properties properties =
        parse("---\nپروژه: 東京\n\"🙂\": עברית\nΕλλάδα: [Москва, café]\n---\n").properties();
    assertThat(properties.map().keySet()).containsExactly("پروژه", "🙂", "Ελλάδα");
    assertThat(properties.get("🙂").text()).isEqualTo("עברית");
    assertThat(properties.get("Ελλάδα").items())
        .extracting(Value::text)
        .containsExactly("Москва", "café");
  }
}

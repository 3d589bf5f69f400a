package notesmcp.policy.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Patterns of docs/behaviour.md, "Policy files": {@code *}, {@code **}, {@code ?}, exact names. */
class NotePatternTest {

  /**
   * The documented meaning, written again another way: {@code **} as a component takes zero or more
   * components; any other component is a regular expression in which * is any run of characters but
   * '/', ? one character, everything else itself.
   */
  static boolean matches(String pattern, String path) {
    return matches(pattern.split("/", -1), 0, path.split("/", -1), 0);
  }

  private static boolean matches(String[] segments, int s, String[] components, int c) {
    if (s == segments.length) {
      return c == components.length;
    }
    if (segments[s].equals("**")) {
      for (int k = c; k <= components.length; k++) {
        if (matches(segments, s + 1, components, k)) {
          return true;
        }
      }
      return false;
    }
    return c < components.length
        && regex(segments[s]).matcher(components[c]).matches()
        && matches(segments, s + 1, components, c + 1);
  }

  private static Pattern regex(String segment) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < segment.length(); ) {
      int c = segment.codePointAt(i);
      if (c == '*') {
        out.append("[^/]*");
      } else if (c == '?') {
        out.append(".");
      } else {
        out.append(Pattern.quote(new String(Character.toChars(c))));
      }
      i += Character.charCount(c);
    }
    return Pattern.compile(out.toString(), Pattern.DOTALL);
  }

  /** Whether {@code pattern} matches {@code path} or one of the folders it lies in. */
  static boolean matchesOrContains(String pattern, String path) {
    String[] components = path.split("/", -1);
    for (int end = 1; end <= components.length; end++) {
      if (matches(pattern, String.join("/", Arrays.copyOf(components, end)))) {
        return true;
      }
    }
    return false;
  }

  @ParameterizedTest(name = "{0} ~ {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "**/*.md            | Inbox.md                  | true",
        "**/*.md            | Projects/Paper Kite.md    | true",
        "**/*.md            | a/b/c/d.md                | true",
        "**/*.md            | notes.txt                 | false",
        "*.md               | Projects/Paper Kite.md    | false",
        "*.md               | Inbox.md                  | true",
        "Inbox/*.md         | Inbox/idea.md             | true",
        "Inbox/*.md         | Inbox/sub/idea.md         | false",
        "Inbox/*.md         | inbox/idea.md             | false",
        "Journal/????-??-??.md | Journal/2026-12-01.md  | true",
        "Journal/????-??-??.md | Journal/2026-12-1.md   | false",
        "?.md               | \u00e9.md                 | true",
        "?.md               | \ud83d\ude00.md           | true",
        "?.md               | ab.md                     | false",
        "Private/**         | Private                   | true",
        "Private/**         | Private/a/b.md            | true",
        "Private/**         | PrivateX/a.md             | false",
        "a/**/b.md          | a/b.md                    | true",
        "a/**/b.md          | a/x/y/b.md                | true",
        "a/**/b.md          | a/x/y/c.md                | false",
        "**                 | anything/at/all.md        | true",
        "*                  | top.md                    | true",
        "*                  | a/b.md                    | false",
        "*x*y*              | axbxcy                    | true",
        "*x*y*              | ayx                       | false",
        "Projects/Paper Kite.md | Projects/Paper Kite.md | true",
        "Projects/Paper Kite.md | Projects/Paper kite.md | false",
      })
  void aPatternMatchesWhatItsDocumentedMeaningMatches(String pattern, String path, boolean match) {
    NotePattern parsed = NotePattern.parse(pattern);

    assertThat(parsed.matches(path)).isEqualTo(match);
    assertThat(matches(pattern, path)).as("the reference").isEqualTo(match);
    assertThat(walk(List.of(parsed), path)).as("component by component").isEqualTo(match);
  }

  @Test
  void anEntryWithoutWildcardsIsExact() {
    assertThat(NotePattern.parse("Projects/Paper Kite.md").isExact()).isTrue();
    assertThat(NotePattern.parse("Projects/*.md").isExact()).isFalse();
    assertThat(NotePattern.parse("Projects/?.md").isExact()).isFalse();
  }

  @Test
  void aBadPatternIsRefusedWithItsReason() {
    assertThatThrownBy(() -> NotePattern.parse("a**/b"))
        .hasMessage("pattern \"a**/b\" has \"a**\": ** must be a whole component, as in a/**/b");
    assertThatThrownBy(() -> NotePattern.parse("*/.git/*"))
        .hasMessage(
            "pattern \"*/.git/*\" can never match a note: its fixed part has the component"
                + " \".git\" (a component starting with '.' is never a note)");
    assertThatThrownBy(() -> NotePattern.parse("d/".repeat(17) + "*.md"))
        .hasMessageEndingWith(
            "can never match a note: its fixed part is 17 folders deep; the limit is 16");
    assertThatThrownBy(() -> NotePattern.parse("*\u202e.md")).hasMessageContaining("holds U+202E");
    assertThatThrownBy(() -> NotePattern.parse("Cafe\u0301/*"))
        .hasMessageEndingWith("is not in Unicode normalization form C (NFC)");
    assertThatThrownBy(() -> NotePattern.parse("**/".repeat(40) + "*"))
        .hasMessageEndingWith("has more than 40 components");
  }

  /** The automaton the catalog walks folders with agrees with the reference on random input. */
  @Test
  void walkingComponentByComponentAgreesWithTheReferenceOnRandomPatternsAndPaths() {
    Random random = new Random(20261201);
    // "*b", "*ab" and "*\u00e9" are the segments matched by their suffix alone (NotePattern's
    // suffixes); the names end with them, or almost, after ASCII, an accent and an emoji.
    String[] parts = {"a", "b", "ab", "*", "?", "a*", "*b", "**", "?b", "x", "*ab", "*\u00e9"};
    String[] names = {
      "a", "b", "ab", "ba", "abb", "x", "xa", "\u00e9", "\ud83d\ude00b", "x\u00e9", "\ud83d\ude00ab"
    };
    for (int round = 0; round < 20_000; round++) {
      List<String> segments = new ArrayList<>();
      for (int i = 1 + random.nextInt(4); i > 0; i--) {
        segments.add(parts[random.nextInt(parts.length)]);
      }
      String pattern = String.join("/", segments);
      List<String> components = new ArrayList<>();
      for (int i = 1 + random.nextInt(5); i > 0; i--) {
        components.add(names[random.nextInt(names.length)]);
      }
      String path = String.join("/", components);
      NotePattern parsed = NotePattern.parse(pattern);
      boolean expected = matches(pattern, path);

      assertThat(parsed.matches(path)).as("%s ~ %s", pattern, path).isEqualTo(expected);
      assertThat(walk(List.of(parsed), path)).as("%s ~ %s", pattern, path).isEqualTo(expected);
      assertThat(endsWithLast(List.of(parsed), path))
          .as("the last component tested without building states: %s ~ %s", pattern, path)
          .isEqualTo(expected);
      assertThat(parsed.matchesOrContains(path))
          .as("%s ~ %s or a folder of it", pattern, path)
          .isEqualTo(matchesOrContains(pattern, path));
    }
  }

  /** Whether the automaton, fed all components but the last, says the last one ends a match. */
  private static boolean endsWithLast(List<NotePattern> patterns, String path) {
    String[] components = path.split("/", -1);
    int[] states = NotePattern.start(patterns);
    for (int i = 0; i < components.length - 1; i++) {
      states = NotePattern.enter(patterns, states, components[i]);
    }
    return NotePattern.endsWith(patterns, states, components[components.length - 1]);
  }

  /** Whether the automaton, fed the components one by one, ends in a match. */
  private static boolean walk(List<NotePattern> patterns, String path) {
    int[] states = NotePattern.start(patterns);
    for (String component : path.split("/", -1)) {
      states = NotePattern.enter(patterns, states, component);
    }
    return NotePattern.ended(patterns, states);
  }
}

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/**
 * What the end-to-end tests of the notes' structure compare the server's answers with, written here
 * from docs/knowledge.md and never from the program's code: the order of paths, the key of a tag, a
 * backlink's context, and a server's calls and waits.
 */
final class StructureReference {
  private StructureReference() {}

  /** Paths and tags in code-point order (docs/behaviour.md, "Order"). */
  static final Comparator<String> CODE_POINTS =
      new Comparator<String>() {
        @Override
        public int compare(String a, String b) {
          int[] x = a.codePoints().toArray();
          int[] y = b.codePoints().toArray();
          for (int i = 0; i < Math.min(x.length, y.length); i++) {
            if (x[i] != y[i]) {
              return Integer.compare(x[i], y[i]);
            }
          }
          return Integer.compare(x.length, y.length);
        }
      };

  /** A tag's key: NFC, then lower case by Unicode's default mapping (docs/knowledge.md, "Tags"). */
  static String tagKey(String name) {
    return Normalizer.normalize(name, Normalizer.Form.NFC).toLowerCase(Locale.ROOT);
  }

  /**
   * A backlink's context (docs/knowledge.md, "backlinks"): the link's line, every run of white
   * space and control characters one space, stripped; cut around the link to at most 200 code
   * points, starting at most 60 before it, each cut marked with "…".
   */
  static String context(byte[] note, int offset) {
    int start = offset;
    while (start > 0 && note[start - 1] != '\n' && note[start - 1] != '\r') {
      start--;
    }
    int end = offset;
    while (end < note.length && note[end] != '\n' && note[end] != '\r') {
      end++;
    }
    String raw = new String(note, start, offset - start, StandardCharsets.UTF_8);
    String before = collapse(raw);
    String after = collapse(new String(note, offset, end - offset, StandardCharsets.UTF_8));
    boolean spaced = !raw.isEmpty() && isBlank(raw.codePointBefore(raw.length()));
    String head = before.isEmpty() || after.isEmpty() || !spaced ? before : before + " ";
    int headPoints = head.codePointCount(0, head.length());
    String line = head + after;
    if (line.codePointCount(0, line.length()) > 200 && headPoints > 60) {
      line = "\u2026" + head.substring(head.offsetByCodePoints(0, headPoints - 60)) + after;
    }
    if (line.codePointCount(0, line.length()) > 200) {
      line = line.substring(0, line.offsetByCodePoints(0, 199)).stripTrailing() + "\u2026";
    }
    return line.strip();
  }

  private static String collapse(String text) {
    StringBuilder out = new StringBuilder();
    boolean blank = false;
    for (int c : text.codePoints().toArray()) {
      if (isBlank(c)) {
        blank = true;
        continue;
      }
      if (blank && out.length() > 0) {
        out.append(' ');
      }
      blank = false;
      out.appendCodePoint(c);
    }
    return out.toString();
  }

  private static boolean isBlank(int c) {
    return Character.isWhitespace(c) || Character.isISOControl(c) || c == 0x2028 || c == 0x2029;
  }

  /** The text of a tool call's answer, parsed; fails if it is a refusal. */
  static JsonNode answer(WireServer server, String tool, String arguments) {
    JsonNode reply = server.call(tool, arguments);
    assertThat(WireServer.isError(reply)).as(tool + " " + arguments + ": " + reply).isFalse();
    return WireServer.JSON.readTree(WireServer.text(reply));
  }

  /** The text of a tool call's refusal; fails if it is an answer. */
  static String refusal(WireServer server, String tool, String arguments) {
    JsonNode reply = server.call(tool, arguments);
    assertThat(WireServer.isError(reply)).as(tool + " " + arguments + ": " + reply).isTrue();
    return WireServer.text(reply);
  }

  /**
   * Waits until the server's structure is read: a call that needs it answers rather than saying
   * "still being read" (a refusal with isError true, checked against the schema like any reply).
   */
  static void awaitStructure(WireServer server) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (true) {
      JsonNode reply = server.call("list_tags", "{}");
      if (!WireServer.isError(reply)) {
        return;
      }
      assertThat(WireServer.text(reply))
          .startsWith("the notes' structure is still being read: ")
          .endsWith(" notes; try again in a moment");
      assertThat(System.nanoTime()).as("the structure read within 120 s").isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  /** Every page of a paged answer's {@code member}, following nextCursor. */
  static List<JsonNode> allPages(
      WireServer server, String tool, String argumentsWithoutBrace, String member) {
    List<JsonNode> items = new ArrayList<>();
    String cursor = null;
    do {
      String arguments =
          "{"
              + argumentsWithoutBrace
              + (cursor == null
                  ? ""
                  : (argumentsWithoutBrace.isEmpty() ? "" : ",") + "\"cursor\":\"" + cursor + "\"")
              + "}";
      JsonNode page = answer(server, tool, arguments);
      for (JsonNode item : page.get(member)) {
        items.add(item);
      }
      cursor = page.has("nextCursor") ? page.get("nextCursor").asString() : null;
    } while (cursor != null);
    return items;
  }
}

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UProperty;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import notesmcp.policy.proposals.Proposal;
import notesmcp.policy.proposals.Recorded;
import notesmcp.policy.proposals.Requester;
import notesmcp.policy.review.ProposalView;
import notesmcp.policy.rules.NoteName;
import notesmcp.text.TerminalText;

/**
 * What {@code review} shows a person, for any text a client or a record can put there: no raw C0 or
 * C1 control, no bidirectional control and no default-ignorable character (Unicode's properties as
 * ICU4J has them, not the JDK's), no other invisible space, no unpaired surrogate; and nothing
 * ambiguous: a decoder written here from the documented escapes ({@link TerminalText#KEY}) and the
 * documented layout reads every rendering back to exactly the text that was rendered, every field
 * of a proposal block back to its value.
 */
class VisibleTextFuzzTest {
  private static final List<String> NAMES = List.of("draft.txt", "notes.txt", "a-b_c.md");

  /**
   * Any text, as any UTF-16 code units: the input is read as UTF-8, where a three-byte sequence may
   * also spell a surrogate (so unpaired ones come through) and a byte that starts no sequence
   * stands for the code point of its value (so C1 controls are one byte away).
   */
  @FuzzTest
  @DictionaryEntries({
    "\\",
    "\\n",
    "\\x1b",
    "\\u200b",
    "\\U000e0041",
    "\u001b[2J",
    "\u202e",
    "\u2066",
    "\ufeff",
    "\u3164",
    "\udb40\udc41"
  })
  void renderingHidesNothingAndReadsBack(byte[] input) {
    String text = codeUnits(input);
    String shown = TerminalText.visible(text);
    assertInert(shown);
    Decoder decoder = new Decoder(shown, true);
    assertThat(decoder.decodeAll()).as("read back from %s", shown).isEqualTo(text);
  }

  /** Proposal blocks, valid and damaged, built from any texts. */
  @FuzzTest
  void proposalsAreShownInertAndReadBack(FuzzedDataProvider data) {
    String id = new UUID(data.consumeLong(), data.consumeLong()).toString();
    if (data.consumeBoolean()) {
      String problem = codeUnits(data.consumeBytes(200));
      String block = ProposalView.render(new Recorded.Damaged(id, problem), Path.of("/unused"));
      assertInert(block);
      Decoder read = new Decoder(block, true);
      read.literal("Damaged proposal " + id + "\n  problem      ");
      assertThat(read.field()).isEqualTo(problem);
      read.literal("  It cannot be approved; it can be rejected.\n");
      read.end();
      return;
    }
    NoteName name =
        noteName(
            data.consumeBoolean() ? NAMES.get(data.consumeInt(0, 2)) : data.consumeAsciiString(20));
    Path destination = destination(codeUnits(data.consumeBytes(60)), name);
    Requester requester =
        data.consumeBoolean()
            ? null
            : new Requester(codeUnits(data.consumeBytes(80)), codeUnits(data.consumeBytes(40)));
    Instant created =
        Instant.ofEpochSecond(
            data.consumeLong(Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond()),
            data.consumeInt(0, 999_999_999));
    String content = codeUnits(data.consumeRemainingAsBytes());
    Proposal proposal = new Proposal(id, name, content, created, requester);

    String block = ProposalView.render(new Recorded.Valid(proposal), destination);
    assertInert(block);
    Decoder read = new Decoder(block, true);
    read.literal("Proposal " + id + "\n  destination  ");
    assertThat(read.field()).isEqualTo(destination.toString());
    read.literal("  bytes        " + proposal.bytes().length + "\n");
    read.literal("  sha256       " + proposal.sha256() + "\n");
    read.literal("  created      " + created + "\n");
    read.literal("  requested by ");
    if (requester == null) {
      read.literal("(the client gave no name)\n");
    } else {
      read.literal("\"");
      assertThat(read.quoted()).isEqualTo(requester.name());
      read.literal("\" version \"");
      assertThat(read.quoted()).isEqualTo(requester.version());
      read.literal("\" (self-reported by the MCP client, unverified)\n");
    }
    read.literal("  content      " + TerminalText.KEY + "\n");
    assertThat(read.content()).isEqualTo(content);
    read.end();
  }

  /** A name the policy accepts: the fuzzed one if it is one, else draft.txt. */
  private static NoteName noteName(String wanted) {
    try {
      return NoteName.configured(wanted);
    } catch (IllegalArgumentException e) {
      return NoteName.configured("draft.txt");
    }
  }

  /** The note's path under a root of any text this system's paths can hold. */
  private static Path destination(String root, NoteName name) {
    try {
      return Path.of("/", root).resolve(name.value());
    } catch (InvalidPathException e) {
      return Path.of("/work").resolve(name.value());
    }
  }

  /** The input as UTF-16 code units (see {@link #renderingHidesNothingAndReadsBack}). */
  static String codeUnits(byte[] input) {
    StringBuilder out = new StringBuilder(input.length);
    int i = 0;
    while (i < input.length) {
      int b = input[i] & 0xff;
      int count =
          b >= 0xf0 && b <= 0xf4 ? 3 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xc2 && b <= 0xdf ? 1 : 0;
      int cp = count == 3 ? b & 0x07 : count == 2 ? b & 0x0f : b & 0x1f;
      boolean whole = count > 0 && i + count < input.length;
      for (int k = 1; whole && k <= count; k++) {
        int next = input[i + k] & 0xff;
        whole = (next & 0xc0) == 0x80;
        cp = (cp << 6) | (next & 0x3f);
      }
      if (whole && cp <= 0x10ffff && cp >= (count == 1 ? 0x80 : count == 2 ? 0x800 : 0x10000)) {
        if (cp >= 0xd800 && cp <= 0xdfff) {
          out.append((char) cp); // an unpaired surrogate, unless the next unit pairs with it
        } else {
          out.appendCodePoint(cp);
        }
        i += count + 1;
      } else {
        out.append((char) b);
        i++;
      }
    }
    return out.toString();
  }

  /**
   * Nothing in {@code shown} can act on a terminal or hide: every line feed ends a line (the
   * decoders check that each one follows a {@code \n} escape or ends a line of the layout), and no
   * other character is a control (C0, DEL, C1), a bidirectional control, default-ignorable, white
   * space other than U+0020, or an unpaired surrogate, by ICU4J's Unicode 16 properties.
   */
  static void assertInert(String shown) {
    for (int i = 0; i < shown.length(); ) {
      int c = shown.codePointAt(i);
      i += Character.charCount(c);
      if (c == '\n') {
        continue;
      }
      boolean unsafe =
          c < 0x20
              || (c >= 0x7f && c <= 0x9f)
              || UCharacter.hasBinaryProperty(c, UProperty.BIDI_CONTROL)
              || UCharacter.hasBinaryProperty(c, UProperty.DEFAULT_IGNORABLE_CODE_POINT)
              || (UCharacter.hasBinaryProperty(c, UProperty.WHITE_SPACE) && c != ' ')
              || Character.isSurrogate((char) c) && c <= 0xffff;
      if (unsafe) {
        fail("U+%04X (%s) raw at %d of %s", c, UCharacter.getName(c), i, shown);
      }
    }
  }

  /**
   * Reads a rendering back, from the documented escapes: {@code \\} one backslash, {@code \n} a
   * line feed (followed by a real one, which belongs to it), {@code \r}, {@code \t}, {@code \xNN},
   * {@code \\uNNNN}, {@code \\UNNNNNNNN} one character each. Nothing else may follow a backslash,
   * and no line feed may stand alone inside a value.
   */
  static final class Decoder {
    private final String shown;
    private final boolean lineFeedFollows;
    private int at;

    Decoder(String shown, boolean lineFeedFollows) {
      this.shown = shown;
      this.lineFeedFollows = lineFeedFollows;
    }

    /** Everything, as one rendered text. */
    String decodeAll() {
      StringBuilder out = new StringBuilder();
      while (at < shown.length()) {
        if (shown.charAt(at) == '\n') {
          fail("a line feed that no \\n escape stands for, at %d of %s", at, shown);
        }
        one(out);
      }
      return out.toString();
    }

    /** A field's value: up to the line feed that ends it, which is consumed. */
    String field() {
      StringBuilder out = new StringBuilder();
      while (true) {
        if (at >= shown.length()) {
          fail("a field without its line end in %s", shown);
        }
        if (shown.charAt(at) == '\n') {
          at++;
          return out.toString();
        }
        one(out);
      }
    }

    /** A quoted value: up to a quote, which is left; the quote must be nothing of the value. */
    String quoted() {
      StringBuilder out = new StringBuilder();
      while (at < shown.length() && shown.charAt(at) != '"') {
        if (shown.charAt(at) == '\n') {
          fail("a line feed inside a quoted value, at %d of %s", at, shown);
        }
        one(out);
      }
      return out.toString();
    }

    /**
     * The content: " (empty)" alone, or lines behind the " | " gutter, the rendering split at the
     * line feed after each {@code \n} (the last one's dropped), to the end of the block.
     */
    String content() {
      if (shown.startsWith("    (empty)\n", at)) {
        at += "    (empty)\n".length();
        return "";
      }
      StringBuilder joined = new StringBuilder();
      while (at < shown.length()) {
        literal("    | ");
        int end = shown.indexOf('\n', at);
        assertThat(end).as("a content line without its end").isGreaterThanOrEqualTo(0);
        if (joined.length() > 0) {
          joined.append('\n');
        }
        joined.append(shown, at, end);
        at = end + 1;
      }
      String rendered = joined.toString();
      if (rendered.endsWith("\\n") && !endsInEscapedBackslash(rendered)) {
        rendered += "\n";
      }
      return new Decoder(rendered, true).decodeAll();
    }

    private static boolean endsInEscapedBackslash(String rendered) {
      int backslashes = 0;
      for (int i = rendered.length() - 2; i >= 0 && rendered.charAt(i) == '\\'; i--) {
        backslashes++;
      }
      return backslashes % 2 == 0;
    }

    void literal(String expected) {
      if (!shown.startsWith(expected, at)) {
        fail(
            "expected %s at %d of %s",
            expected, at, shown.substring(at, Math.min(shown.length(), at + 200)));
      }
      at += expected.length();
    }

    void end() {
      assertThat(at).as("the rest of the block: %s", shown.substring(at)).isEqualTo(shown.length());
    }

    private void one(StringBuilder out) {
      char c = shown.charAt(at++);
      if (c != '\\') {
        out.append(c);
        return;
      }
      if (at >= shown.length()) {
        fail("a lone backslash at the end of %s", shown);
      }
      char kind = shown.charAt(at++);
      switch (kind) {
        case '\\' -> out.append('\\');
        case 'n' -> {
          out.append('\n');
          if (lineFeedFollows) {
            if (at >= shown.length() || shown.charAt(at) != '\n') {
              fail("\\n without its line feed at %d of %s", at, shown);
            }
            at++;
          }
        }
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'x' -> out.append((char) hex(2));
        case 'u' -> out.append((char) hex(4));
        case 'U' -> {
          int cp = hex(8);
          assertThat(cp).as("\\U beyond Unicode").isLessThanOrEqualTo(Character.MAX_CODE_POINT);
          out.appendCodePoint(cp);
        }
        default -> fail("an undocumented escape \\%s at %d of %s", kind, at, shown);
      }
    }

    private int hex(int digits) {
      if (at + digits > shown.length()) {
        fail("a short escape at %d of %s", at, shown);
      }
      int value = 0;
      for (int i = 0; i < digits; i++) {
        int digit = Character.digit(shown.charAt(at++), 16);
        if (digit < 0) {
          fail("not a hex digit at %d of %s", at, shown);
        }
        value = value * 16 + digit;
      }
      return value;
    }
  }
}

package notesmcp.markdown;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One link of a note to a note (docs/knowledge.md, "Links"): a wikilink {@code [[Target#Heading|
 * text]]}, an embed {@code ![[…]]}, or a Markdown link {@code [text](Target.md#heading)} to a
 * {@code .md} path.
 *
 * @param target the target as written: a wikilink's text before {@code |}, a Markdown link's
 *     destination without angle brackets, escapes and percent-encoding as written
 * @param path the note part of the target, trimmed; for a Markdown link with its backslash escapes
 *     and percent-encoding decoded; empty for a link into the same note ({@code [[#Heading]]})
 * @param subpath what follows the first {@code #}, trimmed (a heading, a heading path {@code A#B},
 *     or a block {@code ^id}); empty when there is none
 * @param display a wikilink's text after {@code |} (null when it has none), a Markdown link's text
 * @param embed {@code ![[…]]} or {@code ![…](…)}
 * @param markdown a Markdown link rather than a wikilink
 * @param line the 1-based line the link starts on
 * @param offset the byte offset of its first byte ({@code !} of an embed, else {@code [})
 * @param length its length in bytes, through the closing {@code ]]} or {@code )}
 */
public record Link(
    String target,
    String path,
    String subpath,
    String display,
    boolean embed,
    boolean markdown,
    int line,
    int offset,
    int length) {
  /** The longest link read, in bytes; a longer one is text. */
  public static final int MAX_BYTES = 4096;

  /** A link into the note that holds it: {@code [[#Heading]]}, {@code [[#^block]]}. */
  public boolean sameNote() {
    return path.isEmpty();
  }

  /** A link to a block ({@code #^id}) rather than a heading. */
  public boolean toBlock() {
    return subpath.startsWith("^");
  }

  /**
   * The wikilink or embed that {@code b[from, to)} holds ({@code [[…]]} or {@code ![[…]]}, the
   * extent the body's reader found), or null when its content names nothing. The content is split
   * at the first {@code |} (or {@code \|}, Obsidian's escape inside tables) into target and display
   * text, the target at its first {@code #} into path and subpath.
   */
  static Link wikilink(byte[] b, int from, int to, int line, int offset) {
    boolean embed = b[from] == '!';
    int start = from + (embed ? 3 : 2);
    int end = to - 2;
    int bar = indexOf(b, start, end, '|');
    int targetEnd = bar < 0 ? end : (bar > start && b[bar - 1] == '\\' ? bar - 1 : bar);
    String target = utf8(b, start, targetEnd);
    String display = bar < 0 ? null : utf8(b, bar + 1, end);
    int hash = target.indexOf('#');
    String path = (hash < 0 ? target : target.substring(0, hash)).strip();
    String subpath = hash < 0 ? "" : target.substring(hash + 1).strip();
    if (path.isEmpty() && subpath.isEmpty()) {
      return null;
    }
    return new Link(target, path, subpath, display, embed, false, line, offset, to - from);
  }

  /**
   * The Markdown link that {@code b[from, to)} holds ({@code [text](destination "title")}, or
   * {@code ![…](…)}), or null when it is no link to a note: an external destination (a scheme such
   * as {@code https:} or {@code mailto:}, or {@code //host}), or a path that does not end in {@code
   * .md} once decoded.
   */
  static Link markdown(byte[] b, int from, int to, int line, int offset) {
    boolean embed = b[from] == '!';
    int open = embed ? from + 1 : from;
    int close = closingBracket(b, open, to);
    if (close < 0) {
      return null;
    }
    int[] destination = destination(b, close + 1, to);
    if (destination == null || destination[2] != to) {
      return null;
    }
    String target = utf8(b, destination[0], destination[1]);
    if (target.isEmpty() || target.startsWith("//") || hasScheme(target)) {
      return null;
    }
    int hash = target.indexOf('#');
    String path = decode(hash < 0 ? target : target.substring(0, hash)).strip();
    String subpath = hash < 0 ? "" : decode(target.substring(hash + 1)).strip();
    if (!path.toLowerCase(Locale.ROOT).endsWith(".md")) {
      return null;
    }
    String display = utf8(b, open + 1, close);
    return new Link(target, path, subpath, display, embed, true, line, offset, to - from);
  }

  /**
   * The {@code ]} that closes the {@code [} at {@code open}, nested brackets counted and escaped
   * ones skipped, before {@code limit}; or -1.
   */
  static int closingBracket(byte[] b, int open, int limit) {
    int depth = 0;
    for (int i = open; i < limit; i++) {
      byte c = b[i];
      if (c == '\\' && i + 1 < limit && isPunctuation(b[i + 1])) {
        i++;
      } else if (c == '[') {
        depth++;
      } else if (c == ']' && --depth == 0) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The destination of a Markdown link whose text ends just before {@code at} (CommonMark's rules,
   * on one line): {@code (}, optional spaces, {@code <destination>} or a destination without spaces
   * whose parentheses balance (at most 32 deep), optional spaces and a title in {@code "…"}, {@code
   * '…'} or {@code (…)}, optional spaces, {@code )}. Returns {destination start, destination end,
   * end of the link}, or null when {@code b[at, limit)} holds none.
   */
  static int[] destination(byte[] b, int at, int limit) {
    if (at >= limit || b[at] != '(') {
      return null;
    }
    int p = spaces(b, at + 1, limit);
    int start;
    int end;
    if (p < limit && b[p] == '<') {
      int q = p + 1;
      while (q < limit && b[q] != '>') {
        if (b[q] == '<' || b[q] == '\n' || b[q] == '\r') {
          return null;
        }
        q += b[q] == '\\' && q + 1 < limit && isPunctuation(b[q + 1]) ? 2 : 1;
      }
      if (q >= limit) {
        return null;
      }
      start = p + 1;
      end = q;
      p = q + 1;
    } else {
      int depth = 0;
      int q = p;
      while (q < limit) {
        byte c = b[q];
        if (c == '\\' && q + 1 < limit && isPunctuation(b[q + 1])) {
          q += 2;
          continue;
        }
        if ((c & 0xff) <= ' ' || c == 0x7f || (c == ')' && depth == 0)) {
          break;
        }
        if (c == '(' && ++depth > 32) {
          return null;
        } else if (c == ')') {
          depth--;
        }
        q++;
      }
      if (depth != 0) {
        return null;
      }
      start = p;
      end = q;
      p = q;
    }
    int afterSpaces = spaces(b, p, limit);
    if (afterSpaces < limit && afterSpaces > p && isTitleOpener(b[afterSpaces])) {
      p = titleEnd(b, afterSpaces, limit);
      if (p < 0) {
        return null;
      }
      afterSpaces = spaces(b, p, limit);
    }
    if (afterSpaces >= limit || b[afterSpaces] != ')') {
      return null;
    }
    return new int[] {start, end, afterSpaces + 1};
  }

  private static boolean isTitleOpener(byte c) {
    return c == '"' || c == '\'' || c == '(';
  }

  private static int titleEnd(byte[] b, int at, int limit) {
    byte close = b[at] == '(' ? (byte) ')' : b[at];
    for (int q = at + 1; q < limit; q++) {
      if (b[q] == '\\' && q + 1 < limit && isPunctuation(b[q + 1])) {
        q++;
      } else if (b[q] == close) {
        return q + 1;
      } else if (close == ')' && b[q] == '(') {
        return -1;
      }
    }
    return -1;
  }

  private static int spaces(byte[] b, int at, int limit) {
    while (at < limit && (b[at] == ' ' || b[at] == '\t')) {
      at++;
    }
    return at;
  }

  /** ASCII punctuation: what a backslash escapes in CommonMark. */
  static boolean isPunctuation(byte c) {
    return (c >= '!' && c <= '/')
        || (c >= ':' && c <= '@')
        || (c >= '[' && c <= '`')
        || (c >= '{' && c <= '~');
  }

  /** A URI scheme of 2 to 32 characters before a colon ({@code https:}, {@code mailto:}). */
  private static boolean hasScheme(String target) {
    int colon = target.indexOf(':');
    if (colon < 2 || colon > 32 || !isAsciiLetter(target.charAt(0))) {
      return false;
    }
    for (int i = 1; i < colon; i++) {
      char c = target.charAt(i);
      if (!isAsciiLetter(c) && !(c >= '0' && c <= '9') && c != '+' && c != '.' && c != '-') {
        return false;
      }
    }
    return true;
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  /**
   * A destination's text as a path: backslash escapes of ASCII punctuation undone, then {@code %XX}
   * sequences decoded as UTF-8. A text whose decoded bytes are not UTF-8 keeps its {@code %XX} as
   * written (it names no note).
   */
  static String decode(String text) {
    StringBuilder unescaped = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\'
          && i + 1 < text.length()
          && text.charAt(i + 1) < 0x80
          && isPunctuation((byte) text.charAt(i + 1))) {
        c = text.charAt(++i);
      }
      unescaped.append(c);
    }
    String plain = unescaped.toString();
    if (plain.indexOf('%') < 0) {
      return plain;
    }
    byte[] utf8 = plain.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[utf8.length];
    int n = 0;
    for (int i = 0; i < utf8.length; i++) {
      int high = i + 2 < utf8.length && utf8[i] == '%' ? Character.digit(utf8[i + 1], 16) : -1;
      int low = high < 0 ? -1 : Character.digit(utf8[i + 2], 16);
      if (low >= 0) {
        out[n++] = (byte) (high << 4 | low);
        i += 2;
      } else {
        out[n++] = utf8[i];
      }
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(out, 0, n))
          .toString();
    } catch (CharacterCodingException e) {
      return plain;
    }
  }

  private static int indexOf(byte[] b, int from, int to, char c) {
    for (int i = from; i < to; i++) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }

  static String utf8(byte[] b, int from, int to) {
    return new String(b, from, to - from, StandardCharsets.UTF_8);
  }
}

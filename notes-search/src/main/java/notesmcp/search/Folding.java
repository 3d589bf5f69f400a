package notesmcp.search;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.util.CharTokenizer;

/**
 * What a word is, for the index and for a query alike: a run of letters, digits and combining marks
 * (everything else separates words; a run longer than 255 characters is cut into pieces), folded to
 * lower case without accents: the combining marks of its canonical decomposition dropped, then
 * Lucene's ASCII folding (ø to o, æ to ae, ß to ss), then lower case per code point. So {@code
 * Café}, {@code CAFÉ}, {@code cafe} and a decomposed {@code Cafe\u0301} are all {@code cafe}.
 * Scripts without case or accents (CJK) stay as written: a run of them is one word.
 */
final class Folding extends Analyzer {
  static final Folding ANALYZER = new Folding();

  @Override
  protected TokenStreamComponents createComponents(String field) {
    Tokenizer words = new Words();
    return new TokenStreamComponents(words, new Fold(words));
  }

  /** The folded words of {@code text}, at most {@code max} + 1 of them (the caller bounds it). */
  static List<String> words(String text, int max) {
    List<String> words = new ArrayList<>();
    try (TokenStream stream = ANALYZER.tokenStream("query", new StringReader(text))) {
      CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
      stream.reset();
      while (words.size() <= max && stream.incrementToken()) {
        words.add(term.toString());
      }
      stream.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringReader does not fail
    }
    return words;
  }

  /** A stream over {@code text} with each word's offsets, for finding where a query matches. */
  static TokenStream offsets(String text) {
    return ANALYZER.tokenStream("text", new StringReader(text));
  }

  /** {@link #isWordCharacter} of each ASCII character: most of a note's text, looked up. */
  private static final boolean[] ASCII_WORD = new boolean[128];

  static {
    for (int c = 0; c < 128; c++) {
      ASCII_WORD[c] = Character.isLetterOrDigit(c);
    }
  }

  static boolean isWordCharacter(int c) {
    if (c < 128) {
      return ASCII_WORD[c];
    }
    if (Character.isLetterOrDigit(c)) {
      return true;
    }
    int type = Character.getType(c);
    return type == Character.NON_SPACING_MARK
        || type == Character.COMBINING_SPACING_MARK
        || type == Character.ENCLOSING_MARK;
  }

  private static final class Words extends CharTokenizer {
    @Override
    protected boolean isTokenChar(int c) {
      return isWordCharacter(c);
    }
  }

  /**
   * Folds each word in place; plain ASCII words (most of them) only lose their case, and a word of
   * {@link #simple} characters is folded character by character from a table, the same as {@link
   * #fold(String)} folds it whole (the words of most scripts: {@code FoldingTest}).
   */
  private static final class Fold extends TokenFilter {
    private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
    private char[] folded = new char[64];

    Fold(TokenStream input) {
      super(input);
    }

    @Override
    public boolean incrementToken() throws IOException {
      if (!input.incrementToken()) {
        return false;
      }
      char[] chars = term.buffer();
      int length = term.length();
      boolean ascii = true;
      for (int i = 0; i < length; i++) {
        char c = chars[i];
        if (c >= 0x80) {
          ascii = false;
          break;
        }
        if (c >= 'A' && c <= 'Z') {
          chars[i] = (char) (c + ('a' - 'A'));
        }
      }
      if (!ascii && !foldByCharacter(chars, length)) {
        term.setEmpty().append(fold(new String(chars, 0, length)));
      }
      return true;
    }

    /** The word folded from the table, when every character of it is simple; else false. */
    private boolean foldByCharacter(char[] chars, int length) {
      int out = 0;
      for (int i = 0; i < length; i++) {
        String each = simple(chars[i]);
        if (each == null) {
          return false;
        }
        if (out + each.length() > folded.length) {
          folded = java.util.Arrays.copyOf(folded, Math.max(folded.length * 2, out + 8));
        }
        for (int j = 0; j < each.length(); j++) {
          folded[out++] = each.charAt(j);
        }
      }
      term.copyBuffer(folded, 0, out);
      return true;
    }
  }

  /**
   * A word folded: the combining marks of its canonical decomposition dropped, then Lucene's ASCII
   * folding, then lower case per code point.
   */
  static String fold(String word) {
    String decomposed = Normalizer.normalize(word, Normalizer.Form.NFD);
    StringBuilder bare = new StringBuilder(decomposed.length());
    for (int i = 0; i < decomposed.length(); ) {
      int c = decomposed.codePointAt(i);
      i += Character.charCount(c);
      if (!isMark(c)) {
        bare.appendCodePoint(c);
      }
    }
    char[] input = bare.toString().toCharArray();
    char[] output = new char[input.length * 4];
    int length = ASCIIFoldingFilter.foldToASCII(input, 0, output, 0, input.length);
    StringBuilder lower = new StringBuilder(length);
    for (int i = 0; i < length; ) {
      int c = Character.codePointAt(output, i, length);
      i += Character.charCount(c);
      lower.appendCodePoint(Character.toLowerCase(c));
    }
    return lower.toString();
  }

  private static boolean isMark(int c) {
    int type = Character.getType(c);
    return type == Character.NON_SPACING_MARK
        || type == Character.COMBINING_SPACING_MARK
        || type == Character.ENCLOSING_MARK;
  }

  /** Each character's {@link #simple} folding as it is first met; {@link #COMPLEX} if none. */
  private static final String[] BY_CHARACTER = new String[Character.MAX_VALUE + 1];

  private static final String COMPLEX = new String("complex");

  /**
   * What {@link #fold(String)} makes of {@code c} alone, when a word made of such characters folds
   * to their foldings one after another; null otherwise (a surrogate, or a character whose
   * decomposition holds a character that canonical ordering could move and that is not a mark).
   *
   * <p>Why that holds: a word's canonical decomposition is its characters' decompositions one after
   * another, then canonical ordering, which moves only characters of a non-zero combining class,
   * among themselves, between characters of class zero. When every such character is a mark, the
   * marks are all dropped wherever they were moved, so the word without its marks is the
   * characters' own decompositions without theirs, one after another; ASCII folding maps each
   * character on its own, and lower case each code point on its own (none here is a surrogate: a
   * character of the Basic Multilingual Plane decomposes within it, and folds to ASCII or to
   * itself).
   */
  static String simple(char c) {
    String known = BY_CHARACTER[c];
    if (known == null) {
      known = Character.isSurrogate(c) || !movesOnlyMarks(c) ? COMPLEX : fold(String.valueOf(c));
      BY_CHARACTER[c] = known; // the same value from any thread: a race only computes it twice
    }
    return known == COMPLEX ? null : known;
  }

  /** Whether every character of {@code c}'s decomposition that ordering could move is a mark. */
  private static boolean movesOnlyMarks(char c) {
    String decomposed = Normalizer.normalize(String.valueOf(c), Normalizer.Form.NFD);
    for (int i = 0; i < decomposed.length(); i++) {
      char d = decomposed.charAt(i);
      if (Character.isSurrogate(d) || (!isMark(d) && hasCombiningClass(d))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code d} (a character of a decomposition, so decomposed itself) has a non-zero
   * canonical combining class, which the JDK does not say: canonical ordering moves it past U+0316
   * (class 220) or U+0301 (class 230), put before or after it, exactly when it has one (a class
   * under 220 is moved before U+0316 put before it; 220 to 229 before U+0301; 230 after U+0316;
   * over 230 after U+0301).
   */
  private static boolean hasCombiningClass(char d) {
    for (String mark : new String[] {"\u0316", "\u0301"}) {
      String before = mark + d;
      String after = d + mark;
      if (!Normalizer.normalize(before, Normalizer.Form.NFD).equals(before)
          || !Normalizer.normalize(after, Normalizer.Form.NFD).equals(after)) {
        return true;
      }
    }
    return false;
  }
}

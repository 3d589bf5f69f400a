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

  /** Folds each word in place; plain ASCII words (most of them) only lose their case. */
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
      if (!ascii) {
        fold(new String(chars, 0, length));
      }
      return true;
    }

    private void fold(String word) {
      String decomposed = Normalizer.normalize(word, Normalizer.Form.NFD);
      StringBuilder bare = new StringBuilder(decomposed.length());
      for (int i = 0; i < decomposed.length(); ) {
        int c = decomposed.codePointAt(i);
        i += Character.charCount(c);
        int type = Character.getType(c);
        if (type != Character.NON_SPACING_MARK
            && type != Character.COMBINING_SPACING_MARK
            && type != Character.ENCLOSING_MARK) {
          bare.appendCodePoint(c);
        }
      }
      char[] input = bare.toString().toCharArray();
      if (folded.length < input.length * 4) {
        folded = new char[input.length * 4];
      }
      int length = ASCIIFoldingFilter.foldToASCII(input, 0, folded, 0, input.length);
      StringBuilder lower = new StringBuilder(length);
      for (int i = 0; i < length; ) {
        int c = Character.codePointAt(folded, i, length);
        i += Character.charCount(c);
        lower.appendCodePoint(Character.toLowerCase(c));
      }
      term.setEmpty().append(lower);
    }
  }
}

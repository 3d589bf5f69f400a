package notesmcp.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The analyzer's word folding, character by character from its table ({@link Folding#simple}),
 * against the whole word's folding ({@link Folding#fold(String)}: decomposition, marks dropped,
 * ASCII folding, lower case), on every character and on random words of many scripts with marks of
 * every combining class among them.
 */
class FoldingTest {
  /** The one word the analyzer makes of {@code word} (word characters only). */
  private static List<String> analyzed(String word) {
    return Folding.words(word, 10);
  }

  @Test
  void everyWordCharacterAloneFoldsAsTheWholeWordFolds() {
    int simple = 0;
    for (int c = 0x80; c <= Character.MAX_VALUE; c++) {
      if (Character.isSurrogate((char) c) || !Folding.isWordCharacter(c)) {
        continue;
      }
      String word = String.valueOf((char) c);
      String folded = Folding.fold(word);
      assertThat(analyzed(word)).as("U+%04X", c).containsExactly(folded);
      if (Folding.simple((char) c) != null) {
        simple++;
      }
    }
    // Most of the characters of every script fold from the table.
    assertThat(simple).isGreaterThan(40_000);
  }

  @Test
  void randomWordsOfManyScriptsWithMarksFoldAsWholes() {
    List<Character> pool = new ArrayList<>();
    String samples =
        "aeiouAEIOUéÉèçÇñÑøØæÆßſǅǈﬁﬀẞİıĲ" // Latin, accents, ligatures, dotted and dotless i
            + "αβγΆάΐΰώϊΩΣσς" // Greek with tonos and dialytika
            + "йЙёЁїЇґабвгдежзи" // Cyrillic, precomposed and not
            + "שלוםבְּרֵאשִׁית" // Hebrew with points
            + "العربيةَُِّْ" // Arabic with harakat
            + "हिन्दीक़ख़" // Devanagari, virama, nukta forms
            + "বাংলা্" // Bengali
            + "ภาษาไทยี่้๊" // Thai with marks above
            + "中文日本語がぱゔカ゚" // CJK, kana with voicing marks
            + "한국어각갂각" // Hangul syllables and jamo
            + "①⑽²₃ℌℕⅫ" // circled, super- and subscripts, letterlike, roman numerals
            + "\u0301\u0316\u0345\u031b\u0323\u0327\u0328\u0338\u0350\u05b0\u0e48\u093c\u094d"
            + "\u1dc0\u20d0\u302a\u3099\u309a\ufb1e\u0f71\u0f72"; // marks of many classes
    for (char c : samples.toCharArray()) {
      if (Folding.isWordCharacter(c)) {
        pool.add(c);
      }
    }
    Random random = new Random(20261208);
    for (int n = 0; n < 200_000; n++) {
      StringBuilder word = new StringBuilder();
      int length = 1 + random.nextInt(7);
      for (int i = 0; i < length; i++) {
        word.append(pool.get(random.nextInt(pool.size())));
      }
      String folded = Folding.fold(word.toString());
      List<String> words = analyzed(word.toString());
      assertThat(words).as(word.toString()).containsExactly(folded);
    }
  }
}

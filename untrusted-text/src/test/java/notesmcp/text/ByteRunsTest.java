package notesmcp.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import notesmcp.text.JsonInput.ByteRuns;
import org.junit.jupiter.api.Test;

/**
 * Each of {@link ByteRuns}' methods answers what a loop over single bytes answers, on arrays long
 * enough to be read by words and on short ones, for every byte value at every position of a word.
 */
class ByteRunsTest {
  private static boolean needsEscape(byte b) {
    return (b >= 0 && b < 0x20) || b == '"' || b == '\\';
  }

  private static int endOfPlainByBytes(byte[] bytes, int from, int to) {
    int i = from;
    while (i < to && !needsEscape(bytes[i])) {
      i++;
    }
    return i;
  }

  private static int endOfAsciiByBytes(byte[] bytes, int from, int to) {
    int i = from;
    while (i < to && bytes[i] >= 0) {
      i++;
    }
    return i;
  }

  private static boolean hasLineBreakByBytes(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] == '\n' || bytes[i] == '\r') {
        return true;
      }
    }
    return false;
  }

  /** Bytes that need no escape and are ASCII, with no line break: the background. */
  private static byte[] plain(int length, Random random) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      int b;
      do {
        b = 0x20 + random.nextInt(0x60);
      } while (b == '"' || b == '\\');
      bytes[i] = (byte) b;
    }
    return bytes;
  }

  private static void assertAllAgree(byte[] bytes, int from, int to) {
    assertThat(ByteRuns.endOfPlain(bytes, from, to))
        .as("endOfPlain [%d, %d)", from, to)
        .isEqualTo(endOfPlainByBytes(bytes, from, to));
    assertThat(ByteRuns.endOfAscii(bytes, from, to))
        .as("endOfAscii [%d, %d)", from, to)
        .isEqualTo(endOfAsciiByBytes(bytes, from, to));
    assertThat(ByteRuns.hasLineBreak(bytes, from, to))
        .as("hasLineBreak [%d, %d)", from, to)
        .isEqualTo(hasLineBreakByBytes(bytes, from, to));
  }

  @Test
  void everyByteValueAtEveryPlaceOfAWordIsFoundAsAByteLoopFindsIt() {
    Random random = new Random(20261202);
    for (int length : new int[] {ByteRuns.WORDS_FROM - 1, ByteRuns.WORDS_FROM, 5000}) {
      byte[] bytes = plain(length, random);
      for (int value = 0; value < 256; value++) {
        for (int place = 100; place < 116; place++) {
          byte before = bytes[place];
          bytes[place] = (byte) value;
          assertAllAgree(bytes, 96, length);
          assertAllAgree(bytes, 97, 200);
          assertAllAgree(bytes, place, place + 1);
          assertAllAgree(bytes, place + 1, length);
          bytes[place] = before;
        }
      }
    }
  }

  @Test
  void wordsFullOfHighBytesAndBorrowsMarkNothingFalse() {
    // Bytes at or above 0x80, next to bytes just above each limit (0x20, 0x23, 0x5d, 0x0b, 0x0e):
    // a word's subtraction borrows from them, and a wrong test would mark one.
    int[] near = {0x20, 0x21, 0x23, 0x5b, 0x5d, 0x0b, 0x0e, 0x7f, 0x80, 0x9f, 0xa0, 0xc3, 0xff};
    Random random = new Random(7);
    byte[] bytes = new byte[ByteRuns.WORDS_FROM * 2];
    for (int round = 0; round < 2_000; round++) {
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = (byte) near[random.nextInt(near.length)];
      }
      int from = random.nextInt(64);
      int to = bytes.length - random.nextInt(64);
      assertAllAgree(bytes, from, to);
      // And with one byte that must be found, somewhere.
      int place = from + random.nextInt(to - from);
      byte before = bytes[place];
      bytes[place] = (byte) new int[] {0x00, 0x0a, 0x0d, 0x1f, '"', '\\'}[random.nextInt(6)];
      assertAllAgree(bytes, from, to);
      bytes[place] = before;
    }
  }

  @Test
  void anEscapeOrLineBreakInTheLastBytesAfterTheWordsIsFound() {
    byte[] bytes = plain(ByteRuns.WORDS_FROM + 3, new Random(3));
    for (int tail = 1; tail <= 3; tail++) {
      int place = bytes.length - tail;
      bytes[place] = '\n';
      assertThat(ByteRuns.hasLineBreak(bytes, 0, bytes.length)).isTrue();
      assertThat(ByteRuns.endOfPlain(bytes, 0, bytes.length)).isEqualTo(place);
      bytes[place] = (byte) 0xc3;
      assertThat(ByteRuns.endOfAscii(bytes, 0, bytes.length)).isEqualTo(place);
      bytes[place] = 'x';
    }
    assertThat(ByteRuns.endOfPlain(bytes, 0, bytes.length)).isEqualTo(bytes.length);
    assertThat(ByteRuns.hasLineBreak(bytes, 0, bytes.length)).isFalse();
  }
}

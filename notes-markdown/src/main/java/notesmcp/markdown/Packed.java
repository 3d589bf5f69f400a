package notesmcp.markdown;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The compact form a {@link Structure} keeps: one byte array of unsigned LEB128 numbers (7 bits a
 * byte, the high bit set on every byte but the last) and length-prefixed UTF-8 runs, read back in
 * the order written. Offsets and lines are written as the distance from the previous item's, so a
 * typical number takes one or two bytes.
 */
final class Packed {
  private Packed() {}

  /** A growing byte array. */
  static final class Writer {
    private byte[] bytes = new byte[256];
    private int size;

    int size() {
      return size;
    }

    /** {@code value} as an unsigned number (a negative one takes ten bytes). */
    void number(long value) {
      room(10);
      while ((value & ~0x7fL) != 0) {
        bytes[size++] = (byte) (value | 0x80);
        value >>>= 7;
      }
      bytes[size++] = (byte) value;
    }

    void signed(long value) {
      number((value << 1) ^ (value >> 63));
    }

    void eight(long value) {
      room(8);
      for (int i = 0; i < 8; i++) {
        bytes[size++] = (byte) (value >>> (8 * i));
      }
    }

    /** {@code length} bytes of {@code from}, after their count. */
    void run(byte[] from, int offset, int length) {
      number(length);
      room(length);
      System.arraycopy(from, offset, bytes, size, length);
      size += length;
    }

    void text(String text) {
      byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
      run(utf8, 0, utf8.length);
    }

    void writer(Writer other) {
      room(other.size);
      System.arraycopy(other.bytes, 0, bytes, size, other.size);
      size += other.size;
    }

    byte[] toArray() {
      return Arrays.copyOf(bytes, size);
    }

    private void room(int more) {
      if (size + more > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(size + more, bytes.length * 2));
      }
    }
  }

  /** Reads what a {@link Writer} wrote, from a position on. */
  static final class Reader {
    private final byte[] bytes;
    private int at;

    Reader(byte[] bytes, int at) {
      this.bytes = bytes;
      this.at = at;
    }

    int position() {
      return at;
    }

    long number() {
      long value = 0;
      int shift = 0;
      while (true) {
        byte b = bytes[at++];
        value |= (long) (b & 0x7f) << shift;
        if (b >= 0) {
          return value;
        }
        shift += 7;
      }
    }

    int integer() {
      return Math.toIntExact(number());
    }

    long signed() {
      long zigzag = number();
      return (zigzag >>> 1) ^ -(zigzag & 1);
    }

    long eight() {
      long value = 0;
      for (int i = 0; i < 8; i++) {
        value |= (long) (bytes[at++] & 0xff) << (8 * i);
      }
      return value;
    }

    /** The start of the next run, whose length {@link #integer} just read, and skips it. */
    int skip(int length) {
      int start = at;
      at += length;
      return start;
    }

    String text() {
      int length = integer();
      String text = new String(bytes, at, length, StandardCharsets.UTF_8);
      at += length;
      return text;
    }

    byte[] bytes() {
      return bytes;
    }
  }
}

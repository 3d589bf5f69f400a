package notesmcp.chat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The person's messages: stdin, one per line, until end of input (docs/chat.md). A line is at most
 * {@link #MAX_BYTES}; a longer one is skipped as it arrives (never held whole) and reported.
 *
 * <p>It reads only when asked for the next line, and takes what one {@code read} returns: on a
 * terminal that is one line, so nothing typed after a message is taken from the terminal before the
 * host asks for it. That matters when stdin is the terminal itself: a {@code yes} meant for a
 * confirmation on {@code /dev/tty} must never be swallowed here as the next message, nor the other
 * way round. Invalid UTF-8 becomes U+FFFD.
 */
final class StdinLines {
  static final int MAX_BYTES = 16 * 1024;

  /** A line was longer than {@link #MAX_BYTES}; it was skipped, and the next one can be read. */
  static final class TooLong extends Exception {
    private static final long serialVersionUID = 1L;

    TooLong() {
      super("a line longer than " + MAX_BYTES / 1024 + " KiB");
    }
  }

  private final InputStream in;
  private final byte[] chunk = new byte[8192];
  private byte[] pending = new byte[1024];
  private int length;
  private boolean skipping;
  private boolean ended;

  StdinLines(InputStream in) {
    this.in = in;
  }

  /** The next line without its end, or null at the end of input. */
  String next() throws IOException, TooLong {
    while (true) {
      int newline = indexOfNewline();
      if (newline >= 0) {
        boolean skipped = skipping || newline > MAX_BYTES;
        String line = skipped ? null : decode(newline);
        skipping = false;
        take(newline + 1);
        if (skipped) {
          throw new TooLong();
        }
        return line;
      }
      if (ended) {
        if (length == 0 && !skipping) {
          return null;
        }
        boolean skipped = skipping || length > MAX_BYTES;
        String line = skipped ? null : decode(length);
        skipping = false;
        length = 0;
        if (skipped) {
          throw new TooLong();
        }
        return line;
      }
      if (length > MAX_BYTES) {
        skipping = true;
        length = 0;
      }
      int read = in.read(chunk);
      if (read < 0) {
        ended = true;
      } else {
        append(read);
      }
    }
  }

  private int indexOfNewline() {
    for (int i = 0; i < length; i++) {
      if (pending[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private void append(int read) {
    if (length + read > pending.length) {
      pending = Arrays.copyOf(pending, Math.max(pending.length * 2, length + read));
    }
    System.arraycopy(chunk, 0, pending, length, read);
    length += read;
  }

  private void take(int count) {
    System.arraycopy(pending, count, pending, 0, length - count);
    length -= count;
  }

  private String decode(int end) {
    int stop = end > 0 && pending[end - 1] == '\r' ? end - 1 : end;
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE)
          .decode(ByteBuffer.wrap(pending, 0, stop))
          .toString();
    } catch (CharacterCodingException e) {
      throw new AssertionError(e); // REPLACE never throws
    }
  }
}

package notesmcp.markdown;

import java.nio.charset.StandardCharsets;

/** Notes written for the tests. */
final class Notes {
  private Notes() {}

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static Structure parse(String text) {
    return Structure.parse(utf8(text), "Folder/Note.md");
  }

  /** The note's bytes at a link's offset, as text: what the link says it is. */
  static String at(String note, int offset, int length) {
    return new String(utf8(note), offset, length, StandardCharsets.UTF_8);
  }
}

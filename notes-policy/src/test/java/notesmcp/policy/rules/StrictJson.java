package notesmcp.policy.rules;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The reference reading the fuzz tests hold the policy's parsers to: a whole-document parse into
 * Jackson's tree model, strict about duplicate keys at every depth and about anything after the
 * value. It shares Jackson's tokenizer with the code under test, but none of its decisions: which
 * keys, types and sizes are acceptable is written out again in each fuzz test, from
 * docs/behaviour.md.
 */
public final class StrictJson {
  private static final JsonMapper MAPPER =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private StrictJson() {}

  /**
   * The one JSON value {@code text} holds, or null when it is not exactly one well-formed value.
   */
  public static JsonNode read(String text) {
    try {
      JsonNode node = MAPPER.readTree(text);
      return node == null || node.isMissingNode() ? null : node;
    } catch (JacksonException e) {
      return null;
    }
  }

  /**
   * As {@link #read(String)}, for the bytes of a file: UTF-8 only (RFC 8259 §8.1; malformed UTF-8,
   * UTF-16 and UTF-32 are not JSON here), a UTF-8 byte-order mark ignored ("MAY ignore"). Decoded
   * here with the JDK's strict decoder, not by Jackson, which would guess other encodings.
   */
  public static JsonNode read(byte[] bytes) {
    int start =
        bytes.length >= 3
                && (bytes[0] & 0xff) == 0xef
                && (bytes[1] & 0xff) == 0xbb
                && (bytes[2] & 0xff) == 0xbf
            ? 3
            : 0;
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes, start, bytes.length - start))
              .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
    return read(text);
  }

  /** {@code value} as a JSON string literal, every non-ASCII and control character escaped. */
  public static String quote(String value) {
    StringBuilder out = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20 || c > 0x7e) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }

  /**
   * A fuzz input as text: malformed UTF-8 becomes U+FFFD, so the text is valid Unicode, as the
   * codec's is (it refuses malformed lines). Unpaired surrogates still arrive through escapes.
   */
  public static String utf8(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}

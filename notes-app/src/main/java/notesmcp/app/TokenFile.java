package notesmcp.app;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import notesmcp.files.TrustedFile;
import notesmcp.text.JsonInput;
import notesmcp.text.TerminalText;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;

/**
 * The HTTP server's tokens file (docs/http.md, "Tokens"): one JSON object naming each token by its
 * name, its scope ({@code read} or {@code propose}), when it was made, and the SHA-256 of the
 * token: never the token itself, which {@code token add} prints once and nothing keeps.
 *
 * <pre>{"format":"notes-mcp/tokens/1","tokens":[
 *  {"name":"phone","scope":"read","created":"2026-12-07T11:00:00Z","sha256":"…64 hex…"}]}</pre>
 *
 * <p>Read like the policy file ({@link TrustedFile}: owned by this user or root, writable by nobody
 * else, nor its folders), and as strictly: unknown, duplicate or missing keys, a bad name or scope,
 * a hash that is not 64 hex digits, two tokens of one name or one hash, all refuse the file.
 * Written whole, owner-only ({@code 0600}), to a new file in the same folder, synced, then renamed
 * over the old one, so a reader sees the old file or the new, never half of one.
 */
final class TokenFile {
  static final String FORMAT = "notes-mcp/tokens/1";

  /** A tokens file larger than this is refused (thousands of tokens fit). */
  static final int MAX_BYTES = 256 * 1024;

  static final String NAME_RULE = "[A-Za-z0-9._-]{1,64}";

  /** Every token starts with this, so a secret scanner can tell one when it leaks. */
  static final String PREFIX = "nmcp_";

  private static final JsonFactory JSON =
      JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private static final SecureRandom RANDOM = new SecureRandom();

  /** One token as the file records it. */
  record Entry(String name, String scope, String created, String sha256) {
    boolean mayPropose() {
      return scope.equals("propose");
    }
  }

  /** A file that cannot be used; the message says why. */
  static final class Invalid extends Exception {
    private static final long serialVersionUID = 1L;

    Invalid(String message) {
      super(message, null, false, false);
    }
  }

  private TokenFile() {}

  /** A new token: 256 random bits, URL-safe Base64, after {@link #PREFIX}. */
  static String newToken() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** The SHA-256 of a token's UTF-8 bytes, as the file keeps it. */
  static byte[] digest(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every Java platform has SHA-256", e);
    }
  }

  /** The entries of {@code file}, read carefully; an empty list when it does not exist yet. */
  static List<Entry> read(Path file, boolean mayBeMissing) throws IOException, Invalid {
    byte[] bytes;
    try {
      bytes = TrustedFile.read(file, MAX_BYTES);
    } catch (NoSuchFileException e) {
      if (mayBeMissing) {
        return new ArrayList<>();
      }
      throw e;
    }
    if (bytes == null) {
      throw new Invalid("is larger than " + MAX_BYTES + " bytes");
    }
    return parse(bytes);
  }

  static List<Entry> parse(byte[] bytes) throws Invalid {
    if (JsonInput.isNotUtf8(bytes)) {
      throw new Invalid("is " + JsonInput.NOT_UTF8);
    }
    List<Entry> entries = new ArrayList<>();
    try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), bytes)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new Invalid("is not a JSON object");
      }
      boolean format = false;
      boolean tokens = false;
      String key;
      while ((key = parser.nextName()) != null) {
        JsonToken token = parser.nextToken();
        if (key.equals("format")) {
          if (token != JsonToken.VALUE_STRING || !parser.getString().equals(FORMAT)) {
            throw new Invalid("is not in format " + FORMAT);
          }
          format = true;
        } else if (key.equals("tokens")) {
          if (token != JsonToken.START_ARRAY) {
            throw new Invalid("has \"tokens\" that is not an array");
          }
          while (parser.nextToken() == JsonToken.START_OBJECT) {
            entries.add(entry(parser));
          }
          tokens = true;
        } else {
          throw new Invalid("has an unknown field " + TerminalText.quoted(key, 80));
        }
      }
      if (!format || !tokens) {
        throw new Invalid("needs \"format\" and \"tokens\"");
      }
      if (parser.nextToken() != null) {
        throw new Invalid("holds more than one JSON object");
      }
    } catch (JacksonException e) {
      throw new Invalid("is not valid JSON (" + JsonInput.describe(e) + ")");
    }
    Set<String> names = new HashSet<>();
    Set<String> hashes = new HashSet<>();
    for (Entry entry : entries) {
      if (!names.add(entry.name())) {
        throw new Invalid("names token " + TerminalText.quoted(entry.name(), 80) + " twice");
      }
      if (!hashes.add(entry.sha256())) {
        throw new Invalid("holds one token's hash twice");
      }
    }
    return entries;
  }

  private static Entry entry(JsonParser parser) throws Invalid {
    String name = null;
    String scope = null;
    String created = null;
    String sha256 = null;
    String key;
    while ((key = parser.nextName()) != null) {
      if (parser.nextToken() != JsonToken.VALUE_STRING) {
        throw new Invalid("has a token whose " + TerminalText.quoted(key, 80) + " is not a string");
      }
      String value = parser.getString();
      switch (key) {
        case "name" -> name = value;
        case "scope" -> scope = value;
        case "created" -> created = value;
        case "sha256" -> sha256 = value;
        default ->
            throw new Invalid("has a token with an unknown field " + TerminalText.quoted(key, 80));
      }
    }
    if (name == null || scope == null || created == null || sha256 == null) {
      throw new Invalid("has a token without name, scope, created and sha256");
    }
    if (!name.matches(NAME_RULE)) {
      throw new Invalid(
          "has a token named " + TerminalText.quoted(name, 80) + ", not " + NAME_RULE);
    }
    if (!scope.equals("read") && !scope.equals("propose")) {
      throw new Invalid(
          "has token "
              + TerminalText.quoted(name, 80)
              + " of scope "
              + TerminalText.quoted(scope, 80));
    }
    if (!sha256.matches("[0-9a-f]{64}")) {
      throw new Invalid(
          "has token " + TerminalText.quoted(name, 80) + " whose sha256 is not 64 hex digits");
    }
    return new Entry(name, scope, created, sha256);
  }

  static byte[] format(List<Entry> entries) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JSON.createGenerator(ObjectWriteContext.empty(), out)) {
      g.writeStartObject();
      g.writeStringProperty("format", FORMAT);
      g.writeName("tokens");
      g.writeStartArray();
      for (Entry entry : entries) {
        g.writeStartObject();
        g.writeStringProperty("name", entry.name());
        g.writeStringProperty("scope", entry.scope());
        g.writeStringProperty("created", entry.created());
        g.writeStringProperty("sha256", entry.sha256());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    out.write('\n');
    return out.toByteArray();
  }

  /**
   * Replaces {@code file} with {@code entries}: a new owner-only file beside it, synced, renamed
   * over it, and the folder synced.
   */
  static void write(Path file, List<Entry> entries) throws IOException {
    TrustedFile.replace(file, format(entries));
  }

  static String hex(byte[] digest) {
    return HexFormat.of().formatHex(digest);
  }
}

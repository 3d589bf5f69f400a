package notesmcp.policy.proposals;

import java.io.ByteArrayOutputStream;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import notesmcp.policy.rules.NoteName;
import notesmcp.text.JsonInput;
import notesmcp.text.Quote;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.SerializableString;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.io.CharacterEscapes;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;

/**
 * The bytes of a proposal record and of a status marker in the proposals folder: one JSON object
 * each, in pure ASCII (every non-ASCII and control character escaped, so even {@code cat} of a
 * record cannot drive a terminal).
 *
 * <pre>{"format":"notes-mcp/proposal/1","id":"…","path":"draft.txt","bytes":2,
 *  "sha256":"…64 hex…","createdAt":"2026-01-02T03:04:05Z",
 *  "clientInfo":{"name":"…","version":"…","verified":false},"content":"hi"}</pre>
 *
 * <p>An edit's record ({@code docs/approvals.md}, "Edits") has its own format and three more
 * fields, the text it replaces, kept so the commit can check it and an undo restore it:
 *
 * <pre>{"format":"notes-mcp/edit/1","id":"…","path":"Journal/2026-12-01.md","bytes":9,
 *  "sha256":"…","createdAt":"…","clientInfo":…,"baseBytes":4,"baseSha256":"…",
 *  "base":"old\n","content":"old\nnew\n"}</pre>
 *
 * <p>A proposal made by a caller its transport authenticated (a token of the HTTP server) also
 * holds {@code "authenticatedRequester"}, the credential's name, beside the self-reported {@code
 * clientInfo}; records without it (made over stdio, or before it existed) read as before.
 *
 * <p>{@code clientInfo} is {@code null} when the client reported none; {@code "verified":false} is
 * the label {@code docs/approvals.md} describes. A record is read as strictly as a policy file:
 * unknown, duplicate or missing keys, wrong types, a bad name, or {@code bytes}/{@code sha256} that
 * do not match the content all make it {@link Damaged}, and a damaged record is never committed.
 */
final class RecordFormat {
  static final String PROPOSAL_FORMAT = "notes-mcp/proposal/1";
  static final String EDIT_FORMAT = "notes-mcp/edit/1";
  static final String STATUS_FORMAT = "notes-mcp/status/1";

  private static final Set<String> KEYS =
      Set.of("format", "id", "path", "bytes", "sha256", "createdAt", "clientInfo", "content");
  private static final Set<String> EDIT_KEYS = Set.of("baseBytes", "baseSha256", "base");
  private static final String AUTHENTICATED = "authenticatedRequester";
  private static final JsonFactory JSON =
      JsonFactory.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
          .characterEscapes(new EscapeDelete())
          .build();

  /**
   * JSON's own escapes, and DEL too: it is ASCII, so {@code ESCAPE_NON_ASCII} would let it through
   * raw, but it is a control character like those below U+0020 (found by RecordFormatFuzzTest).
   */
  private static final class EscapeDelete extends CharacterEscapes {
    private static final long serialVersionUID = 1L;
    private final int[] escapes = standardAsciiEscapesForJSON();

    EscapeDelete() {
      escapes[0x7f] = ESCAPE_STANDARD;
    }

    @Override
    public int[] getEscapeCodesForAscii() {
      return escapes;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
      return null;
    }
  }

  private RecordFormat() {}

  /** Why a record cannot be trusted; the message says what is wrong with it. */
  static final class Damaged extends Exception {
    private static final long serialVersionUID = 1L;

    Damaged(String problem) {
      super(problem, null, false, false);
    }
  }

  static byte[] encode(Proposal proposal) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(proposal.content().length() * 2 + 400);
    try (JsonGenerator g = JSON.createGenerator(ObjectWriteContext.empty(), out)) {
      g.writeStartObject();
      g.writeStringProperty("format", proposal.isEdit() ? EDIT_FORMAT : PROPOSAL_FORMAT);
      g.writeStringProperty("id", proposal.id());
      g.writeStringProperty("path", proposal.path().value());
      g.writeNumberProperty("bytes", proposal.bytes().length);
      g.writeStringProperty("sha256", proposal.sha256());
      g.writeStringProperty("createdAt", proposal.createdAt().toString());
      g.writeName("clientInfo");
      Requester requester = proposal.requester();
      if (requester == null) {
        g.writeNull();
      } else {
        g.writeStartObject();
        g.writeStringProperty("name", requester.name());
        g.writeStringProperty("version", requester.version());
        g.writeBooleanProperty("verified", false);
        g.writeEndObject();
      }
      if (proposal.authenticated() != null) {
        g.writeStringProperty(AUTHENTICATED, proposal.authenticated());
      }
      if (proposal.isEdit()) {
        g.writeNumberProperty("baseBytes", proposal.baseBytes().length);
        g.writeStringProperty("baseSha256", proposal.baseSha256());
        g.writeStringProperty("base", proposal.base());
      }
      g.writeStringProperty("content", proposal.content());
      g.writeEndObject();
    }
    out.write('\n');
    return out.toByteArray();
  }

  /** A status marker: the file's name says the status; the body records when, for people. */
  static byte[] encodeStatus(String id, String status, Instant at, String sha256) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(200);
    try (JsonGenerator g = JSON.createGenerator(ObjectWriteContext.empty(), out)) {
      g.writeStartObject();
      g.writeStringProperty("format", STATUS_FORMAT);
      g.writeStringProperty("id", id);
      g.writeStringProperty("status", status);
      g.writeStringProperty("at", at.toString());
      g.writeStringProperty("sha256", sha256);
      g.writeEndObject();
    }
    out.write('\n');
    return out.toByteArray();
  }

  /** Decodes the record of proposal {@code id}, checking every field against the others. */
  static Proposal decode(String id, byte[] bytes) throws Damaged {
    Map<String, Object> fields = new HashMap<>();
    if (JsonInput.isNotUtf8(bytes)) {
      throw new Damaged("is " + JsonInput.NOT_UTF8);
    }
    try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), bytes)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new Damaged("is not a JSON object");
      }
      String key;
      while ((key = parser.nextName()) != null) {
        if (!KEYS.contains(key) && !EDIT_KEYS.contains(key) && !key.equals(AUTHENTICATED)) {
          throw new Damaged("has an unknown field " + Quote.of(key));
        }
        fields.put(key, value(parser, key));
      }
      if (parser.nextToken() != null) {
        throw new Damaged("holds more than one JSON object");
      }
    } catch (JacksonException e) {
      throw new Damaged("is not valid JSON (" + JsonInput.describe(e) + ")");
    }
    for (String required : KEYS) {
      if (!fields.containsKey(required)) {
        throw new Damaged("has no " + Quote.of(required));
      }
    }
    boolean edit = EDIT_FORMAT.equals(fields.get("format"));
    for (String extra : EDIT_KEYS) {
      if (edit && !fields.containsKey(extra)) {
        throw new Damaged("has no " + Quote.of(extra));
      }
      if (!edit && fields.containsKey(extra)) {
        throw new Damaged("has an unknown field " + Quote.of(extra));
      }
    }
    return checked(id, fields);
  }

  private static Object value(JsonParser parser, String key) throws Damaged {
    JsonToken token = parser.nextToken();
    if (key.equals("clientInfo")) {
      return token == JsonToken.VALUE_NULL ? null : requester(parser);
    }
    if (key.equals("bytes") || key.equals("baseBytes")) {
      if (token != JsonToken.VALUE_NUMBER_INT
          || parser.getNumberType() != JsonParser.NumberType.INT) {
        throw new Damaged("has a " + Quote.of(key) + " that is not an integer");
      }
      return parser.getIntValue();
    }
    if (token != JsonToken.VALUE_STRING) {
      throw new Damaged("has a " + Quote.of(key) + " that is not a string");
    }
    return parser.getString();
  }

  private static Requester requester(JsonParser parser) throws Damaged {
    if (parser.currentToken() != JsonToken.START_OBJECT) {
      throw new Damaged("has a \"clientInfo\" that is neither an object nor null");
    }
    Map<String, String> members = new HashMap<>();
    String key;
    while ((key = parser.nextName()) != null) {
      JsonToken token = parser.nextToken();
      if (key.equals("verified") && token == JsonToken.VALUE_FALSE) {
        members.put(key, "false");
      } else if ((key.equals("name") || key.equals("version")) && token == JsonToken.VALUE_STRING) {
        members.put(key, parser.getString());
      } else {
        throw new Damaged("has a \"clientInfo\" with a bad field " + Quote.of(key));
      }
    }
    if (members.size() != 3) {
      throw new Damaged("has a \"clientInfo\" without name, version and \"verified\":false");
    }
    return new Requester(members.get("name"), members.get("version"));
  }

  private static Proposal checked(String id, Map<String, Object> fields) throws Damaged {
    Object format = fields.get("format");
    if (!PROPOSAL_FORMAT.equals(format) && !EDIT_FORMAT.equals(format)) {
      throw new Damaged("is not in format " + PROPOSAL_FORMAT);
    }
    if (!id.equals(fields.get("id"))) {
      throw new Damaged("names another id, " + Quote.of((String) fields.get("id")));
    }
    NoteName path;
    try {
      // The folder is trusted storage (owner-only, checked at start-up) that only ever receives
      // destinations the policy allowed; the path is still checked by the note-name rules (a
      // relative path, no component starting with '.', ...) before review reaches it.
      path = NoteName.configured((String) fields.get("path"));
    } catch (IllegalArgumentException e) {
      throw new Damaged("has a bad destination: " + e.getMessage());
    }
    String content = (String) fields.get("content");
    byte[] bytes = utf8(content);
    if (!fields.get("bytes").equals(bytes.length)) {
      throw new Damaged(
          "says " + fields.get("bytes") + " bytes, but its content is " + bytes.length);
    }
    if (!Proposal.sha256(bytes).equals(fields.get("sha256"))) {
      throw new Damaged("content does not match its recorded SHA-256 (tampered with or corrupted)");
    }
    Instant createdAt;
    try {
      createdAt = Instant.parse((String) fields.get("createdAt"));
    } catch (DateTimeParseException e) {
      throw new Damaged("has a bad \"createdAt\"");
    }
    String base = null;
    if (EDIT_FORMAT.equals(format)) {
      base = (String) fields.get("base");
      byte[] baseBytes = utf8(base);
      if (!fields.get("baseBytes").equals(baseBytes.length)
          || !Proposal.sha256(baseBytes).equals(fields.get("baseSha256"))) {
        throw new Damaged("base does not match its recorded length and SHA-256");
      }
    }
    return new Proposal(
        id,
        path,
        content,
        createdAt,
        (Requester) fields.get("clientInfo"),
        base,
        (String) fields.get(AUTHENTICATED));
  }

  private static byte[] utf8(String content) throws Damaged {
    try {
      var encoded = StandardCharsets.UTF_8.newEncoder().encode(CharBuffer.wrap(content));
      byte[] bytes = new byte[encoded.remaining()];
      encoded.get(bytes);
      return bytes;
    } catch (CharacterCodingException e) {
      throw new Damaged("content is not valid Unicode text (an unpaired surrogate)");
    }
  }
}

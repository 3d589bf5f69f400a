package notesmcp.jsonrpc;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import notesmcp.jsonrpc.Message.ErrorObject;
import notesmcp.jsonrpc.Message.Failure;
import notesmcp.jsonrpc.Message.Id;
import notesmcp.jsonrpc.Message.Notification;
import notesmcp.jsonrpc.Message.RawMember;
import notesmcp.jsonrpc.Message.Request;
import notesmcp.jsonrpc.Message.Success;
import notesmcp.text.JsonInput;
import notesmcp.text.JsonInput.JsonString;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.POJONode;
import tools.jackson.databind.util.RawValue;

/**
 * Turns one line of bytes into a {@link Message} and a message into one line, for newline-delimited
 * JSON-RPC 2.0.
 *
 * <p>Decoding is one streaming pass with the bounds of docs/behaviour.md, "Limits" (nesting 64, a
 * string 1 MiB, a number 100 digits). Duplicate keys are refused (the first failure of a request
 * object is an {@code -32600}); no tree ever merges them. The one params member named at
 * construction, when it is an object, is not decoded at all: its exact text is kept ({@link
 * RawMember}), so a tool's arguments reach the tool as sent. The name is the caller's, so this
 * layer knows no MCP method. Encoding writes one compact line; Jackson escapes every control
 * character, and {@link #encode} checks that no line break survived. Thread-safe and stateless.
 *
 * <p>The contract of {@link #decode}, for any bytes at all: a {@link Message}, or {@link Malformed}
 * carrying the error reply the line deserves; never another exception. Error texts are ours or
 * Jackson's description of the fault, never a Java class or method name.
 */
public final class Codec {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** The limits of docs/behaviour.md, "Limits": nesting 64, a string 1 MiB, a number 100 digits. */
  private static final JsonFactory JSON = JsonInput.factory(1024 * 1024, false);

  private final String rawMember;

  /** A codec that keeps no params member raw. */
  public Codec() {
    this.rawMember = null;
  }

  /**
   * @param rawMember the params member kept as received, beside the params tree ({@link RawMember})
   */
  public Codec(String rawMember) {
    this.rawMember = rawMember;
  }

  /** A line that is not an acceptable message, and the error response it deserves. */
  public static final class Malformed extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient Id id;
    private final transient ErrorObject error;

    Malformed(Id id, int code, String message) {
      super(message, null, false, false);
      this.id = id;
      this.error = new ErrorObject(code, message);
    }

    /** The id of the message, when it could be read; else null. */
    public Id id() {
      return id;
    }

    /** The error to answer with. */
    public ErrorObject error() {
      return error;
    }
  }

  /**
   * The encoded line, collected without spare room: the generator writes its own (recycled) buffer
   * out once at the end for a line of up to 8,000 bytes, and that one write becomes the line's
   * array as it is. A growing {@code ByteArrayOutputStream} would allocate it about three times
   * over, on every reply.
   */
  private static final class Line extends OutputStream {
    private byte[] bytes = new byte[0];
    private int length;

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] source, int offset, int count) {
      if (length + count > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(length + count, 2 * bytes.length));
      }
      System.arraycopy(source, offset, bytes, length, count);
      length += count;
    }

    byte[] bytes() {
      return length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
    }
  }

  private static final class Fields {
    JsonNode jsonrpc;
    JsonNode id;
    JsonNode method;
    JsonNode params;
    JsonNode result;
    JsonNode error;
    RawMember raw = RawMember.ABSENT;
    boolean rawSeen;
    String duplicate;

    /** Two "id" members that differ: the id cannot be told (JSON-RPC 2.0, 5: then it is null). */
    boolean idsDiffer;
  }

  /** Decodes {@code length} bytes of {@code line} (no line break) into one message. */
  public Message decode(byte[] line, int length) throws Malformed {
    requireUtf8Start(line, length);
    Fields fields = new Fields();
    try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), line, 0, length)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        throw new Malformed(null, ErrorCodes.PARSE_ERROR, "Parse error: empty message");
      }
      if (first != JsonToken.START_OBJECT) {
        parser.skipChildren();
        requireEnd(parser);
        throw new Malformed(
            null,
            ErrorCodes.INVALID_REQUEST,
            first == JsonToken.START_ARRAY
                ? "Invalid Request: batches are not supported; send one message per line"
                : "Invalid Request: a message must be a JSON object");
      }
      readEnvelope(parser, line, fields);
      requireEnd(parser);
    } catch (JacksonException e) {
      throw new Malformed(null, ErrorCodes.PARSE_ERROR, "Parse error: " + JsonInput.describe(e));
    } catch (NumberFormatException | ArithmeticException e) {
      // Valid JSON that no Java number holds, such as 1e-9999999999: Jackson throws these
      // unwrapped, and one used to kill the thread reading stdin (the class of hangs BlockedPipesIT
      // and HostileServerIT run).
      throw new Malformed(
          null, ErrorCodes.PARSE_ERROR, "Parse error: a number too large or too small to read");
    }
    return classify(fields);
  }

  /**
   * The messages of a JSON-RPC batch (revision 2025-03-26 of MCP lets a client send one), each read
   * as a line alone would be, and the elements that are not acceptable messages, each with the
   * error reply it deserves. Responses are answered in any order (JSON-RPC 2.0, "Batch").
   */
  public record Batch(List<Message> messages, List<Malformed> malformed) {}

  /** Whether the line holds an array: a batch, to be read with {@link #decodeBatch}. */
  public static boolean isBatch(byte[] line, int length) {
    int i = length >= 3 && (line[0] & 0xff) == 0xef && (line[1] & 0xff) == 0xbb ? 3 : 0;
    while (i < length && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) {
      i++;
    }
    return i < length && line[i] == '[';
  }

  /**
   * Decodes a batch of at most {@code maxMessages} elements. Not JSON at all is {@code -32700}, an
   * empty batch or a longer one {@code -32600}: one error, not an array (JSON-RPC 2.0, "Batch").
   */
  public Batch decodeBatch(byte[] line, int length, int maxMessages) throws Malformed {
    requireUtf8Start(line, length);
    List<Message> messages = new ArrayList<>();
    List<Malformed> malformed = new ArrayList<>();
    int count = 0;
    try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), line, 0, length)) {
      if (parser.nextToken() != JsonToken.START_ARRAY) {
        throw new Malformed(null, ErrorCodes.INVALID_REQUEST, "Invalid Request: not a batch");
      }
      JsonToken token;
      while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
        count++;
        if (count > maxMessages) {
          parser.skipChildren();
          continue;
        }
        if (token != JsonToken.START_OBJECT) {
          parser.skipChildren();
          malformed.add(
              new Malformed(
                  null,
                  ErrorCodes.INVALID_REQUEST,
                  "Invalid Request: a message must be a JSON object"));
          continue;
        }
        Fields fields = new Fields();
        readEnvelope(parser, line, fields);
        try {
          messages.add(classify(fields));
        } catch (Malformed element) {
          malformed.add(element);
        }
      }
      requireEnd(parser);
    } catch (JacksonException e) {
      throw new Malformed(null, ErrorCodes.PARSE_ERROR, "Parse error: " + JsonInput.describe(e));
    } catch (NumberFormatException | ArithmeticException e) {
      throw new Malformed(
          null, ErrorCodes.PARSE_ERROR, "Parse error: a number too large or too small to read");
    }
    if (count == 0) {
      throw new Malformed(null, ErrorCodes.INVALID_REQUEST, "Invalid Request: an empty batch");
    }
    if (count > maxMessages) {
      throw new Malformed(
          null,
          ErrorCodes.INVALID_REQUEST,
          "Invalid Request: a batch of "
              + count
              + " messages; at most "
              + maxMessages
              + " are served in one batch");
    }
    return new Batch(messages, malformed);
  }

  /** Encodes a batch's replies as one compact line, without the line break: an array. */
  public byte[] encodeBatch(List<Message> replies) {
    Line out = new Line();
    out.write('[');
    for (int i = 0; i < replies.size(); i++) {
      if (i > 0) {
        out.write(',');
      }
      byte[] one = encode(replies.get(i));
      out.write(one, 0, one.length);
    }
    out.write(']');
    return out.bytes();
  }

  /** A line that is not UTF-8 JSON is refused before Jackson could guess another encoding. */
  private static void requireUtf8Start(byte[] line, int length) throws Malformed {
    if (JsonInput.isNotUtf8(line, length)) {
      throw new Malformed(
          null, ErrorCodes.PARSE_ERROR, "Parse error: the line is " + JsonInput.NOT_UTF8);
    }
  }

  private static void requireEnd(JsonParser parser) throws Malformed {
    if (parser.nextToken() != null) {
      throw new Malformed(
          null, ErrorCodes.PARSE_ERROR, "Parse error: more than one JSON value on the line");
    }
  }

  /**
   * The envelope's members. A known member seen twice is caught by its field being set already;
   * only an unknown member needs a set of names, made when the first one comes (a request has
   * none).
   */
  private void readEnvelope(JsonParser parser, byte[] line, Fields fields) {
    Set<String> unknown = null;
    String name;
    while ((name = parser.nextName()) != null) {
      JsonToken token = parser.nextToken();
      boolean repeated;
      switch (name) {
        case "jsonrpc":
          repeated = fields.jsonrpc != null;
          fields.jsonrpc = tree(parser, fields);
          break;
        case "id":
          repeated = fields.id != null;
          JsonNode id = tree(parser, fields);
          fields.idsDiffer |= fields.id != null && !fields.id.equals(id);
          fields.id = id;
          break;
        case "method":
          repeated = fields.method != null;
          fields.method = tree(parser, fields);
          break;
        case "params":
          repeated = fields.params != null;
          fields.params =
              token == JsonToken.START_OBJECT ? params(parser, line, fields) : tree(parser, fields);
          break;
        case "result":
          repeated = fields.result != null;
          fields.result = tree(parser, fields);
          break;
        case "error":
          repeated = fields.error != null;
          fields.error = tree(parser, fields);
          break;
        default:
          if (unknown == null) {
            unknown = new HashSet<>();
          }
          repeated = !unknown.add(name);
          parser.skipChildren();
      }
      if (repeated && fields.duplicate == null) {
        fields.duplicate = name;
      }
    }
  }

  private ObjectNode params(JsonParser parser, byte[] line, Fields fields) {
    ObjectNode params = NODES.objectNode();
    String name;
    while ((name = parser.nextName()) != null) {
      JsonToken token = parser.nextToken();
      boolean kept = name.equals(rawMember);
      if ((kept ? fields.rawSeen : params.has(name)) && fields.duplicate == null) {
        fields.duplicate = name;
      }
      if (!kept) {
        params.set(name, tree(parser, fields));
      } else if (token == JsonToken.START_OBJECT) {
        int start = (int) parser.currentTokenLocation().getByteOffset();
        parser.skipChildren();
        int end = (int) parser.currentLocation().getByteOffset();
        fields.raw =
            new RawMember.ObjectText(new String(line, start, end - start, StandardCharsets.UTF_8));
        fields.rawSeen = true;
      } else {
        tree(parser, fields); // read only for its duplicate keys
        fields.raw = new RawMember.NotAnObject(JsonInput.typeOf(token));
        fields.rawSeen = true;
      }
    }
    return params;
  }

  /** Reads the value at the current token into a tree, noting the first duplicate key. */
  private static JsonNode tree(JsonParser parser, Fields fields) {
    switch (parser.currentToken()) {
      case START_OBJECT:
        ObjectNode object = NODES.objectNode();
        String name;
        while ((name = parser.nextName()) != null) {
          parser.nextToken();
          if (object.replace(name, tree(parser, fields)) != null && fields.duplicate == null) {
            fields.duplicate = name;
          }
        }
        return object;
      case START_ARRAY:
        ArrayNode array = NODES.arrayNode();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          array.add(tree(parser, fields));
        }
        return array;
      case VALUE_STRING:
        return NODES.stringNode(parser.getString());
      case VALUE_NUMBER_INT:
        return parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
            ? NODES.numberNode(parser.getBigIntegerValue())
            : NODES.numberNode(parser.getLongValue());
      case VALUE_NUMBER_FLOAT:
        return NODES.numberNode(parser.getDecimalValue());
      case VALUE_TRUE:
        return NODES.booleanNode(true);
      case VALUE_FALSE:
        return NODES.booleanNode(false);
      case VALUE_NULL:
        return NODES.nullNode();
      default:
        throw new IllegalStateException("unexpected token " + parser.currentToken());
    }
  }

  private static Message classify(Fields f) throws Malformed {
    Id id = !f.idsDiffer && Id.isValid(f.id) ? new Id(f.id) : null;
    if (f.duplicate != null) {
      throw new Malformed(
          id, ErrorCodes.INVALID_REQUEST, "Invalid Request: duplicate key \"" + f.duplicate + "\"");
    }
    if (f.jsonrpc == null || !f.jsonrpc.isString() || !"2.0".equals(f.jsonrpc.stringValue())) {
      throw new Malformed(
          id, ErrorCodes.INVALID_REQUEST, "Invalid Request: \"jsonrpc\" must be \"2.0\"");
    }
    if (f.method != null) {
      if (!f.method.isString()) {
        throw new Malformed(
            id, ErrorCodes.INVALID_REQUEST, "Invalid Request: \"method\" must be a string");
      }
      if (f.result != null || f.error != null) {
        throw new Malformed(
            id,
            ErrorCodes.INVALID_REQUEST,
            "Invalid Request: a request has no \"result\" or \"error\"");
      }
      if (f.id == null) {
        return new Notification(f.method.stringValue(), f.params);
      }
      if (id == null) {
        throw new Malformed(
            null,
            ErrorCodes.INVALID_REQUEST,
            "Invalid Request: \"id\" must be a string or an integer");
      }
      return new Request(id, f.method.stringValue(), f.params, f.raw);
    }
    if (f.result != null && f.error == null && id != null) {
      return new Success(id, f.result);
    }
    if (f.error != null && f.result == null) {
      return new Failure(id, errorObject(f.error, id));
    }
    throw new Malformed(
        id,
        ErrorCodes.INVALID_REQUEST,
        "Invalid Request: neither a request, a notification nor a response");
  }

  private static ErrorObject errorObject(JsonNode error, Id id) throws Malformed {
    JsonNode code = error.get("code");
    JsonNode message = error.get("message");
    if (code == null
        || !code.canConvertToInt()
        || !code.isIntegralNumber()
        || message == null
        || !message.isString()) {
      throw new Malformed(
          id,
          ErrorCodes.INVALID_REQUEST,
          "Invalid Request: an error needs an integer \"code\" and a string \"message\"");
    }
    return new ErrorObject(code.intValue(), message.stringValue(), error.get("data"));
  }

  /** Encodes one message as a compact line, without the line break. */
  public byte[] encode(Message message) {
    Line out = new Line();
    try (JsonGenerator g = JSON.createGenerator(ObjectWriteContext.empty(), out)) {
      g.writeStartObject();
      g.writeStringProperty("jsonrpc", "2.0");
      if (message instanceof Request) {
        Request request = (Request) message;
        writeId(g, request.id());
        g.writeStringProperty("method", request.method());
        writeParams(g, request.params(), request.raw());
      } else if (message instanceof Notification) {
        Notification notification = (Notification) message;
        g.writeStringProperty("method", notification.method());
        writeMember(g, "params", notification.params());
      } else if (message instanceof Success) {
        Success success = (Success) message;
        writeId(g, success.id());
        writeMember(g, "result", success.result());
      } else if (message instanceof Failure) {
        Failure failure = (Failure) message;
        writeId(g, failure.id());
        g.writeName("error");
        g.writeStartObject();
        g.writeNumberProperty("code", failure.error().code());
        g.writeStringProperty("message", failure.error().message());
        writeMember(g, "data", failure.error().data());
        g.writeEndObject();
      } else {
        throw new AssertionError(message);
      }
      g.writeEndObject();
    }
    byte[] bytes = out.bytes();
    if (JsonInput.ByteRuns.hasLineBreak(bytes, 0, bytes.length)) {
      throw new IllegalStateException("an encoded message must not contain a line break");
    }
    return bytes;
  }

  /** Writes {@code node} compactly; raw values are written as their text. */
  public static void write(JsonGenerator g, JsonNode node) {
    if (node.isObject()) {
      g.writeStartObject();
      for (Map.Entry<String, JsonNode> member : node.properties()) {
        g.writeName(member.getKey());
        write(g, member.getValue());
      }
      g.writeEndObject();
    } else if (node.isArray()) {
      g.writeStartArray();
      for (JsonNode element : node) {
        write(g, element);
      }
      g.writeEndArray();
    } else if (node.isString()) {
      g.writeString(node.stringValue());
    } else if (node.isIntegralNumber()) {
      if (node.canConvertToLong()) {
        g.writeNumber(node.longValue());
      } else {
        g.writeNumber(node.bigIntegerValue());
      }
    } else if (node.isNumber()) {
      g.writeNumber(node.decimalValue());
    } else if (node.isBoolean()) {
      g.writeBoolean(node.booleanValue());
    } else if (node.isNull()) {
      g.writeNull();
    } else if (node.isPojo() && ((POJONode) node).getPojo() instanceof JsonString) {
      // A string already escaped from its UTF-8 bytes (a note's page): copied, not escaped again.
      JsonString escaped = (JsonString) ((POJONode) node).getPojo();
      g.writeRawUTF8String(escaped.bytes(), 0, escaped.length());
    } else if (node.isPojo() && ((POJONode) node).getPojo() instanceof RawValue) {
      writeRaw(g, String.valueOf(((RawValue) ((POJONode) node).getPojo()).rawValue()));
    } else {
      throw new IllegalArgumentException("cannot write a " + node.getNodeType() + " node");
    }
  }

  /**
   * Writes JSON text as it stands, except that an unpaired surrogate, which UTF-8 cannot carry (the
   * generator fails on it), is written as its escape: in JSON text it can only stand inside a
   * string, where the escape is the same value. A client's arguments may hold one when the person
   * wrote the escape {@code \\ud800} (the server refuses such content; it must first receive it).
   */
  private static void writeRaw(JsonGenerator g, String text) {
    StringBuilder escaped = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        if (escaped != null) {
          escaped.append(c).append(text.charAt(i + 1));
        }
        i++;
      } else if (Character.isSurrogate(c)) {
        if (escaped == null) {
          escaped = new StringBuilder(text.length() + 16).append(text, 0, i);
        }
        escaped.append("\\u").append(Integer.toHexString(c));
      } else if (escaped != null) {
        escaped.append(c);
      }
    }
    g.writeRawValue(escaped == null ? text : escaped.toString());
  }

  /** A request's params, with its raw member (an object's text) written back as received. */
  private void writeParams(JsonGenerator g, JsonNode params, RawMember raw) {
    if (!(raw instanceof RawMember.ObjectText)) {
      writeMember(g, "params", params);
      return;
    }
    if (rawMember == null || (params != null && !params.isObject())) {
      throw new IllegalArgumentException("this codec keeps no raw member to write");
    }
    g.writeName("params");
    g.writeStartObject();
    if (params != null) {
      for (Map.Entry<String, JsonNode> member : params.properties()) {
        g.writeName(member.getKey());
        write(g, member.getValue());
      }
    }
    g.writeName(rawMember);
    writeRaw(g, ((RawMember.ObjectText) raw).text());
    g.writeEndObject();
  }

  private static void writeId(JsonGenerator g, Id id) {
    if (id != null) {
      g.writeName("id");
      write(g, id.value());
    }
  }

  private static void writeMember(JsonGenerator g, String name, JsonNode value) {
    if (value != null) {
      g.writeName(name);
      write(g, value);
    }
  }
}

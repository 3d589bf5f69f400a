package notesmcp.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
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
import notesmcp.jsonrpc.ReferenceJson.Arr;
import notesmcp.jsonrpc.ReferenceJson.Bool;
import notesmcp.jsonrpc.ReferenceJson.Member;
import notesmcp.jsonrpc.ReferenceJson.NotJson;
import notesmcp.jsonrpc.ReferenceJson.Num;
import notesmcp.jsonrpc.ReferenceJson.Obj;
import notesmcp.jsonrpc.ReferenceJson.Str;
import notesmcp.jsonrpc.ReferenceJson.Value;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.util.RawValue;

/**
 * What the server and the client read from a pipe, for any bytes: {@link LineReader} splits them
 * into the lines a reference split gives (never holding more than its bound), and {@link
 * Codec#decode} turns each line into the message a reference reading of JSON-RPC 2.0 and MCP gives,
 * or into {@link Codec.Malformed} with the error reply the reference expects; never another
 * exception. The reference ({@link ReferenceJson}, {@link #expect}) is written from RFC 8259, RFC
 * 3629, JSON-RPC 2.0, MCP's id rule and docs/behaviour.md, "Limits", and shares no code with
 * Jackson. A request's raw {@code arguments} must be the very bytes of that member on the line.
 * Whatever the codec accepts, it writes back and reads back as the same message.
 */
class LineCodecFuzzTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String ARGUMENTS = "arguments";

  /** The server's codec: it keeps {@code tools/call}'s arguments raw. */
  private static final Codec SERVER = new Codec(ARGUMENTS);

  /** The client's codec: nothing raw. */
  private static final Codec CLIENT = new Codec();

  private static final int MIB = 1024 * 1024;

  /**
   * The input is a header and a byte stream. Byte 0: the most bytes one {@code read} returns (0: as
   * many as asked), so lines straddle reads anywhere. Bytes 1-2: the line bound, big-endian (0: the
   * server's 1 MiB), so short inputs reach the bound. The rest: what arrives on the pipe.
   */
  @FuzzTest
  @DictionaryEntries({
    "{\"jsonrpc\":\"2.0\",",
    "\"id\":",
    "\"method\":",
    "\"params\":",
    "\"arguments\":",
    "\"result\":",
    "\"error\":",
    "\"code\":",
    "\"message\":",
    "\"data\":",
    "\"tools/call\"",
    "\"2.0\"",
    "\\u0000",
    "\\ud800",
    "\\udc00",
    "1e999999999",
    "-0",
    "\ufeff"
  })
  void anyBytesGiveLinesAndEachLineAMessageOrAProtocolError(byte[] input) throws IOException {
    int readSize = input.length > 0 ? input[0] & 0xff : 0;
    int bound = input.length > 2 ? (input[1] & 0xff) << 8 | (input[2] & 0xff) : 0;
    if (bound == 0) {
      bound = MIB;
    }
    byte[] stream = input.length > 3 ? Arrays.copyOfRange(input, 3, input.length) : new byte[0];
    Pipe pipe = new Pipe(stream, readSize);
    LineReader reader = new LineReader(pipe, bound);
    for (byte[] expected : referenceLines(stream, bound)) {
      boolean complete = reader.hasCompleteLine();
      int reads = pipe.reads;
      LineReader.Result result = reader.next();
      if (complete) {
        assertThat(pipe.reads).as("a complete line was buffered, yet next() read").isEqualTo(reads);
      }
      assertThat(reader.bytes().length)
          .as("the line buffer never outgrows the bound")
          .isLessThanOrEqualTo(Math.max(8 * 1024, bound));
      if (expected == null) {
        assertThat(result).isEqualTo(LineReader.Result.TOO_LONG);
        continue;
      }
      assertThat(result).isEqualTo(LineReader.Result.LINE);
      assertThat(Arrays.copyOf(reader.bytes(), reader.length())).isEqualTo(expected);
      checkLine(reader.bytes(), reader.length());
    }
    assertThat(reader.next()).isEqualTo(LineReader.Result.END);
    assertThat(reader.next()).isEqualTo(LineReader.Result.END);
  }

  /**
   * Messages at the edges of docs/behaviour.md, "Limits"'s bounds (nesting 64, a string 1 MiB, a
   * number 100 digits), in every member the codec reads or skips: accepted exactly within them.
   * Lines this long reach the codec in the client, whose lines may be 4 MiB.
   */
  @FuzzTest
  void boundsHoldAtTheirEdges(FuzzedDataProvider data) {
    String[] places = {
      "{\"jsonrpc\":\"2.0\",\"id\":%s,\"method\":\"m\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"p\":%s}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"arguments\":{\"a\":%s}}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"arguments\":%s}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"unknown\":%s}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":%s}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1,\"message\":\"m\",\"data\":%s}}",
      "%s"
    };
    String place = places[data.consumeInt(0, places.length - 1)];
    String value;
    switch (data.consumeInt(0, 3)) {
      case 0 -> value = nested(data.consumeInt(55, 70), data.consumeBoolean());
      case 1 -> value = number(data);
      case 2 -> value = longString(data);
      default -> value = "{" + longString(data) + ":0}"; // a member name
    }
    int cut = place.indexOf("%s");
    byte[] line =
        (place.substring(0, cut) + value + place.substring(cut + 2))
            .getBytes(StandardCharsets.UTF_8);
    checkLine(line, line.length);
  }

  /**
   * What the server and the client write (replies, requests with the client's raw arguments,
   * notifications) is one line of strict JSON (the reference reads it) that the other side reads
   * back as the same message; raw arguments arrive as exactly the text the client sent (an unpaired
   * surrogate, which UTF-8 cannot carry, as its escape).
   */
  @FuzzTest
  void messagesWeWriteAreReadBackTheSame(FuzzedDataProvider data) throws Codec.Malformed {
    Id id =
        switch (data.consumeInt(0, 2)) {
          case 0 -> Id.of(data.consumeLong());
          case 1 -> new Id(NODES.numberNode(new BigInteger(1, data.consumeBytes(40)).negate()));
          default -> Id.of(text(data, 64));
        };
    Message message;
    Codec writer = data.consumeBoolean() ? SERVER : CLIENT;
    String rawArguments = null;
    switch (data.consumeInt(0, 4)) {
      case 0 -> message = new Success(id, tree(data, 0));
      case 1 -> {
        int code = data.consumeInt();
        message =
            new Failure(
                data.consumeBoolean() ? id : null,
                new ErrorObject(
                    code, text(data, 200), data.consumeBoolean() ? tree(data, 0) : null));
      }
      case 2 ->
          message = new Notification(text(data, 40), data.consumeBoolean() ? object(data) : null);
      case 3 -> {
        // The client's tools/call: the arguments as the person wrote them, duplicates included,
        // carried as a raw value inside params (Session.callTool).
        ObjectNode params = object(data);
        params.remove(ARGUMENTS);
        rawArguments = rawObject(data);
        params.putRawValue(ARGUMENTS, new RawValue(rawArguments));
        writer = CLIENT;
        message = new Request(id, "tools/call", params);
      }
      default -> {
        ObjectNode params = object(data);
        params.remove(ARGUMENTS);
        rawArguments = rawObject(data);
        writer = SERVER;
        message = new Request(id, text(data, 40), params, new RawMember.ObjectText(rawArguments));
      }
    }
    byte[] line = writer.encode(message);
    for (byte b : line) {
      assertThat(b).as("a line break in a written line").isNotIn((byte) '\n', (byte) '\r');
    }
    try {
      ReferenceJson.parse(line, line.length);
    } catch (NotJson e) {
      fail("we wrote what is not strict JSON (" + e.getMessage() + "): " + printable(line));
    }
    Message read = SERVER.decode(line, line.length);
    if (rawArguments == null) {
      assertSame(read, withoutKeptMember(message));
      assertSame(CLIENT.decode(line, line.length), message);
      return;
    }
    Request request = (Request) read;
    assertThat(request.raw()).isEqualTo(new RawMember.ObjectText(escapeUnpaired(rawArguments)));
    ObjectNode sent = (ObjectNode) ((Request) message).params().deepCopy();
    sent.remove(ARGUMENTS);
    assertSameNode(request.params(), sent);
    assertSameId(request.id(), ((Request) message).id());
    assertThat(request.method()).isEqualTo(((Request) message).method());
  }

  /**
   * The text as it can travel in UTF-8: an unpaired surrogate (in JSON text, always inside a
   * string) as its escape, the same JSON value; everything else as it is.
   */
  private static String escapeUnpaired(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        out.append(c).append(text.charAt(++i));
      } else if (Character.isSurrogate(c)) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  // ---------------------------------------------------------------------------------------------
  // The line reader's reference

  /** A stream that returns at most {@code most} bytes a read (0: as many as asked). */
  private static final class Pipe extends InputStream {
    private final byte[] bytes;
    private final int most;
    private int at;
    int reads;

    Pipe(byte[] bytes, int most) {
      this.bytes = bytes;
      this.most = most;
    }

    @Override
    public int read() {
      throw new AssertionError("LineReader reads in blocks");
    }

    @Override
    public int read(byte[] into, int offset, int length) {
      reads++;
      if (at == bytes.length) {
        return -1;
      }
      int count = Math.min(bytes.length - at, most == 0 ? length : Math.min(most, length));
      System.arraycopy(bytes, at, into, offset, count);
      at += count;
      return count;
    }
  }

  /**
   * The lines of {@code stream} in order: each segment before a {@code \n}, and a last one without
   * it if not empty; one trailing {@code \r} is not part of a line; a segment longer than {@code
   * bound} bytes (its {@code \r} counted) is null: too long.
   */
  private static List<byte[]> referenceLines(byte[] stream, int bound) {
    List<byte[]> lines = new ArrayList<>();
    int start = 0;
    for (int i = 0; i <= stream.length; i++) {
      boolean last = i == stream.length;
      if (!last && stream[i] != '\n') {
        continue;
      }
      if (last && i == start) {
        break;
      }
      int end = i;
      if (end - start > bound) {
        lines.add(null);
      } else {
        if (end > start && stream[end - 1] == '\r') {
          end--;
        }
        lines.add(Arrays.copyOfRange(stream, start, end));
      }
      start = i + 1;
    }
    return lines;
  }

  // ---------------------------------------------------------------------------------------------
  // The codec's reference

  /** What a line must decode to: a message (its parts as reference values), or an error. */
  private record Expected(
      Class<? extends Message> kind,
      int code,
      Value id,
      String method,
      Value params,
      Value result,
      Value error,
      Value raw) {
    static Expected error(int code, Value id) {
      return new Expected(null, code, id, null, null, null, null, null);
    }
  }

  /** Both codecs on one line, each against the reference. */
  static void checkLine(byte[] line, int length) {
    Value strict;
    Value loose = null;
    try {
      strict = ReferenceJson.parse(line, length);
      loose = strict;
    } catch (NotJson e) {
      strict = null;
      if (e.bound) {
        try {
          loose = ReferenceJson.parse(line, length, false);
        } catch (NotJson stillNot) {
          loose = null;
        }
      }
    }
    for (Codec codec : new Codec[] {SERVER, CLIENT}) {
      String raw = codec == SERVER ? ARGUMENTS : null;
      Expected expected = loose == null ? Expected.error(ErrorCodes.PARSE_ERROR, null) : null;
      if (expected == null) {
        expected = expect(loose, raw);
      }
      // A string over 1 MiB that the codec skips without keeping it need not be measured; one it
      // keeps must be refused (checked on the decoded message below).
      boolean mayRefuseForBound = strict == null && loose != null;
      check(codec, line, length, expected, mayRefuseForBound);
    }
  }

  private static void check(
      Codec codec, byte[] line, int length, Expected expected, boolean mayRefuseForBound) {
    byte[] before = Arrays.copyOf(line, length);
    Message message;
    try {
      message = codec.decode(line, length);
    } catch (Codec.Malformed e) {
      assertThat(Arrays.copyOf(line, length)).as("decode changed the line").isEqualTo(before);
      checkError(e);
      if (mayRefuseForBound && e.error().code() == ErrorCodes.PARSE_ERROR) {
        return;
      }
      assertThat(expected.kind)
          .as("refused (%s), but the reference reads %s", e.error(), printable(line, length))
          .isNull();
      assertThat(e.error().code())
          .as("%s for %s", e.error(), printable(line, length))
          .isEqualTo(expected.code);
      if (expected.id == null) {
        assertThat(e.id()).as("the error's id for %s", printable(line, length)).isNull();
      } else {
        assertThat(e.id()).as("the error's id for %s", printable(line, length)).isNotNull();
        assertSameJson(expected.id, e.id().value());
      }
      return;
    }
    assertThat(Arrays.copyOf(line, length)).as("decode changed the line").isEqualTo(before);
    assertThat(expected.kind)
        .as("decoded %s, but the reference expects %s", message, expected)
        .isEqualTo(message.getClass());
    assertBounded(message);
    if (message instanceof Request request) {
      assertSameJson(expected.id, request.id().value());
      assertThat(request.method()).isEqualTo(expected.method);
      assertSameParams(expected.params, request.params(), codec == SERVER);
      assertRaw(expected.raw, request.raw(), line);
    } else if (message instanceof Notification notification) {
      assertThat(notification.method()).isEqualTo(expected.method);
      assertSameParams(expected.params, notification.params(), codec == SERVER);
    } else if (message instanceof Success success) {
      assertSameJson(expected.id, success.id().value());
      assertSameJson(expected.result, success.result());
    } else {
      Failure failure = (Failure) message;
      if (expected.id == null) {
        assertThat(failure.id()).isNull();
      } else {
        assertSameJson(expected.id, failure.id().value());
      }
      Obj error = (Obj) expected.error;
      assertThat(failure.error().code())
          .isEqualTo(new BigInteger(((Num) error.get("code")).text()).intValueExact());
      assertThat(failure.error().message()).isEqualTo(((Str) error.get("message")).text());
      Value data = error.get("data");
      if (data == null) {
        assertThat(failure.error().data()).isNull();
      } else {
        assertSameJson(data, failure.error().data());
      }
    }
    roundTrip(codec, message);
  }

  /**
   * The error reply a malformed line gets: a JSON-RPC code of the two docs/protocol.md names, a
   * message that says which in words and names no Java class, short, and written as one line that
   * reads back as the same error.
   */
  private static void checkError(Codec.Malformed e) {
    ErrorObject error = e.error();
    String text = error.message();
    if (error.code() == ErrorCodes.PARSE_ERROR) {
      assertThat(text).startsWith("Parse error: ");
    } else {
      assertThat(error.code()).isEqualTo(ErrorCodes.INVALID_REQUEST);
      assertThat(text).startsWith("Invalid Request: ");
    }
    assertThat(text.length()).as("error message length").isLessThanOrEqualTo(1024);
    assertThat(text)
        .doesNotContain("Exception", "java.", "tools.jackson", "`", "notesmcp")
        .doesNotContainPattern("[a-z]+\\.[a-z]+\\.[A-Z][A-Za-z]+");
    assertThat(e.getMessage()).isEqualTo(text);
    Failure reply = new Failure(e.id(), error);
    for (Codec codec : new Codec[] {SERVER, CLIENT}) {
      roundTrip(codec, reply);
    }
  }

  /**
   * The message a well-formed line must give: JSON-RPC 2.0's request, notification and response
   * objects, MCP's ids (a string or an integer, never null), duplicate keys refused wherever the
   * codec builds a tree (but kept inside raw arguments), numbers that no Java number holds refused
   * as parse errors where a tree would hold them.
   */
  static Expected expect(Value root, String rawMember) {
    if (!(root instanceof Obj envelope)) {
      return Expected.error(ErrorCodes.INVALID_REQUEST, null);
    }
    boolean duplicate = false;
    Set<String> names = new HashSet<>();
    for (Member member : envelope.members()) {
      duplicate |= !names.add(member.name());
      switch (member.name()) {
        case "params" -> {
          if (!unreadableNumber(member.value(), rawMember).isEmpty()) {
            return Expected.error(ErrorCodes.PARSE_ERROR, null);
          }
          duplicate |= hasDuplicate(member.value(), rawMember);
        }
        case "jsonrpc", "id", "method", "result", "error" -> {
          if (!unreadableNumber(member.value(), null).isEmpty()) {
            return Expected.error(ErrorCodes.PARSE_ERROR, null);
          }
          duplicate |= hasDuplicate(member.value(), null);
        }
        default -> {} // skipped unread: nothing is merged, so nothing to refuse
      }
    }
    // "If there was an error in detecting the id in the Request object (e.g. Parse error/Invalid
    // Request), it MUST be Null" (JSON-RPC 2.0, 5): two different ids leave it undetected.
    List<Value> ids = envelope.all("id");
    Value id = ids.isEmpty() || !isId(ids.get(0)) ? null : ids.get(0);
    for (Value other : ids) {
      if (id != null && !sameId(id, other)) {
        id = null;
      }
    }
    if (duplicate) {
      return Expected.error(ErrorCodes.INVALID_REQUEST, id);
    }
    Value jsonrpc = envelope.get("jsonrpc");
    if (!(jsonrpc instanceof Str version) || !version.text().equals("2.0")) {
      return Expected.error(ErrorCodes.INVALID_REQUEST, id);
    }
    Value method = envelope.get("method");
    Value result = envelope.get("result");
    Value error = envelope.get("error");
    if (method != null) {
      if (!(method instanceof Str name) || result != null || error != null) {
        return Expected.error(ErrorCodes.INVALID_REQUEST, id);
      }
      Value params = envelope.get("params");
      if (ids.isEmpty()) {
        return new Expected(Notification.class, 0, null, name.text(), params, null, null, null);
      }
      if (id == null) {
        return Expected.error(ErrorCodes.INVALID_REQUEST, null);
      }
      Value raw = rawMember != null && params instanceof Obj object ? object.get(rawMember) : null;
      return new Expected(Request.class, 0, id, name.text(), params, null, null, raw);
    }
    if (result != null && error == null && id != null) {
      return new Expected(Success.class, 0, id, null, null, result, null, null);
    }
    if (error != null && result == null) {
      if (error instanceof Obj object
          && object.get("code") instanceof Num code
          && code.integral()
          && fitsInt(code.text())
          && object.get("message") instanceof Str) {
        return new Expected(Failure.class, 0, id, null, null, null, error, null);
      }
    }
    return Expected.error(ErrorCodes.INVALID_REQUEST, id);
  }

  private static boolean isId(Value value) {
    return value instanceof Str || (value instanceof Num number && number.integral());
  }

  /** Two ids are the same: both strings with the same text, or both integers of one value. */
  private static boolean sameId(Value a, Value b) {
    if (a instanceof Str one && b instanceof Str other) {
      return one.text().equals(other.text());
    }
    return a instanceof Num one
        && b instanceof Num other
        && one.integral()
        && other.integral()
        && new BigInteger(one.text()).equals(new BigInteger(other.text()));
  }

  private static boolean fitsInt(String integer) {
    BigInteger value = new BigInteger(integer);
    return value.bitLength() < 32;
  }

  /**
   * The numbers in {@code value} that no Java number holds (a {@link BigDecimal} whose exponent
   * overflows), skipping the raw member's object when {@code rawMember} names one.
   */
  private static List<String> unreadableNumber(Value value, String rawMember) {
    List<String> found = new ArrayList<>();
    walk(
        value,
        rawMember,
        v -> {
          if (v instanceof Num number && !number.integral()) {
            try {
              new BigDecimal(number.text());
            } catch (NumberFormatException | ArithmeticException e) {
              found.add(number.text());
            }
          }
          return false;
        });
    return found;
  }

  /**
   * Whether an object in {@code value} repeats a name (the raw member's object not looked into).
   */
  private static boolean hasDuplicate(Value value, String rawMember) {
    boolean[] found = {false};
    walk(
        value,
        rawMember,
        v -> {
          if (v instanceof Obj object) {
            Set<String> names = new HashSet<>();
            for (Member member : object.members()) {
              found[0] |= !names.add(member.name());
            }
          }
          return false;
        });
    return found[0];
  }

  private interface Visit {
    boolean at(Value value);
  }

  /**
   * Visits {@code value} and everything in it; with {@code rawMember}, a params object's member of
   * that name is not looked into when it is an object (the codec keeps its text, unread).
   */
  private static void walk(Value value, String rawMember, Visit visit) {
    visit.at(value);
    if (value instanceof Obj object) {
      for (Member member : object.members()) {
        if (rawMember != null && member.name().equals(rawMember) && member.value() instanceof Obj) {
          continue;
        }
        walk(member.value(), null, visit);
      }
    } else if (value instanceof Arr array) {
      for (Value item : array.items()) {
        walk(item, null, visit);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Comparing

  private static void assertSameParams(Value expected, JsonNode params, boolean rawKept) {
    if (expected == null) {
      assertThat(params).isNull();
      return;
    }
    if (rawKept && expected instanceof Obj object) {
      // The raw member travels beside the tree (RawMember), never inside it.
      List<Member> rest = new ArrayList<>();
      for (Member member : object.members()) {
        if (!member.name().equals(ARGUMENTS)) {
          rest.add(member);
        }
      }
      expected = new Obj(rest, object.start(), object.end());
    }
    assertSameJson(expected, params);
  }

  private static void assertRaw(Value expected, RawMember raw, byte[] line) {
    if (expected == null) {
      assertThat(raw).isSameAs(RawMember.ABSENT);
    } else if (expected instanceof Obj) {
      assertThat(raw).isInstanceOf(RawMember.ObjectText.class);
      byte[] text = ((RawMember.ObjectText) raw).text().getBytes(StandardCharsets.UTF_8);
      assertThat(text)
          .as("the raw arguments are the bytes of the member as received")
          .isEqualTo(Arrays.copyOfRange(line, expected.start(), expected.end()));
    } else {
      assertThat(raw).isEqualTo(new RawMember.NotAnObject(ReferenceJson.type(expected)));
    }
  }

  /** A reference value and a Jackson tree hold the same JSON value (numbers by value and kind). */
  static void assertSameJson(Value expected, JsonNode node) {
    assertThat(node).as("a value for %s", expected).isNotNull();
    if (expected instanceof Obj object) {
      assertThat(node.isObject()).as("an object: %s", node).isTrue();
      assertThat(node.size()).isEqualTo(object.members().size());
      for (Member member : object.members()) {
        assertSameJson(member.value(), node.get(member.name()));
      }
    } else if (expected instanceof Arr array) {
      assertThat(node.isArray()).as("an array: %s", node).isTrue();
      assertThat(node.size()).isEqualTo(array.items().size());
      for (int i = 0; i < array.items().size(); i++) {
        assertSameJson(array.items().get(i), node.get(i));
      }
    } else if (expected instanceof Str string) {
      assertThat(node.isString()).as("a string: %s", node).isTrue();
      assertThat(node.stringValue()).isEqualTo(string.text());
    } else if (expected instanceof Num number) {
      assertThat(node.isNumber()).as("a number: %s", node).isTrue();
      assertThat(node.isIntegralNumber())
          .as("integral: %s", number.text())
          .isEqualTo(number.integral());
      assertThat(node.decimalValue()).isEqualByComparingTo(new BigDecimal(number.text()));
    } else if (expected instanceof Bool bool) {
      assertThat(node.isBoolean() && node.booleanValue() == bool.value()).isTrue();
    } else {
      assertThat(node.isNull()).as("null: %s", node).isTrue();
    }
  }

  /** Two trees hold the same JSON value. */
  private static void assertSameNode(JsonNode actual, JsonNode expected) {
    if (expected == null) {
      assertThat(actual).isNull();
      return;
    }
    assertThat(actual).as("a value for %s", expected).isNotNull();
    assertThat(actual.getNodeType()).isEqualTo(expected.getNodeType());
    if (expected.isObject()) {
      assertThat(actual.size())
          .as("%s read back as %s", expected, actual)
          .isEqualTo(expected.size());
      for (Map.Entry<String, JsonNode> member : expected.properties()) {
        assertSameNode(actual.get(member.getKey()), member.getValue());
      }
    } else if (expected.isArray()) {
      assertThat(actual.size()).isEqualTo(expected.size());
      for (int i = 0; i < expected.size(); i++) {
        assertSameNode(actual.get(i), expected.get(i));
      }
    } else if (expected.isNumber()) {
      // JSON has one kind of number. An integer reads back as an integer; a decimal whose value
      // is whole may too: a BigDecimal of scale 0 is written without a fraction (found by fuzzing,
      // crash-decimal-of-scale-0-reads-back-as-an-integer: the same value, not a defect).
      if (expected.isIntegralNumber()) {
        assertThat(actual.isIntegralNumber()).as("%s read back as %s", expected, actual).isTrue();
      }
      assertThat(actual.decimalValue()).isEqualByComparingTo(expected.decimalValue());
    } else {
      assertThat(actual).isEqualTo(expected);
    }
  }

  private static void assertSameId(Id actual, Id expected) {
    if (expected == null) {
      assertThat(actual).isNull();
    } else {
      assertThat(actual).isNotNull();
      assertSameNode(actual.value(), expected.value());
    }
  }

  /**
   * {@code message} as the server's codec reads it: that codec keeps {@code arguments} apart from
   * params in every message, and a notification has no place for it, so a notification's params
   * read back without it (found by fuzzing, crash-notification-arguments-not-kept; no MCP
   * notification has that member, and the server acts only on notifications/cancelled).
   */
  private static Message withoutKeptMember(Message message) {
    if (message instanceof Notification notification
        && notification.params() instanceof ObjectNode params
        && params.has(ARGUMENTS)) {
      ObjectNode kept = params.deepCopy();
      kept.remove(ARGUMENTS);
      return new Notification(notification.method(), kept);
    }
    return message;
  }

  private static void assertSame(Message actual, Message expected) {
    assertThat(actual).hasSameClassAs(expected);
    if (expected instanceof Request request) {
      Request read = (Request) actual;
      assertSameId(read.id(), request.id());
      assertThat(read.method()).isEqualTo(request.method());
      assertSameNode(read.params(), request.params());
      assertThat(read.raw()).isEqualTo(request.raw());
    } else if (expected instanceof Notification notification) {
      Notification read = (Notification) actual;
      assertThat(read.method()).isEqualTo(notification.method());
      assertSameNode(read.params(), notification.params());
    } else if (expected instanceof Success success) {
      Success read = (Success) actual;
      assertSameId(read.id(), success.id());
      assertSameNode(read.result(), success.result());
    } else {
      Failure failure = (Failure) expected;
      Failure read = (Failure) actual;
      assertSameId(read.id(), failure.id());
      assertThat(read.error().code()).isEqualTo(failure.error().code());
      assertThat(read.error().message()).isEqualTo(failure.error().message());
      assertSameNode(read.error().data(), failure.error().data());
    }
  }

  /** Written by {@code codec}, one line that both codecs read back as the same message. */
  private static void roundTrip(Codec codec, Message message) {
    if (message instanceof Request request && request.raw() instanceof RawMember.NotAnObject) {
      return; // the codec holds only the type of such arguments: nothing to write back
    }
    byte[] line = codec.encode(message);
    for (byte b : line) {
      assertThat(b).as("a line break in a written line").isNotIn((byte) '\n', (byte) '\r');
    }
    try {
      assertSame(codec.decode(line, line.length), message);
    } catch (Codec.Malformed e) {
      fail("we wrote %s and read it back as %s", printable(line), e.error());
    }
  }

  /**
   * No decoded string over 1 MiB, no nesting over 64 (docs/behaviour.md, "Limits"), whatever the
   * line.
   */
  private static void assertBounded(Message message) {
    List<JsonNode> parts = new ArrayList<>();
    if (message instanceof Request request) {
      parts.add(request.id().value());
      parts.add(NODES.stringNode(request.method()));
      parts.add(request.params());
    } else if (message instanceof Notification notification) {
      parts.add(NODES.stringNode(notification.method()));
      parts.add(notification.params());
    } else if (message instanceof Success success) {
      parts.add(success.result());
    } else {
      parts.add(NODES.stringNode(((Failure) message).error().message()));
      parts.add(((Failure) message).error().data());
    }
    for (JsonNode part : parts) {
      if (part != null) {
        assertBounded(part, 2);
      }
    }
  }

  private static void assertBounded(JsonNode node, int depth) {
    if (node.isString()) {
      assertThat(node.stringValue().length()).isLessThanOrEqualTo(ReferenceJson.MAX_STRING);
    } else if (node.isContainer()) {
      assertThat(depth).isLessThanOrEqualTo(ReferenceJson.MAX_DEPTH);
      Iterator<Map.Entry<String, JsonNode>> members = node.properties().iterator();
      while (members.hasNext()) {
        Map.Entry<String, JsonNode> member = members.next();
        assertThat(member.getKey().length()).isLessThanOrEqualTo(ReferenceJson.MAX_STRING);
        assertBounded(member.getValue(), depth + 1);
      }
      if (node.isArray()) {
        for (JsonNode item : node) {
          assertBounded(item, depth + 1);
        }
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Generating

  private static String nested(int depth, boolean arrays) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < depth; i++) {
      out.append(arrays ? "[" : "{\"k\":");
    }
    out.append('0');
    for (int i = 0; i < depth; i++) {
      out.append(arrays ? ']' : '}');
    }
    return out.toString();
  }

  /** Around 100 digits, split between integer, fraction and exponent. */
  private static String number(FuzzedDataProvider data) {
    int digits = data.consumeInt(95, 105);
    int fraction = data.consumeBoolean() ? data.consumeInt(1, digits - 1) : 0;
    int exponent =
        data.consumeBoolean() ? data.consumeInt(1, Math.max(1, digits - fraction - 1)) : 0;
    int integer = Math.max(1, digits - fraction - exponent);
    StringBuilder out = new StringBuilder();
    if (data.consumeBoolean()) {
      out.append('-');
    }
    out.append('1').append("0".repeat(integer - 1));
    if (fraction > 0) {
      out.append('.').append("5".repeat(fraction));
    }
    if (exponent > 0) {
      out.append(data.consumeBoolean() ? "e-" : "E+").append("1".repeat(exponent));
    }
    return out.toString();
  }

  /** A string literal of about 1 MiB of UTF-16 code units, spelled one of several ways. */
  private static String longString(FuzzedDataProvider data) {
    int units = ReferenceJson.MAX_STRING + data.consumeInt(-4, 4);
    String[] spellings = {"a", "\u00e9", "\u20ac", "\ud83d\ude00", "\\u0041", "\\n", "\\ud800"};
    String spelling = spellings[data.consumeInt(0, spellings.length - 1)];
    int unitsEach = spelling.startsWith("\\") ? 1 : spelling.length();
    StringBuilder out = new StringBuilder(units * spelling.length() + 2).append('"');
    int count = units / unitsEach;
    out.append(spelling.repeat(count));
    out.append("b".repeat(units - count * unitsEach));
    return out.append('"').toString();
  }

  /** Text of any UTF-16 code units, unpaired surrogates included. */
  private static String text(FuzzedDataProvider data, int most) {
    String text = data.consumeString(most);
    if (data.consumeBoolean()) {
      StringBuilder out = new StringBuilder(text);
      out.insert(data.consumeInt(0, out.length()), data.consumeChar());
      return out.toString();
    }
    return text;
  }

  private static JsonNode tree(FuzzedDataProvider data, int depth) {
    switch (depth > 4 ? data.consumeInt(2, 7) : data.consumeInt(0, 7)) {
      case 0:
        return object(data, depth);
      case 1:
        ArrayNode array = NODES.arrayNode();
        for (int i = data.consumeInt(0, 4); i > 0; i--) {
          array.add(tree(data, depth + 1));
        }
        return array;
      case 2:
        return NODES.stringNode(text(data, 30));
      case 3:
        return NODES.numberNode(data.consumeLong());
      case 4:
        byte[] magnitude = data.consumeBytes(20);
        return NODES.numberNode(magnitude.length == 0 ? BigInteger.ONE : new BigInteger(magnitude));
      case 5:
        return NODES.numberNode(
            new BigDecimal(BigInteger.valueOf(data.consumeLong()), data.consumeInt(-400, 400)));
      case 6:
        return NODES.booleanNode(data.consumeBoolean());
      default:
        return NODES.nullNode();
    }
  }

  private static ObjectNode object(FuzzedDataProvider data) {
    return object(data, 0);
  }

  private static ObjectNode object(FuzzedDataProvider data, int depth) {
    ObjectNode object = NODES.objectNode();
    for (int i = data.consumeInt(0, 4); i > 0; i--) {
      object.set(name(data), tree(data, depth + 1));
    }
    return object;
  }

  /**
   * A member name: any text but an unpaired surrogate, which RFC 8259 leaves unpredictable (§8.2)
   * and Jackson refuses in names. Every name we write is our own (tools, _meta, result members).
   */
  private static String name(FuzzedDataProvider data) {
    String text = data.consumeString(12);
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean pair =
          Character.isHighSurrogate(c)
              && i + 1 < text.length()
              && Character.isLowSurrogate(text.charAt(i + 1));
      if (pair) {
        out.append(c).append(text.charAt(++i));
      } else {
        out.append(Character.isSurrogate(c) ? '\ufffd' : c);
      }
    }
    return out.toString();
  }

  /** A JSON object's text as a person may write it: any spacing, duplicate names, escapes. */
  private static String rawObject(FuzzedDataProvider data) {
    StringBuilder out = new StringBuilder("{");
    int members = data.consumeInt(0, 4);
    for (int i = 0; i < members; i++) {
      if (i > 0) {
        out.append(',');
      }
      out.append(data.consumeBoolean() ? " " : "");
      String name = data.consumeBoolean() ? "path" : name(data);
      out.append(quoted(name, data.consumeBoolean())).append(':');
      out.append(data.consumeBoolean() ? "\t" : "");
      JsonNode value = tree(data, 2);
      out.append(
          value.isString() ? quoted(value.stringValue(), data.consumeBoolean()) : value.toString());
    }
    return out.append('}').toString();
  }

  /**
   * A JSON string literal: controls escaped, the rest raw or, with {@code escapeAll}, as escapes.
   */
  private static String quoted(String text, boolean escapeAll) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20 || escapeAll || Character.isSurrogate(c)) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }

  private static String printable(byte[] line) {
    return printable(line, line.length);
  }

  private static String printable(byte[] line, int length) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < Math.min(length, 300); i++) {
      int b = line[i] & 0xff;
      out.append(
          b >= 0x20 && b < 0x7f && b != '\\'
              ? String.valueOf((char) b)
              : String.format("\\x%02x", b));
    }
    return out.append(length > 300 ? "... (" + length + " bytes)" : "").toString();
  }
}

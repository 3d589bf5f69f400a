package notesmcp.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import notesmcp.jsonrpc.Message.ErrorObject;
import notesmcp.jsonrpc.Message.Failure;
import notesmcp.jsonrpc.Message.Id;
import notesmcp.jsonrpc.Message.Notification;
import notesmcp.jsonrpc.Message.RawMember;
import notesmcp.jsonrpc.Message.Request;
import notesmcp.jsonrpc.Message.Success;
import notesmcp.text.JsonInput.JsonString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.util.RawValue;

class CodecTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final Codec codec = new Codec("arguments");

  private Message decode(String line) throws Codec.Malformed {
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    return codec.decode(bytes, bytes.length);
  }

  private Failure malformed(String line) {
    try {
      Message message = decode(line);
      throw new AssertionError("decoded " + message);
    } catch (Codec.Malformed e) {
      assertThat(e.getMessage()).isEqualTo(e.error().message());
      return new Failure(e.id(), e.error());
    }
  }

  private static String text(byte[] line) {
    return new String(line, StandardCharsets.UTF_8);
  }

  // --- decoding the four kinds ---

  @Test
  void requestIsDecoded() throws Exception {
    Message message =
        decode("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":{}}");

    assertThat(message).isEqualTo(new Request(Id.of(7), "tools/list", NODES.objectNode()));
  }

  @Test
  void requestWithAStringIdAndNoParamsIsDecoded() throws Exception {
    Message message = decode("{\"method\":\"ping\",\"id\":\"abc\",\"jsonrpc\":\"2.0\"}");

    assertThat(message).isEqualTo(new Request(Id.of("abc"), "ping", null));
  }

  @Test
  void notificationIsARequestWithoutId() throws Exception {
    Message message =
        decode(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
                + "\"params\":{\"requestId\":3,\"reason\":\"slow\"}}");

    assertThat(message).isInstanceOf(Notification.class);
    Notification notification = (Notification) message;
    assertThat(notification.method()).isEqualTo("notifications/cancelled");
    assertThat(notification.params().get("requestId").longValue()).isEqualTo(3);
    assertThat(notification.params().get("reason").stringValue()).isEqualTo("slow");
  }

  @Test
  void successIsDecoded() throws Exception {
    Message message = decode("{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"result\":{\"a\":[1,true]}}");

    assertThat(message).isInstanceOf(Success.class);
    assertThat(((Success) message).id()).isEqualTo(Id.of("x"));
    assertThat(((Success) message).result()).hasToString("{\"a\":[1,true]}");
  }

  @Test
  void failureIsDecodedWithItsData() throws Exception {
    Message message =
        decode(
            "{\"jsonrpc\":\"2.0\",\"id\":4,\"error\":{\"code\":-32022,\"message\":\"no\","
                + "\"data\":{\"supported\":[\"2026-07-28\"]}}}");

    assertThat(message)
        .isEqualTo(
            new Failure(
                Id.of(4),
                new ErrorObject(-32022, "no", JSON.readTree("{\"supported\":[\"2026-07-28\"]}"))));
  }

  @Test
  void failureWithANullIdIsDecodedWithoutId() throws Exception {
    Message message =
        decode("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"bad\"}}");

    assertThat(message).isEqualTo(new Failure(null, new ErrorObject(-32700, "bad")));
  }

  @Test
  void failureWithoutAnIntegerCodeIsInvalid() {
    Failure failure =
        malformed("{\"jsonrpc\":\"2.0\",\"id\":4,\"error\":{\"code\":\"x\",\"message\":\"m\"}}");

    assertThat(failure)
        .isEqualTo(
            new Failure(
                Id.of(4),
                new ErrorObject(
                    -32600,
                    "Invalid Request: an error needs an integer \"code\" and a string"
                        + " \"message\"")));
  }

  @Test
  void unknownEnvelopeMembersAreIgnored() throws Exception {
    Message message = decode("{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1,\"x\":[{}]}");

    assertThat(message).isEqualTo(new Request(Id.of(1), "ping", null));
  }

  // --- raw params ---

  @Test
  void rawArgumentsAreKeptByteExactWithDuplicatesWhitespaceAndEscapes() throws Exception {
    String arguments = "{ \"path\" : \"a\\u0041\\n\",\n\t\"path\":\"b\" ,\"n\":[1 , {}] }";
    Request request =
        (Request)
            decode(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                    + "{\"name\":\"read_note\",\"arguments\":"
                    + arguments
                    + "}}");

    assertThat(request.raw()).isEqualTo(new RawMember.ObjectText(arguments));
    assertThat(request.params().has("arguments")).isFalse();
    assertThat(request.params().get("name").stringValue()).isEqualTo("read_note");
  }

  @Test
  void rawArgumentsAreExactWhenMultiByteCharactersPrecedeAndFillThem() throws Exception {
    String arguments = "{\"content\":\"\u20ac \u00e9 \ud83d\ude00\",\"path\":\"\u0434\"}";
    Request request =
        (Request)
            decode(
                "{\"jsonrpc\":\"2.0\",\"id\":\"\u00e9\u00e9\u20ac\ud83d\ude00\",\"method\":"
                    + "\"tools/call\",\"params\":{\"name\":\"\u65e5\u672c\",\"arguments\":"
                    + arguments
                    + ",\"after\":\"\u00fc\"}}");

    assertThat(request.raw()).isEqualTo(new RawMember.ObjectText(arguments));
    assertThat(request.params().has("arguments")).isFalse();
    assertThat(request.params().get("after").stringValue()).isEqualTo("\u00fc");
    assertThat(request.id()).isEqualTo(Id.of("\u00e9\u00e9\u20ac\ud83d\ude00"));
  }

  @Test
  void rawArgumentsAreExactWhenTheLineDoesNotStartAtTheBuffersStart() throws Exception {
    String arguments = "{\"a\":\"\u20ac\"}";
    byte[] line =
        ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"arguments\":"
                + arguments
                + "}}")
            .getBytes(StandardCharsets.UTF_8);
    byte[] buffer = new byte[line.length + 100];
    System.arraycopy(line, 0, buffer, 0, line.length);
    buffer[line.length] = 'x'; // bytes past length are not part of the line

    Request request = (Request) codec.decode(buffer, line.length);

    assertThat(request.raw()).isEqualTo(new RawMember.ObjectText(arguments));
    assertThat(request.params().has("arguments")).isFalse();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "[1,2]        | array",
        "\"{}\"     | string",
        "-1.5e3       | number",
        "false        | boolean",
        "null         | null",
        "[{\"a\":1}] | array"
      })
  void argumentsThatAreNotAnObjectArePresentWithTheirJsonType(String value, String type)
      throws Exception {
    Request request =
        (Request)
            decode(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                    + "\"params\":{\"name\":\"x\",\"arguments\":"
                    + value
                    + "}}");

    assertThat(request.raw()).isEqualTo(new RawMember.NotAnObject(type));
    assertThat(request.params().has("arguments")).isFalse();
  }

  @Test
  void omittedArgumentsAreAbsent() throws Exception {
    Request withParams =
        (Request)
            decode(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                    + "\"params\":{\"name\":\"x\"}}");
    Request withoutParams =
        (Request) decode("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}");
    Request paramsNotAnObject =
        (Request)
            decode(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":[{\"arguments\":{}}]}");

    assertThat(withParams.raw()).isSameAs(RawMember.ABSENT);
    assertThat(withoutParams.raw()).isSameAs(RawMember.ABSENT);
    assertThat(paramsNotAnObject.raw()).isSameAs(RawMember.ABSENT);
  }

  @Test
  void aDuplicateKeyInsideArgumentsThatAreNotAnObjectIsAnInvalidRequest() {
    assertThat(
            malformed(
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\","
                        + "\"params\":{\"arguments\":[{\"k\":1,\"k\":2}]}}")
                .error()
                .message())
        .isEqualTo("Invalid Request: duplicate key \"k\"");
  }

  @Test
  void onlyTheNamedParamsMemberIsKeptRaw() throws Exception {
    Request request =
        (Request)
            decode(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\","
                    + "\"params\":{\"other\":{ \"a\" : 1 }}}");

    assertThat(request.raw()).isSameAs(RawMember.ABSENT);
    assertThat(request.params().get("other").toString()).isEqualTo("{\"a\":1}");
  }

  @Test
  void rawArgumentsAreWrittenBackAsReceived() throws Exception {
    String arguments = "{ \"k\" : \"\u20ac\", \"k\" : 2 }";
    String line =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"arguments\":"
            + arguments
            + "}}";

    assertThat(text(codec.encode(decode(line)))).isEqualTo(line);
  }

  // --- invalid requests ---

  @Test
  void duplicateEnvelopeKeyIsAnInvalidRequestKeepingTheId() {
    assertThat(malformed("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"a\",\"method\":\"b\"}"))
        .isEqualTo(
            new Failure(
                Id.of(5), new ErrorObject(-32600, "Invalid Request: duplicate key \"method\"")));
  }

  @Test
  void duplicateUnknownEnvelopeKeyIsAnInvalidRequest() {
    assertThat(malformed("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"a\",\"x\":1,\"y\":2,\"x\":3}"))
        .isEqualTo(
            new Failure(Id.of(5), new ErrorObject(-32600, "Invalid Request: duplicate key \"x\"")));
  }

  @Test
  void aKnownEnvelopeKeyRepeatedAfterANullIsADuplicate() {
    // null and 7 are two different ids: the error names neither (see the test below).
    assertThat(malformed("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"a\",\"id\":7}"))
        .isEqualTo(
            new Failure(null, new ErrorObject(-32600, "Invalid Request: duplicate key \"id\"")));
  }

  @Test
  void duplicateParamsKeyIsAnInvalidRequest() {
    assertThat(
            malformed(
                "{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"method\":\"m\","
                    + "\"params\":{\"name\":\"a\",\"name\":\"b\"}}"))
        .isEqualTo(
            new Failure(
                Id.of("q"), new ErrorObject(-32600, "Invalid Request: duplicate key \"name\"")));
  }

  @Test
  void duplicateRawArgumentsMemberIsAnInvalidRequest() {
    assertThat(
            malformed(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\","
                    + "\"params\":{\"arguments\":{},\"arguments\":{}}}"))
        .isEqualTo(
            new Failure(
                Id.of(1), new ErrorObject(-32600, "Invalid Request: duplicate key \"arguments\"")));
  }

  @Test
  void duplicateKeyDeepInsideParamsIsAnInvalidRequest() {
    assertThat(
            malformed(
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\","
                        + "\"params\":{\"_meta\":{\"x\":[{\"k\":1,\"k\":2}]}}}")
                .error()
                .message())
        .isEqualTo("Invalid Request: duplicate key \"k\"");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"id\":9,\"method\":\"ping\"}",
        "{\"jsonrpc\":\"1.0\",\"id\":9,\"method\":\"ping\"}",
        "{\"jsonrpc\":2.0,\"id\":9,\"method\":\"ping\"}",
        "{\"jsonrpc\":null,\"id\":9,\"method\":\"ping\"}",
      })
  void wrongJsonrpcVersionIsAnInvalidRequestKeepingTheId(String line) {
    assertThat(malformed(line))
        .isEqualTo(
            new Failure(
                Id.of(9), new ErrorObject(-32600, "Invalid Request: \"jsonrpc\" must be \"2.0\"")));
  }

  @ParameterizedTest
  @ValueSource(strings = {"null", "1.5", "{}", "[1]", "true", "1e3"})
  void requestIdThatIsNotAStringOrIntegerIsAnInvalidRequestWithoutId(String id) {
    assertThat(malformed("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}"))
        .isEqualTo(
            new Failure(
                null,
                new ErrorObject(-32600, "Invalid Request: \"id\" must be a string or an integer")));
  }

  @Test
  void methodThatIsNotAStringIsAnInvalidRequest() {
    assertThat(malformed("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}"))
        .isEqualTo(
            new Failure(
                Id.of(1), new ErrorObject(-32600, "Invalid Request: \"method\" must be a string")));
  }

  @Test
  void requestWithAResultIsAnInvalidRequest() {
    assertThat(malformed("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"result\":{}}"))
        .isEqualTo(
            new Failure(
                Id.of(1),
                new ErrorObject(
                    -32600, "Invalid Request: a request has no \"result\" or \"error\"")));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"jsonrpc\":\"2.0\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":1}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"error\":{\"code\":1,\"message\":\"m\"}}",
        "{\"jsonrpc\":\"2.0\",\"result\":{}}",
      })
  void objectThatIsNeitherRequestNorResponseIsAnInvalidRequest(String line) {
    assertThat(malformed(line).error())
        .isEqualTo(
            new ErrorObject(
                -32600, "Invalid Request: neither a request, a notification nor a response"));
  }

  @Test
  void batchIsAnInvalidRequestWithoutId() {
    assertThat(malformed("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]"))
        .isEqualTo(
            new Failure(
                null,
                new ErrorObject(
                    -32600,
                    "Invalid Request: batches are not supported; send one message per line")));
  }

  @ParameterizedTest
  @ValueSource(strings = {"42", "\"ping\"", "null", "true"})
  void scalarIsAnInvalidRequest(String line) {
    assertThat(malformed(line))
        .isEqualTo(
            new Failure(
                null, new ErrorObject(-32600, "Invalid Request: a message must be a JSON object")));
  }

  // --- parse errors and bounds ---

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"jsonrpc\":\"2.0\",",
        "{jsonrpc:\"2.0\"}",
        "{\"jsonrpc\":'2.0'}",
        "not json",
        "{\"a\":1,}",
        "[1,2",
      })
  void malformedJsonIsAParseError(String line) {
    Failure failure = malformed(line);

    assertThat(failure.id()).isNull();
    assertThat(failure.error().code()).isEqualTo(-32700);
    assertThat(failure.error().message()).startsWith("Parse error: ");
  }

  /**
   * No Java class or method name ever reaches the wire (docs/design.md, "Errors: three outcomes,
   * plus bugs"), not even from Jackson.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "NESTED | Parse error: Document nesting depth (65) exceeds the maximum allowed (64)",
        "NAN | Parse error: Non-standard token 'NaN'",
        "LONG_NUMBER | Parse error: Number value length (101) exceeds the maximum allowed (100)",
      })
  void parseErrorsDescribeTheInputNeverOurCode(String line, String message) {
    String input =
        line.equals("NESTED")
            ? "[".repeat(65)
            : line.equals("NAN") ? "{\"a\":NaN}" : "{\"a\":" + "1".repeat(101) + "}";

    Failure failure = malformed(input);

    assertThat(failure.error().message()).isEqualTo(message).doesNotContain("`", "Constraints");
  }

  /** Valid JSON, but no Java number holds it: Jackson throws a bare NumberFormatException. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"x\":1e-9999999999}}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"arguments\":[1e9999999999]}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1e9999999999,\"method\":\"m\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"x\":-1E+9999999999}}"
      })
  void numbersNoJavaNumberHoldsAreAParseError(String line) {
    assertThat(malformed(line))
        .isEqualTo(
            new Failure(
                null,
                new ErrorObject(-32700, "Parse error: a number too large or too small to read")));
  }

  /**
   * Messages are UTF-8 (RFC 8259 §8.1: "JSON text exchanged between systems that are not part of a
   * closed ecosystem MUST be encoded using UTF-8"). Jackson guesses UTF-16 or UTF-32 from a
   * byte-order mark or the zero bytes of the first characters: such a line was read as a message,
   * and one with raw arguments threw StringIndexOutOfBoundsException (its parser has no byte
   * offsets), which the server caught by dropping the line unanswered. Found by LineCodecFuzzTest.
   */
  @ParameterizedTest
  @ValueSource(strings = {"UTF-16BE", "UTF-16LE", "UTF-16", "UTF-32BE", "UTF-32LE"})
  void aLineInUtf16OrUtf32IsAParseError(String encoding) {
    Charset charset = Charset.forName(encoding);
    Failure notUtf8 =
        new Failure(
            null,
            new ErrorObject(
                -32700, "Parse error: the line is not UTF-8 (UTF-16 and UTF-32 are not read)"));
    for (Codec either : new Codec[] {codec, new Codec()}) {
      for (String line :
          new String[] {
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                + "\"params\":{\"arguments\":{\"path\":\"notes.txt\"}}}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
            "1"
          }) {
        byte[] bytes = line.getBytes(charset);
        try {
          Message message = either.decode(bytes, bytes.length);
          throw new AssertionError(encoding + " read as " + message);
        } catch (Codec.Malformed e) {
          assertThat(new Failure(e.id(), e.error())).isEqualTo(notUtf8);
        }
      }
    }
  }

  @Test
  void aUtf8ByteOrderMarkIsIgnoredAndTheRawArgumentsStayExact() throws Exception {
    // RFC 8259 §8.1: a parser "MAY ignore the presence of a byte order mark".
    Request request =
        (Request)
            decode(
                "\ufeff{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                    + "\"params\":{\"arguments\":{\"path\" : \"\u00e9\"}}}");

    assertThat(request.raw()).isEqualTo(new RawMember.ObjectText("{\"path\" : \"\u00e9\"}"));
  }

  /**
   * "If there was an error in detecting the id in the Request object (e.g. Parse error/Invalid
   * Request), it MUST be Null" (JSON-RPC 2.0, 5): two different ids leave it undetected; the last
   * one was used. Found by LineCodecFuzzTest.
   */
  @Test
  void twoDifferentIdsGiveAnInvalidRequestWithoutId() {
    assertThat(malformed("{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"m\"}"))
        .isEqualTo(
            new Failure(null, new ErrorObject(-32600, "Invalid Request: duplicate key \"id\"")));
    assertThat(malformed("{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":\"1\",\"result\":{}}").id())
        .isNull();
  }

  @Test
  void theSameIdTwiceIsAnInvalidRequestThatKeepsIt() {
    assertThat(malformed("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"m\",\"id\":\"a\"}"))
        .isEqualTo(
            new Failure(
                Id.of("a"), new ErrorObject(-32600, "Invalid Request: duplicate key \"id\"")));
  }

  @Test
  void emptyLineIsAParseError() {
    assertThat(malformed(""))
        .isEqualTo(new Failure(null, new ErrorObject(-32700, "Parse error: empty message")));
    assertThat(malformed("   ").error().message()).isEqualTo("Parse error: empty message");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"jsonrpc\":\"2.0\",\"method\":\"ping\"} {}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}",
        "[] []",
        "1 2",
      })
  void twoValuesOnOneLineAreAParseError(String line) {
    assertThat(malformed(line))
        .isEqualTo(
            new Failure(
                null,
                new ErrorObject(-32700, "Parse error: more than one JSON value on the line")));
  }

  /** A request whose params hold {@code depth - 1} nested arrays: {@code depth} levels in all. */
  private static String nested(int depth) {
    int arrays = depth - 1;
    return "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":"
        + "[".repeat(arrays)
        + "]".repeat(arrays)
        + "}";
  }

  @Test
  void nestingOfSixtyFourLevelsIsAccepted() throws Exception {
    assertThat(decode(nested(64))).isInstanceOf(Notification.class);
  }

  @Test
  void nestingOfSixtyFiveLevelsIsAParseError() {
    Failure failure = malformed(nested(65));

    assertThat(failure.id()).isNull();
    assertThat(failure.error().code()).isEqualTo(-32700);
  }

  @Test
  void deeplyNestedRawArgumentsAreBoundedToo() {
    String arguments = "{\"a\":".repeat(70) + "1" + "}".repeat(70);

    assertThat(
            malformed(
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                        + "\"params\":{\"arguments\":"
                        + arguments
                        + "}}")
                .error()
                .code())
        .isEqualTo(-32700);
  }

  @Test
  void numberOfAHundredDigitsIsAccepted() throws Exception {
    String digits = "1".repeat(100);
    Notification notification =
        (Notification)
            decode("{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"n\":" + digits + "}}");

    assertThat(notification.params().get("n").bigIntegerValue()).isEqualTo(new BigInteger(digits));
  }

  @Test
  void numberOfAHundredAndOneDigitsIsAParseError() {
    Failure failure =
        malformed(
            "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"n\":" + "1".repeat(101) + "}}");

    assertThat(failure.id()).isNull();
    assertThat(failure.error().code()).isEqualTo(-32700);
  }

  @Test
  void stringOverOneMebibyteIsAParseError() {
    Failure failure =
        malformed(
            "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"s\":\""
                + "x".repeat(1024 * 1024 + 1)
                + "\"}}");

    assertThat(failure.error().code()).isEqualTo(-32700);
  }

  // --- encoding ---

  @Test
  void aStringGivenEscapedFromItsBytesIsWrittenAsJacksonWouldWriteTheString() {
    String text = "{\"content\":\"caf\u00e9\\n\\\"q\\\"\"}\n\u0001 \ud83d\ude00";
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    ObjectNode escaped = NODES.objectNode();
    escaped.putPOJO("text", JsonString.of(utf8, utf8.length));
    ObjectNode plain = NODES.objectNode().put("text", text);

    byte[] line = codec.encode(new Success(Id.of(1), escaped));

    assertThat(text(line)).isEqualTo(text(codec.encode(new Success(Id.of(1), plain))));
    assertThat(JSON.readTree(line).get("result").get("text").stringValue()).isEqualTo(text);
  }

  @Test
  void encodedMessageIsOneCompactLineEvenWhenStringsHoldLineBreaks() {
    ObjectNode result = NODES.objectNode();
    result.put("text", "one\ntwo\r\nthree\u2028four\u0000");
    result.put("key\nwith break", true);

    byte[] line = codec.encode(new Success(Id.of(1), result));

    assertThat(line).doesNotContain((byte) '\n', (byte) '\r');
    assertThat(text(line))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"text\":\"one\\ntwo\\r\\nthree\u2028four"
                + "\\u0000\",\"key\\nwith break\":true}}");
  }

  @Test
  void errorMessageWithLineBreaksStaysOnOneLine() {
    byte[] line = codec.encode(new Failure(Id.of("a"), new ErrorObject(-32603, "first\nsecond\r")));

    assertThat(line).doesNotContain((byte) '\n', (byte) '\r');
    assertThat(text(line))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"error\":{\"code\":-32603,"
                + "\"message\":\"first\\nsecond\\r\"}}");
  }

  /**
   * A raw value is JSON text, where an unpaired surrogate can only stand inside a string: UTF-8
   * cannot carry it, and writing it failed with "Incomplete surrogate pair" (a JacksonException the
   * client did not expect: an -args with the escape {@code \\ud800} ended the client with exit 4).
   * Found by LineCodecFuzzTest. It is written as its escape, the same JSON value.
   */
  @Test
  void anUnpairedSurrogateInARawValueIsWrittenAsItsEscape() throws Exception {
    ObjectNode params = NODES.objectNode();
    params.putRawValue(
        "arguments", new RawValue("{\"a\":\"x\ud800\",\"b\":[\"\udc00\ud83d\ude00\"]}"));

    byte[] line = new Codec().encode(new Request(Id.of(1), "m", params));

    assertThat(text(line))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"arguments\":"
                + "{\"a\":\"x\\ud800\",\"b\":[\"\\udc00\ud83d\ude00\"]}}}");
    Request read = (Request) codec.decode(line, line.length);
    assertThat(read.raw())
        .isEqualTo(
            new RawMember.ObjectText("{\"a\":\"x\\ud800\",\"b\":[\"\\udc00\ud83d\ude00\"]}"));
  }

  @Test
  void anUnpairedSurrogateInRawArgumentsIsWrittenAsItsEscape() throws Exception {
    Request request =
        new Request(
            Id.of(1), "m", NODES.objectNode(), new RawMember.ObjectText("{\"c\":\"\udfff\"}"));

    byte[] line = codec.encode(request);

    assertThat(((Request) codec.decode(line, line.length)).raw())
        .isEqualTo(new RawMember.ObjectText("{\"c\":\"\\udfff\"}"));
  }

  @Test
  void rawValueWithALineBreakIsNeverWritten() {
    ObjectNode params = NODES.objectNode();
    params.putRawValue("arguments", new RawValue("{\n}"));

    assertThatThrownBy(() -> codec.encode(new Request(Id.of(1), "m", params)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("an encoded message must not contain a line break");
  }

  @Test
  void idsAreEchoedUnchanged() throws Exception {
    List<String> ids =
        List.of(
            "0",
            "-1",
            "9223372036854775807",
            "123456789012345678901234567890",
            "\"\"",
            "\"1\"",
            "\"\u00e9\\u0000\"");
    for (String id : ids) {
      Request request =
          (Request) decode("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"m\"}");

      String reply = text(codec.encode(new Success(request.id(), NODES.objectNode())));

      assertThat(reply).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}");
    }
  }

  @Test
  void stringAndIntegerIdsWithTheSameDigitsDiffer() throws Exception {
    Request number = (Request) decode("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}");
    Request string = (Request) decode("{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"method\":\"m\"}");

    assertThat(number.id()).isNotEqualTo(string.id()).isEqualTo(Id.of(1));
    assertThat(number.id()).hasToString("1");
    assertThat(string.id()).hasToString("\"1\"");
  }

  @Test
  void failureWithoutIdOmitsTheIdMember() {
    byte[] line = codec.encode(new Failure(null, new ErrorObject(-32700, "Parse error: x")));

    assertThat(text(line))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error: x\"}}");
  }

  @Test
  void notificationAndRequestWithoutParamsOmitParams() {
    assertThat(text(codec.encode(new Notification("notifications/initialized", null))))
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    assertThat(text(codec.encode(new Request(Id.of(2), "ping", null))))
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
  }

  @Test
  void everyKindOfMessageSurvivesARoundTrip() throws Exception {
    JsonNode data = JSON.readTree("{\"supported\":[\"2026-07-28\"],\"requested\":\"x\"}");
    List<Message> messages =
        List.of(
            new Request(Id.of(1), "tools/list", JSON.readTree("{\"_meta\":{\"a\":[1,2.5,null]}}")),
            new Request(Id.of("r-1"), "ping", null),
            new Notification("notifications/cancelled", JSON.readTree("{\"requestId\":1}")),
            new Success(Id.of(new BigInteger("99999999999999999999").toString()), data),
            new Success(Id.of(3), JSON.readTree("{\"text\":\"a\\nb \u20ac\"}")),
            new Failure(Id.of(4), new ErrorObject(-32022, "Unsupported", data)),
            new Failure(null, new ErrorObject(-32600, "Invalid Request")));
    for (Message message : messages) {
      byte[] line = codec.encode(message);
      Message decoded = codec.decode(line, line.length);

      assertThat(decoded).hasSameClassAs(message).hasToString(message.toString());
      assertThat(codec.encode(decoded)).isEqualTo(line);
    }
  }

  // --- edges found by mutation testing ---

  /** Only the line's own bytes count: what follows in the reader's buffer is not looked at. */
  @Test
  void bytesBeyondTheLinesLengthAreNotRead() throws Exception {
    byte[] buffer = new byte[16];
    byte[] line = "7".getBytes(StandardCharsets.UTF_8);
    System.arraycopy(line, 0, buffer, 0, line.length);

    assertThatThrownBy(() -> codec.decode(buffer, line.length))
        .isInstanceOfSatisfying(
            Codec.Malformed.class,
            e -> assertThat(e.error().code()).isEqualTo(ErrorCodes.INVALID_REQUEST));
  }

  /** A request's other params members are written before its raw member, which stays as sent. */
  @Test
  void rawArgumentsAreWrittenBesideTheOtherParams() throws Exception {
    ObjectNode params = NODES.objectNode().put("name", "read_note");
    RawMember raw = new RawMember.ObjectText("{\"path\" :\"a\",\"path\":\"b\"}");

    byte[] line = codec.encode(new Request(Id.of(1), "tools/call", params, raw));
    byte[] bare = codec.encode(new Request(Id.of(2), "tools/call", null, raw));

    assertThat(text(line))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"read_note\",\"arguments\":{\"path\" :\"a\",\"path\":\"b\"}}}");
    assertThat(text(bare))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
                + "{\"arguments\":{\"path\" :\"a\",\"path\":\"b\"}}}");
  }

  @Test
  void aRawMemberIsWrittenOnlyByACodecThatKeepsOneIntoObjectParams() {
    RawMember raw = new RawMember.ObjectText("{}");

    assertThatThrownBy(() -> new Codec().encode(new Request(Id.of(1), "m", null, raw)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("this codec keeps no raw member to write");
    assertThatThrownBy(() -> codec.encode(new Request(Id.of(1), "m", NODES.arrayNode(), raw)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("this codec keeps no raw member to write");
  }

  /** A surrogate pair is one character and stays; a high surrogate at the very end is unpaired. */
  @Test
  void surrogatePairsInRawTextStayAndAnUnpairedOneAtTheEndIsEscaped() {
    String pair = "{\"a\":\"\ud83d\ude00\"}";

    assertThat(text(codec.encode(new Request(Id.of(1), "m", null, new RawMember.ObjectText(pair)))))
        .endsWith("\"params\":{\"arguments\":" + pair + "}}");
    assertThat(
            text(
                codec.encode(
                    new Request(Id.of(1), "m", null, new RawMember.ObjectText("{}\ud83d")))))
        .endsWith("\"params\":{\"arguments\":{}\\ud83d}}");
  }

  /**
   * JSON has one kind of number: a decimal whose value is whole is written without a fraction and
   * reads back as the same value (LineCodecFuzzTest,
   * crash-decimal-of-scale-0-reads-back-as-an-integer).
   */
  @Test
  void aWholeDecimalIsWrittenAsItsValue() throws Exception {
    BigDecimal whole = new BigDecimal("-7089373898952746535");

    byte[] line = codec.encode(new Success(Id.of(1), NODES.numberNode(whole)));

    assertThat(text(line))
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":-7089373898952746535}");
    assertThat(((Success) codec.decode(line, line.length)).result().decimalValue())
        .isEqualByComparingTo(whole);
  }

  /**
   * A codec keeps its raw member apart from params in every message; a notification carries no raw
   * member, so that member of a notification's params is not read (LineCodecFuzzTest,
   * crash-notification-arguments-not-kept). No MCP notification has {@code arguments}.
   */
  @Test
  void aNotificationsParamsAreReadWithoutTheKeptMember() throws Exception {
    Notification read =
        (Notification)
            decode(
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\","
                    + "\"params\":{\"arguments\":{\"a\":1},\"b\":2}}");

    assertThat(read.params()).hasToString("{\"b\":2}");
  }
}

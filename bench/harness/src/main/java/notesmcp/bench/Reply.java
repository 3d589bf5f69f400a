package notesmcp.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * The parts of a JSON-RPC reply the harness checks, read in one streaming pass (members may come in
 * any order: the TypeScript SDK writes {@code result} before {@code jsonrpc}).
 *
 * @param id the numeric id, or -1 when absent or not a number
 * @param text {@code result.content[0].text}, if any
 * @param isError {@code result.isError}, or null when absent
 * @param toolNames the names in {@code result.tools}, or null when absent
 * @param error {@code error.code} and {@code error.message} as one string, or null
 */
record Reply(long id, String text, Boolean isError, List<String> toolNames, String error) {
  private static final JsonFactory JSON = new JsonFactory();

  static Reply parse(byte[] line, int length) {
    long id = -1;
    String text = null;
    Boolean isError = null;
    List<String> toolNames = null;
    String error = null;
    try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), line, 0, length)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw notJson(line, length, "not a JSON object");
      }
      String name;
      while ((name = p.nextName()) != null) {
        JsonToken token = p.nextToken();
        if (name.equals("id") && token == JsonToken.VALUE_NUMBER_INT) {
          id = p.getLongValue();
        } else if (name.equals("result") && token == JsonToken.START_OBJECT) {
          String member;
          while ((member = p.nextName()) != null) {
            JsonToken value = p.nextToken();
            if (member.equals("content") && value == JsonToken.START_ARRAY) {
              text = firstText(p);
            } else if (member.equals("isError") && value.isBoolean()) {
              isError = value == JsonToken.VALUE_TRUE;
            } else if (member.equals("tools") && value == JsonToken.START_ARRAY) {
              toolNames = names(p);
            } else {
              p.skipChildren();
            }
          }
        } else if (name.equals("error")) {
          error = token == JsonToken.START_OBJECT ? errorText(p) : "error: " + token;
        } else {
          p.skipChildren();
        }
      }
    } catch (JacksonException e) {
      throw notJson(line, length, e.getOriginalMessage());
    }
    return new Reply(id, text, isError, toolNames, error);
  }

  /** The text of the first content block; the other blocks are skipped. */
  private static String firstText(JsonParser p) {
    String text = null;
    while (p.nextToken() == JsonToken.START_OBJECT) {
      String member;
      while ((member = p.nextName()) != null) {
        p.nextToken();
        if (text == null && member.equals("text") && p.currentToken() == JsonToken.VALUE_STRING) {
          text = p.getString();
        } else {
          p.skipChildren();
        }
      }
    }
    return text;
  }

  private static List<String> names(JsonParser p) {
    List<String> names = new ArrayList<>();
    while (p.nextToken() == JsonToken.START_OBJECT) {
      String member;
      while ((member = p.nextName()) != null) {
        p.nextToken();
        if (member.equals("name") && p.currentToken() == JsonToken.VALUE_STRING) {
          names.add(p.getString());
        } else {
          p.skipChildren();
        }
      }
    }
    return names;
  }

  private static String errorText(JsonParser p) {
    String code = "?";
    String message = "";
    String member;
    while ((member = p.nextName()) != null) {
      p.nextToken();
      if (member.equals("code")) {
        code = p.getText();
      } else if (member.equals("message")) {
        message = p.getText();
      } else {
        p.skipChildren();
      }
    }
    return code + " " + message;
  }

  private static BenchFailure notJson(byte[] line, int length, String why) {
    return new BenchFailure(
        "a reply line is not a JSON-RPC message ("
            + why
            + "): "
            + new String(line, 0, Math.min(length, 300), StandardCharsets.UTF_8));
  }
}

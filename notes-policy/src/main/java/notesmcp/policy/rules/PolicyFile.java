package notesmcp.policy.rules;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import notesmcp.files.FileProblem;
import notesmcp.files.Folder;
import notesmcp.files.OpenedFile;
import notesmcp.files.Posix;
import notesmcp.files.TrustedFile;
import notesmcp.text.JsonInput;
import notesmcp.text.Quote;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;

/**
 * Reads a policy file ({@code -policy FILE}): a JSON object whose optional members override the
 * defaults ({@code docs/behaviour.md}, "Policy files").
 *
 * <pre>{"readable": ["notes.txt", "**&#47;*.md"], "exclude": ["Private/**"],
 *  "proposable": ["Inbox/*.md"], "maxNoteBytes": 65536, "maxCalls": 1000,
 *  "search": true}</pre>
 *
 * <p>The first version of the format, flat names only, is this one without patterns: such a file
 * means what it always meant.
 *
 * <p>The file is trusted configuration, but a mistake in it must stop the start-up with a message
 * that names the problem, never silently widen what a client can reach: unknown or duplicate keys,
 * wrong types, bad names and bad patterns are all errors.
 */
public final class PolicyFile {
  private static final int MAX_FILE_BYTES = 64 * 1024;
  private static final JsonFactory JSON =
      JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private PolicyFile() {}

  /** Thrown when a policy file cannot be used; the message names the file and the problem. */
  public static final class Invalid extends Exception {
    private static final long serialVersionUID = 1L;

    Invalid(Path file, String problem) {
      super("policy file " + file + ": " + problem);
    }
  }

  public static Policy load(Path file) throws Invalid {
    byte[] bytes;
    try {
      // Opened as a note is, in folders only this user or root may write (TrustedFile).
      bytes = TrustedFile.read(file, MAX_FILE_BYTES);
    } catch (TrustedFile.Refused e) {
      throw new Invalid(file, e.getMessage());
    } catch (Folder.ChangedWhileOpening | OpenedFile.ChangedWhileReading e) {
      throw new Invalid(file, "changed while it was being read; try again");
    } catch (Posix.Unavailable e) {
      // Not a problem of the file: say what is missing (the native library), not "input/output".
      throw new Invalid(file, "cannot be read safely: " + e.getMessage());
    } catch (IOException e) {
      throw new Invalid(file, "cannot be read (" + FileProblem.describe(e) + ")");
    }
    if (bytes == null) {
      throw new Invalid(file, "larger than " + MAX_FILE_BYTES + " bytes");
    }
    return parse(file, bytes);
  }

  /** Reads the policy in {@code bytes}, the contents of {@code file} (named in every message). */
  static Policy parse(Path file, byte[] bytes) throws Invalid {
    Policy defaults = Policy.defaults();
    List<String> readable = defaults.readable();
    List<String> exclude = List.of();
    List<String> proposable = defaults.proposable();
    List<String> editable = List.of();
    int maxPending = 0;
    int maxNoteBytes = defaults.maxNoteBytes();
    int maxCalls = defaults.maxCalls();
    // Offered for every policy file unless it says "search": false (docs/behaviour.md).
    boolean search = true;
    if (JsonInput.isNotUtf8(bytes)) {
      throw new Invalid(file, "not valid JSON: " + JsonInput.NOT_UTF8);
    }
    try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), bytes)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new Invalid(file, "must hold one JSON object");
      }
      String key;
      while ((key = parser.nextName()) != null) {
        parser.nextToken();
        switch (key) {
          case "readable":
            readable = names(file, parser, key);
            break;
          case "exclude":
            exclude = names(file, parser, key);
            break;
          case "proposable":
            proposable = names(file, parser, key);
            break;
          case "editable":
            editable = names(file, parser, key);
            break;
          case "maxPending":
            maxPending = integer(file, parser, key);
            if (maxPending < 1) {
              throw new Invalid(file, "maxPending must be 1.." + Policy.MAX_PENDING);
            }
            break;
          case "maxNoteBytes":
            maxNoteBytes = integer(file, parser, key);
            break;
          case "maxCalls":
            maxCalls = integer(file, parser, key);
            break;
          case "search":
            if (!parser.currentToken().isBoolean()) {
              throw new Invalid(file, Quote.of(key) + " must be true or false");
            }
            search = parser.currentToken() == JsonToken.VALUE_TRUE;
            break;
          default:
            throw new Invalid(
                file,
                "unknown key "
                    + Quote.of(key)
                    + " (known: readable, exclude, proposable, editable, maxNoteBytes, maxCalls,"
                    + " maxPending, search)");
        }
      }
      if (parser.nextToken() != null) {
        throw new Invalid(file, "must hold exactly one JSON object");
      }
    } catch (JacksonException e) {
      throw new Invalid(file, "not valid JSON: " + JsonInput.describe(e));
    }
    try {
      return Policy.of(readable, exclude, proposable, editable, maxNoteBytes, maxCalls, maxPending)
          .withSearch(search);
    } catch (IllegalArgumentException e) {
      throw new Invalid(file, e.getMessage());
    }
  }

  private static List<String> names(Path file, JsonParser parser, String key) throws Invalid {
    if (parser.currentToken() != JsonToken.START_ARRAY) {
      throw new Invalid(file, Quote.of(key) + " must be an array of note names and patterns");
    }
    List<String> names = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    JsonToken token;
    while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
      if (token != JsonToken.VALUE_STRING) {
        throw new Invalid(file, Quote.of(key) + " must hold only strings");
      }
      String name = parser.getString();
      if (!seen.add(name)) {
        throw new Invalid(file, Quote.of(key) + " lists " + Quote.of(name) + " twice");
      }
      names.add(name);
    }
    return names;
  }

  private static int integer(Path file, JsonParser parser, String key) throws Invalid {
    if (parser.currentToken() != JsonToken.VALUE_NUMBER_INT
        || parser.getNumberType() != JsonParser.NumberType.INT) {
      throw new Invalid(file, Quote.of(key) + " must be an integer");
    }
    return parser.getIntValue();
  }
}

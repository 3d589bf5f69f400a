package notesmcp.web;

import com.nimbusds.oauth2.sdk.util.URLUtils;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

/**
 * The fields of a query or of a form's body ({@code application/x-www-form-urlencoded}), decoded. A
 * body is read whole up to a bound; a request slower than the door's minimum data rate fails there.
 */
final class Form {
  /** A body larger than this is refused (413). */
  static final int MAX_BODY = 64 * 1024;

  private final Map<String, List<String>> fields;

  private Form(Map<String, List<String>> fields) {
    this.fields = fields;
  }

  /** A body that cannot be read as asked; its HTTP status and a sentence. */
  static final class Unreadable extends Exception {
    private static final long serialVersionUID = 1L;
    final int status;

    Unreadable(int status, String message) {
      super(message, null, false, false);
      this.status = status;
    }
  }

  static Form of(String encoded) {
    return new Form(URLUtils.parseParameters(encoded == null ? "" : encoded));
  }

  static Form query(Request request) {
    return of(request.getHttpURI().getQuery());
  }

  /** The body as text, of media type {@code type}, at most {@code max} bytes. */
  static String body(Request request, String type, int max) throws Unreadable {
    String contentType = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
    String media =
        contentType == null ? "" : contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    if (!media.equals(type)) {
      throw new Unreadable(415, "the body must be " + type);
    }
    if (request.getLength() > max) {
      throw new Unreadable(413, "the body is larger than " + max + " bytes");
    }
    try (InputStream in = Content.Source.asInputStream(request)) {
      byte[] bytes = in.readNBytes(max + 1);
      if (bytes.length > max) {
        throw new Unreadable(413, "the body is larger than " + max + " bytes");
      }
      return new String(bytes, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new Unreadable(400, "the body could not be read");
    }
  }

  /** A form's body. */
  static Form read(Request request) throws Unreadable {
    return of(body(request, "application/x-www-form-urlencoded", MAX_BODY));
  }

  /** The field's value, or null when absent or given more than once. */
  String get(String name) {
    List<String> values = fields.get(name);
    return values == null || values.size() != 1 ? null : values.get(0);
  }

  boolean has(String name) {
    return fields.containsKey(name);
  }

  /** Whether any field is given more than once (OAuth refuses such requests). */
  boolean anyRepeated() {
    for (List<String> values : fields.values()) {
      if (values.size() > 1) {
        return true;
      }
    }
    return false;
  }

  Map<String, List<String>> asMap() {
    return fields;
  }
}

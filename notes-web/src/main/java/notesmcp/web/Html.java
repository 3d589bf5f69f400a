package notesmcp.web;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import notesmcp.text.TerminalText;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The owner's pages: plain HTML that works without JavaScript and reads on a phone. Every page is
 * sent with headers that keep it out of frames ({@code Content-Security-Policy: frame-ancestors
 * 'none'} and {@code X-Frame-Options: DENY}), run no script ({@code default-src 'none'}), and is
 * neither cached nor sniffed. Text from outside (a client's name, a URL) goes through {@link
 * #inert}: on one line, every invisible or control character shown as an escape (the rule {@code
 * notes-mcp review} uses, {@link TerminalText}), cut at a length, then HTML-escaped.
 */
final class Html {
  static final String SECURITY_POLICY =
      "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; base-uri 'none';"
          + " frame-ancestors 'none'";

  private static final String STYLE =
      "body{font-family:system-ui,sans-serif;max-width:40em;margin:1em auto;padding:0 1em;"
          + "line-height:1.45}code,.inert{font-family:ui-monospace,monospace;"
          + "overflow-wrap:anywhere}button{font-size:1.05em;padding:.5em 1.1em;margin:.3em .3em"
          + " .3em 0}input[type=password]{font-size:1.05em;width:100%;max-width:24em}"
          + ".warn{color:#8a3b00}table{border-collapse:collapse}td,th{padding:.2em .6em .2em 0;"
          + "text-align:left;vertical-align:top}"
          // The review page: a proposal's text scrolls inside its own box, never the page.
          + "pre{white-space:pre;overflow-x:auto;max-width:100%;box-sizing:border-box;"
          + "background:#f4f4f4;padding:.6em;font-size:.82em;line-height:1.35}"
          + "h2{font-size:1.1em;overflow-wrap:anywhere}section.proposal{border-top:1px solid #bbb;"
          + "margin-top:1.4em}.actions form{display:inline-block}button{max-width:100%;"
          + "white-space:normal}.ok{color:#1d5e20}";

  private Html() {}

  /** HTML-escapes {@code text} (which the caller already made visible, or wrote itself). */
  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /** Text from outside, made inert: escapes for the invisible, cut at {@code max}, HTML-escaped. */
  static String inert(String text, int max) {
    return "<span class=\"inert\">" + escape(TerminalText.escaped(text, max, false)) + "</span>";
  }

  /** A whole page. */
  static String page(String title, String body) {
    return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
        + "<meta name=\"referrer\" content=\"no-referrer\"><title>"
        + escape(title)
        + " · notes-mcp</title><style>"
        + STYLE
        + "</style></head><body><h1>"
        + escape(title)
        + "</h1>"
        + body
        + "</body></html>\n";
  }

  /** Sends {@code html} with the pages' headers. */
  static void send(Response response, Callback callback, int status, String html) {
    headers(response);
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html; charset=utf-8");
    response.write(true, ByteBuffer.wrap(html.getBytes(StandardCharsets.UTF_8)), callback);
  }

  /** The headers of every page and every redirect from one. */
  static void headers(Response response) {
    response.getHeaders().put("Content-Security-Policy", SECURITY_POLICY);
    response.getHeaders().put("X-Frame-Options", "DENY");
    response.getHeaders().put("X-Content-Type-Options", "nosniff");
    response.getHeaders().put("Referrer-Policy", "no-referrer");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
  }

  /** 405, with the methods allowed and the pages' headers. */
  static void notAllowed(Response response, Callback callback, String allow) {
    headers(response);
    response.getHeaders().put(HttpHeader.ALLOW, allow);
    response.setStatus(405);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
    response.write(
        true,
        ByteBuffer.wrap(("Method Not Allowed: " + allow + "\n").getBytes(StandardCharsets.UTF_8)),
        callback);
  }

  /** A 303 to {@code location}, with the pages' headers. */
  static void seeOther(Response response, Callback callback, String location) {
    headers(response);
    response.setStatus(303);
    response.getHeaders().put(HttpHeader.LOCATION, location);
    response.write(true, null, callback);
  }
}

package notesmcp.mcp.http;

import notesmcp.text.TerminalText;

/** A value from a request, quoted and made safe for an error message or a log line. */
final class Printable {
  private Printable() {}

  static String of(String value) {
    return TerminalText.quoted(value, 200);
  }
}

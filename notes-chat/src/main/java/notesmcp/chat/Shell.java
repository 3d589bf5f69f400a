package notesmcp.chat;

import java.util.regex.Pattern;
import notesmcp.text.TerminalText;

/** A word of a command line for a person to copy: quoted for a POSIX shell when it needs it. */
final class Shell {
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:@%+=,-]+");

  private Shell() {}

  static String word(String text) {
    String shown = TerminalText.visible(text).replace("\n", "");
    if (PLAIN.matcher(shown).matches()) {
      return shown;
    }
    return "'" + shown.replace("'", "'\\''") + "'";
  }
}

package notesmcp.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a command written as one string ({@code -server-command 'node server.mjs --x'}) into
 * words, the way a POSIX shell would for plain words, single quotes, double quotes and backslashes;
 * nothing is expanded or run by a shell. The one-shot client's and the chat's {@code
 * -server-command} are split this way.
 */
public final class CommandLine {
  private CommandLine() {}

  public static List<String> split(String command) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int i = 0; i < command.length(); i++) {
      char c = command.charAt(i);
      if (quote == '\'') {
        if (c == '\'') {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (quote == '"') {
        if (c == '"') {
          quote = 0;
        } else if (c == '\\'
            && i + 1 < command.length()
            && "\"\\$`".indexOf(command.charAt(i + 1)) >= 0) {
          word.append(command.charAt(++i));
        } else {
          word.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        inWord = true;
      } else if (c == '\\' && i + 1 < command.length()) {
        word.append(command.charAt(++i));
        inWord = true;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
          inWord = false;
        }
      } else {
        word.append(c);
        inWord = true;
      }
    }
    if (inWord) {
      words.add(word.toString());
    }
    return words;
  }
}

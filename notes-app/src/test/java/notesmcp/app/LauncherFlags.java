package notesmcp.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JVM flags the {@code ./notes-mcp} launcher runs the program with, read from the launcher
 * itself (its {@code flags=(...)} array), so a test that starts the JVM directly runs it the way
 * users do and cannot drift from it.
 */
final class LauncherFlags {
  private static final Pattern FLAGS = Pattern.compile("(?m)^flags=\\(([^)]*)\\)");

  private LauncherFlags() {}

  static List<String> read() {
    String script;
    try {
      script = Files.readString(WireServer.launcher());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Matcher flags = FLAGS.matcher(script);
    if (!flags.find()) {
      throw new AssertionError("no flags=(...) in " + WireServer.launcher());
    }
    List<String> words = new ArrayList<>();
    for (String word : flags.group(1).trim().split("\\s+")) {
      words.add(word);
    }
    return words;
  }
}

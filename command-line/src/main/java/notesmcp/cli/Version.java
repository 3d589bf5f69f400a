package notesmcp.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * This build's version, filled in by Maven from the POM: from the jar's manifest when running from
 * the jar (already read when the first class was loaded, so it costs nothing at start-up), else
 * from a filtered resource (running from classes, as the unit tests do). The server reports it as
 * its serverInfo, the client and the chat as their clientInfo.
 */
public final class Version {
  public static final String VALUE = load();

  private Version() {}

  private static String load() {
    String manifest = Version.class.getPackage().getImplementationVersion();
    if (manifest != null) {
      return manifest;
    }
    Properties properties = new Properties();
    try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      // fall through to "unknown"
    }
    return properties.getProperty("version", "unknown");
  }
}

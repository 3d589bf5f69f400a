package notesmcp.app;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** This build's version, filled in by Maven from the POM. */
final class Version {
  static final String VALUE = load();

  private Version() {}

  private static String load() {
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

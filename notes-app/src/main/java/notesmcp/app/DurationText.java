package notesmcp.app;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * A duration as the command line writes it: {@code 10}, {@code 10s}, {@code 500ms} or {@code 2m}; a
 * bare number is seconds. Public for the chat mode (module notes-chat), so its timeouts are written
 * the way {@code -timeout} is.
 */
public final class DurationText {
  private DurationText() {}

  /** The positive duration {@code text} writes, or empty if it writes none. */
  public static Optional<Duration> parse(String text) {
    String lower = text.trim().toLowerCase(Locale.ROOT);
    try {
      Duration value;
      if (lower.endsWith("ms")) {
        value = Duration.ofMillis(Long.parseLong(lower.substring(0, lower.length() - 2)));
      } else if (lower.endsWith("s")) {
        value = Duration.ofSeconds(Long.parseLong(lower.substring(0, lower.length() - 1)));
      } else if (lower.endsWith("m")) {
        value = Duration.ofMinutes(Long.parseLong(lower.substring(0, lower.length() - 1)));
      } else {
        value = Duration.ofSeconds(Long.parseLong(lower));
      }
      if (!value.isNegative() && !value.isZero()) {
        return Optional.of(value);
      }
    } catch (NumberFormatException | ArithmeticException e) {
      // not a duration
    }
    return Optional.empty();
  }
}

package notesmcp.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * A duration as the command line writes it: {@code 10}, {@code 10s}, {@code 500ms}, {@code 2m} or
 * {@code 1h}; a bare number is seconds. Only {@link #MIN}..{@link #MAX} is accepted: below a
 * millisecond nothing can answer, beyond an hour a deadline is no longer a deadline, and arithmetic
 * on the value stays far from overflowing ({@code -timeout 10000000000s} is a usage error, not a
 * crash). The chat's timeouts are written the way {@code -timeout} is.
 */
public final class DurationText {
  public static final Duration MIN = Duration.ofMillis(1);
  public static final Duration MAX = Duration.ofHours(1);

  /** How a usage message describes what is accepted. */
  public static final String ACCEPTED =
      "a duration from 1ms to 1h, such as 10, 10s, 500ms or 2m (a bare number is seconds)";

  private DurationText() {}

  /** The duration {@code text} writes, or empty if it writes none in the accepted range. */
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
      } else if (lower.endsWith("h")) {
        value = Duration.ofHours(Long.parseLong(lower.substring(0, lower.length() - 1)));
      } else {
        value = Duration.ofSeconds(Long.parseLong(lower));
      }
      if (value.compareTo(MIN) >= 0 && value.compareTo(MAX) <= 0) {
        return Optional.of(value);
      }
    } catch (NumberFormatException | ArithmeticException e) {
      // not a duration we accept
    }
    return Optional.empty();
  }
}

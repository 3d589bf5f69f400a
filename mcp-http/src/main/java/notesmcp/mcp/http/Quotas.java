package notesmcp.mcp.http;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What each caller (a token's name; every unauthenticated caller of an {@code -auth none} server is
 * one) may hold and spend (docs/http.md, "Limits"): requests being answered at once, open SSE
 * streams, tool calls and resource reads in the last hour (the policy's {@code maxCalls}, per
 * caller and rolling hour over HTTP), and calls of tools that are not read-only (proposals) in the
 * last hour. An hour is counted in sixty one-minute buckets, so each caller's record is a fixed
 * size whatever its limits; a spent budget frees up a minute at a time. Thread-safe: each caller's
 * record is its own monitor.
 */
final class Quotas {
  private static final long MINUTE = TimeUnit.MINUTES.toNanos(1);

  /** A limit reached: what the caller is told, and when to try again (seconds; 0: unknown). */
  record Exceeded(String reason, long retryAfterSeconds) {}

  private final int maxInFlight;
  private final int maxStreams;
  private final int maxCallsPerHour;
  private final int maxProposalsPerHour;
  private final ConcurrentHashMap<String, Account> accounts = new ConcurrentHashMap<>();

  Quotas(int maxInFlight, int maxStreams, int maxCallsPerHour, int maxProposalsPerHour) {
    this.maxInFlight = maxInFlight;
    this.maxStreams = maxStreams;
    this.maxCallsPerHour = maxCallsPerHour;
    this.maxProposalsPerHour = maxProposalsPerHour;
  }

  int maxCallsPerHour() {
    return maxCallsPerHour;
  }

  int maxProposalsPerHour() {
    return maxProposalsPerHour;
  }

  int maxInFlight() {
    return maxInFlight;
  }

  int maxStreams() {
    return maxStreams;
  }

  /** One caller's record. */
  static final class Account {
    private int inFlight;
    private int streams;
    private final Window calls = new Window();
    private final Window proposals = new Window();
  }

  /** Counts of the last sixty minutes, one bucket a minute. */
  private static final class Window {
    private final int[] counts = new int[60];
    private final long[] minutes = new long[60];

    private int total(long minute) {
      int sum = 0;
      for (int i = 0; i < 60; i++) {
        if (minute - minutes[i] < 60) {
          sum += counts[i];
        }
      }
      return sum;
    }

    private void add(long minute) {
      int slot = (int) (minute % 60);
      if (minutes[slot] != minute) {
        minutes[slot] = minute;
        counts[slot] = 0;
      }
      counts[slot]++;
    }

    /** Seconds until the oldest counted minute leaves the hour. */
    private long secondsUntilRoom(long minute, long now) {
      long oldest = minute;
      for (int i = 0; i < 60; i++) {
        if (counts[i] > 0 && minute - minutes[i] < 60) {
          oldest = Math.min(oldest, minutes[i]);
        }
      }
      long freedAt = (oldest + 60) * MINUTE;
      return Math.max(1, TimeUnit.NANOSECONDS.toSeconds(freedAt - now) + 1);
    }
  }

  Account account(String caller) {
    return accounts.computeIfAbsent(caller == null ? "" : caller, k -> new Account());
  }

  /** Takes room for one request being answered; null when there was room. */
  Exceeded enter(Account account, String who) {
    synchronized (account) {
      if (account.inFlight >= maxInFlight) {
        return new Exceeded(
            who
                + " has "
                + maxInFlight
                + " requests being answered already; wait for one to finish",
            1);
      }
      account.inFlight++;
      return null;
    }
  }

  void leave(Account account) {
    synchronized (account) {
      account.inFlight--;
    }
  }

  /** Takes room for one open SSE stream; null when there was room. */
  Exceeded openStream(Account account, String who) {
    synchronized (account) {
      if (account.streams >= maxStreams) {
        return new Exceeded(
            who + " has " + maxStreams + " SSE streams open already; close one first", 0);
      }
      account.streams++;
      return null;
    }
  }

  void closeStream(Account account) {
    synchronized (account) {
      account.streams--;
    }
  }

  /**
   * Counts one tool call or resource read, and, when {@code proposal}, one call of a tool that is
   * not read-only; null when both were within their hour's budget (then both are counted).
   */
  Exceeded spend(Account account, String who, boolean proposal) {
    long now = System.nanoTime();
    long minute = Math.floorDiv(now, MINUTE);
    synchronized (account) {
      if (account.calls.total(minute) >= maxCallsPerHour) {
        return new Exceeded(
            "call budget spent: "
                + who
                + " may make at most "
                + maxCallsPerHour
                + " tool calls and resource reads in an hour (maxCalls, per caller over HTTP)",
            account.calls.secondsUntilRoom(minute, now));
      }
      if (proposal && account.proposals.total(minute) >= maxProposalsPerHour) {
        return new Exceeded(
            "proposal budget spent: "
                + who
                + " may call tools that are not read-only at most "
                + maxProposalsPerHour
                + " times in an hour",
            account.proposals.secondsUntilRoom(minute, now));
      }
      account.calls.add(minute);
      if (proposal) {
        account.proposals.add(minute);
      }
      return null;
    }
  }
}

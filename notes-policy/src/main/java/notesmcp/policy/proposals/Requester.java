package notesmcp.policy.proposals;

import java.util.Objects;

/**
 * Who asked for a proposal, as the asking program described itself: the MCP client's self-reported
 * name and version. Nothing checks it, and any program can claim any name, so it is kept and shown
 * only as "self-reported, unverified" ({@code docs/approvals.md}) and never decides anything. Each
 * part is cut to {@link #MAX_CHARS} characters so a record stays small whatever a client claims.
 */
public record Requester(String name, String version) {
  public static final int MAX_CHARS = 256;

  public Requester {
    name = shortened(Objects.requireNonNull(name, "name"));
    version = shortened(Objects.requireNonNull(version, "version"));
  }

  private static String shortened(String value) {
    if (value.codePointCount(0, value.length()) <= MAX_CHARS) {
      return value;
    }
    return value.substring(0, value.offsetByCodePoints(0, MAX_CHARS));
  }
}

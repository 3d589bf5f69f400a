package notesmcp.mcp;

import java.util.List;

/** The protocol revisions this layer speaks, newest first in each era. */
public final class Versions {
  /** Served statelessly, per request, with {@code _meta} (spec 2026-07-28). */
  public static final String MODERN = "2026-07-28";

  /** Served after an {@code initialize} handshake, newest first. */
  public static final List<String> LEGACY = List.of("2025-11-25", "2025-06-18", "2025-03-26");

  /** What {@code server/discover} and {@code -32022} advertise: only what is served statelessly. */
  public static final List<String> SUPPORTED = List.of(MODERN);

  private Versions() {}
}

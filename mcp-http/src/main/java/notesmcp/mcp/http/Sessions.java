package notesmcp.mcp.http;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import notesmcp.jsonrpc.Message.Id;
import notesmcp.mcp.server.Core;
import notesmcp.mcp.server.Session;

/**
 * The legacy (2025) sessions: each opened by an {@code initialize} that succeeded, named by a
 * random {@code Mcp-Session-Id} (128 bits, URL-safe Base64: visible ASCII), and owned by the caller
 * that opened it. A session is found only by its owner: any other caller presenting its id is told
 * 404, exactly as for an id that never existed. DELETE ends one; so does an hour without a request,
 * and a caller opening more than {@link #MAX_PER_CALLER} ends its least recently used one. Every
 * ended session is forgotten: its id is 404 from then on. Thread-safe.
 */
final class Sessions {
  /** Sessions one caller holds at once; opening one more ends its least recently used. */
  static final int MAX_PER_CALLER = 32;

  /** A session not used for this long is ended. */
  static final long IDLE_NANOS = TimeUnit.HOURS.toNanos(1);

  private static final SecureRandom RANDOM = new SecureRandom();

  /** One session and what the transport keeps beside it. */
  static final class Entry {
    final String id;
    final Session session;
    final String owner; // the caller's name; null for an unauthenticated server's one caller
    final Map<Id, AtomicBoolean> inFlight = new ConcurrentHashMap<>();
    volatile long lastUsed;
    SseStream stream; // its GET stream, guarded by this entry

    Entry(String id, Session session, String owner) {
      this.id = id;
      this.session = session;
      this.owner = owner;
      this.lastUsed = System.nanoTime();
    }
  }

  private final Core core;
  private final Map<String, Entry> byId = new ConcurrentHashMap<>();

  Sessions(Core core) {
    this.core = core;
  }

  /** A new session for {@code owner}, not yet registered (it is once its initialize succeeds). */
  Entry create(String owner) {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    return new Entry(id, core.newSession(null), owner);
  }

  /** Registers a session whose initialize succeeded, ending the owner's oldest when over bound. */
  void register(Entry entry) {
    byId.put(entry.id, entry);
    List<Entry> owned = new ArrayList<>();
    for (Entry each : byId.values()) {
      if (Objects.equals(each.owner, entry.owner)) {
        owned.add(each);
      }
    }
    while (owned.size() > MAX_PER_CALLER) {
      Entry oldest = owned.get(0);
      for (Entry each : owned) {
        if (each.lastUsed < oldest.lastUsed) {
          oldest = each;
        }
      }
      owned.remove(oldest);
      end(oldest);
    }
  }

  /** The session of this id owned by {@code owner}, or null (unknown, ended, or another's). */
  Entry find(String id, String owner) {
    Entry entry = id == null ? null : byId.get(id);
    if (entry == null || !Objects.equals(entry.owner, owner)) {
      return null;
    }
    entry.lastUsed = System.nanoTime();
    return entry;
  }

  /** Ends a session: forgotten, its subscriptions gone, its GET stream closed. */
  void end(Entry entry) {
    if (byId.remove(entry.id, entry)) {
      core.endSession(entry.session);
      SseStream stream;
      synchronized (entry) {
        stream = entry.stream;
        entry.stream = null;
      }
      if (stream != null) {
        stream.close();
      }
    }
  }

  /** Ends the sessions not used for {@link #IDLE_NANOS}; run now and then. */
  void sweep() {
    long now = System.nanoTime();
    for (Entry entry : byId.values()) {
      boolean streaming;
      synchronized (entry) {
        streaming = entry.stream != null;
      }
      if (!streaming && entry.inFlight.isEmpty() && now - entry.lastUsed > IDLE_NANOS) {
        end(entry);
      }
    }
  }

  /** Ends every session (the server stops). */
  void endAll() {
    for (Entry entry : byId.values()) {
      end(entry);
    }
  }

  int size() {
    return byId.size();
  }
}

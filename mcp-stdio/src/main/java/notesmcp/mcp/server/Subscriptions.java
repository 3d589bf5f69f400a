package notesmcp.mcp.server;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import notesmcp.jsonrpc.Codec;
import notesmcp.jsonrpc.ErrorCodes;
import notesmcp.jsonrpc.Message.Id;
import notesmcp.jsonrpc.Message.Notification;
import notesmcp.jsonrpc.Message.Success;
import notesmcp.jsonrpc.RpcException;
import notesmcp.mcp.Protocol;
import notesmcp.mcp.Protocol.Implementation;
import notesmcp.text.TerminalText;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Who is told of changes to the resources, and the one thread that tells them: the streams of
 * 2026-07-28's {@code subscriptions/listen} (each with its filter and its {@link Outlet},
 * acknowledged first, every message carrying its id in {@code _meta}), and each legacy session's
 * {@code resources/subscribe} URIs and {@code list_changed}, told on the session's outlet
 * (docs/protocol.md, "Resources and change notifications").
 *
 * <p>Bounded whatever a client does (docs/behaviour.md, "Limits"): at most {@link #MAX_STREAMS}
 * streams open at once and {@link #MAX_URIS} URIs a stream (and a legacy session). Changes are
 * coalesced, never queued: each stream keeps the set of its URIs that changed and one flag for the
 * list, so what waits for a client that does not read is at most its URIs, however often notes
 * change. The thread "notes-mcp notify" (started with the first subscription) moves them into the
 * outlets that have room ({@link Outlet#hasRoom}), at most {@link #ROUND} bytes a round, then
 * flushes those outlets; stdio's flush may block in {@code write(2)} or waiting for room while the
 * client does not read stdout, and nothing else waits for it (mcp-stdio/CONCURRENCY.md). A stream
 * is known by its outlet and request id together: over stdio every stream shares stdout, so the id
 * tells them apart; over HTTP each has an outlet of its own.
 *
 * <p>Lock rule: one lock guards the streams and what each has pending; held for field updates and
 * {@link Outlet#add} (which never blocks), never across a flush or a wait for room. A message of a
 * stream is queued under it, so a stream's acknowledgment precedes its notifications and its
 * closing result follows them, and nothing of a stream is queued once it was cancelled. {@link
 * #changed} takes it too, briefly: it is called on the program's own threads and never blocks.
 */
final class Subscriptions implements Resources.Changes {
  /** Streams open at once in one server process. */
  static final int MAX_STREAMS = 16;

  /** URIs one stream (or a legacy session) subscribes to at most. */
  static final int MAX_URIS = 256;

  /** Bytes of notifications queued in one round before the notifier flushes and looks again. */
  static final int ROUND = 64 * 1024;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** One subscription's filter and what it has pending. Guarded by the lock. */
  private static final class Stream {
    final Id id; // null for a legacy session's
    final Outlet outlet; // a legacy session's is the session's own (Session.outlet)
    boolean listChanged;
    final Map<String, String> uris = new LinkedHashMap<>(); // URI as the client spelt it -> key
    final Set<String> pendingUris = new LinkedHashSet<>();
    boolean pendingList;

    Stream(Id id, Outlet outlet) {
      this.id = id;
      this.outlet = outlet;
    }

    boolean hasPending() {
      return pendingList || !pendingUris.isEmpty();
    }
  }

  /** A stream's name: its outlet and its request id (written out: no record's indy methods). */
  private static final class Key {
    final Outlet outlet;
    final Id id;

    Key(Outlet outlet, Id id) {
      this.outlet = outlet;
      this.id = id;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Key && ((Key) other).outlet == outlet && ((Key) other).id.equals(id);
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(outlet) * 31 + id.hashCode();
    }
  }

  private final Resources resources;
  private final Implementation info;
  private final PrintStream log;
  private final Codec codec = new Codec();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition work = lock.newCondition();

  // Guarded by lock.
  private final Map<Key, Stream> streams = new LinkedHashMap<>();
  private final Map<Session, Stream> legacy = new IdentityHashMap<>();
  private final List<Outlet> closing = new ArrayList<>();
  private boolean ended;
  private Thread notifier;

  /** Guards {@link #listening}; taken with no other lock held (see {@link #listenToChanges}). */
  private final Object listenLock = new Object();

  private boolean listening; // guarded by listenLock

  /** How many streams are open: read without the lock on every stdio request's admission. */
  private volatile int open;

  Subscriptions(Resources resources, Implementation info, PrintStream log) {
    this.resources = resources;
    this.info = info;
    this.log = log;
  }

  /** Whether a stream opened by a request with this id on this outlet is open. */
  boolean isOpen(Outlet outlet, Id id) {
    if (open == 0) {
      return false;
    }
    lock.lock();
    try {
      return streams.containsKey(new Key(outlet, id));
    } finally {
      lock.unlock();
    }
  }

  /** How many {@code subscriptions/listen} streams are open. */
  int openStreams() {
    return open;
  }

  /**
   * Opens the stream of the {@code subscriptions/listen} request {@code id} on {@code outlet} and
   * queues its acknowledgment: the filter the server honours, which is {@code resourcesListChanged}
   * as asked and those of {@code uris} that can name a resource here (in the client's order and
   * spelling, duplicates once). The caller flushes the outlet.
   *
   * @param uris the {@code resourceSubscriptions} asked for, or null when absent
   * @throws RpcException {@code -32600} when a stream with this id is open there, {@code -32602}
   *     when {@link #MAX_STREAMS} are open or more than {@link #MAX_URIS} URIs are asked for
   */
  void open(Outlet outlet, Id id, boolean listChanged, List<String> uris) throws RpcException {
    if (uris != null && uris.size() > MAX_URIS) {
      throw ProtocolErrors.invalidParams(
          "Invalid params: at most "
              + MAX_URIS
              + " resourceSubscriptions a stream; this one asks for "
              + uris.size());
    }
    Stream stream = new Stream(id, outlet);
    stream.listChanged = listChanged;
    if (uris != null) {
      for (String uri : uris) {
        String key = resources.changeKey(uri);
        if (key != null) {
          stream.uris.put(uri, key);
        }
      }
    }
    listenToChanges();
    ObjectNode params = NODES.objectNode();
    params.putObject("_meta").set(Protocol.META_SUBSCRIPTION_ID, id.value());
    ObjectNode honoured = params.putObject("notifications");
    if (listChanged) {
      honoured.put("resourcesListChanged", true);
    }
    if (uris != null) {
      honoured.set("resourceSubscriptions", strings(stream.uris.keySet()));
    }
    Key key = new Key(outlet, id);
    lock.lock();
    try {
      if (streams.containsKey(key)) {
        throw new RpcException(ProtocolErrors.idInFlight(id));
      }
      if (streams.size() >= MAX_STREAMS || ended) {
        throw ProtocolErrors.invalidParams(
            "Invalid params: at most "
                + MAX_STREAMS
                + " subscriptions/listen streams are open at once in this server process; cancel"
                + " one first (on stdio, notifications/cancelled with its request id; over HTTP,"
                + " close its response)");
      }
      streams.put(key, stream);
      open = streams.size();
      outlet.add(codec.encode(new Notification(Protocol.ACKNOWLEDGED, params)));
      startNotifier();
    } finally {
      lock.unlock();
    }
    log.println(
        "notes-mcp: subscription "
            + id
            + " open: "
            + stream.uris.size()
            + " resource URIs"
            + (listChanged ? ", list changes" : ""));
  }

  /**
   * Ends the stream of request {@code id} on {@code outlet}, if open, with no further message; true
   * if it was.
   */
  boolean cancel(Outlet outlet, Id id) {
    lock.lock();
    try {
      boolean was = streams.remove(new Key(outlet, id)) != null;
      open = streams.size();
      return was;
    } finally {
      lock.unlock();
    }
  }

  /** Under the lock: the legacy stream of {@code session}, made on first use. */
  private Stream legacyOf(Session session) {
    Stream stream = legacy.get(session);
    if (stream == null) {
      stream = new Stream(null, null);
      legacy.put(session, stream);
    }
    return stream;
  }

  /** A legacy session's {@code resources/subscribe}. */
  void subscribe(Session session, String uri) throws RpcException {
    String key = resources.changeKey(uri);
    if (key == null) {
      throw new RpcException(
          ErrorCodes.INVALID_PARAMS,
          "Invalid params: "
              + TerminalText.quoted(uri, 200)
              + " is not a resource URI of this server");
    }
    listenToChanges();
    lock.lock();
    try {
      Stream stream = legacyOf(session);
      if (!stream.uris.containsKey(uri) && stream.uris.size() >= MAX_URIS) {
        throw ProtocolErrors.invalidParams(
            "Invalid params: at most "
                + MAX_URIS
                + " resources are subscribed to at once; unsubscribe one first");
      }
      stream.uris.put(uri, key);
      startNotifier();
    } finally {
      lock.unlock();
    }
  }

  /** A legacy session's {@code resources/unsubscribe}: never an error, as the spec's is not. */
  void unsubscribe(Session session, String uri) {
    lock.lock();
    try {
      Stream stream = legacy.get(session);
      if (stream != null) {
        stream.uris.remove(uri);
        stream.pendingUris.remove(uri);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * A legacy session uses resources: from now on it is told when their list changes (the capability
   * {@code listChanged} it was shown), until the session ends.
   */
  void tellLegacyOfListChanges(Session session) {
    listenToChanges();
    lock.lock();
    try {
      Stream stream = legacyOf(session);
      if (!stream.listChanged) {
        stream.listChanged = true;
        startNotifier();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Where {@code session}'s legacy notifications go from now on (an HTTP session's GET stream), or
   * null: none, and what changes meanwhile stays coalesced until one is set.
   */
  void attach(Session session, Outlet outlet) {
    lock.lock();
    try {
      session.outlet = outlet;
      if (outlet != null && legacy.containsKey(session)) {
        work.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** The session ended (an HTTP DELETE, or it expired): its subscriptions go with it. */
  void forget(Session session) {
    lock.lock();
    try {
      legacy.remove(session);
      session.outlet = null;
    } finally {
      lock.unlock();
    }
  }

  /** An outlet has room again: the notifier looks. */
  void roomMade() {
    lock.lock();
    try {
      work.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The server ends every open stream (end of input, SIGTERM, an HTTP server's stop): each gets its
   * closing result (spec 2026-07-28, subscriptions, "Graceful Closure"), after anything it had
   * pending; nothing more is sent on any. Returns at once: the notifier sends them.
   */
  void endAll() {
    lock.lock();
    try {
      if (ended) {
        return;
      }
      ended = true;
      for (Stream stream : streams.values()) {
        queuePending(stream, Integer.MAX_VALUE);
        ObjectNode result = NODES.objectNode();
        result.put("resultType", "complete");
        ObjectNode meta = result.putObject("_meta");
        meta.set(Protocol.META_SERVER_INFO, info.toJson());
        meta.set(Protocol.META_SUBSCRIPTION_ID, stream.id.value());
        stream.outlet.add(codec.encode(new Success(stream.id, result)));
        stream.outlet.end();
        if (!closing.contains(stream.outlet)) {
          closing.add(stream.outlet);
        }
      }
      streams.clear();
      open = 0;
      work.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void changed(Set<String> keys, boolean listChanged, boolean everything) {
    lock.lock();
    try {
      boolean any = false;
      for (Stream stream : legacy.values()) {
        any |= mark(stream, keys, listChanged, everything);
      }
      for (Stream stream : streams.values()) {
        any |= mark(stream, keys, listChanged, everything);
      }
      if (any) {
        work.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  private static boolean mark(
      Stream stream, Set<String> keys, boolean listChanged, boolean everything) {
    for (Map.Entry<String, String> entry : stream.uris.entrySet()) {
      if (everything || keys.contains(entry.getValue())) {
        stream.pendingUris.add(entry.getKey());
      }
    }
    if (stream.listChanged && (listChanged || everything)) {
      stream.pendingList = true;
    }
    return stream.hasPending();
  }

  /**
   * Starts the program's change notices, once, before the first stream is acknowledged: what is
   * there now is looked at before this returns, so every change after the acknowledgment is told.
   * Called without the lock: the program tells changes under locks of its own, then calls {@link
   * #changed}, which takes it.
   */
  private void listenToChanges() {
    synchronized (listenLock) {
      if (!listening) {
        listening = true;
        resources.listen(this);
      }
    }
  }

  /** Under the lock: the notifier, from the first subscription. */
  private void startNotifier() {
    if (notifier != null) {
      return;
    }
    notifier =
        new Thread("notes-mcp notify") {
          @Override
          public void run() {
            notifyLoop();
          }
        };
    notifier.setDaemon(true);
    notifier.start();
  }

  /**
   * The notifier's life: wait for something pending on an outlet with room; queue one round of
   * notifications; flush the outlets it queued into (stdio's waits for room there). Ends after the
   * streams ended and the last of their messages was flushed.
   */
  private void notifyLoop() {
    List<Outlet> touched = new ArrayList<>();
    while (true) {
      boolean last;
      lock.lock();
      try {
        while (!ended && !anyReady()) {
          work.awaitUninterruptibly();
        }
        last = ended;
        touched.clear();
        if (last) {
          touched.addAll(closing);
          closing.clear();
        } else {
          int budget = ROUND;
          for (Map.Entry<Session, Stream> entry : legacy.entrySet()) {
            Outlet outlet = entry.getKey().outlet;
            if (budget > 0 && ready(entry.getValue(), outlet)) {
              budget = queuePending(entry.getValue(), outlet, budget);
              touch(touched, outlet);
            }
          }
          for (Iterator<Stream> it = streams.values().iterator(); it.hasNext() && budget > 0; ) {
            Stream stream = it.next();
            if (ready(stream, stream.outlet)) {
              budget = queuePending(stream, budget);
              touch(touched, stream.outlet);
            }
          }
        }
      } finally {
        lock.unlock();
      }
      for (Outlet outlet : touched) {
        outlet.flush();
      }
      if (last) {
        return;
      }
    }
  }

  private static void touch(List<Outlet> touched, Outlet outlet) {
    if (!touched.contains(outlet)) {
      touched.add(outlet);
    }
  }

  private static boolean ready(Stream stream, Outlet outlet) {
    return outlet != null && stream.hasPending() && outlet.hasRoom();
  }

  private boolean anyReady() {
    for (Map.Entry<Session, Stream> entry : legacy.entrySet()) {
      if (ready(entry.getValue(), entry.getKey().outlet)) {
        return true;
      }
    }
    for (Stream stream : streams.values()) {
      if (ready(stream, stream.outlet)) {
        return true;
      }
    }
    return false;
  }

  private int queuePending(Stream stream, int budget) {
    return queuePending(stream, stream.outlet, budget);
  }

  /**
   * Under the lock: queues what {@code stream} has pending on {@code outlet}, the list's change
   * first, until {@code budget} bytes are queued; returns the budget left. What is not queued stays
   * pending.
   */
  private int queuePending(Stream stream, Outlet outlet, int budget) {
    if (stream.pendingList && budget > 0) {
      stream.pendingList = false;
      budget -= queue(stream, outlet, Protocol.RESOURCE_LIST_CHANGED, null);
    }
    for (Iterator<String> it = stream.pendingUris.iterator(); it.hasNext() && budget > 0; ) {
      String uri = it.next();
      it.remove();
      budget -= queue(stream, outlet, Protocol.RESOURCE_UPDATED, uri);
    }
    return budget;
  }

  private int queue(Stream stream, Outlet outlet, String method, String uri) {
    ObjectNode params = NODES.objectNode();
    if (stream.id != null) {
      params.putObject("_meta").set(Protocol.META_SUBSCRIPTION_ID, stream.id.value());
    }
    if (uri != null) {
      params.put("uri", uri);
    }
    byte[] line =
        codec.encode(new Notification(method, params.isEmpty() && uri == null ? null : params));
    outlet.add(line);
    return line.length + 1;
  }

  private static ArrayNode strings(Set<String> values) {
    ArrayNode array = NODES.arrayNode();
    for (String value : values) {
      array.add(value);
    }
    return array;
  }
}

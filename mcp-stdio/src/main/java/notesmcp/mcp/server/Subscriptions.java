package notesmcp.mcp.server;

import java.io.PrintStream;
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
import notesmcp.jsonrpc.Outbox;
import notesmcp.jsonrpc.RpcException;
import notesmcp.mcp.Protocol;
import notesmcp.mcp.Protocol.Implementation;
import notesmcp.text.TerminalText;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Who is told of changes to the resources, and the one thread that tells them: the streams of
 * 2026-07-28's {@code subscriptions/listen} (each with its filter, acknowledged first, every
 * message carrying its id in {@code _meta}), and the legacy session's {@code resources/subscribe}
 * URIs and {@code list_changed} (docs/protocol.md, "Resources and change notifications").
 *
 * <p>Bounded whatever a client does (docs/behaviour.md, "Limits"): at most {@link #MAX_STREAMS}
 * streams open at once and {@link #MAX_URIS} URIs a stream (and in the legacy session). Changes are
 * coalesced, never queued: each stream keeps the set of its URIs that changed and one flag for the
 * list, so what waits for a client that does not read is at most its URIs, however often notes
 * change. The thread "notes-mcp notify" (started with the first subscription) moves them into the
 * {@link Outbox} only while at most {@link #ROOM} bytes wait there, and at most {@link #ROUND}
 * bytes at a time, then flushes; it may block in {@code write(2)} or waiting for room while the
 * client does not read stdout, and nothing else waits for it (mcp-stdio/CONCURRENCY.md).
 *
 * <p>Lock rule: one lock guards the streams and what each has pending; held for field updates and
 * {@link Outbox#add} (which never blocks), never across a write or a wait for room. A message of a
 * stream is queued under it, so a stream's acknowledgment precedes its notifications and its
 * closing result follows them, and nothing of a stream is queued once it was cancelled. {@link
 * #changed} takes it too, briefly: it is called on the program's own threads and never blocks.
 */
final class Subscriptions implements Resources.Changes {
  /** Streams open at once in one server process. */
  static final int MAX_STREAMS = 16;

  /** URIs one stream (or the legacy session) subscribes to at most. */
  static final int MAX_URIS = 256;

  /** Bytes of notifications waiting in the outbox above which the notifier waits. */
  static final long ROOM = 1024 * 1024;

  /** Bytes of notifications queued in one round before the notifier flushes and looks again. */
  static final int ROUND = 64 * 1024;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** One subscription's filter and what it has pending. Guarded by the lock. */
  private static final class Stream {
    final Id id; // null for the legacy session
    boolean listChanged;
    final Map<String, String> uris = new LinkedHashMap<>(); // URI as the client spelt it -> key
    final Set<String> pendingUris = new LinkedHashSet<>();
    boolean pendingList;

    Stream(Id id) {
      this.id = id;
    }

    boolean hasPending() {
      return pendingList || !pendingUris.isEmpty();
    }
  }

  private final Resources resources;
  private final Implementation info;
  private final PrintStream log;
  private final Codec codec = new Codec();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition work = lock.newCondition();

  // Guarded by lock.
  private final Map<Id, Stream> streams = new LinkedHashMap<>();
  private final Stream legacy = new Stream(null);
  private boolean ended;
  private Thread notifier;
  private Outbox outbox;

  /** Guards {@link #listening}; taken with no other lock held (see {@link #listenToChanges}). */
  private final Object listenLock = new Object();

  private boolean listening; // guarded by listenLock

  /** How many streams are open: read without the lock on every request's admission. */
  private volatile int open;

  Subscriptions(Resources resources, Implementation info, PrintStream log) {
    this.resources = resources;
    this.info = info;
    this.log = log;
  }

  /** The outbox of the serving streams; set before the first request is read. */
  void serveInto(Outbox outbox) {
    lock.lock();
    try {
      this.outbox = outbox;
    } finally {
      lock.unlock();
    }
  }

  /** Whether a stream opened by a request with this id is open (ids of streams stay in use). */
  boolean isOpen(Id id) {
    if (open == 0) {
      return false;
    }
    lock.lock();
    try {
      return streams.containsKey(id);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Opens the stream of the {@code subscriptions/listen} request {@code id} and queues its
   * acknowledgment: the filter the server honours, which is {@code resourcesListChanged} as asked
   * and those of {@code uris} that can name a resource here (in the client's order and spelling,
   * duplicates once).
   *
   * @param uris the {@code resourceSubscriptions} asked for, or null when absent
   * @throws RpcException {@code -32600} when a stream with this id is open, {@code -32602} when
   *     {@link #MAX_STREAMS} are open or more than {@link #MAX_URIS} URIs are asked for
   */
  void open(Id id, boolean listChanged, List<String> uris) throws RpcException {
    if (uris != null && uris.size() > MAX_URIS) {
      throw ProtocolErrors.invalidParams(
          "Invalid params: at most "
              + MAX_URIS
              + " resourceSubscriptions a stream; this one asks for "
              + uris.size());
    }
    Stream stream = new Stream(id);
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
    lock.lock();
    try {
      if (streams.containsKey(id)) {
        throw new RpcException(ProtocolErrors.idInFlight(id));
      }
      if (streams.size() >= MAX_STREAMS || ended) {
        throw ProtocolErrors.invalidParams(
            "Invalid params: at most "
                + MAX_STREAMS
                + " subscriptions/listen streams are open at once in this server process; cancel"
                + " one (notifications/cancelled with its request id) first");
      }
      streams.put(id, stream);
      open = streams.size();
      outbox.add(codec.encode(new Notification(Protocol.ACKNOWLEDGED, params)));
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

  /** Ends the stream of request {@code id}, if open, with no further message; true if it was. */
  boolean cancel(Id id) {
    lock.lock();
    try {
      boolean was = streams.remove(id) != null;
      open = streams.size();
      return was;
    } finally {
      lock.unlock();
    }
  }

  /** The legacy session's {@code resources/subscribe}. */
  void subscribe(String uri) throws RpcException {
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
      if (!legacy.uris.containsKey(uri) && legacy.uris.size() >= MAX_URIS) {
        throw ProtocolErrors.invalidParams(
            "Invalid params: at most "
                + MAX_URIS
                + " resources are subscribed to at once; unsubscribe one first");
      }
      legacy.uris.put(uri, key);
      startNotifier();
    } finally {
      lock.unlock();
    }
  }

  /** The legacy session's {@code resources/unsubscribe}: never an error, as the spec's is not. */
  void unsubscribe(String uri) {
    lock.lock();
    try {
      legacy.uris.remove(uri);
      legacy.pendingUris.remove(uri);
    } finally {
      lock.unlock();
    }
  }

  /**
   * The legacy session uses resources: from now on it is told when their list changes (the
   * capability {@code listChanged} it was shown), until the process ends.
   */
  void tellLegacyOfListChanges() {
    listenToChanges();
    lock.lock();
    try {
      if (!legacy.listChanged) {
        legacy.listChanged = true;
        startNotifier();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * The server ends every open stream (end of input, SIGTERM): each gets its closing result (spec
   * 2026-07-28, subscriptions, "Graceful Closure"), after anything it had pending; nothing more is
   * sent on any. Returns at once: the notifier writes them.
   */
  void endAll() {
    lock.lock();
    try {
      if (ended) {
        return;
      }
      ended = true;
      if (outbox != null) {
        for (Stream stream : streams.values()) {
          queuePending(stream, Integer.MAX_VALUE);
          ObjectNode result = NODES.objectNode();
          result.put("resultType", "complete");
          ObjectNode meta = result.putObject("_meta");
          meta.set(Protocol.META_SERVER_INFO, info.toJson());
          meta.set(Protocol.META_SUBSCRIPTION_ID, stream.id.value());
          outbox.add(codec.encode(new Success(stream.id, result)));
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
      boolean any = mark(legacy, keys, listChanged, everything);
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
   * The notifier's life: wait for something pending; wait for room in the outbox (writing itself
   * when nobody writes); queue one round of notifications; flush. Ends after the streams ended and
   * the last of their messages was flushed.
   */
  private void notifyLoop() {
    while (true) {
      boolean last;
      lock.lock();
      try {
        while (!ended && !anyPending()) {
          work.awaitUninterruptibly();
        }
        last = ended;
      } finally {
        lock.unlock();
      }
      if (!last) {
        try {
          outbox.awaitRoom(ROOM);
        } catch (InterruptedException e) {
          return;
        }
        lock.lock();
        try {
          int budget = ROUND;
          budget = queuePending(legacy, budget);
          for (Iterator<Stream> it = streams.values().iterator(); it.hasNext() && budget > 0; ) {
            budget = queuePending(it.next(), budget);
          }
        } finally {
          lock.unlock();
        }
      }
      outbox.flush();
      if (last) {
        return;
      }
    }
  }

  private boolean anyPending() {
    if (legacy.hasPending()) {
      return true;
    }
    for (Stream stream : streams.values()) {
      if (stream.hasPending()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Under the lock: queues what {@code stream} has pending, the list's change first, until {@code
   * budget} bytes are queued; returns the budget left. What is not queued stays pending.
   */
  private int queuePending(Stream stream, int budget) {
    if (stream.pendingList && budget > 0) {
      stream.pendingList = false;
      budget -= queue(stream, Protocol.RESOURCE_LIST_CHANGED, null);
    }
    for (Iterator<String> it = stream.pendingUris.iterator(); it.hasNext() && budget > 0; ) {
      String uri = it.next();
      it.remove();
      budget -= queue(stream, Protocol.RESOURCE_UPDATED, uri);
    }
    return budget;
  }

  private int queue(Stream stream, String method, String uri) {
    ObjectNode params = NODES.objectNode();
    if (stream.id != null) {
      params.putObject("_meta").set(Protocol.META_SUBSCRIPTION_ID, stream.id.value());
    }
    if (uri != null) {
      params.put("uri", uri);
    }
    byte[] line =
        codec.encode(new Notification(method, params.isEmpty() && uri == null ? null : params));
    outbox.add(line);
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

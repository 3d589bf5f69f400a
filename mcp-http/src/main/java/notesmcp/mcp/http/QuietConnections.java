package notesmcp.mcp.http;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Closes a connection that has had no request in the handler for {@link #DEADLINE_SECONDS}: since
 * it opened, or since its last request ended. Jetty's idle timeout is reset by every byte, so a
 * client that sends a request's headers one byte a second (a slowloris) would keep its connection
 * for as long as it liked; here the bytes it sends do not count, only requests that reach the
 * handler do. So a slowloris holds a connection (no thread: Jetty parses headers without one) for
 * at most this long, and a keep-alive connection left unused is closed after the same while (the
 * client opens another). A connection with a request in the handler, an SSE stream's included, is
 * never closed here. As a handler it wraps the endpoint; as a {@link Connection.Listener} on the
 * connector it learns of each connection.
 */
final class QuietConnections extends Handler.Wrapper implements Connection.Listener {
  static final long DEADLINE_SECONDS = 10;

  private static final long DEADLINE = TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);

  /** Requests of one connection in the handler now, and when its last one ended. */
  private static final class Watch {
    int busy;
    long since = System.nanoTime();
  }

  private final Map<Connection, Watch> watches = new ConcurrentHashMap<>();

  QuietConnections(Handler handler) {
    super(handler);
  }

  @Override
  public void onOpened(Connection connection) {
    watches.put(connection, new Watch());
  }

  @Override
  public void onClosed(Connection connection) {
    watches.remove(connection);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    Watch watch = watches.get(request.getConnectionMetaData().getConnection());
    if (watch == null) {
      return super.handle(request, response, callback);
    }
    synchronized (watch) {
      watch.busy++;
    }
    Callback done =
        Callback.from(
            callback,
            () -> {
              synchronized (watch) {
                watch.busy--;
                watch.since = System.nanoTime();
              }
            });
    boolean handled;
    try {
      handled = super.handle(request, response, done);
    } catch (Exception | Error e) {
      synchronized (watch) {
        watch.busy--;
        watch.since = System.nanoTime();
      }
      throw e;
    }
    if (!handled) {
      synchronized (watch) {
        watch.busy--;
        watch.since = System.nanoTime();
      }
    }
    return handled;
  }

  /** Looks once a second, from now until the scheduler stops. */
  void start(Scheduler scheduler) {
    scheduler.schedule(() -> sweep(scheduler), 1, TimeUnit.SECONDS);
  }

  private void sweep(Scheduler scheduler) {
    long now = System.nanoTime();
    for (Map.Entry<Connection, Watch> entry : watches.entrySet()) {
      Watch watch = entry.getValue();
      boolean quiet;
      synchronized (watch) {
        quiet = watch.busy == 0 && now - watch.since > DEADLINE;
      }
      if (quiet) {
        entry.getKey().getEndPoint().close();
      }
    }
    if (scheduler.isRunning()) {
      scheduler.schedule(() -> sweep(scheduler), 1, TimeUnit.SECONDS);
    }
  }

  int open() {
    return watches.size();
  }
}

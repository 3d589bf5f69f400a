package notesmcp.mcp.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import notesmcp.mcp.server.Core;
import notesmcp.mcp.server.Outlet;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * One SSE response: a {@code subscriptions/listen} stream, or a legacy session's GET stream. Its
 * headers are sent with the first message ({@code text/event-stream}, {@code X-Accel-Buffering:
 * no}); each message is one event, {@code data: JSON}. Writes are Jetty's asynchronous ones, one at
 * a time, from a queue counted in bytes: {@link #add} never blocks, and {@link #hasRoom} is false
 * while more than {@link #ROOM} bytes wait, so a client that does not read holds at most that much
 * here (the change streams keep the rest coalesced). When room is made again the core is told. A
 * comment line ({@code :}) goes out after {@link #KEEP_ALIVE_SECONDS} without a message, so that
 * intermediaries and the server's own idle timeout leave a quiet stream open, and so that a client
 * that went away is noticed: a write that fails ends the stream ({@link #onGone} runs once).
 *
 * <p>Lock rule: this object's monitor guards the queue and the flags; it is never held while Jetty
 * writes or while the core is told, because the core's notifier holds its own lock when it adds
 * here.
 */
final class SseStream implements Outlet {
  /** Bytes waiting above which the stream has no room. */
  static final long ROOM = 256 * 1024;

  /** Bytes gathered into one write. */
  private static final int WRITE_SIZE = 64 * 1024;

  static final long KEEP_ALIVE_SECONDS = 15;

  private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] END = "\n\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] COMMENT = ":\n\n".getBytes(StandardCharsets.US_ASCII);

  private final Response response;
  private final Callback done;
  private final Core core;
  private final Scheduler scheduler;
  private Runnable onGone = null;

  // Guarded by this.
  private final ArrayDeque<byte[]> queue = new ArrayDeque<>();
  private long pending;
  private boolean started;
  private boolean writing;
  private boolean ending;
  private boolean finished;
  private boolean full;
  private boolean wroteSinceTick;
  private Scheduler.Task keepAlive;

  SseStream(Response response, Callback done, Core core, Scheduler scheduler) {
    this.response = response;
    this.done = done;
    this.core = core;
    this.scheduler = scheduler;
  }

  /** What to do once, when the stream ends for any reason: its room and registrations freed. */
  synchronized void onGone(Runnable action) {
    this.onGone = action;
  }

  synchronized boolean isStarted() {
    return started;
  }

  synchronized boolean isFinished() {
    return finished;
  }

  /** Sends the headers now (a GET stream opens before it has a message). */
  void open() {
    synchronized (this) {
      start();
    }
    flush();
  }

  /** Under the lock: the headers, with the first message. */
  private void start() {
    if (started) {
      return;
    }
    started = true;
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache, no-store");
    response.getHeaders().put("X-Accel-Buffering", "no");
    tick();
  }

  private void tick() {
    keepAlive = scheduler.schedule(this::keepAlive, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS);
  }

  private void keepAlive() {
    synchronized (this) {
      if (finished || ending) {
        return;
      }
      if (!wroteSinceTick && queue.isEmpty()) {
        queue.add(COMMENT);
        pending += COMMENT.length;
      }
      wroteSinceTick = false;
      tick();
    }
    flush();
  }

  @Override
  public synchronized boolean hasRoom() {
    boolean room = !finished && pending <= ROOM;
    if (!room) {
      full = true;
    }
    return room;
  }

  @Override
  public synchronized void add(byte[] message) {
    if (finished || ending) {
      return;
    }
    start();
    byte[] event = new byte[DATA.length + message.length + END.length];
    System.arraycopy(DATA, 0, event, 0, DATA.length);
    System.arraycopy(message, 0, event, DATA.length, message.length);
    System.arraycopy(END, 0, event, DATA.length + message.length, END.length);
    queue.add(event);
    pending += event.length;
  }

  @Override
  public void flush() {
    ByteBuffer buffer;
    boolean last;
    synchronized (this) {
      if (writing || finished || !started) {
        return;
      }
      if (queue.isEmpty()) {
        if (!ending) {
          return;
        }
        buffer = ByteBuffer.allocate(0);
      } else {
        buffer = gather();
      }
      last = ending && queue.isEmpty();
      writing = true;
      wroteSinceTick = true;
    }
    int count = buffer.remaining();
    response.write(
        last,
        buffer,
        new Callback() {
          @Override
          public void succeeded() {
            written(count, last);
          }

          @Override
          public void failed(Throwable cause) {
            gone(cause);
          }
        });
  }

  /** Under the lock: queued events into one buffer of at most WRITE_SIZE (or one larger event). */
  private ByteBuffer gather() {
    int size = 0;
    for (byte[] event : queue) {
      if (size > 0 && size + event.length > WRITE_SIZE) {
        break;
      }
      size += event.length;
    }
    ByteBuffer buffer = ByteBuffer.allocate(size);
    while (buffer.remaining() > 0) {
      buffer.put(queue.poll());
    }
    return buffer.flip();
  }

  private void written(int count, boolean last) {
    boolean roomMade;
    synchronized (this) {
      writing = false;
      pending -= count;
      roomMade = full && pending <= ROOM;
      if (roomMade) {
        full = false;
      }
      if (last) {
        finish();
      }
    }
    if (last) {
      done.succeeded();
      runOnGone();
      return;
    }
    if (roomMade) {
      core.roomMade();
    }
    flush();
  }

  private void gone(Throwable cause) {
    boolean first;
    synchronized (this) {
      first = !finished;
      writing = false;
      finish();
    }
    if (first) {
      done.failed(cause);
      runOnGone();
    }
  }

  /** Under the lock. */
  private void finish() {
    finished = true;
    queue.clear();
    pending = 0;
    if (keepAlive != null) {
      keepAlive.cancel();
    }
  }

  private void runOnGone() {
    Runnable action;
    synchronized (this) {
      action = onGone;
      onGone = null;
    }
    if (action != null) {
      action.run();
    }
  }

  /** The stream's last message is queued: once written, the response ends. */
  @Override
  public void end() {
    synchronized (this) {
      if (finished) {
        return;
      }
      ending = true;
      if (!started) {
        start();
      }
    }
    // The notifier flushes after end(); a stream ended outside it is flushed here.
  }

  /** Ends the stream now, from the server's side (its session ended, or the server stops). */
  void close() {
    end();
    flush();
  }

  /**
   * Watches the connection for the client closing it. Jetty reads a connection again only once its
   * response is complete, so a client that closes an SSE stream would otherwise be noticed only at
   * the next keep-alive write; here a read is asked for at once: end of input (or an error) ends
   * the stream, and so does anything the client sends meanwhile, which no HTTP/1.1 client does on a
   * connection whose response has not ended. Only for an SSE stream: its response never ends on its
   * own, so there is no next request on this connection to take bytes from.
   */
  void watch(EndPoint endPoint) {
    if (!endPoint.tryFillInterested(
        new Callback() {
          @Override
          public void succeeded() {
            ByteBuffer one = BufferUtil.allocate(1);
            int read;
            try {
              read = endPoint.fill(one);
            } catch (IOException e) {
              read = -1;
            }
            if (read == 0 && !isFinished()) {
              watch(endPoint);
            } else if (read != 0) {
              gone(new EofException("the client closed the stream"));
            }
          }

          @Override
          public void failed(Throwable cause) {
            gone(cause);
          }

          @Override
          public InvocationType getInvocationType() {
            return InvocationType.NON_BLOCKING;
          }
        })) {
      // Jetty watches the connection itself: it fails the request when the client goes.
      return;
    }
  }

  /** The client went away (Jetty failed the request): nothing more is written. */
  void failed(Throwable cause) {
    gone(cause);
  }
}

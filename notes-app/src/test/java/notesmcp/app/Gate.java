package notesmcp.app;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/** An output that takes nothing until {@link #open}: a pipe whose reader stopped reading. */
final class Gate extends OutputStream {
  private final CountDownLatch opened = new CountDownLatch(1);
  final CountDownLatch blocked = new CountDownLatch(1);
  private final ByteArrayOutputStream taken = new ByteArrayOutputStream();

  void open() {
    opened.countDown();
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] bytes, int offset, int length) throws IOException {
    blocked.countDown();
    try {
      opened.await();
    } catch (InterruptedException e) {
      throw new IOException(e);
    }
    synchronized (taken) {
      taken.write(bytes, offset, length);
    }
  }

  String text() {
    synchronized (taken) {
      return taken.toString(StandardCharsets.UTF_8);
    }
  }
}

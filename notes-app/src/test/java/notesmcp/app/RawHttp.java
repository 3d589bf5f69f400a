package notesmcp.app;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/1.1 written byte for byte on a socket, for what a well-behaved client cannot send: any Host,
 * a malformed chunk, headers a byte at a time, thousands of requests pipelined. Reads responses as
 * they come: the status line, the headers, and a body of {@code Content-Length} bytes.
 */
final class RawHttp implements AutoCloseable {
  final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  RawHttp(int port) throws IOException {
    socket = new Socket();
    socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
    socket.setSoTimeout(30_000);
    in = socket.getInputStream();
    out = socket.getOutputStream();
  }

  /** A response as read: its status (0 when the connection ended first), head and body. */
  record Response(int status, String head, String body) {}

  void write(String text) throws IOException {
    write(text.getBytes(StandardCharsets.UTF_8));
  }

  void write(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** A POST of {@code body} to /mcp with these extra header lines ("Name: value\r\n" each). */
  static String post(String host, String headers, String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return "POST /mcp HTTP/1.1\r\n"
        + (host == null ? "" : "Host: " + host + "\r\n")
        + "Content-Type: application/json\r\n"
        + "Accept: application/json, text/event-stream\r\n"
        + headers
        + "Content-Length: "
        + bytes.length
        + "\r\n\r\n"
        + body;
  }

  /** The next response on the connection. */
  Response read() throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int state = 0;
    while (state < 4) {
      int b;
      try {
        b = in.read();
      } catch (SocketTimeoutException e) {
        throw e;
      } catch (IOException e) {
        b = -1;
      }
      if (b < 0) {
        return new Response(0, head.toString(StandardCharsets.ISO_8859_1), "");
      }
      head.write(b);
      state =
          (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3))
              ? state + 1
              : (b == '\r' ? 1 : 0);
    }
    String text = head.toString(StandardCharsets.ISO_8859_1);
    int status = Integer.parseInt(text.substring(9, 12));
    int length = 0;
    for (String line : text.split("\r\n")) {
      if (line.toLowerCase().startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(15).trim());
      }
    }
    byte[] body = in.readNBytes(length);
    return new Response(status, text, new String(body, StandardCharsets.UTF_8));
  }

  /**
   * Whether the server closed the connection: a read gets the end of input (or a reset) within a
   * second; false when the connection is still open then.
   */
  boolean closedByServer() throws IOException {
    socket.setSoTimeout(1000);
    try {
      return in.read() < 0;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true;
    } finally {
      socket.setSoTimeout(30_000);
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}

package notesmcp.mcp.client;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import notesmcp.jsonrpc.Codec;
import notesmcp.jsonrpc.ErrorCodes;
import notesmcp.jsonrpc.LineReader;
import notesmcp.jsonrpc.Message;
import notesmcp.jsonrpc.Message.ErrorObject;
import notesmcp.jsonrpc.Message.Failure;
import notesmcp.jsonrpc.Message.Id;
import notesmcp.jsonrpc.Message.Request;
import notesmcp.jsonrpc.Message.Success;
import notesmcp.mcp.Protocol;
import notesmcp.text.TerminalText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The client's side of a server's stdout: one thread, "notes-mcp client reader", reads it line by
 * line until it ends and hands each response to the request waiting for it, by id. It never writes
 * and never waits for room: its answers to the server's own requests go through {@link
 * Sender#offer} and are dropped when the server does not read them (HostileServerIT). It also
 * issues the request ids, so that it can tell a response to an id never sent (a {@link
 * Connection.Violation}) from a late answer to a request that gave up (ignored).
 *
 * <p>Once it fails ({@link #fail}: the server's output ended, broke the protocol, or the connection
 * was closed) every waiting request fails with the first reason, and later lines are read and
 * dropped, so that a closing server is never stuck writing to us. Diagnostics about the server's
 * output are few ({@value #MAX_NOTICES}) and one line each.
 */
final class Receiver {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** The longest line read from the server; a longer one is skipped without being held. */
  static final int MAX_LINE_BYTES = 4 * 1024 * 1024;

  private static final int MAX_NOTICES = 8;

  private final Process process;
  private final Sender input;
  private final PrintStream log;
  private final Codec codec = new Codec();
  private final Map<Id, CompletableFuture<Message>> pending = new ConcurrentHashMap<>();
  private final AtomicLong nextId = new AtomicLong(1);
  private volatile IOException failure;
  private volatile boolean answersRequests = true;
  private int notices; // reader thread only
  private boolean droppingAnswers; // reader thread only
  private boolean toldAboutRequests; // reader thread only

  Receiver(Process process, Sender input, PrintStream log) {
    this.process = process;
    this.input = input;
    this.log = log;
    Thread reader =
        new Thread("notes-mcp client reader") {
          @Override
          public void run() {
            read();
          }
        };
    reader.setDaemon(true);
    reader.start();
  }

  /** A fresh request id, and the answer it will get. */
  Id nextId() {
    return Id.of(nextId.getAndIncrement());
  }

  /** Starts waiting for the response to {@code id}; completes exceptionally if this has failed. */
  CompletableFuture<Message> expect(Id id) {
    CompletableFuture<Message> answer = new CompletableFuture<>();
    pending.put(id, answer);
    IOException failed = failure; // failed while we registered: fail now, not at the deadline
    if (failed != null) {
      answer.completeExceptionally(failed);
    }
    return answer;
  }

  void forget(Id id) {
    pending.remove(id);
  }

  /** Why this failed, or null. */
  IOException failure() {
    return failure;
  }

  /** The first reason wins; every request still waiting fails with it. */
  synchronized void fail(IOException why) {
    if (failure == null) {
      failure = why;
    }
    for (CompletableFuture<Message> answer : pending.values()) {
      answer.completeExceptionally(failure);
    }
  }

  /**
   * From now on, requests from the server are ignored, not answered: in revision 2026-07-28 "the
   * server MUST NOT write JSON-RPC requests to stdout" and "the client MUST NOT write JSON-RPC
   * responses" (transports/stdio). Until the era is known, a legacy server's {@code ping} is
   * answered.
   */
  void stopAnsweringRequests() {
    answersRequests = false;
  }

  private void read() {
    LineReader lines = new LineReader(process.getInputStream(), MAX_LINE_BYTES);
    try {
      LineReader.Result result;
      while ((result = lines.next()) != LineReader.Result.END) {
        if (failure != null) {
          continue;
        }
        if (result == LineReader.Result.TOO_LONG) {
          notice("skipped a line from the server longer than " + MAX_LINE_BYTES + " bytes");
        } else if (lines.length() > 0) {
          receive(lines.bytes(), lines.length());
        }
      }
      fail(new IOException(exitDescription()));
    } catch (IOException e) {
      fail(new IOException("reading from the server failed: " + e.getMessage(), e));
    } catch (RuntimeException | Error e) {
      // A fault here must fail the requests at once, not leave them waiting for their deadline.
      fail(new IOException("the client failed reading the server's output: " + e, e));
    }
  }

  private void receive(byte[] line, int length) {
    Message message;
    try {
      message = codec.decode(line, length);
    } catch (Codec.Malformed e) {
      Id id = e.id();
      if (id != null && wasSent(id)) {
        fail(
            new Connection.Violation(
                "the server's reply to request "
                    + id
                    + " is not a valid JSON-RPC response: "
                    + TerminalText.escaped(e.getMessage())));
      } else {
        notice(
            "ignoring a line from the server that is not JSON-RPC ("
                + TerminalText.escaped(e.getMessage())
                + ")");
      }
      return;
    }
    if (message instanceof Success || message instanceof Failure) {
      respond(message);
    } else if (message instanceof Request) {
      if (answersRequests) {
        refuse((Request) message);
      } else if (!toldAboutRequests) {
        toldAboutRequests = true;
        notice(
            "ignoring requests from the server ("
                + TerminalText.escaped(((Request) message).method())
                + "): in 2026-07-28 a server sends none, and a client answers none");
      }
    }
    // Notifications (progress, log messages) need no answer and are not shown.
  }

  private void respond(Message response) {
    Id id = response instanceof Success ? ((Success) response).id() : ((Failure) response).id();
    if (id == null) {
      notice(
          "the server reported an error about no request in particular: "
              + TerminalText.escaped(((Failure) response).error().message()));
    } else if (!wasSent(id)) {
      fail(
          new Connection.Violation(
              "the server answered request id "
                  + TerminalText.escaped(id.toString())
                  + ", which this client never sent"));
    } else {
      CompletableFuture<Message> answer = pending.get(id);
      if (answer != null) {
        answer.complete(response);
      }
      // else: a late answer to a request that timed out and was cancelled; nobody waits for it
    }
  }

  /** Ids are 1, 2, 3, ... in the order requests were made. */
  private boolean wasSent(Id id) {
    JsonNode value = id.value();
    return value.isIntegralNumber()
        && value.canConvertToLong()
        && value.longValue() >= 1
        && value.longValue() < nextId.get();
  }

  /**
   * This client serves nothing: {@code ping} is answered, any other request from the server is an
   * unknown method. The answer is dropped, never waited for, when the server is not reading.
   */
  private void refuse(Request request) {
    String method = request.method();
    Message reply =
        Protocol.PING.equals(method)
            ? new Success(request.id(), NODES.objectNode())
            : new Failure(
                request.id(),
                new ErrorObject(
                    ErrorCodes.METHOD_NOT_FOUND,
                    "Method not found: "
                        + (method.length() > 100 ? method.substring(0, 100) + "..." : method)));
    if (!input.offer(codec.encode(reply)) && !droppingAnswers) {
      droppingAnswers = true;
      notice("the server is not reading its input; answers to its requests are dropped");
    }
  }

  private void notice(String text) {
    if (notices < MAX_NOTICES) {
      log.println("notes-mcp: " + text);
    } else if (notices == MAX_NOTICES) {
      log.println("notes-mcp: (further notices about the server's output are not shown)");
    }
    notices++;
  }

  private String exitDescription() {
    try {
      if (process.waitFor(200, TimeUnit.MILLISECONDS)) {
        return "the server exited with status " + process.exitValue() + " before answering";
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return "the server closed its output before answering";
  }
}

package notesmcp.mcp.http;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import notesmcp.jsonrpc.Codec;
import notesmcp.jsonrpc.ErrorCodes;
import notesmcp.jsonrpc.Message;
import notesmcp.jsonrpc.Message.ErrorObject;
import notesmcp.jsonrpc.Message.Failure;
import notesmcp.jsonrpc.Message.Id;
import notesmcp.jsonrpc.Message.Notification;
import notesmcp.jsonrpc.Message.Request;
import notesmcp.jsonrpc.Message.Success;
import notesmcp.mcp.Protocol;
import notesmcp.mcp.server.Authenticator;
import notesmcp.mcp.server.Caller;
import notesmcp.mcp.server.Core;
import notesmcp.mcp.server.Exchange;
import notesmcp.mcp.server.Session;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;
import tools.jackson.databind.JsonNode;

/**
 * The MCP endpoint, {@code /mcp}: every HTTP request passes here in this order (docs/http.md, "What
 * a request goes through"): the path; {@code Host} and {@code Origin} ({@link HostCheck}, 403); the
 * credential ({@link Authenticator}, 401 or 403); the HTTP method; then, for a POST, its body (at
 * most {@link #MAX_BODY} bytes, read without holding a thread while it trickles in), the era its
 * message selects, the era's own checks (2026-07-28: the mirrored headers and {@code _meta}, 400 or
 * 404; a legacy session: its {@code Mcp-Session-Id}, 400 or 404), the caller's scope (403) and
 * quotas (429), and only then the {@link Core}, which answers every request of either door alike. A
 * reply is one JSON body; a {@code subscriptions/listen} stream and a session's GET stream are SSE
 * ({@link SseStream}).
 *
 * <p>Every refusal here carries a JSON-RPC error body with the request's id when it was read, and
 * says why; none holds a credential. Called on Jetty's threads, any number at once.
 */
final class McpEndpoint extends Handler.Abstract {
  static final String PATH = "/mcp";

  /** The whole body of one POST: as much as one line of the stdio transport. */
  static final int MAX_BODY = 1024 * 1024;

  /** Messages in one batch (2025-03-26 sessions only), as over stdio. */
  static final int MAX_BATCH = 64;

  static final String SESSION_ID = "Mcp-Session-Id";

  private static final String JSON = "application/json";
  private static final String EVENT_STREAM = "text/event-stream";

  private final Core core;
  private final Authenticator authenticator; // null: -auth none
  private final Sessions sessions;
  private final Quotas quotas;
  private final PrintStream log;
  private final Codec codec = new Codec(Protocol.ARGUMENTS);
  private final Session stateless;
  private final Pages pages; // null: nothing beside /mcp
  private volatile HostCheck hosts; // set once the port is known
  private volatile Scheduler scheduler;

  McpEndpoint(Core core, Authenticator authenticator, Quotas quotas, PrintStream log, Pages pages) {
    this.core = core;
    this.pages = pages;
    this.authenticator = authenticator;
    this.sessions = new Sessions(core);
    this.quotas = quotas;
    this.log = log;
    this.stateless = core.newSession(null);
  }

  void serve(HostCheck hosts, Scheduler scheduler) {
    this.scheduler = scheduler;
    this.hosts = hosts;
  }

  Sessions sessions() {
    return sessions;
  }

  @Override
  public boolean handle(
      org.eclipse.jetty.server.Request request, Response response, Callback callback) {
    HostCheck check = hosts;
    if (check == null) {
      refuse(response, callback, 503, null, ErrorCodes.INTERNAL_ERROR, "Service Unavailable");
      return true;
    }
    if (!PATH.equals(request.getHttpURI().getPath())) {
      if (pages != null) {
        beside(check, request, response, callback);
        return true;
      }
      refuse(
          response,
          callback,
          404,
          null,
          ErrorCodes.INVALID_REQUEST,
          "Not Found: this server's MCP endpoint is " + PATH);
      return true;
    }
    String problem =
        check.problem(
            request.getHeaders().get(HttpHeader.HOST), request.getHeaders().get(HttpHeader.ORIGIN));
    if (problem != null) {
      refuse(response, callback, 403, null, ErrorCodes.INVALID_REQUEST, "Forbidden: " + problem);
      return true;
    }
    String peer = org.eclipse.jetty.server.Request.getRemoteAddr(request);
    Caller caller;
    if (authenticator == null) {
      caller = new Caller(null, Set.of(), false, peer);
    } else {
      Authenticator.Verdict verdict =
          authenticator.authenticate(request.getHeaders().get(HttpHeader.AUTHORIZATION), peer);
      if (verdict.caller() == null) {
        response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, verdict.challenge());
        log.println("notes-mcp: " + verdict.status() + " for " + peer + ": " + verdict.reason());
        refuse(
            response,
            callback,
            verdict.status(),
            null,
            ErrorCodes.INVALID_REQUEST,
            (verdict.status() == 401 ? "Unauthorized: " : "Forbidden: ") + verdict.reason());
        return true;
      }
      caller = verdict.caller();
    }
    switch (request.getMethod()) {
      case "POST":
        post(request, response, callback, caller);
        return true;
      case "GET":
        get(request, response, callback, caller);
        return true;
      case "DELETE":
        delete(request, response, callback, caller);
        return true;
      default:
        response.getHeaders().put(HttpHeader.ALLOW, "POST, GET, DELETE");
        refuse(
            response,
            callback,
            405,
            null,
            ErrorCodes.INVALID_REQUEST,
            "Method Not Allowed: the MCP endpoint takes POST (and, in a 2025 session, GET and"
                + " DELETE)");
        return true;
    }
  }

  /**
   * A request for the program's {@link Pages}: its {@code Host} checked as {@code /mcp}'s is (403),
   * then the pages' answer, or 404. A page that throws answers 500, said on stderr.
   */
  private void beside(
      HostCheck check,
      org.eclipse.jetty.server.Request request,
      Response response,
      Callback callback) {
    String problem = check.problem(request.getHeaders().get(HttpHeader.HOST), null);
    try {
      if (problem == null && pages.handle(request, response, callback)) {
        return;
      }
    } catch (Exception | LinkageError e) {
      log.println(
          "notes-mcp: internal error serving "
              + Printable.of(request.getHttpURI().getPath())
              + ":");
      e.printStackTrace(log);
      if (response.isCommitted()) {
        callback.failed(e);
        return;
      }
      problem = "";
    }
    int status = problem == null ? 404 : problem.isEmpty() ? 500 : 403;
    String text =
        status == 404
            ? "Not Found"
            : status == 500 ? "Internal error; see the server's stderr" : "Forbidden: " + problem;
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.write(
        true,
        ByteBuffer.wrap((text + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        callback);
  }

  /** Who a caller is in a message: a token's name, or the peer of an unauthenticated server. */
  private static String who(Caller caller) {
    return caller.name() != null ? "token " + Printable.of(caller.name()) : "this client";
  }

  // ---------------------------------------------------------------------------------------------
  // POST

  private void post(
      org.eclipse.jetty.server.Request request,
      Response response,
      Callback callback,
      Caller caller) {
    String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
    if (type == null || !mediaType(type).equals(JSON)) {
      refuse(
          response,
          callback,
          415,
          null,
          ErrorCodes.INVALID_REQUEST,
          "Unsupported Media Type: a POST's body is one JSON-RPC message, Content-Type " + JSON);
      return;
    }
    String accept = request.getHeaders().get(HttpHeader.ACCEPT);
    if (accept != null && !accepts(accept, JSON) && !accepts(accept, EVENT_STREAM)) {
      refuse(
          response,
          callback,
          406,
          null,
          ErrorCodes.INVALID_REQUEST,
          "Not Acceptable: replies are " + JSON + " or " + EVENT_STREAM);
      return;
    }
    long length = request.getLength();
    if (length > MAX_BODY) {
      tooLarge(response, callback);
      return;
    }
    new BodyReader(request, response, callback, caller).run();
  }

  /**
   * Reads a POST's body as it arrives: a chunk at a time, asking Jetty to call back when more
   * comes, so no thread waits for a client that sends slowly (Jetty's minimum data rate and idle
   * timeout end one that sends too slowly).
   */
  private final class BodyReader implements Runnable {
    private final org.eclipse.jetty.server.Request request;
    private final Response response;
    private final Callback callback;
    private final Caller caller;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();

    BodyReader(
        org.eclipse.jetty.server.Request request,
        Response response,
        Callback callback,
        Caller caller) {
      this.request = request;
      this.response = response;
      this.callback = callback;
      this.caller = caller;
    }

    @Override
    public void run() {
      while (true) {
        Content.Chunk chunk = request.read();
        if (chunk == null) {
          request.demand(this);
          return;
        }
        if (Content.Chunk.isFailure(chunk)) {
          refuse(
              response,
              callback,
              400,
              null,
              ErrorCodes.INVALID_REQUEST,
              "Bad Request: the body could not be read");
          return;
        }
        ByteBuffer bytes = chunk.getByteBuffer();
        if (body.size() + bytes.remaining() > MAX_BODY) {
          chunk.release();
          tooLarge(response, callback);
          return;
        }
        byte[] copy = new byte[bytes.remaining()];
        bytes.get(copy);
        body.write(copy, 0, copy.length);
        boolean last = chunk.isLast();
        chunk.release();
        if (last) {
          message(request, response, callback, caller, body.toByteArray());
          return;
        }
      }
    }
  }

  private void tooLarge(Response response, Callback callback) {
    refuse(
        response,
        callback,
        413,
        null,
        ErrorCodes.INVALID_REQUEST,
        "Invalid Request: body longer than " + MAX_BODY + " bytes");
  }

  private void message(
      org.eclipse.jetty.server.Request request,
      Response response,
      Callback callback,
      Caller caller,
      byte[] body) {
    if (Codec.isBatch(body, body.length)) {
      batch(request, response, callback, caller, body);
      return;
    }
    Message message;
    try {
      message = codec.decode(body, body.length);
    } catch (Codec.Malformed malformed) {
      reply(response, callback, 400, new Failure(malformed.id(), malformed.error()));
      return;
    }
    String sessionId = request.getHeaders().get(SESSION_ID);
    if (message instanceof Request) {
      request(request, response, callback, caller, (Request) message, sessionId);
    } else if (message instanceof Notification) {
      Notification notification = (Notification) message;
      if (sessionId != null && !isModern(notification.method(), notification.params())) {
        Sessions.Entry entry = sessions.find(sessionId, caller.name());
        if (entry == null) {
          sessionNotFound(response, callback, null);
          return;
        }
        notice(entry, notification);
      }
      accepted(response, callback);
    } else {
      // A response: this server sends no requests, so there is nothing it could answer.
      if (sessionId != null && sessions.find(sessionId, caller.name()) == null) {
        sessionNotFound(response, callback, null);
        return;
      }
      if (sessionId == null) {
        refuse(
            response,
            callback,
            400,
            null,
            ErrorCodes.INVALID_REQUEST,
            "Invalid Request: a client sends no responses to this server, which sends no"
                + " requests");
        return;
      }
      accepted(response, callback);
    }
  }

  private static boolean isModern(String method, JsonNode params) {
    if (Protocol.DISCOVER.equals(method)) {
      return true;
    }
    JsonNode meta = params == null || !params.isObject() ? null : params.get("_meta");
    return meta != null
        && meta.isObject()
        && (meta.has(Protocol.META_PROTOCOL_VERSION)
            || meta.has(Protocol.META_CLIENT_CAPABILITIES)
            || meta.has(Protocol.META_CLIENT_INFO));
  }

  /** A legacy session's notification: {@code notifications/cancelled} cancels its request. */
  private void notice(Sessions.Entry entry, Notification notification) {
    if (!Protocol.CANCELLED.equals(notification.method())) {
      return;
    }
    JsonNode params = notification.params();
    JsonNode requestId = params == null ? null : params.get("requestId");
    if (!Id.isValid(requestId)) {
      return;
    }
    AtomicBoolean flag = entry.inFlight.get(new Id(requestId));
    if (flag != null) {
      flag.set(true);
      log.println("notes-mcp: cancellation received for request " + new Id(requestId));
    }
  }

  private void request(
      org.eclipse.jetty.server.Request http,
      Response response,
      Callback callback,
      Caller caller,
      Request request,
      String sessionId) {
    String header = http.getHeaders().get(MetaHeaders.PROTOCOL_VERSION);
    boolean modern =
        isModern(request.method(), request.params())
            || (header != null && header.trim().equals(Protocol.MODERN));
    if (modern) {
      modern(http, response, callback, caller, request, header);
    } else {
      legacy(http, response, callback, caller, request, header, sessionId);
    }
  }

  /** A 2026-07-28 request: stateless, its headers checked against its body. */
  private void modern(
      org.eclipse.jetty.server.Request http,
      Response response,
      Callback callback,
      Caller caller,
      Request request,
      String version) {
    String mismatch =
        MetaHeaders.mismatch(
            version,
            http.getHeaders().get(MetaHeaders.METHOD),
            http.getHeaders().get(MetaHeaders.NAME),
            request.method(),
            request.params());
    if (mismatch != null) {
      reply(
          response,
          callback,
          400,
          new Failure(
              request.id(),
              new ErrorObject(MetaHeaders.HEADER_MISMATCH, "Header mismatch: " + mismatch)));
      return;
    }
    ErrorObject early = core.precheck(request, stateless);
    if (early != null) {
      reply(
          response,
          callback,
          early.code() == ErrorCodes.METHOD_NOT_FOUND ? 404 : 400,
          new Failure(request.id(), early));
      return;
    }
    if (Protocol.SUBSCRIPTIONS_LISTEN.equals(request.method())) {
      listen(http, response, callback, caller, request);
      return;
    }
    AtomicBoolean cancelled = new AtomicBoolean();
    http.addFailureListener(failure -> cancelled.set(true));
    answer(
        response, callback, caller, request, new Exchange(stateless, caller, null, cancelled::get));
  }

  /** A legacy request: {@code initialize} opens a session; every other names one. */
  private void legacy(
      org.eclipse.jetty.server.Request http,
      Response response,
      Callback callback,
      Caller caller,
      Request request,
      String version,
      String sessionId) {
    if (version != null && !Protocol.LEGACY.contains(version.trim())) {
      reply(
          response,
          callback,
          400,
          new Failure(
              request.id(),
              new ErrorObject(
                  ErrorCodes.INVALID_REQUEST,
                  "Bad Request: unsupported "
                      + MetaHeaders.PROTOCOL_VERSION
                      + " "
                      + Printable.of(version)
                      + " (supported: "
                      + Protocol.MODERN
                      + " per request; "
                      + String.join(", ", Protocol.LEGACY)
                      + " after initialize)")));
      return;
    }
    if (Protocol.INITIALIZE.equals(request.method())) {
      if (sessionId != null) {
        reply(
            response,
            callback,
            400,
            new Failure(
                request.id(),
                new ErrorObject(
                    ErrorCodes.INVALID_REQUEST,
                    "Invalid Request: initialize opens a new session and is sent without "
                        + SESSION_ID)));
        return;
      }
      Sessions.Entry entry = sessions.create(caller.name());
      Message reply = core.reply(request, new Exchange(entry.session, caller, null, () -> false));
      if (reply instanceof Success) {
        sessions.register(entry);
        response.getHeaders().put(SESSION_ID, entry.id);
      }
      reply(response, callback, 200, reply);
      return;
    }
    if (sessionId == null) {
      if (Protocol.PING.equals(request.method())) {
        answer(
            response,
            callback,
            caller,
            request,
            new Exchange(stateless, caller, null, () -> false));
        return;
      }
      reply(
          response,
          callback,
          400,
          new Failure(
              request.id(),
              new ErrorObject(
                  ErrorCodes.INVALID_REQUEST,
                  "Bad Request: "
                      + SESSION_ID
                      + " is required: a 2025 client sends initialize first (2026-07-28 requests"
                      + " carry _meta and the "
                      + MetaHeaders.PROTOCOL_VERSION
                      + " header instead)")));
      return;
    }
    Sessions.Entry entry = sessions.find(sessionId, caller.name());
    if (entry == null) {
      sessionNotFound(response, callback, request.id());
      return;
    }
    AtomicBoolean cancelled = new AtomicBoolean();
    if (entry.inFlight.putIfAbsent(request.id(), cancelled) != null) {
      reply(
          response,
          callback,
          200,
          new Failure(
              request.id(),
              new ErrorObject(
                  ErrorCodes.INVALID_REQUEST,
                  "Invalid Request: id " + request.id() + " is already in flight")));
      return;
    }
    try {
      answer(
          response,
          callback,
          caller,
          request,
          new Exchange(entry.session, caller, null, cancelled::get));
    } finally {
      entry.inFlight.remove(request.id(), cancelled);
    }
  }

  /**
   * The checks every tool call and resource read meets whichever era it is in, then the core's
   * answer: the scope (403), the caller's requests in flight and its hour's budgets (429).
   */
  private void answer(
      Response response, Callback callback, Caller caller, Request request, Exchange exchange) {
    Message early = admit(response, caller, request);
    if (early != null) {
      reply(response, callback, statusOf(response), early);
      return;
    }
    Quotas.Account account = quotas.account(caller.name());
    Quotas.Exceeded busy = quotas.enter(account, who(caller));
    if (busy != null) {
      tooMany(response, callback, request.id(), busy);
      return;
    }
    Message reply;
    try {
      reply = core.reply(request, exchange);
    } finally {
      quotas.leave(account);
    }
    if (reply == null) {
      // Cancelled before it ran: the client closed its side (or cancelled it); nothing to say.
      response.setStatus(204);
      callback.succeeded();
      return;
    }
    reply(response, callback, 200, reply);
  }

  /**
   * The scope and the hour's budgets of a tool call or resource read: null when it may go on, else
   * its error reply (the status set on {@code response}).
   */
  private Message admit(Response response, Caller caller, Request request) {
    String method = request.method();
    boolean call = Protocol.TOOLS_CALL.equals(method);
    if (!call && !Protocol.RESOURCES_READ.equals(method)) {
      return null;
    }
    boolean proposal = false;
    if (call) {
      JsonNode name = request.params() == null ? null : request.params().get("name");
      Boolean readOnly =
          name != null && name.isString() ? core.isReadOnlyTool(name.stringValue()) : null;
      if (readOnly == null) {
        return null; // the core refuses an unknown tool, as over stdio
      }
      proposal = !readOnly;
      if (proposal && caller.readOnly()) {
        response.setStatus(403);
        response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, authenticator.insufficientScope());
        return new Failure(
            request.id(),
            new ErrorObject(
                ErrorCodes.INVALID_REQUEST,
                "Forbidden: "
                    + name.stringValue()
                    + " is not a read-only tool, and "
                    + who(caller)
                    + " allows read-only tools only (insufficient_scope)"));
      }
    }
    Quotas.Exceeded spent = quotas.spend(quotas.account(caller.name()), who(caller), proposal);
    if (spent != null) {
      response.setStatus(429);
      if (spent.retryAfterSeconds() > 0) {
        response.getHeaders().put(HttpHeader.RETRY_AFTER, Long.toString(spent.retryAfterSeconds()));
      }
      return new Failure(request.id(), new ErrorObject(ErrorCodes.OVERLOADED, spent.reason()));
    }
    return null;
  }

  private static int statusOf(Response response) {
    return response.getStatus() == 0 ? 200 : response.getStatus();
  }

  private void tooMany(Response response, Callback callback, Id id, Quotas.Exceeded exceeded) {
    if (exceeded.retryAfterSeconds() > 0) {
      response
          .getHeaders()
          .put(HttpHeader.RETRY_AFTER, Long.toString(exceeded.retryAfterSeconds()));
    }
    reply(
        response,
        callback,
        429,
        new Failure(id, new ErrorObject(ErrorCodes.OVERLOADED, exceeded.reason())));
  }

  /** {@code subscriptions/listen}: an SSE response that stays open, one of the caller's streams. */
  private void listen(
      org.eclipse.jetty.server.Request http,
      Response response,
      Callback callback,
      Caller caller,
      Request request) {
    Quotas.Account account = quotas.account(caller.name());
    Quotas.Exceeded full = quotas.openStream(account, who(caller));
    if (full != null) {
      tooMany(response, callback, request.id(), full);
      return;
    }
    SseStream stream = new SseStream(response, callback, core, scheduler);
    AtomicBoolean closed = new AtomicBoolean();
    http.addFailureListener(
        failure -> {
          closed.set(true);
          stream.failed(failure);
        });
    Message reply = core.reply(request, new Exchange(stateless, caller, stream, closed::get));
    if (reply != null || !stream.isStarted()) {
      quotas.closeStream(account);
      if (reply == null) {
        response.setStatus(204);
        callback.succeeded();
      } else {
        reply(response, callback, 200, reply);
      }
      return;
    }
    stream.onGone(
        () -> {
          if (core.cancelStream(stream, request.id())) {
            // The client closed the response: HTTP's cancellation, said as over stdio.
            log.println("notes-mcp: subscription " + request.id() + " cancelled by the client");
          }
          quotas.closeStream(account);
        });
    if (stream.isFinished()) {
      core.cancelStream(stream, request.id());
      quotas.closeStream(account);
      return;
    }
    stream.flush();
    stream.watch(http.getConnectionMetaData().getConnection().getEndPoint());
  }

  /** A batch: only in a session that negotiated 2025-03-26, as over stdio. */
  private void batch(
      org.eclipse.jetty.server.Request http,
      Response response,
      Callback callback,
      Caller caller,
      byte[] body) {
    String sessionId = http.getHeaders().get(SESSION_ID);
    Sessions.Entry entry = sessionId == null ? null : sessions.find(sessionId, caller.name());
    if (sessionId != null && entry == null) {
      sessionNotFound(response, callback, null);
      return;
    }
    if (entry == null || !core.servesBatches(entry.session)) {
      refuse(
          response,
          callback,
          400,
          null,
          ErrorCodes.INVALID_REQUEST,
          "Invalid Request: a JSON-RPC batch is served only in a 2025-03-26 session (later"
              + " revisions have none)");
      return;
    }
    Codec.Batch batch;
    try {
      batch = codec.decodeBatch(body, body.length, MAX_BATCH);
    } catch (Codec.Malformed malformed) {
      reply(response, callback, 400, new Failure(malformed.id(), malformed.error()));
      return;
    }
    List<Message> replies = new ArrayList<>();
    for (Codec.Malformed malformed : batch.malformed()) {
      replies.add(new Failure(malformed.id(), malformed.error()));
    }
    for (Message message : batch.messages()) {
      if (message instanceof Notification) {
        notice(entry, (Notification) message);
      }
    }
    Quotas.Account account = quotas.account(caller.name());
    for (Message message : batch.messages()) {
      if (!(message instanceof Request)) {
        continue;
      }
      Request request = (Request) message;
      Message refused = admit(response, caller, request);
      response.setStatus(200);
      response.getHeaders().remove(HttpHeader.WWW_AUTHENTICATE);
      response.getHeaders().remove(HttpHeader.RETRY_AFTER);
      if (refused != null) {
        replies.add(refused);
        continue;
      }
      Quotas.Exceeded busy = quotas.enter(account, who(caller));
      if (busy != null) {
        replies.add(
            new Failure(request.id(), new ErrorObject(ErrorCodes.OVERLOADED, busy.reason())));
        continue;
      }
      AtomicBoolean cancelled = new AtomicBoolean();
      entry.inFlight.putIfAbsent(request.id(), cancelled);
      try {
        Message reply =
            core.reply(request, new Exchange(entry.session, caller, null, cancelled::get));
        if (reply != null) {
          replies.add(reply);
        }
      } finally {
        entry.inFlight.remove(request.id(), cancelled);
        quotas.leave(account);
      }
    }
    if (replies.isEmpty()) {
      accepted(response, callback);
      return;
    }
    byte[] bytes = codec.encodeBatch(replies);
    write(response, callback, 200, bytes);
  }

  // ---------------------------------------------------------------------------------------------
  // GET and DELETE: a legacy session's stream and its end; 405 without a session (2026-07-28).

  private void get(
      org.eclipse.jetty.server.Request request,
      Response response,
      Callback callback,
      Caller caller) {
    String sessionId = request.getHeaders().get(SESSION_ID);
    if (sessionId == null) {
      withoutSession(response, callback, "GET");
      return;
    }
    String accept = request.getHeaders().get(HttpHeader.ACCEPT);
    if (accept == null || !accepts(accept, EVENT_STREAM)) {
      refuse(
          response,
          callback,
          406,
          null,
          ErrorCodes.INVALID_REQUEST,
          "Not Acceptable: a session's GET stream is " + EVENT_STREAM);
      return;
    }
    Sessions.Entry entry = sessions.find(sessionId, caller.name());
    if (entry == null) {
      sessionNotFound(response, callback, null);
      return;
    }
    Quotas.Account account = quotas.account(caller.name());
    Quotas.Exceeded full = quotas.openStream(account, who(caller));
    if (full != null) {
      tooMany(response, callback, null, full);
      return;
    }
    SseStream stream = new SseStream(response, callback, core, scheduler);
    synchronized (entry) {
      if (entry.stream != null) {
        quotas.closeStream(account);
        refuse(
            response,
            callback,
            409,
            null,
            ErrorCodes.INVALID_REQUEST,
            "Conflict: this session's GET stream is open already; one a session");
        return;
      }
      entry.stream = stream;
    }
    stream.onGone(
        () -> {
          synchronized (entry) {
            if (entry.stream == stream) {
              entry.stream = null;
              core.attach(entry.session, null);
            }
          }
          quotas.closeStream(account);
        });
    request.addFailureListener(stream::failed);
    core.attach(entry.session, stream);
    stream.open();
    stream.watch(request.getConnectionMetaData().getConnection().getEndPoint());
  }

  private void delete(
      org.eclipse.jetty.server.Request request,
      Response response,
      Callback callback,
      Caller caller) {
    String sessionId = request.getHeaders().get(SESSION_ID);
    if (sessionId == null) {
      withoutSession(response, callback, "DELETE");
      return;
    }
    Sessions.Entry entry = sessions.find(sessionId, caller.name());
    if (entry == null) {
      sessionNotFound(response, callback, null);
      return;
    }
    sessions.end(entry);
    response.setStatus(200);
    callback.succeeded();
  }

  private void withoutSession(Response response, Callback callback, String method) {
    response.getHeaders().put(HttpHeader.ALLOW, "POST");
    refuse(
        response,
        callback,
        405,
        null,
        ErrorCodes.INVALID_REQUEST,
        "Method Not Allowed: "
            + method
            + " without "
            + SESSION_ID
            + "; 2026-07-28 is stateless and takes POST only");
  }

  private void sessionNotFound(Response response, Callback callback, Id id) {
    refuse(
        response,
        callback,
        404,
        id,
        ErrorCodes.INVALID_REQUEST,
        "Not Found: no session of that "
            + SESSION_ID
            + " for this caller (it ended, or never was); send initialize without one to open"
            + " another");
  }

  // ---------------------------------------------------------------------------------------------
  // Writing.

  private void accepted(Response response, Callback callback) {
    response.setStatus(202);
    callback.succeeded();
  }

  private void refuse(
      Response response, Callback callback, int status, Id id, int code, String message) {
    reply(response, callback, status, new Failure(id, new ErrorObject(code, message)));
  }

  private void reply(Response response, Callback callback, int status, Message message) {
    byte[] bytes;
    try {
      bytes = codec.encode(message);
    } catch (RuntimeException e) {
      log.println("notes-mcp: internal error encoding a reply:");
      e.printStackTrace(log);
      Id id =
          message instanceof Success
              ? ((Success) message).id()
              : message instanceof Failure ? ((Failure) message).id() : null;
      bytes =
          codec.encode(
              new Failure(
                  id,
                  new ErrorObject(
                      ErrorCodes.INTERNAL_ERROR, "Internal error; see the server's stderr")));
      status = 500;
    }
    write(response, callback, status, bytes);
  }

  private static void write(Response response, Callback callback, int status, byte[] bytes) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, JSON);
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.write(true, ByteBuffer.wrap(bytes), callback);
  }

  /** A media type without its parameters, in lower case. */
  private static String mediaType(String value) {
    int semicolon = value.indexOf(';');
    return (semicolon < 0 ? value : value.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
  }

  /** Whether an Accept header takes {@code type} (or any type). */
  private static boolean accepts(String accept, String type) {
    for (String range : accept.split(",")) {
      String media = mediaType(range);
      if (media.equals(type)
          || media.equals("*/*")
          || media.equals(type.substring(0, type.indexOf('/')) + "/*")) {
        return true;
      }
    }
    return false;
  }

  /** Ends what is open (the server stops). */
  void endAll() {
    core.endAllStreams();
    sessions.endAll();
  }
}

package notesmcp.mcp.http;

import java.io.PrintStream;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import notesmcp.mcp.server.Authenticator;
import notesmcp.mcp.server.Core;
import org.eclipse.jetty.http.HttpCompliance;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.server.handler.MinimumDataRateHandler;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The HTTP door of a server {@link Core}: Jetty, set up with the limits of docs/http.md, serving
 * {@link McpEndpoint} at {@code /mcp}. The program's only way in (by reflection, from a class
 * loader of its own: only JDK types and the parent's {@code notesmcp.mcp.server} types cross).
 */
public final class HttpDoor {
  /** Threads that answer requests; beyond them requests wait in Jetty's queue. */
  static final int MAX_THREADS = 32;

  /** Connections open at once; at the limit, idle ones are closed after {@link #BUSY_IDLE_MS}. */
  static final int MAX_CONNECTIONS = 1024;

  static final long BUSY_IDLE_MS = 1_000;

  /** A connection with nothing to do for this long is closed (Jetty's idle timeout). */
  static final long IDLE_TIMEOUT_MS = 30_000;

  /** A request's headers, in bytes, at most. */
  static final int MAX_HEADER_BYTES = 8 * 1024;

  /** A body arriving slower than this (bytes a second) fails. */
  static final long MIN_BODY_RATE = 1024;

  /** How long a stop waits for requests being answered. */
  static final long STOP_TIMEOUT_MS = 3_000;

  /** Defaults of the per-caller limits; the program passes its own for calls. */
  static final int MAX_REQUESTS_PER_CALLER = 8;

  static final int MAX_STREAMS_PER_CALLER = 4;

  private final Server server;
  private final McpEndpoint endpoint;
  private final String url;

  private HttpDoor(Server server, McpEndpoint endpoint, String url) {
    this.server = server;
    this.endpoint = endpoint;
    this.url = url;
  }

  /**
   * Starts serving and says where on {@code log} ({@code listening on http://HOST:PORT/mcp}).
   *
   * @param authenticator who a request's credential names; null for none (loopback only)
   * @param settings {@code host}, {@code port} (0: any free one), {@code allowedHosts} (the {@code
   *     -allowed-host} entries, one a line), {@code tlsCertificates} and {@code tlsKey} (PEM text,
   *     both or neither), {@code maxCallsPerHour}, {@code maxProposalsPerHour}
   * @throws IllegalArgumentException when the settings are not safe or not usable; its message says
   *     why, for the command line's usage error
   */
  public static HttpDoor start(
      Core core, Authenticator authenticator, Map<String, String> settings, PrintStream log)
      throws Exception {
    return start(core, authenticator, settings, log, null);
  }

  /**
   * Starts serving as {@link #start(Core, Authenticator, Map, PrintStream)} does, with {@code
   * pages} answering every path but {@code /mcp} (null: none, 404).
   */
  public static HttpDoor start(
      Core core,
      Authenticator authenticator,
      Map<String, String> settings,
      PrintStream log,
      Pages pages)
      throws Exception {
    String host = settings.get("host");
    int port = Integer.parseInt(settings.get("port"));
    boolean tls = settings.get("tlsCertificates") != null;
    if (!HostCheck.isLoopback(host) && (authenticator == null || !tls)) {
      throw new IllegalArgumentException(
          "-http "
              + host
              + ": a server reached beyond this machine needs authentication and TLS"
              + " (-tls-cert, -tls-key); or keep it on 127.0.0.1 behind a reverse proxy or tunnel"
              + " (docs/http.md, \"Reaching it from other devices\")");
    }
    List<String> allowed = new ArrayList<>();
    String entries = settings.getOrDefault("allowedHosts", "");
    for (String entry : entries.split("\n")) {
      if (!entry.isBlank()) {
        allowed.add(entry.trim());
      }
    }
    Quotas quotas =
        new Quotas(
            MAX_REQUESTS_PER_CALLER,
            MAX_STREAMS_PER_CALLER,
            Integer.parseInt(settings.get("maxCallsPerHour")),
            Integer.parseInt(settings.get("maxProposalsPerHour")));

    QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 2, 60_000);
    threads.setName("notes-mcp http");
    threads.setDaemon(true);
    Server server = new Server(threads);
    server.setStopTimeout(STOP_TIMEOUT_MS);
    server.setStopAtShutdown(false);

    HttpConfiguration config = new HttpConfiguration();
    config.setRequestHeaderSize(MAX_HEADER_BYTES);
    config.setResponseHeaderSize(MAX_HEADER_BYTES);
    config.setSendServerVersion(false);
    config.setSendXPoweredBy(false);
    config.setHttpCompliance(HttpCompliance.RFC9110);
    config.setUriCompliance(UriCompliance.DEFAULT);
    HttpConnectionFactory http = new HttpConnectionFactory(config);
    ServerConnector connector;
    if (tls) {
      KeyStore keys = Pem.keyStore(settings.get("tlsCertificates"), settings.get("tlsKey"));
      SslContextFactory.Server context = new SslContextFactory.Server();
      context.setKeyStore(keys);
      context.setKeyStorePassword(Pem.PASSWORD);
      context.setIncludeProtocols("TLSv1.3", "TLSv1.2");
      // The Host check, not SNI, decides which names the server answers to.
      SecureRequestCustomizer secure = new SecureRequestCustomizer(false);
      secure.setSniHostCheck(false);
      config.addCustomizer(secure);
      connector =
          new ServerConnector(server, 1, 1, new SslConnectionFactory(context, "http/1.1"), http);
    } else {
      connector = new ServerConnector(server, 1, 1, http);
    }
    connector.setHost(host);
    connector.setPort(port);
    connector.setIdleTimeout(IDLE_TIMEOUT_MS);
    connector.setAcceptQueueSize(MAX_CONNECTIONS);
    server.addConnector(connector);
    NetworkConnectionLimit limit = new NetworkConnectionLimit(MAX_CONNECTIONS, server);
    limit.setEndPointIdleTimeout(BUSY_IDLE_MS);
    server.addBean(limit);

    McpEndpoint endpoint = new McpEndpoint(core, authenticator, quotas, log, pages);
    // The graceful stop waits (up to STOP_TIMEOUT_MS) for the requests being answered.
    QuietConnections quiet =
        new QuietConnections(
            new GracefulHandler(new MinimumDataRateHandler(endpoint, MIN_BODY_RATE, 0)));
    connector.addBean(quiet);
    server.setHandler(quiet);
    server.start();
    int real = connector.getLocalPort();
    String url = (tls ? "https://" : "http://") + HostCheck.hostPart(host) + ":" + real + "/mcp";
    if (pages != null) {
      try {
        pages.listening(url);
      } catch (RuntimeException e) {
        server.stop();
        throw e;
      }
    }
    endpoint.serve(new HostCheck(host, real, allowed), server.getScheduler());
    quiet.start(server.getScheduler());
    Sessions sessions = endpoint.sessions();
    server.getScheduler().schedule(new Sweep(server, sessions), 1, TimeUnit.MINUTES);
    log.println("notes-mcp: listening on " + url);
    return new HttpDoor(server, endpoint, url);
  }

  /** Ends idle sessions once a minute. */
  private static final class Sweep implements Runnable {
    private final Server server;
    private final Sessions sessions;

    Sweep(Server server, Sessions sessions) {
      this.server = server;
      this.sessions = sessions;
    }

    @Override
    public void run() {
      sessions.sweep();
      if (server.isRunning()) {
        server.getScheduler().schedule(this, 1, TimeUnit.MINUTES);
      }
    }
  }

  /** Where the server is reached, as it said on stderr. */
  public String url() {
    return url;
  }

  /**
   * Stops: every open stream gets its closing result, sessions end, requests being answered get up
   * to {@link #STOP_TIMEOUT_MS}; then the connections close.
   */
  public void stop() throws Exception {
    endpoint.endAll();
    server.stop();
  }
}

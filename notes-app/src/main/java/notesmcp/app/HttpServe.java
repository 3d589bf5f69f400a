package notesmcp.app;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import notesmcp.cli.ExitCode;
import notesmcp.files.TrustedFile;
import notesmcp.mcp.server.Authenticator;
import notesmcp.mcp.server.Core;
import notesmcp.policy.proposals.ProposalDirectory;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.vault.Workspace;

/**
 * {@code notes-mcp -serve -http HOST:PORT}: the same server core as over stdio, behind the
 * Streamable HTTP door of module mcp-http (docs/http.md). Its files (the tokens, the TLS
 * certificate and key) are read before anything is created on disk, as every option is; then the
 * door starts, and the process serves until SIGTERM or SIGINT, when it stops gracefully (open
 * streams get their closing result, requests being answered get up to 3 s) and exits 0.
 */
final class HttpServe {
  /** A PEM file larger than this is refused. */
  private static final int MAX_PEM_BYTES = 1024 * 1024;

  private final Options.Http options;
  private final Authenticator authenticator; // null: -auth none, or -auth oauth without -tokens
  private Path proposals; // -auth oauth keeps its state there
  private final String certificates;
  private final String key;

  private HttpServe(
      Options.Http options, Authenticator authenticator, String certificates, String key) {
    this.options = options;
    this.authenticator = authenticator;
    this.certificates = certificates;
    this.key = key;
  }

  /** A file of the options that cannot be used: a usage error, its message said on stderr. */
  static final class Unusable extends Exception {
    private static final long serialVersionUID = 1L;

    Unusable(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Reads the tokens and TLS files, carefully; nothing is created on disk.
   *
   * @param proposals the proposals folder ({@code -auth oauth} keeps its state in it), or null
   */
  static HttpServe prepare(Options.Http options, Path proposals, PrintStream log) throws Unusable {
    HttpServe prepared = prepare(options, log);
    prepared.proposals = proposals;
    return prepared;
  }

  /** Reads the tokens and TLS files, carefully; nothing is created on disk. */
  static HttpServe prepare(Options.Http options, PrintStream log) throws Unusable {
    Authenticator authenticator = null;
    if (options.tokenAuth()) {
      try {
        List<TokenFile.Entry> entries = TokenFile.read(options.tokens(), false);
        if (entries.isEmpty()) {
          log.println(
              "notes-mcp: "
                  + options.tokens()
                  + " holds no token: every request is refused until 'notes-mcp token add NAME"
                  + " -tokens "
                  + options.tokens()
                  + "' makes one");
        }
        authenticator = new TokenAuthenticator(options.tokens(), entries, log);
      } catch (IOException | TokenFile.Invalid e) {
        throw new Unusable(
            "-tokens "
                + options.tokens()
                + ": "
                + (e instanceof IOException ? StartUp.problem((IOException) e) : e.getMessage()));
      }
    }
    String certificates = null;
    String key = null;
    if (options.tlsCert() != null) {
      certificates = pem("-tls-cert", options.tlsCert(), false);
      key = pem("-tls-key", options.tlsKey(), true);
    }
    return new HttpServe(options, authenticator, certificates, key);
  }

  /**
   * A PEM file read as the policy file is ({@link TrustedFile}); a private key must also be
   * readable by its owner alone.
   */
  private static String pem(String flag, Path file, boolean secret) throws Unusable {
    try {
      byte[] bytes = TrustedFile.read(file, MAX_PEM_BYTES);
      if (bytes == null) {
        throw new Unusable(flag + " " + file + ": larger than " + MAX_PEM_BYTES + " bytes");
      }
      if (secret) {
        int mode = (Integer) Files.getAttribute(file, "unix:mode");
        if ((mode & 0077) != 0) {
          throw new Unusable(
              flag
                  + " "
                  + file
                  + ": a private key must be readable by its owner alone (mode "
                  + Integer.toOctalString(mode & 0777)
                  + "); run: chmod 600 "
                  + file);
        }
      }
      return new String(bytes, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new Unusable(flag + " " + file + ": " + StartUp.problem(e));
    }
  }

  /**
   * What the owner's pages of {@code -auth oauth} are given (module notes-web): the server's own
   * workspace, proposals folder and policy, from which the review page makes its approvals
   * (docs/review-page.md), and the notices, told where the review page is. This program's serving
   * side never approves: only the page, in notes-web, builds the approvals (BordersTest).
   */
  record Owner(
      Workspace workspace, ProposalDirectory proposals, Policy policy, ProposalNotices notices) {}

  /**
   * Serves until SIGTERM or SIGINT.
   *
   * @param maxCalls the policy's {@code maxCalls}: over HTTP, per caller and rolling hour
   */
  ExitCode serve(Core core, int maxCalls, Owner owner, Runnable atEnd, PrintStream log) {
    if (authenticator == null && !options.oauth()) {
      log.println(
          "notes-mcp: authentication is off (-auth none): any program on this machine that can"
              + " reach "
              + options.host()
              + " may read and propose as you; use -auth token for anything else");
    }
    Map<String, String> settings = new HashMap<>();
    settings.put("host", options.host());
    settings.put("port", Integer.toString(options.port()));
    settings.put("allowedHosts", String.join("\n", options.allowedHosts()));
    settings.put("maxCallsPerHour", Integer.toString(maxCalls));
    settings.put("maxProposalsPerHour", Integer.toString(options.maxProposals()));
    if (options.oauth()) {
      settings.put("auth", "oauth");
      putIfGiven(settings, "proposals", proposals == null ? null : proposals.toString());
      putIfGiven(settings, "issuer", options.issuer());
      putIfGiven(settings, "jwks", options.jwks());
      putIfGiven(settings, "resource", options.resource());
    }
    if (certificates != null) {
      settings.put("tlsCertificates", certificates);
      settings.put("tlsKey", key);
    }
    HttpModule.Door door;
    try {
      door = HttpModule.start(core, authenticator, settings, owner, log);
    } catch (IllegalArgumentException e) {
      log.println("notes-mcp: " + e.getMessage());
      return ExitCode.USAGE;
    } catch (HttpModule.Unavailable e) {
      log.println("notes-mcp: cannot start: " + e.getMessage());
      return ExitCode.CANNOT_START;
    } catch (Exception e) {
      log.println(
          "notes-mcp: cannot listen on "
              + options.host()
              + ":"
              + options.port()
              + " ("
              + (e.getMessage() == null ? e.toString() : e.getMessage())
              + ")");
      return ExitCode.USAGE;
    }
    Thread stopAtExit =
        new Thread("notes-mcp http stop") {
          @Override
          public void run() {
            stopDoor(door, log);
          }
        };
    Runtime.getRuntime().addShutdownHook(stopAtExit);
    try {
      HttpModule.awaitStopSignal(log);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(stopAtExit);
    } catch (IllegalStateException e) {
      // the JVM is shutting down already: the hook stops the door
      return ExitCode.OK;
    }
    log.println("notes-mcp: stopping (signal received)");
    stopDoor(door, log);
    atEnd.run();
    return ExitCode.OK;
  }

  private static void putIfGiven(Map<String, String> settings, String key, String value) {
    if (value != null) {
      settings.put(key, value);
    }
  }

  private static void stopDoor(HttpModule.Door door, PrintStream log) {
    try {
      door.stop();
    } catch (Exception e) {
      log.println("notes-mcp: the HTTP server did not stop cleanly (" + e + ")");
    }
  }
}

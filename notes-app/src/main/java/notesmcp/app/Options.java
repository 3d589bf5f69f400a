package notesmcp.app;

import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import notesmcp.cli.DurationText;
import notesmcp.cli.Flag;
import notesmcp.cli.UsageException;
import notesmcp.text.JsonInput;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * The parsed command line (docs/behaviour.md, "Command line"). Every flag takes one or two dashes,
 * and a value either as the next word or after {@code =}: {@code -root W}, {@code --root W}, {@code
 * --root=W}. The word {@code review} selects the review mode: {@code notes-mcp review -root W
 * -proposals DIR [--approve ID --sha256 HEX | --reject ID]}, "single- and double-dash spellings
 * both work, in any order" (docs/approvals.md). The word {@code config} prints a host's
 * configuration entry: {@code notes-mcp config -root W [-host NAME] [--install]}, for a server that
 * runs elsewhere {@code notes-mcp config -url URL -token-env VAR [-host NAME] [--install]}, and the
 * systemd user unit of an HTTP server {@code notes-mcp config -host systemd -root W -http HOST:PORT
 * -tokens FILE [--install]} (docs/hosts.md).
 *
 * <p>{@code notifyCommand} is {@code -serve}'s {@code -notify-command 'CMD ARGS'}: a program run,
 * never through a shell, when a proposal arrives (docs/review-page.md, "Telling the person").
 */
record Options(
    Mode mode,
    Path root,
    String tool,
    String arguments,
    Duration timeout,
    Path policyFile,
    String serverCommand,
    Integer maxCalls,
    Path proposals,
    String approve,
    String sha256,
    String reject,
    boolean verbose,
    String host,
    boolean install,
    boolean replace,
    String name,
    String undo,
    boolean log,
    Http http,
    String notifyCommand,
    Remote remote) {

  /**
   * {@code config -url URL -token-env VAR}: a host's entry for a server that runs elsewhere,
   * reached at {@code url} with the token the host reads from the environment variable {@code
   * tokenEnv} (docs/hosts.md, "Over HTTP"). Either may be null as parsed; {@code forConfig}
   * requires both.
   */
  record Remote(String url, String tokenEnv) {}

  /** What {@code -token-env} takes: a name every shell and host reads as one variable. */
  static final String VARIABLE_RULE = "[A-Za-z_][A-Za-z0-9_]{0,63}";

  /**
   * {@code -serve -http HOST:PORT} and what goes with it (docs/http.md): where to listen, how
   * callers authenticate ({@code token}, the default, {@code oauth} (docs/oauth.md), or {@code
   * none}, loopback only), the tokens file, TLS, the extra names the server is reached by, and the
   * proposals a caller may make in an hour.
   *
   * @param tokenAuth whether the tokens file is checked: {@code -auth token}, or {@code -auth
   *     oauth} with {@code -tokens}
   * @param oauth {@code -auth oauth}: OAuth access tokens, from the built-in authorization server
   *     ({@code issuer} its public address, or null for the loopback address bound) or from an
   *     external one ({@code jwks} its keys, {@code resource} this server's public URL)
   */
  record Http(
      String host,
      int port,
      boolean tokenAuth,
      Path tokens,
      Path tlsCert,
      Path tlsKey,
      List<String> allowedHosts,
      int maxProposals,
      boolean oauth,
      String issuer,
      String jwks,
      String resource) {
    /** Proposals (calls of tools that are not read-only) one caller may make in an hour. */
    static final int DEFAULT_MAX_PROPOSALS = 60;

    boolean loopback() {
      return isLoopback(host);
    }

    static boolean isLoopback(String host) {
      String h = host.toLowerCase(java.util.Locale.ROOT);
      return h.equals("localhost")
          || h.equals("::1")
          || h.matches("127\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}");
    }
  }

  enum Mode {
    HELP,
    VERSION,
    SERVE,
    LIST,
    CALL,
    REVIEW,
    CONFIG
  }

  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  /** Flags that take no value. */
  private static final Set<String> SWITCHES =
      Set.of("help", "h", "version", "serve", "v", "verbose", "install", "replace", "log");

  /** Flags of {@code -serve -http} only. */
  private static final Set<String> HTTP_FLAGS =
      Set.of(
          "http",
          "auth",
          "tokens",
          "tls-cert",
          "tls-key",
          "allowed-host",
          "max-proposals",
          "issuer",
          "jwks",
          "resource");

  /** Flags that take a value. */
  private static final Set<String> VALUED =
      Set.of(
          "root",
          "tool",
          "args",
          "timeout",
          "policy",
          "server-command",
          "max-calls",
          "proposals",
          "approve",
          "sha256",
          "reject",
          "undo",
          "host",
          "name",
          "http",
          "auth",
          "tokens",
          "tls-cert",
          "tls-key",
          "allowed-host",
          "max-proposals",
          "issuer",
          "jwks",
          "resource",
          "notify-command",
          "url",
          "token-env");

  static Options parse(List<String> args) throws UsageException {
    boolean serve = false;
    boolean help = false;
    boolean version = false;
    Path root = null;
    String tool = null;
    String arguments = null;
    Duration timeout = null;
    Path policy = null;
    String serverCommand = null;
    Integer maxCalls = null;
    Path proposals = null;
    boolean review = false;
    boolean config = false;
    String host = null;
    String approve = null;
    String sha256 = null;
    String reject = null;
    boolean verbose = false;
    boolean install = false;
    boolean replace = false;
    String name = null;
    String undo = null;
    boolean log = false;
    String http = null;
    String auth = null;
    Path tokens = null;
    Path tlsCert = null;
    Path tlsKey = null;
    List<String> allowedHosts = new java.util.ArrayList<>();
    Integer maxProposals = null;
    String issuer = null;
    String jwks = null;
    String resource = null;
    String notifyCommand = null;
    String url = null;
    String tokenEnv = null;
    boolean anyHttpFlag = false;
    for (int i = 0; i < args.size(); i++) {
      String word = args.get(i);
      if (word.equals("review") && !review && !config) {
        review = true;
        continue;
      }
      if (word.equals("config") && !review && !config) {
        config = true;
        continue;
      }
      if (word.equals(ChatModule.WORD)) {
        throw new UsageException("chat goes first: notes-mcp chat -root PATH -model NAME ...");
      }
      Flag flag = Flag.read(args, i, SWITCHES, VALUED, "");
      i += flag.words - 1;
      anyHttpFlag |= HTTP_FLAGS.contains(flag.name);
      switch (flag.name) {
        case "help", "h" -> help = true;
        case "version" -> version = true;
        case "serve" -> serve = true;
        case "v", "verbose" -> verbose = true;
        case "root" -> root = flag.path();
        case "tool" -> tool = flag.value;
        case "args" -> arguments = compactObject(flag.value);
        case "timeout" -> timeout = duration(flag.value);
        case "policy" -> policy = flag.path();
        case "server-command" -> serverCommand = flag.command();
        case "max-calls" -> maxCalls = count("-max-calls", flag.value);
        case "proposals" -> proposals = flag.path();
        case "approve" -> approve = flag.value;
        case "sha256" -> sha256 = sha256(flag.value);
        case "reject" -> reject = flag.value;
        case "host" -> host = flag.value;
        case "install" -> install = true;
        case "replace" -> replace = true;
        case "name" -> name = flag.value;
        case "undo" -> undo = flag.value;
        case "log" -> log = true;
        case "http" -> http = flag.value;
        case "auth" -> auth = flag.value;
        case "tokens" -> tokens = flag.path();
        case "tls-cert" -> tlsCert = flag.path();
        case "tls-key" -> tlsKey = flag.path();
        case "allowed-host" -> allowedHosts.add(allowedHost(flag.value));
        case "max-proposals" -> maxProposals = count("-max-proposals", flag.value);
        case "issuer" -> issuer = flag.value;
        case "jwks" -> jwks = flag.value;
        case "resource" -> resource = flag.value;
        case "notify-command" -> notifyCommand = flag.command();
        case "url" -> url = flag.value;
        case "token-env" -> tokenEnv = flag.value;
        default -> throw new AssertionError(flag.name);
      }
    }
    if (help) {
      return only(Mode.HELP);
    }
    if (version) {
      return only(Mode.VERSION);
    }
    Options parsed =
        new Options(
            null,
            root,
            tool,
            arguments,
            timeout,
            policy,
            serverCommand,
            maxCalls,
            proposals,
            approve,
            sha256,
            reject,
            verbose,
            host,
            install,
            replace,
            name,
            undo,
            log,
            null,
            notifyCommand,
            url == null && tokenEnv == null ? null : new Remote(url, tokenEnv));
    if (notifyCommand != null && (!serve || review || config)) {
      throw new UsageException("-notify-command goes with -serve only");
    }
    boolean systemd = config && ConfigCommand.SYSTEMD.equals(host);
    if (anyHttpFlag && (!serve || review || config) && !systemd) {
      throw new UsageException(
          "-http, -auth, -tokens, -tls-cert, -tls-key, -allowed-host, -max-proposals, -issuer,"
              + " -jwks and -resource go with -serve only (or with config -host systemd, which"
              + " writes the unit that runs it)");
    }
    if (anyHttpFlag) {
      parsed =
          parsed.withHttp(
              http(
                  http,
                  auth,
                  tokens,
                  tlsCert,
                  tlsKey,
                  allowedHosts,
                  maxProposals,
                  new OAuthFlags(issuer, jwks, resource, proposals != null)));
    }
    if (review) {
      return parsed.forReview(serve);
    }
    if (config) {
      return parsed.forConfig(serve);
    }
    if (approve != null || sha256 != null || reject != null) {
      throw new UsageException("--approve, --sha256 and --reject go with the review command only");
    }
    if (undo != null || log) {
      throw new UsageException("--undo and --log go with the review command only");
    }
    if (host != null || install || replace || name != null) {
      throw new UsageException(
          "-host, --install, --replace and --name go with the config command only");
    }
    if (url != null || tokenEnv != null) {
      throw new UsageException("-url and -token-env go with the config command only");
    }
    return serve ? parsed.forServe() : parsed.forClient();
  }

  private boolean hasClientFlags() {
    return tool != null || arguments != null || timeout != null || serverCommand != null || verbose;
  }

  private Options forReview(boolean serve) throws UsageException {
    if (serve
        || hasClientFlags()
        || maxCalls != null
        || host != null
        || install
        || replace
        || name != null) {
      throw new UsageException(
          "review takes only -root, -proposals, -policy, and --approve ID --sha256 HEX, --reject"
              + " ID, --undo ID or --log");
    }
    if (root == null || proposals == null) {
      throw new UsageException("review needs -root PATH and -proposals DIR");
    }
    if ((approve == null) != (sha256 == null)) {
      throw new UsageException(
          "--approve ID needs --sha256 HEX, the proposal's full SHA-256, and --sha256 needs"
              + " --approve ID");
    }
    int decisions = (approve != null ? 1 : 0) + (reject != null ? 1 : 0) + (undo != null ? 1 : 0);
    if (approve != null && reject != null) {
      throw new UsageException("give --approve or --reject, not both");
    }
    if (decisions > 1 || (log && decisions > 0)) {
      throw new UsageException("give one of --approve, --reject, --undo and --log");
    }
    return with(Mode.REVIEW, null);
  }

  private Options forConfig(boolean serve) throws UsageException {
    String named = host == null ? ConfigCommand.DEFAULT_HOST : host;
    boolean systemd = named.equals(ConfigCommand.SYSTEMD);
    if (serve
        || hasClientFlags()
        || (maxCalls != null && !systemd)
        || approve != null
        || sha256 != null
        || reject != null
        || undo != null
        || log) {
      throw new UsageException(
          "config takes only -root PATH, -host NAME, -policy FILE, -proposals DIR, --name NAME,"
              + " --install and --replace; or -url URL -token-env VAR for a server that runs"
              + " elsewhere; or, with -host systemd, the flags of -serve -http");
    }
    if (replace && !install) {
      throw new UsageException("--replace goes with --install");
    }
    if (name != null && !name.matches(ConfigCommand.NAME_RULE)) {
      throw new UsageException(
          "--name takes 1 to 64 letters, digits, '-' or '_', not \"" + name + "\"");
    }
    if (!ConfigCommand.HOSTS.contains(named) && !systemd) {
      throw new UsageException(
          "unknown host \""
              + named
              + "\"; -host is one of "
              + String.join(", ", ConfigCommand.HOSTS)
              + ", or systemd for the unit of an HTTP server");
    }
    if (remote != null) {
      return forRemote(named);
    }
    if (root == null) {
      throw new UsageException(
          "config needs -root PATH, the workspace folder the host will serve (or -url URL"
              + " -token-env VAR for a server that runs elsewhere)");
    }
    if (systemd && http == null) {
      throw new UsageException(
          "-host systemd writes a unit that keeps -serve -http running: give -http HOST:PORT"
              + " and -tokens FILE (or -auth oauth), as -serve takes them");
    }
    return new Options(
        Mode.CONFIG,
        root,
        null,
        null,
        null,
        policyFile,
        null,
        maxCalls,
        proposals,
        null,
        null,
        null,
        false,
        named,
        install,
        replace,
        name,
        null,
        false,
        http,
        null,
        null);
  }

  /**
   * {@code config -url URL -token-env VAR}: the server runs elsewhere, so its own flags ({@code
   * -root}, {@code -policy}, {@code -proposals}) are not the entry's; the URL is checked ({@link
   * ConfigCommand#checkUrl}) and the variable named as every host reads one.
   */
  private Options forRemote(String named) throws UsageException {
    if (root != null || policyFile != null || proposals != null) {
      throw new UsageException(
          "config -url writes a host's entry for a server that runs elsewhere: -root, -policy"
              + " and -proposals are that server's flags (config -host systemd writes its unit)");
    }
    if (remote.url() == null) {
      throw new UsageException("-token-env goes with -url URL");
    }
    if (remote.tokenEnv() == null) {
      throw new UsageException(
          "-url needs -token-env VAR: the environment variable the host reads the token from"
              + " (a token is never written into a host's file)");
    }
    if (!remote.tokenEnv().matches(VARIABLE_RULE)) {
      throw new UsageException(
          "-token-env takes an environment variable's name (letters, digits and '_', not"
              + " starting with a digit, at most 64), not \""
              + remote.tokenEnv()
              + "\"");
    }
    if (named.equals(ConfigCommand.SYSTEMD)) {
      throw new UsageException(
          "-host systemd writes the unit of the server itself: give it -root and -http, not -url");
    }
    if (named.equals("claude-desktop")) {
      throw new UsageException(
          "Claude Desktop takes a remote server as a connector, added in its settings and signed"
              + " in by OAuth, not from its file: run the server with -auth oauth"
              + " (docs/oauth.md); -host is then one of "
              + String.join(", ", ConfigCommand.REMOTE_HOSTS));
    }
    ConfigCommand.checkUrl(remote.url());
    return new Options(
        Mode.CONFIG,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        false,
        named,
        install,
        replace,
        name,
        null,
        false,
        null,
        null,
        remote);
  }

  private Options forServe() throws UsageException {
    if (root == null) {
      throw new UsageException("-serve needs -root PATH, the workspace folder");
    }
    if (hasClientFlags()) {
      throw new UsageException(
          "-tool, -args, -timeout, -server-command and -v are client flags;"
              + " they do not go with -serve");
    }
    return with(Mode.SERVE, null);
  }

  private Options forClient() throws UsageException {
    if (root == null && serverCommand == null) {
      throw new UsageException(
          "give -root PATH (the workspace to serve), or -serve -root PATH" + " to run the server");
    }
    if (arguments != null && tool == null) {
      throw new UsageException("-args needs -tool NAME");
    }
    return with(tool == null ? Mode.LIST : Mode.CALL, timeout == null ? DEFAULT_TIMEOUT : timeout);
  }

  private Options with(Mode newMode, Duration newTimeout) {
    return new Options(
        newMode,
        root,
        tool,
        arguments,
        newTimeout,
        policyFile,
        serverCommand,
        maxCalls,
        proposals,
        approve,
        sha256,
        reject,
        verbose,
        host,
        install,
        replace,
        name,
        undo,
        log,
        http,
        notifyCommand,
        remote);
  }

  private Options withHttp(Http value) {
    return new Options(
        mode,
        root,
        tool,
        arguments,
        timeout,
        policyFile,
        serverCommand,
        maxCalls,
        proposals,
        approve,
        sha256,
        reject,
        verbose,
        host,
        install,
        replace,
        name,
        undo,
        log,
        value,
        notifyCommand,
        remote);
  }

  private static Options only(Mode mode) {
    return new Options(
        mode, null, null, null, null, null, null, null, null, null, null, null, false, null, false,
        false, null, null, false, null, null, null);
  }

  /** The flags of {@code -auth oauth}, and whether {@code -proposals} was given. */
  private record OAuthFlags(String issuer, String jwks, String resource, boolean proposals) {
    boolean any() {
      return issuer != null || jwks != null || resource != null;
    }
  }

  /**
   * The HTTP flags, checked together (docs/http.md, "Safe by default"): {@code -http HOST:PORT} is
   * required once any is given; {@code -auth} is {@code token} (the default, which needs {@code
   * -tokens FILE}) or {@code none}, which only a loopback address may use; an address beyond this
   * machine needs {@code token} and TLS ({@code -tls-cert} with {@code -tls-key}).
   */
  private static Http http(
      String address,
      String auth,
      Path tokens,
      Path tlsCert,
      Path tlsKey,
      List<String> allowedHosts,
      Integer maxProposals,
      OAuthFlags oauth)
      throws UsageException {
    if (address == null) {
      throw new UsageException(
          "-auth, -tokens, -tls-cert, -tls-key, -allowed-host and -max-proposals go with -http"
              + " HOST:PORT");
    }
    int colon = address.lastIndexOf(':');
    String host = colon < 0 ? "" : address.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port = -1;
    try {
      port = colon < 0 ? -1 : Integer.parseInt(address.substring(colon + 1));
    } catch (NumberFormatException e) {
      // reported below
    }
    if (host.isEmpty() || port < 0 || port > 65535 || !host.matches("[A-Za-z0-9.:-]+")) {
      throw new UsageException(
          "-http takes HOST:PORT (127.0.0.1:8765; [::1]:8765; port 0 picks a free one), not \""
              + address
              + "\"");
    }
    boolean tokenAuth;
    boolean oauthAuth = "oauth".equals(auth);
    if (auth == null || auth.equals("token")) {
      tokenAuth = true;
    } else if (auth.equals("none")) {
      tokenAuth = false;
    } else if (oauthAuth) {
      tokenAuth = tokens != null;
    } else {
      throw new UsageException("-auth takes token, oauth or none, not \"" + auth + "\"");
    }
    if (!oauthAuth && oauth.any()) {
      throw new UsageException("-issuer, -jwks and -resource go with -auth oauth");
    }
    if (oauthAuth) {
      checkOAuth(oauth, Http.isLoopback(host));
    }
    if (tokenAuth && tokens == null) {
      throw new UsageException(
          "-http needs -tokens FILE (made by 'notes-mcp token add NAME -tokens FILE'), -auth"
              + " oauth (docs/oauth.md), or -auth none on a loopback address");
    }
    if (!tokenAuth && tokens != null) {
      throw new UsageException("-tokens goes with -auth token, not -auth none");
    }
    if ((tlsCert == null) != (tlsKey == null)) {
      throw new UsageException("-tls-cert and -tls-key go together");
    }
    boolean loopback = Http.isLoopback(host);
    if (!tokenAuth && !oauthAuth && !loopback) {
      throw new UsageException(
          "-auth none is only for a loopback address (127.0.0.1, ::1, localhost), not " + host);
    }
    if (!loopback && tlsCert == null) {
      throw new UsageException(
          "-http "
              + address
              + ": a server reached beyond this machine needs TLS (-tls-cert, -tls-key) as well"
              + " as tokens; or keep it on 127.0.0.1 behind a reverse proxy or tunnel"
              + " (docs/http.md, \"Reaching it from other devices\")");
    }
    return new Http(
        host,
        port,
        tokenAuth,
        tokens,
        tlsCert,
        tlsKey,
        List.copyOf(allowedHosts),
        maxProposals == null ? Http.DEFAULT_MAX_PROPOSALS : maxProposals,
        oauthAuth,
        oauth.issuer(),
        oauth.jwks(),
        oauth.resource());
  }

  /**
   * {@code -auth oauth} (docs/oauth.md): its state is kept in the proposals folder, so {@code
   * -proposals} is required; {@code -issuer} may be left out only on a loopback address (the issuer
   * is then that address and its port); {@code -jwks} (an external authorization server) needs
   * {@code -issuer} and {@code -resource}, and {@code -resource} goes with {@code -jwks} only. The
   * URLs themselves are checked when the server starts.
   */
  private static void checkOAuth(OAuthFlags oauth, boolean loopback) throws UsageException {
    if (!oauth.proposals()) {
      throw new UsageException(
          "-auth oauth needs -proposals DIR: its state (keys, grants, the owner's passphrase) is"
              + " kept there, in oauth/");
    }
    if (oauth.issuer() == null && !loopback) {
      throw new UsageException(
          "-auth oauth needs -issuer https://HOST, the public address the server is reached by");
    }
    if (oauth.jwks() != null && (oauth.issuer() == null || oauth.resource() == null)) {
      throw new UsageException(
          "-jwks URL (an external authorization server) needs -issuer (that server's) and"
              + " -resource (this server's public URL, ending in /mcp)");
    }
    if (oauth.resource() != null && oauth.jwks() == null) {
      throw new UsageException(
          "-resource goes with -jwks; the built-in authorization server's resource is the"
              + " issuer followed by /mcp");
    }
  }

  /**
   * {@code -allowed-host HOST} or {@code HOST:PORT}: a name or address, as a Host header has it.
   */
  private static String allowedHost(String value) throws UsageException {
    if (!value.matches("(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?")) {
      throw new UsageException(
          "-allowed-host takes HOST or HOST:PORT as a Host header names the server"
              + " (notes.example.org, notes.example.org:8443, [2001:db8::1]:8443), not \""
              + value
              + "\"");
    }
    return value;
  }

  /**
   * {@code --sha256} takes the full 64 hex digits (either case), never a prefix
   * (docs/approvals.md). Only the form is checked here; whether it is the proposal's is the
   * approval's to decide.
   */
  private static String sha256(String text) throws UsageException {
    if (!text.matches("[0-9a-fA-F]{64}")) {
      throw new UsageException(
          "--sha256 takes the full 64 hex digits of the proposal's SHA-256 (a prefix is never"
              + " enough), not "
              + text.length()
              + " characters");
    }
    return text;
  }

  private static int count(String flag, String text) throws UsageException {
    try {
      int value = Integer.parseInt(text);
      if (value >= 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException(flag + " takes a whole number >= 0, not \"" + text + "\"");
  }

  /** {@code -timeout}: see {@link DurationText} for what is accepted. */
  static Duration duration(String text) throws UsageException {
    Optional<Duration> value = DurationText.parse(text);
    if (value.isPresent()) {
      return value.get();
    }
    throw new UsageException("-timeout takes " + DurationText.ACCEPTED + ", not \"" + text + "\"");
  }

  /**
   * Checks that {@code json} is one JSON object and returns it on one line, token for token, so
   * duplicate keys reach the server as written (the server, not this client, must refuse them).
   */
  static String compactObject(String json) throws UsageException {
    JsonFactory factory = new JsonFactory();
    StringWriter out = new StringWriter(json.length());
    try (JsonParser parser = factory.createParser(ObjectReadContext.empty(), json);
        JsonGenerator generator = factory.createGenerator(ObjectWriteContext.empty(), out)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new UsageException("-args must be a JSON object, such as '{\"path\":\"notes.txt\"}'");
      }
      generator.copyCurrentStructure(parser);
      if (parser.nextToken() != null) {
        throw new UsageException("-args must hold exactly one JSON object");
      }
    } catch (JacksonException e) {
      throw new UsageException("-args is not valid JSON: " + JsonInput.describe(e));
    }
    return out.toString();
  }
}

package notesmcp.web;

import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jose.util.Resource;
import java.io.IOException;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import notesmcp.mcp.http.HttpDoor;
import notesmcp.mcp.server.Authenticator;
import notesmcp.mcp.server.Core;
import notesmcp.policy.proposals.ProposalDirectory;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.vault.Workspace;

/**
 * {@code -serve -http HOST:PORT -auth oauth}: the HTTP door with OAuth (docs/oauth.md). The
 * program's only way into this module for serving (by reflection, from the plug-in's class loader:
 * only JDK types, the parent's {@code notesmcp.mcp.server} types and the server's own workspace,
 * proposals folder and policy cross), beside {@link OwnerCommand} for the {@code owner} commands.
 */
public final class WebDoor {
  /** An external server's keys are fetched at most this long, and this large. */
  static final int JWKS_TIMEOUT_MS = 5_000;

  static final int JWKS_MAX_BYTES = 256 * 1024;

  /** Keys are kept this long; a token naming a key not among them fetches them again sooner. */
  static final long JWKS_CACHE_MS = 5 * 60_000;

  /** At most one fetch of the keys this often. */
  static final long JWKS_MIN_INTERVAL_MS = 30_000;

  private WebDoor() {}

  /**
   * Starts the door with OAuth. {@code settings} are {@link HttpDoor}'s, and: {@code proposals}
   * (the proposals folder, whose {@code oauth/} holds the state), {@code issuer} (absent: the
   * loopback address the door is bound to), and for an external authorization server {@code jwks}
   * (its keys' https URL) and {@code resource} (this server's public URL, ending {@code /mcp}).
   *
   * @param tokens the tokens file's authenticator, also taken beside OAuth; null for none
   * @param workspace the server's workspace, where the review page commits what the owner approves
   * @param proposals the server's proposals folder (null: refused, as {@code -auth oauth} needs it)
   * @param policy the server's policy, against which every proposal is checked again before it is
   *     approvable (as {@code review -policy FILE} does)
   * @param reviewPage told the review page's address once the door knows it
   * @throws IllegalArgumentException when the settings are not usable (a usage error)
   */
  public static HttpDoor start(
      Core core,
      Authenticator tokens,
      Map<String, String> settings,
      PrintStream log,
      Workspace workspace,
      ProposalDirectory proposals,
      Policy policy,
      Consumer<String> reviewPage)
      throws Exception {
    if (settings.get("proposals") == null || proposals == null) {
      throw new IllegalArgumentException(
          "-auth oauth needs -proposals DIR, where its state is kept");
    }
    Store store;
    try {
      store = Store.in(Path.of(settings.get("proposals")));
    } catch (Store.Unusable e) {
      throw new IllegalArgumentException(
          "-proposals " + settings.get("proposals") + ": " + e.getMessage());
    }
    String issuer = settings.get("issuer");
    String jwks = settings.get("jwks");
    Web.ExternalKeys external = null;
    if (jwks != null) {
      if (issuer == null || settings.get("resource") == null) {
        throw new IllegalArgumentException(
            "-jwks (an external authorization server) needs -issuer and -resource");
      }
      URL keys = jwksUrl(jwks, settings.get("host"));
      external =
          known -> {
            JWKSource<SecurityContext> source =
                JWKSourceBuilder.<SecurityContext>create(keys, new NoRedirects())
                    .cache(JWKS_CACHE_MS, JWKS_TIMEOUT_MS)
                    .rateLimited(JWKS_MIN_INTERVAL_MS)
                    .refreshAheadCache(false)
                    .build();
            return AccessTokens.external(known, source);
          };
    }
    ResourceServer resourceServer = new ResourceServer(tokens, external == null);
    ReviewPage review = new ReviewPage(workspace, proposals, policy, log);
    Web web =
        new Web(
            store,
            resourceServer,
            issuer,
            settings.get("resource"),
            external,
            review,
            reviewPage,
            log);
    Map<String, String> door = new HashMap<>(settings);
    String publicName = publicAuthority(issuer, settings.get("resource"), jwks != null);
    if (publicName != null) {
      String allowed = door.getOrDefault("allowedHosts", "");
      door.put("allowedHosts", allowed.isEmpty() ? publicName : allowed + "\n" + publicName);
    }
    try {
      // The document fetcher's threads are daemons: they never hold the process's exit.
      return HttpDoor.start(core, resourceServer, door, log, web);
    } catch (IllegalStateException e) {
      web.stop();
      throw new IllegalArgumentException(e.getMessage(), e);
    } catch (Exception e) {
      web.stop();
      throw e;
    }
  }

  /** The Host the public address is reached by, added to the door's allowed names. */
  private static String publicAuthority(String issuer, String resource, boolean external) {
    String address = external ? resource : issuer;
    if (address == null) {
      return null;
    }
    try {
      URI uri = new URI(external ? address.replaceFirst("/mcp$", "") : address);
      return uri.getRawAuthority();
    } catch (java.net.URISyntaxException e) {
      return null; // refused with its reason once the door listens
    }
  }

  private static URL jwksUrl(String jwks, String host) {
    try {
      URI uri = new URI(jwks);
      boolean local =
          "http".equals(uri.getScheme())
              && uri.getHost() != null
              && RedirectUris.isLoopback(uri.getHost())
              && host != null
              && RedirectUris.isLoopback(host.toLowerCase(java.util.Locale.ROOT));
      if (!"https".equals(uri.getScheme()) && !local) {
        throw new IllegalArgumentException("-jwks " + jwks + ": the keys are fetched over https");
      }
      return uri.toURL();
    } catch (java.net.URISyntaxException | java.net.MalformedURLException e) {
      throw new IllegalArgumentException("-jwks " + jwks + " is not a URL");
    }
  }

  /** Nimbus's retriever, bounded in time and size, never following a redirect. */
  private static final class NoRedirects extends DefaultResourceRetriever {
    NoRedirects() {
      super(JWKS_TIMEOUT_MS, JWKS_TIMEOUT_MS, JWKS_MAX_BYTES);
    }

    @Override
    public Resource retrieveResource(URL url) throws IOException {
      return super.retrieveResource(url);
    }

    @Override
    protected HttpURLConnection openHTTPConnection(URL url) throws IOException {
      HttpURLConnection connection = super.openHTTPConnection(url);
      connection.setInstanceFollowRedirects(false);
      return connection;
    }
  }
}

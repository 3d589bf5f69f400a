package notesmcp.web;

import com.nimbusds.common.contenttype.ContentType;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.oauth2.sdk.AccessTokenResponse;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.AuthorizationErrorResponse;
import com.nimbusds.oauth2.sdk.AuthorizationGrant;
import com.nimbusds.oauth2.sdk.AuthorizationRequest;
import com.nimbusds.oauth2.sdk.AuthorizationSuccessResponse;
import com.nimbusds.oauth2.sdk.ErrorObject;
import com.nimbusds.oauth2.sdk.GrantType;
import com.nimbusds.oauth2.sdk.OAuth2Error;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.RefreshTokenGrant;
import com.nimbusds.oauth2.sdk.ResponseMode;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.as.AuthorizationServerMetadata;
import com.nimbusds.oauth2.sdk.auth.ClientAuthenticationMethod;
import com.nimbusds.oauth2.sdk.client.ClientInformation;
import com.nimbusds.oauth2.sdk.client.ClientInformationResponse;
import com.nimbusds.oauth2.sdk.client.ClientMetadata;
import com.nimbusds.oauth2.sdk.client.ClientRegistrationRequest;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallenge;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.oauth2.sdk.token.BearerAccessToken;
import com.nimbusds.oauth2.sdk.token.RefreshToken;
import com.nimbusds.oauth2.sdk.token.Tokens;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import notesmcp.mcp.http.Pages;
import notesmcp.text.TerminalText;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Everything the HTTP door serves beside {@code /mcp} (docs/oauth.md, "Endpoints"): the protected
 * resource metadata; with the built-in authorization server, its metadata, keys, client
 * registration, authorization (the consent page) and token endpoints; and the owner's pages
 * (signing in with a passphrase or a link, the grants, signing out, and the review page: {@link
 * ReviewPage}).
 *
 * <p>Every OAuth message is parsed and written by the Nimbus OAuth SDK. The authorization endpoint
 * never redirects before it knows the client and the exact redirect URI it registered: until then
 * an error is a page. After that an error is still a page, with a link that carries the error
 * response to the client (a redirect nobody chose to follow is never made for a client nobody
 * approved); only the owner's own decision on the consent page redirects by itself. Every
 * authorization response carries {@code iss} (RFC 9207) and echoes {@code state}.
 */
final class Web implements Pages {
  static final String PRM_PATH = "/.well-known/oauth-protected-resource/mcp";
  static final String AS_PATH = "/.well-known/oauth-authorization-server";

  /** Consent pages waiting for the owner's decision, at most this many. */
  static final int MAX_PENDING = 64;

  static final Duration PENDING_LIFETIME = Duration.ofMinutes(10);

  /** A JSON request body (registration, token) larger than this is refused. */
  static final int MAX_API_BODY = 16 * 1024;

  private final Store store;
  private final PrintStream log;
  private final ResourceServer resourceServer;
  private final String configuredIssuer; // null: the loopback address the door is bound to
  private final boolean builtIn;
  private final String externalResource;
  private final ExternalKeys externalKeys;
  private final SignInThrottle throttle = new SignInThrottle();
  private final Object slowHash = new Object();
  private final Map<String, Pending> pending = new LinkedHashMap<>();
  private final ReviewPage review;
  private final Consumer<String> reviewAddress;

  private volatile Issuer issuer;
  private volatile OwnerSessions sessions;
  private volatile AccessTokens tokens;
  private volatile Grants grants;
  private volatile Clients clients;
  private volatile ClientDocuments documents;
  private volatile Codes codes;
  private volatile ECKey key;

  /** An authorization request the owner is asked about. */
  private record Pending(
      String id,
      Clients.Client client,
      String redirectUri,
      State state,
      String challenge,
      boolean askedPropose,
      Instant expires) {}

  /** How an external authorization server's keys are had, made once the issuer is known. */
  interface ExternalKeys {
    AccessTokens tokens(Issuer issuer) throws Exception;
  }

  Web(
      Store store,
      ResourceServer resourceServer,
      String issuer,
      String externalResource,
      ExternalKeys externalKeys,
      ReviewPage review,
      Consumer<String> reviewAddress,
      PrintStream log) {
    this.review = review;
    this.reviewAddress = reviewAddress;
    this.store = store;
    this.resourceServer = resourceServer;
    this.configuredIssuer = issuer;
    this.builtIn = externalKeys == null;
    this.externalResource = externalResource;
    this.externalKeys = externalKeys;
    this.log = log;
  }

  @Override
  public void listening(String mcp) {
    URI bound = URI.create(mcp);
    boolean loopbackBind = RedirectUris.isLoopback(bound.getHost());
    try {
      Issuer known;
      if (builtIn) {
        known =
            Issuer.builtIn(
                configuredIssuer != null
                    ? configuredIssuer
                    : mcp.substring(0, mcp.length() - "/mcp".length()),
                loopbackBind);
      } else {
        known = Issuer.external(configuredIssuer, externalResource, loopbackBind);
      }
      if (known.loopback() && known.port() != bound.getPort()) {
        throw new IllegalArgumentException(
            "-issuer "
                + known.base()
                + " names port "
                + known.port()
                + ", but the server listens on "
                + bound.getPort());
      }
      sessions = new OwnerSessions(known.origin());
      if (builtIn) {
        key = SigningKey.load(store);
        tokens = AccessTokens.builtIn(known, key);
        grants = new Grants(store, log);
        documents = new ClientDocuments(known.loopback(), log);
        clients = new Clients(store, grants, documents, log);
        codes = new Codes();
      } else {
        tokens = externalKeys.tokens(known);
      }
      resourceServer.ready(known, tokens, grants);
      review.ready(known, sessions);
      issuer = known;
      reviewAddress.accept(known.page(ReviewPage.PATH));
      log.println(
          "notes-mcp: OAuth "
              + (builtIn ? "authorization server (built in), issuer " : "with the issuer ")
              + known.value()
              + "; resource "
              + known.resource()
              + "; the owner signs in at "
              + known.page("/owner")
              + " and reviews proposals at "
              + known.page(ReviewPage.PATH));
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("cannot start OAuth: " + e.getMessage(), e);
    }
  }

  /** Stops what this side runs of its own (the document fetcher's client). */
  void stop() throws Exception {
    if (documents != null) {
      documents.stop();
    }
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String path = request.getHttpURI().getPath();
    String method = request.getMethod();
    if (path == null) {
      return false;
    }
    switch (path) {
      case PRM_PATH:
        return get(method, response, callback) && json(response, callback, 200, resourceMetadata());
      case AS_PATH:
        return builtIn
            && get(method, response, callback)
            && json(response, callback, 200, serverMetadata());
      case "/jwks":
        return builtIn
            && get(method, response, callback)
            && json(response, callback, 200, new JWKSet(key.toPublicJWK()).toString(true) + "\n");
      case "/register":
        if (!builtIn) {
          return false;
        }
        if (post(method, response, callback)) {
          register(request, response, callback);
        }
        return true;
      case "/authorize":
        if (!builtIn) {
          return false;
        }
        if (method.equals("GET")) {
          authorize(request, response, callback);
        } else if (method.equals("POST")) {
          decide(request, response, callback);
        } else {
          notAllowed(response, callback, "GET, POST");
        }
        return true;
      case "/token":
        if (!builtIn) {
          return false;
        }
        if (post(method, response, callback)) {
          token(request, response, callback);
        }
        return true;
      case "/owner":
        if (get(method, response, callback)) {
          home(request, response, callback);
        }
        return true;
      case "/owner/signin":
        if (method.equals("GET")) {
          signInPage(response, callback, 200, safeNext(Form.query(request).get("next")), null);
        } else if (method.equals("POST")) {
          signIn(request, response, callback);
        } else {
          notAllowed(response, callback, "GET, POST");
        }
        return true;
      case SignInLinks.PATH:
        if (method.equals("GET") || method.equals("POST")) {
          link(request, response, callback);
        } else {
          notAllowed(response, callback, "GET, POST");
        }
        return true;
      case "/owner/signout":
        if (post(method, response, callback)) {
          signOut(request, response, callback);
        }
        return true;
      case "/owner/revoke":
        if (post(method, response, callback)) {
          revoke(request, response, callback);
        }
        return true;
      default:
        // The review page (docs/review-page.md): the owner's session only, never a token.
        return review.handle(path, request, response, callback);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Metadata.

  private String resourceMetadata() {
    ObjectNode prm = Json.newObject(null);
    prm.put("resource", issuer.resource());
    prm.putArray("authorization_servers").add(issuer.value());
    ArrayNode scopes = prm.putArray("scopes_supported");
    scopes.add(ResourceServer.READ);
    scopes.add(ResourceServer.PROPOSE);
    prm.putArray("bearer_methods_supported").add("header");
    prm.put("resource_name", "notes-mcp");
    return new String(Json.bytes(prm), StandardCharsets.UTF_8);
  }

  private String serverMetadata() {
    AuthorizationServerMetadata metadata =
        new AuthorizationServerMetadata(new com.nimbusds.oauth2.sdk.id.Issuer(issuer.value()));
    metadata.setAuthorizationEndpointURI(URI.create(issuer.page("/authorize")));
    metadata.setTokenEndpointURI(URI.create(issuer.page("/token")));
    metadata.setRegistrationEndpointURI(URI.create(issuer.page("/register")));
    metadata.setJWKSetURI(URI.create(issuer.page("/jwks")));
    metadata.setScopes(new Scope(ResourceServer.READ, ResourceServer.PROPOSE));
    metadata.setResponseTypes(List.of(ResponseType.CODE));
    metadata.setResponseModes(List.of(ResponseMode.QUERY));
    metadata.setGrantTypes(List.of(GrantType.AUTHORIZATION_CODE, GrantType.REFRESH_TOKEN));
    metadata.setCodeChallengeMethods(List.of(CodeChallengeMethod.S256));
    metadata.setTokenEndpointAuthMethods(List.of(ClientAuthenticationMethod.NONE));
    metadata.setSupportsAuthorizationResponseIssuerParam(true);
    metadata.setCustomParameter("client_id_metadata_document_supported", true);
    return metadata.toJSONObject().toJSONString() + "\n";
  }

  // ---------------------------------------------------------------------------------------------
  // Registration (RFC 7591).

  private void register(Request request, Response response, Callback callback) {
    String body;
    try {
      body = Form.body(request, "application/json", MAX_API_BODY);
    } catch (Form.Unreadable e) {
      apiError(response, callback, e.status, "invalid_client_metadata", e.getMessage());
      return;
    }
    ClientMetadata asked;
    try {
      HTTPRequest http =
          new HTTPRequest(HTTPRequest.Method.POST, URI.create(issuer.page("/register")));
      http.setEntityContentType(ContentType.APPLICATION_JSON);
      http.setBody(body);
      asked = ClientRegistrationRequest.parse(http).getClientMetadata();
    } catch (ParseException e) {
      ErrorObject error = e.getErrorObject();
      apiError(
          response,
          callback,
          400,
          error == null || error.getCode() == null ? "invalid_client_metadata" : error.getCode(),
          e.getMessage());
      return;
    }
    ClientAuthenticationMethod auth = asked.getTokenEndpointAuthMethod();
    if (auth != null && !auth.equals(ClientAuthenticationMethod.NONE)) {
      apiError(
          response,
          callback,
          400,
          "invalid_client_metadata",
          "only public clients are registered here: token_endpoint_auth_method none");
      return;
    }
    Set<GrantType> grantTypes = asked.getGrantTypes();
    if (grantTypes != null) {
      for (GrantType type : grantTypes) {
        if (!type.equals(GrantType.AUTHORIZATION_CODE) && !type.equals(GrantType.REFRESH_TOKEN)) {
          apiError(
              response,
              callback,
              400,
              "invalid_client_metadata",
              "grant_types may hold authorization_code and refresh_token only");
          return;
        }
      }
    }
    Set<ResponseType> responseTypes = asked.getResponseTypes();
    if (responseTypes != null && !responseTypes.equals(Set.of(ResponseType.CODE))) {
      apiError(response, callback, 400, "invalid_client_metadata", "response_types is [\"code\"]");
      return;
    }
    List<String> redirects =
        asked.getRedirectionURIStrings() == null
            ? List.of()
            : new ArrayList<>(asked.getRedirectionURIStrings());
    Clients.Client client;
    try {
      client = clients.register(asked.getName(), redirects, Instant.now());
    } catch (Clients.Refused e) {
      apiError(
          response,
          callback,
          e.error.equals("temporarily_unavailable")
              ? 429
              : e.error.equals("server_error") ? 500 : 400,
          e.error,
          e.getMessage());
      return;
    }
    ClientMetadata granted = new ClientMetadata();
    granted.setName(client.name());
    Set<URI> uris = new LinkedHashSet<>();
    for (String uri : client.redirectUris()) {
      uris.add(URI.create(uri));
    }
    granted.setRedirectionURIs(uris);
    granted.setGrantTypes(
        new LinkedHashSet<>(List.of(GrantType.AUTHORIZATION_CODE, GrantType.REFRESH_TOKEN)));
    granted.setResponseTypes(Set.of(ResponseType.CODE));
    granted.setTokenEndpointAuthMethod(ClientAuthenticationMethod.NONE);
    granted.setScope(new Scope(ResourceServer.READ, ResourceServer.PROPOSE));
    ClientInformation information =
        new ClientInformation(
            new ClientID(client.id()), Date.from(client.created()), granted, null);
    log.println(
        "notes-mcp: client "
            + client.id()
            + " registered ("
            + TerminalText.quoted(client.name(), 80)
            + "); it holds nothing until the owner approves it");
    json(
        response,
        callback,
        201,
        new ClientInformationResponse(information, true).toHTTPResponse().getBody() + "\n");
  }

  // ---------------------------------------------------------------------------------------------
  // Authorization: the consent page and the owner's decision.

  private void authorize(Request request, Response response, Callback callback) {
    Form query = Form.query(request);
    if (query.anyRepeated()) {
      errorPage(response, callback, 400, "The request gives a parameter more than once.");
      return;
    }
    String clientId = query.get("client_id");
    String redirect = query.get("redirect_uri");
    if (clientId == null || redirect == null) {
      errorPage(
          response,
          callback,
          400,
          "The request names no client_id or no redirect_uri; the app that sent you here must"
              + " give both.");
      return;
    }
    OwnerSessions.Owner owner = sessions.signedIn(request);
    if (owner == null) {
      String raw = request.getHttpURI().getQuery();
      signInPage(response, callback, 200, "/authorize?" + (raw == null ? "" : raw), null);
      return;
    }
    OwnerSessions.forgetNext(response);
    Instant now = Instant.now();
    Clients.Client client;
    try {
      client = clients.find(clientId, now);
    } catch (Clients.Refused e) {
      errorPage(
          response,
          callback,
          400,
          "This request cannot be approved: " + e.getMessage() + ". Nothing was sent anywhere.");
      return;
    }
    if (!client.redirectUris().contains(redirect)) {
      errorPage(
          response,
          callback,
          400,
          "This request cannot be approved: its redirect_uri is not exactly one the client"
              + " registered. Nothing was sent anywhere.");
      return;
    }
    URI back = URI.create(redirect);
    AuthorizationRequest asked;
    try {
      asked = AuthorizationRequest.parse(URI.create(issuer.page("/authorize")), query.asMap());
    } catch (ParseException e) {
      State state = query.get("state") == null ? null : new State(query.get("state"));
      ErrorObject error =
          e.getErrorObject() == null ? OAuth2Error.INVALID_REQUEST : e.getErrorObject();
      errorLink(response, callback, client, back, error, state);
      return;
    }
    State state = asked.getState();
    ErrorObject refused = refusal(asked);
    if (refused != null) {
      errorLink(response, callback, client, back, refused, state);
      return;
    }
    boolean askedPropose =
        asked.getScope() == null || asked.getScope().contains(ResourceServer.PROPOSE);
    Pending waiting =
        new Pending(
            Secrets.make(""),
            client,
            redirect,
            state,
            asked.getCodeChallenge().getValue(),
            askedPropose,
            now.plus(PENDING_LIFETIME));
    synchronized (pending) {
      pending.values().removeIf(p -> now.isAfter(p.expires()));
      while (pending.size() >= MAX_PENDING) {
        Iterator<String> oldest = pending.keySet().iterator();
        oldest.next();
        oldest.remove();
      }
      pending.put(waiting.id(), waiting);
    }
    consentPage(response, callback, owner, waiting);
  }

  /** Why the request is refused once its client and redirect URI are known, or null. */
  private ErrorObject refusal(AuthorizationRequest asked) {
    if (!asked.getResponseType().equals(ResponseType.CODE)) {
      return OAuth2Error.UNSUPPORTED_RESPONSE_TYPE.setDescription("response_type must be code");
    }
    if (asked.getResponseMode() != null && !asked.getResponseMode().equals(ResponseMode.QUERY)) {
      return OAuth2Error.INVALID_REQUEST.setDescription("response_mode must be query");
    }
    if (asked.specifiesRequestObject()) {
      return OAuth2Error.REQUEST_NOT_SUPPORTED;
    }
    if (asked.getCodeChallenge() == null) {
      return OAuth2Error.INVALID_REQUEST.setDescription(
          "PKCE is required: code_challenge with code_challenge_method S256");
    }
    if (!CodeChallengeMethod.S256.equals(asked.getCodeChallengeMethod())) {
      return OAuth2Error.INVALID_REQUEST.setDescription("code_challenge_method must be S256");
    }
    if (!isOurs(asked.getResources())) {
      return OAuth2Error.INVALID_TARGET.setDescription(
          "resource must be this server's, " + issuer.resource());
    }
    if (asked.getScope() != null) {
      for (String value : asked.getScope().toStringList()) {
        if (!value.equals(ResourceServer.READ) && !value.equals(ResourceServer.PROPOSE)) {
          return OAuth2Error.INVALID_SCOPE.setDescription(
              "this server grants notes:read and notes:propose only");
        }
      }
    }
    return null;
  }

  /**
   * Whether {@code resources} names this server only (none at all means this server): its canonical
   * URI, with the scheme and host in any case.
   */
  private boolean isOurs(List<URI> resources) {
    if (resources == null || resources.isEmpty()) {
      return true;
    }
    if (resources.size() != 1) {
      return false;
    }
    URI asked = resources.get(0);
    URI ours = URI.create(issuer.resource());
    return asked.getScheme() != null
        && asked.getHost() != null
        && asked.getScheme().toLowerCase(Locale.ROOT).equals(ours.getScheme())
        && asked.getHost().toLowerCase(Locale.ROOT).equals(ours.getHost())
        && asked.getPort() == ours.getPort()
        && ours.getRawPath().equals(asked.getRawPath())
        && asked.getRawQuery() == null
        && asked.getRawFragment() == null
        && asked.getRawUserInfo() == null;
  }

  private void consentPage(
      Response response, Callback callback, OwnerSessions.Owner owner, Pending waiting) {
    Clients.Client client = waiting.client();
    String host = RedirectUris.host(waiting.redirectUri());
    boolean local = RedirectUris.isLoopback(URI.create(waiting.redirectUri()).getHost());
    StringBuilder body = new StringBuilder();
    body.append("<p>")
        .append(Html.inert(client.name(), 120))
        .append(" asks to use your notes through this notes-mcp server.</p>");
    body.append("<p>When you decide, your browser goes back to <b>")
        .append(Html.inert(host, 200))
        .append("</b>")
        .append(
            local
                ? " — an app on the device this browser runs on. <span class=\"warn\">Allow it"
                    + " only if you started it there yourself.</span>"
                : ".")
        .append("</p>");
    body.append("<p>Client: ")
        .append(Html.inert(client.id(), 200))
        .append(
            Clients.isDocument(client.id())
                ? " (its name and addresses are what the document at that address says)"
                : " (registered with this server; its name is what it said of itself)")
        .append("</p>");
    body.append("<form method=\"post\" action=\"/authorize\">")
        .append(owner.csrfField())
        .append("<input type=\"hidden\" name=\"request\" value=\"")
        .append(Html.escape(waiting.id()))
        .append("\"><p>It may:</p><ul><li>read the notes your policy lets it read (")
        .append(ResourceServer.READ)
        .append(")</li>");
    if (waiting.askedPropose()) {
      body.append("<li><label><input type=\"checkbox\" name=\"propose\" value=\"1\" checked> ")
          .append("propose new notes and edits, each of which waits for your approval (")
          .append(ResourceServer.PROPOSE)
          .append("); clear this box to allow reading only</label></li>");
    }
    body.append("</ul><p>Nothing it is allowed writes a note by itself.</p>")
        .append("<button type=\"submit\" name=\"approve\" value=\"1\">Allow</button>")
        .append("<button type=\"submit\" name=\"deny\" value=\"1\">Deny</button></form>");
    Html.send(response, callback, 200, Html.page("Allow access to your notes?", body.toString()));
  }

  private void decide(Request request, Response response, Callback callback) {
    Form form;
    try {
      form = Form.read(request);
    } catch (Form.Unreadable e) {
      errorPage(response, callback, e.status, e.getMessage() + ".");
      return;
    }
    OwnerSessions.Owner owner = sessions.form(request, form);
    if (owner == null) {
      errorPage(
          response,
          callback,
          403,
          "This decision did not come from your signed-in session's own page (the session ended,"
              + " or another site sent it). Nothing was approved.");
      return;
    }
    Pending waiting;
    String id = form.get("request");
    synchronized (pending) {
      waiting = id == null ? null : pending.remove(id);
    }
    Instant now = Instant.now();
    if (waiting == null || now.isAfter(waiting.expires())) {
      errorPage(
          response,
          callback,
          400,
          "This request expired or was decided already; start again from the app.");
      return;
    }
    com.nimbusds.oauth2.sdk.id.Issuer iss = new com.nimbusds.oauth2.sdk.id.Issuer(issuer.value());
    URI back = URI.create(waiting.redirectUri());
    Clients.Client client = waiting.client();
    if (!form.has("approve") || form.has("deny")) {
      log.println(
          "notes-mcp: the owner denied " + TerminalText.quoted(client.name(), 80) + " access");
      Html.seeOther(
          response,
          callback,
          new AuthorizationErrorResponse(
                  back, OAuth2Error.ACCESS_DENIED, waiting.state(), iss, ResponseMode.QUERY)
              .toURI()
              .toString());
      return;
    }
    String scope =
        waiting.askedPropose() && "1".equals(form.get("propose"))
            ? ResourceServer.SCOPES
            : ResourceServer.READ;
    String code =
        codes.issue(
            new Codes.Code(
                client.id(),
                client.name(),
                waiting.redirectUri(),
                scope,
                waiting.challenge(),
                now.plusSeconds(Codes.LIFETIME_SECONDS)),
            now);
    if (code == null) {
      errorPage(response, callback, 503, "Too many approvals are waiting to be used; try again.");
      return;
    }
    log.println(
        "notes-mcp: the owner allowed "
            + TerminalText.quoted(client.name(), 80)
            + " ("
            + client.id()
            + ") "
            + scope);
    Html.seeOther(
        response,
        callback,
        new AuthorizationSuccessResponse(
                back, new AuthorizationCode(code), null, waiting.state(), iss, ResponseMode.QUERY)
            .toURI()
            .toString());
  }

  /** An error for a known client: a page, with a link that takes the error back to it. */
  private void errorLink(
      Response response,
      Callback callback,
      Clients.Client client,
      URI back,
      ErrorObject error,
      State state) {
    String link =
        new AuthorizationErrorResponse(
                back,
                error,
                state,
                new com.nimbusds.oauth2.sdk.id.Issuer(issuer.value()),
                ResponseMode.QUERY)
            .toURI()
            .toString();
    Html.send(
        response,
        callback,
        400,
        Html.page(
            "This request cannot be approved",
            "<p>"
                + Html.inert(client.name(), 120)
                + " asked for something this server does not grant: "
                + Html.inert(
                    error.getCode()
                        + (error.getDescription() == null ? "" : " — " + error.getDescription()),
                    300)
                + ".</p><p><a href=\""
                + Html.escape(link)
                + "\">Tell the app and go back to "
                + Html.inert(RedirectUris.host(back.toString()), 200)
                + "</a></p>"));
  }

  // ---------------------------------------------------------------------------------------------
  // Tokens.

  private void token(Request request, Response response, Callback callback) throws IOException {
    String body;
    try {
      body = Form.body(request, "application/x-www-form-urlencoded", MAX_API_BODY);
    } catch (Form.Unreadable e) {
      apiError(response, callback, e.status, "invalid_request", e.getMessage());
      return;
    }
    if (Form.of(body).anyRepeated()) {
      apiError(response, callback, 400, "invalid_request", "a parameter is given more than once");
      return;
    }
    TokenRequest asked;
    try {
      HTTPRequest http =
          new HTTPRequest(HTTPRequest.Method.POST, URI.create(issuer.page("/token")));
      http.setEntityContentType(ContentType.APPLICATION_URLENCODED);
      String authorization = request.getHeaders().get(HttpHeader.AUTHORIZATION);
      if (authorization != null) {
        http.setAuthorization(authorization);
      }
      http.setBody(body);
      asked = TokenRequest.parse(http);
    } catch (ParseException e) {
      ErrorObject error = e.getErrorObject();
      apiError(
          response,
          callback,
          error != null && error.getHTTPStatusCode() == 401 ? 401 : 400,
          error == null || error.getCode() == null ? "invalid_request" : error.getCode(),
          e.getMessage());
      return;
    }
    if (asked.getClientAuthentication() != null) {
      apiError(
          response,
          callback,
          401,
          "invalid_client",
          "this server's clients are public: they send client_id and no secret");
      return;
    }
    ClientID clientId = asked.getClientID();
    if (clientId == null) {
      apiError(response, callback, 400, "invalid_request", "client_id is required");
      return;
    }
    if (!isOurs(asked.getResources())) {
      apiError(
          response,
          callback,
          400,
          "invalid_target",
          "resource must be this server's, " + issuer.resource());
      return;
    }
    Instant now = Instant.now();
    AuthorizationGrant grant = asked.getAuthorizationGrant();
    if (grant instanceof AuthorizationCodeGrant) {
      codeGrant((AuthorizationCodeGrant) grant, clientId.getValue(), now, response, callback);
    } else if (grant instanceof RefreshTokenGrant) {
      refreshGrant(
          (RefreshTokenGrant) grant,
          clientId.getValue(),
          asked.getScope(),
          now,
          response,
          callback);
    } else {
      apiError(
          response,
          callback,
          400,
          "unsupported_grant_type",
          "this server takes authorization_code and refresh_token");
    }
  }

  private void codeGrant(
      AuthorizationCodeGrant grant,
      String clientId,
      Instant now,
      Response response,
      Callback callback)
      throws IOException {
    String value = grant.getAuthorizationCode().getValue();
    Codes.Redeemed redeemed = codes.redeem(value, now);
    if (redeemed.replayed) {
      if (redeemed.replayedGrant != null) {
        grants.revoke(redeemed.replayedGrant);
        log.println(
            "notes-mcp: an authorization code was presented again: grant "
                + redeemed.replayedGrant
                + ", which it issued, is revoked");
      }
      apiError(
          response,
          callback,
          400,
          "invalid_grant",
          "the code was used before; whatever it issued is revoked");
      return;
    }
    Codes.Code code = redeemed.code;
    if (code == null) {
      apiError(response, callback, 400, "invalid_grant", "the code is not valid or has expired");
      return;
    }
    if (!code.clientId().equals(clientId)) {
      apiError(response, callback, 400, "invalid_grant", "the code was issued to another client");
      return;
    }
    if (grant.getRedirectionURI() == null
        || !grant.getRedirectionURI().toString().equals(code.redirectUri())) {
      apiError(
          response,
          callback,
          400,
          "invalid_grant",
          "redirect_uri must be the one of the authorization request");
      return;
    }
    CodeVerifier verifier = grant.getCodeVerifier();
    if (verifier == null
        || !Secrets.same(
            CodeChallenge.compute(CodeChallengeMethod.S256, verifier).getValue(),
            code.challenge())) {
      apiError(
          response,
          callback,
          400,
          "invalid_grant",
          "the code_verifier does not match the request's code_challenge (PKCE)");
      return;
    }
    Grants.Issued issued =
        grants.create(code.clientId(), code.clientName(), code.redirectUri(), code.scope(), now);
    codes.issued(value, issued.grant().id());
    tokens(response, callback, issued, issued.grant().scope(), now);
  }

  private void refreshGrant(
      RefreshTokenGrant grant,
      String clientId,
      Scope asked,
      Instant now,
      Response response,
      Callback callback)
      throws IOException {
    Grants.Refreshed refreshed = grants.refresh(grant.getRefreshToken().getValue(), clientId, now);
    if (refreshed.issued == null) {
      apiError(response, callback, 400, "invalid_grant", refreshed.problem);
      return;
    }
    Scope granted = Scope.parse(refreshed.issued.grant().scope());
    if (asked != null && !granted.containsAll(asked)) {
      apiError(
          response,
          callback,
          400,
          "invalid_scope",
          "a refresh may ask for the grant's scopes or fewer, not more");
      return;
    }
    tokens(
        response,
        callback,
        refreshed.issued,
        asked == null ? granted.toString() : asked.toString(),
        now);
  }

  private void tokens(
      Response response, Callback callback, Grants.Issued issued, String scope, Instant now) {
    String access = tokens.mint(issued.grant().id(), issued.grant().clientId(), scope, now);
    AccessTokenResponse answer =
        new AccessTokenResponse(
            new Tokens(
                new BearerAccessToken(
                    access, AccessTokens.LIFETIME.toSeconds(), Scope.parse(scope)),
                new RefreshToken(issued.refreshToken())));
    json(response, callback, 200, answer.toJSONObject().toJSONString() + "\n");
  }

  // ---------------------------------------------------------------------------------------------
  // The owner's pages.

  /** {@code next} if it is a path of this server, else the owner's home page. */
  static String safeNext(String next) {
    if (next == null
        || !next.startsWith("/")
        || next.startsWith("//")
        || next.startsWith("/\\")
        || next.length() > 8192) {
      return "/owner";
    }
    for (int i = 0; i < next.length(); i++) {
      char c = next.charAt(i);
      if (c <= 0x20 || c >= 0x7f) {
        return "/owner";
      }
    }
    return next;
  }

  private void signInPage(
      Response response, Callback callback, int status, String next, String problem) {
    if (!next.equals("/owner")) {
      OwnerSessions.rememberNext(response, next);
    }
    boolean hasPassphrase;
    try {
      hasPassphrase = Passphrase.read(store) != null;
    } catch (IOException e) {
      log.println("notes-mcp: the owner's passphrase cannot be read (" + e.getMessage() + ")");
      hasPassphrase = false;
    }
    StringBuilder body = new StringBuilder();
    if (problem != null) {
      body.append("<p class=\"warn\">").append(Html.escape(problem)).append("</p>");
    }
    body.append(
        "<p>This page is for the owner of this notes-mcp server, who approves what apps may do"
            + " with the notes.</p>");
    if (hasPassphrase) {
      body.append("<form method=\"post\" action=\"/owner/signin\">")
          .append("<input type=\"hidden\" name=\"next\" value=\"")
          .append(Html.escape(next))
          .append("\"><p><label>Passphrase<br><input type=\"password\" name=\"passphrase\"")
          .append(" autocomplete=\"current-password\" required autofocus></label></p>")
          .append("<button type=\"submit\">Sign in</button></form>");
    } else {
      body.append(
          "<p>No passphrase is set. On the server's machine, run <code>notes-mcp owner"
              + " passphrase</code> with the server's flags to set one.</p>");
    }
    body.append(
        "<p>Or, on the server's machine, run <code>notes-mcp owner link</code> with the server's"
            + " flags and open the link it prints (it works once, for 10 minutes); then come back"
            + " to this page.</p>");
    Html.send(response, callback, status, Html.page("Sign in", body.toString()));
  }

  private void signIn(Request request, Response response, Callback callback) {
    Form form;
    try {
      form = Form.read(request);
    } catch (Form.Unreadable e) {
      errorPage(response, callback, e.status, e.getMessage() + ".");
      return;
    }
    if (!sessions.sameOrigin(request)) {
      errorPage(response, callback, 403, "This sign-in came from another site's page.");
      return;
    }
    String next = safeNext(form.get("next"));
    String peer = Request.getRemoteAddr(request);
    Instant now = Instant.now();
    long wait = throttle.wait(peer, now);
    if (wait > 0) {
      response.getHeaders().put(HttpHeader.RETRY_AFTER, Long.toString(wait));
      signInPage(
          response,
          callback,
          429,
          next,
          "Too many wrong passphrases: wait "
              + wait
              + " s, or sign in with a link from 'notes-mcp owner link'.");
      return;
    }
    String typed = form.get("passphrase");
    if (typed == null || typed.isEmpty() || typed.length() > Passphrase.MAX_LENGTH) {
      signInPage(response, callback, 400, next, "Type the passphrase.");
      return;
    }
    boolean right;
    try {
      Passphrase.Hash kept = Passphrase.read(store);
      if (kept == null) {
        signInPage(response, callback, 400, next, "No passphrase is set.");
        return;
      }
      char[] chars = Passphrase.chars(typed);
      synchronized (slowHash) {
        right = Passphrase.matches(kept, chars);
      }
      Passphrase.clear(chars);
    } catch (IOException e) {
      log.println("notes-mcp: the owner's passphrase cannot be read (" + e.getMessage() + ")");
      errorPage(
          response, callback, 500, "The passphrase file cannot be read; see the server's log.");
      return;
    }
    if (!right) {
      // From when the answer is known: the wait is never eaten by the hash's own time.
      throttle.failed(peer, Instant.now());
      log.println("notes-mcp: a wrong owner passphrase from " + peer);
      signInPage(response, callback, 401, next, "That is not the passphrase.");
      return;
    }
    throttle.succeeded(peer);
    OwnerSessions.Owner owner = sessions.signIn(request, response);
    log.println(
        "notes-mcp: the owner signed in (passphrase) from " + peer + ", session " + owner.label());
    Html.seeOther(response, callback, issuer.page(next));
  }

  /**
   * {@code /owner/link?t=SECRET}: a browser that opens it as a page (it says {@code Sec-Fetch-Mode:
   * navigate}) is signed in at once; anything else (a link preview, a script) gets a page with a
   * button that does it, so a program that only looks at the link does not use it up.
   */
  private void link(Request request, Response response, Callback callback) throws IOException {
    String secret;
    if (request.getMethod().equals("POST")) {
      Form form;
      try {
        form = Form.read(request);
      } catch (Form.Unreadable e) {
        errorPage(response, callback, e.status, e.getMessage() + ".");
        return;
      }
      if (!sessions.sameOrigin(request)) {
        errorPage(response, callback, 403, "This sign-in came from another site's page.");
        return;
      }
      secret = form.get("t");
    } else {
      secret = Form.query(request).get("t");
      if (secret != null && !"navigate".equals(request.getHeaders().get("Sec-Fetch-Mode"))) {
        Html.send(
            response,
            callback,
            200,
            Html.page(
                "Sign in",
                "<form method=\"post\" action=\""
                    + SignInLinks.PATH
                    + "\"><input type=\"hidden\" name=\"t\" value=\""
                    + Html.escape(secret)
                    + "\"><button type=\"submit\">Sign in as this server's owner</button>"
                    + "</form>"));
        return;
      }
    }
    if (secret == null || secret.isEmpty() || secret.length() > 128) {
      errorPage(response, callback, 400, "This sign-in link is incomplete.");
      return;
    }
    if (!SignInLinks.consume(store, secret, Instant.now())) {
      errorPage(
          response,
          callback,
          400,
          "This sign-in link is not valid: it was used already, it expired, or it was copied"
              + " wrong. Make a new one with 'notes-mcp owner link' on the server's machine.");
      return;
    }
    OwnerSessions.Owner owner = sessions.signIn(request, response);
    log.println(
        "notes-mcp: the owner signed in (link) from "
            + Request.getRemoteAddr(request)
            + ", session "
            + owner.label());
    String next = OwnerSessions.next(request);
    if (next != null) {
      OwnerSessions.forgetNext(response);
    }
    Html.seeOther(response, callback, issuer.page(next == null ? "/owner" : safeNext(next)));
  }

  private void home(Request request, Response response, Callback callback) {
    OwnerSessions.Owner owner = sessions.signedIn(request);
    if (owner == null) {
      Html.seeOther(response, callback, issuer.page("/owner/signin?next=/owner"));
      return;
    }
    StringBuilder body =
        new StringBuilder("<p>You are signed in as this server's owner.</p>")
            .append("<p><a href=\"")
            .append(ReviewPage.PATH)
            .append("\">Review the proposals</a></p>");
    if (builtIn) {
      List<Grants.Grant> live = grants.current();
      body.append("<h2>Apps you allowed</h2>");
      if (live == null) {
        body.append("<p class=\"warn\">The grants file cannot be read; see the server's log.</p>");
      } else if (live.isEmpty()) {
        body.append("<p>None.</p>");
      } else {
        body.append("<table><tr><th>App</th><th>Goes back to</th><th>May</th><th>Last used</th>")
            .append("<th></th></tr>");
        for (Grants.Grant grant : live) {
          body.append("<tr><td>")
              .append(Html.inert(grant.clientName(), 80))
              .append("</td><td>")
              .append(Html.inert(RedirectUris.host(grant.redirectUri()), 120))
              .append("</td><td>")
              .append(Html.escape(grant.scope()))
              .append("</td><td>")
              .append(Html.escape(grant.lastUsed().toString()))
              .append("</td><td><form method=\"post\" action=\"/owner/revoke\">")
              .append(owner.csrfField())
              .append("<input type=\"hidden\" name=\"grant\" value=\"")
              .append(Html.escape(grant.id()))
              .append("\"><button type=\"submit\">Revoke</button></form></td></tr>");
        }
        body.append("</table>");
      }
    }
    body.append("<form method=\"post\" action=\"/owner/signout\">")
        .append(owner.csrfField())
        .append("<button type=\"submit\">Sign out</button></form>");
    Html.send(response, callback, 200, Html.page("notes-mcp", body.toString()));
  }

  private void revoke(Request request, Response response, Callback callback) throws IOException {
    Form form;
    try {
      form = Form.read(request);
    } catch (Form.Unreadable e) {
      errorPage(response, callback, e.status, e.getMessage() + ".");
      return;
    }
    if (sessions.form(request, form) == null || !builtIn) {
      errorPage(
          response,
          callback,
          403,
          "This did not come from your signed-in session's own page. Nothing was revoked.");
      return;
    }
    String id = form.get("grant");
    if (id != null && grants.revoke(id)) {
      log.println("notes-mcp: the owner revoked grant " + id);
    }
    Html.seeOther(response, callback, issuer.page("/owner"));
  }

  private void signOut(Request request, Response response, Callback callback) {
    Form form;
    try {
      form = Form.read(request);
    } catch (Form.Unreadable e) {
      errorPage(response, callback, e.status, e.getMessage() + ".");
      return;
    }
    if (sessions.form(request, form) == null) {
      errorPage(response, callback, 403, "This did not come from your signed-in session's page.");
      return;
    }
    sessions.signOut(request, response);
    Html.seeOther(response, callback, issuer.page("/owner/signin"));
  }

  /** The owner's sessions, for the pages that come after sign-in. */
  OwnerSessions sessions() {
    return sessions;
  }

  // ---------------------------------------------------------------------------------------------
  // Writing.

  private static boolean get(String method, Response response, Callback callback) {
    if (method.equals("GET") || method.equals("HEAD")) {
      return true;
    }
    notAllowed(response, callback, "GET");
    return false;
  }

  private static boolean post(String method, Response response, Callback callback) {
    if (method.equals("POST")) {
      return true;
    }
    notAllowed(response, callback, "POST");
    return false;
  }

  private static void notAllowed(Response response, Callback callback, String allow) {
    response.getHeaders().put(HttpHeader.ALLOW, allow);
    response.setStatus(405);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
    response.write(
        true,
        ByteBuffer.wrap(("Method Not Allowed: " + allow + "\n").getBytes(StandardCharsets.UTF_8)),
        callback);
  }

  private static boolean json(Response response, Callback callback, int status, String body) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.getHeaders().put(HttpHeader.PRAGMA, "no-cache");
    response.getHeaders().put("X-Content-Type-Options", "nosniff");
    response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
    return true;
  }

  /** An OAuth error response in JSON (RFC 6749 5.2, RFC 7591 3.2.2). */
  private static void apiError(
      Response response, Callback callback, int status, String error, String description) {
    ErrorObject object =
        new ErrorObject(
            error, description == null ? null : TerminalText.escaped(description, 300, false));
    json(response, callback, status, object.toJSONObject().toJSONString() + "\n");
  }

  private static void errorPage(Response response, Callback callback, int status, String text) {
    Html.send(
        response, callback, status, Html.page("notes-mcp", "<p>" + Html.escape(text) + "</p>"));
  }
}

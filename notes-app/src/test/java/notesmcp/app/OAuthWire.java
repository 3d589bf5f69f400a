package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The OAuth side of a real {@code notes-mcp -serve -http 127.0.0.1:0 -auth oauth} (docs/oauth.md),
 * driven by hand with the JDK's HTTP client as a browser and an OAuth client would: the owner signs
 * in with a link printed by {@code notes-mcp owner link}, a client registers, the owner approves on
 * the consent page (its one form), the client exchanges the code. Cookies are carried by hand (the
 * JDK's cookie manager does not send a {@code Secure} cookie over http, as browsers do to
 * loopback). Redirects are never followed: each is checked.
 */
final class OAuthWire implements AutoCloseable {
  static final String COOKIE = "__Host-notes-mcp-owner";
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final SecureRandom RANDOM = new SecureRandom();

  final HttpWire server;
  final Path root;
  final Path proposals;
  final String base;

  private OAuthWire(HttpWire server, Path root, Path proposals) {
    this.server = server;
    this.root = root;
    this.proposals = proposals;
    String mcp = server.uri.toString();
    this.base = mcp.substring(0, mcp.length() - "/mcp".length());
  }

  /** A server with {@code -auth oauth}, its proposals (and OAuth state) in {@code dir}. */
  static OAuthWire start(Path dir, String... extra) throws Exception {
    return start(dir, Map.of(), extra);
  }

  /** The same, with {@code env} added to the server's environment. */
  static OAuthWire start(Path dir, Map<String, String> env, String... extra) throws Exception {
    Path root = Fixtures.workspace(dir);
    Path proposals = dir.resolve("proposals");
    Files.createDirectories(proposals);
    Files.setPosixFilePermissions(proposals, PosixFilePermissions.fromString("rwx------"));
    List<String> flags =
        new ArrayList<>(List.of("-auth", "oauth", "-proposals", proposals.toString()));
    flags.addAll(List.of(extra));
    return new OAuthWire(HttpWire.start(root, env, flags.toArray(new String[0])), root, proposals);
  }

  Path state() {
    return proposals.resolve("oauth");
  }

  // ---------------------------------------------------------------------------------------------
  // Plain requests.

  /** What came back; {@code cookie} is the owner's session cookie it set, if any. */
  record Page(int status, Map<String, List<String>> headers, String body) {
    String header(String name) {
      for (Map.Entry<String, List<String>> entry : headers.entrySet()) {
        if (entry.getKey().equalsIgnoreCase(name)) {
          return entry.getValue().get(0);
        }
      }
      return null;
    }

    JsonNode json() {
      return HttpWire.JSON.readTree(body);
    }

    /** The owner's session cookie this response set, or null. */
    String cookie() {
      for (Map.Entry<String, List<String>> entry : headers.entrySet()) {
        if (entry.getKey().equalsIgnoreCase("set-cookie")) {
          for (String value : entry.getValue()) {
            if (value.startsWith(COOKIE + "=")) {
              String id = value.substring(COOKIE.length() + 1, value.indexOf(';'));
              return id.isEmpty() ? null : id;
            }
          }
        }
      }
      return null;
    }

    /** The query parameters of the Location this response redirects to. */
    Map<String, String> location() {
      String location = header("Location");
      assertThat(location).as("a redirect's Location").isNotNull();
      return query(URI.create(location).getRawQuery());
    }
  }

  static Map<String, String> query(String raw) {
    Map<String, String> fields = new LinkedHashMap<>();
    if (raw == null) {
      return fields;
    }
    for (String pair : raw.split("&")) {
      int equals = pair.indexOf('=');
      fields.put(
          URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8),
          equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
    }
    return fields;
  }

  static String form(String... pairs) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < pairs.length; i += 2) {
      if (pairs[i + 1] == null) {
        continue;
      }
      if (out.length() > 0) {
        out.append('&');
      }
      out.append(URLEncoder.encode(pairs[i], StandardCharsets.UTF_8))
          .append('=')
          .append(URLEncoder.encode(pairs[i + 1], StandardCharsets.UTF_8));
    }
    return out.toString();
  }

  /** A request to {@code path} (or a full URL) with {@code headers} (name, value, ...). */
  Page send(String method, String path, String body, String... headers) throws Exception {
    URI uri = URI.create(path.startsWith("http") ? path : base + path);
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(WAIT)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    for (int i = 0; i < headers.length; i += 2) {
      if (headers[i + 1] != null) {
        request.header(headers[i], headers[i + 1]);
      }
    }
    HttpResponse<String> response =
        server.client.send(
            request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    return new Page(response.statusCode(), response.headers().map(), response.body());
  }

  Page get(String path, String cookie) throws Exception {
    return send("GET", path, null, "Cookie", cookie == null ? null : COOKIE + "=" + cookie);
  }

  /** A form POST as the owner's browser sends it from this server's own page. */
  Page post(String path, String cookie, String body) throws Exception {
    return send(
        "POST",
        path,
        body,
        "Content-Type",
        "application/x-www-form-urlencoded",
        "Origin",
        base,
        "Cookie",
        cookie == null ? null : COOKIE + "=" + cookie);
  }

  // ---------------------------------------------------------------------------------------------
  // The owner.

  /** {@code notes-mcp owner link} with the server's flags: its last stdout line. */
  String link() throws Exception {
    Launch.Result result =
        Launch.run(
            proposals.getParent(),
            List.of(
                WireServer.launcher().toString(),
                "owner",
                "link",
                "-root",
                root.toString(),
                "-proposals",
                proposals.toString(),
                "-issuer",
                base));
    assertThat(result.exit()).as(result.stderr()).isZero();
    String[] lines = result.stdout().split("\n");
    return lines[lines.length - 1];
  }

  /** Signs the owner in with a new link, opened as a browser opens a page: the session cookie. */
  String signIn() throws Exception {
    return signIn(link(), null);
  }

  String signIn(String link, String broughtCookie) throws Exception {
    Page page =
        send(
            "GET",
            link,
            null,
            "Sec-Fetch-Mode",
            "navigate",
            "Cookie",
            broughtCookie == null ? null : COOKIE + "=" + broughtCookie);
    assertThat(page.status()).as(page.body()).isEqualTo(303);
    assertThat(page.header("Location")).isEqualTo(base + "/owner");
    String cookie = page.cookie();
    assertThat(cookie).isNotNull();
    return cookie;
  }

  // ---------------------------------------------------------------------------------------------
  // A client.

  /** A PKCE pair: the verifier and its S256 challenge. */
  record Pkce(String verifier, String challenge) {
    static Pkce make() throws Exception {
      byte[] bytes = new byte[32];
      RANDOM.nextBytes(bytes);
      String verifier = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
      String challenge =
          Base64.getUrlEncoder()
              .withoutPadding()
              .encodeToString(
                  MessageDigest.getInstance("SHA-256")
                      .digest(verifier.getBytes(StandardCharsets.US_ASCII)));
      return new Pkce(verifier, challenge);
    }
  }

  /** Registers a public client by DCR: its client_id. */
  String register(String name, String redirect) throws Exception {
    Page page =
        send(
            "POST",
            "/register",
            "{\"client_name\":"
                + HttpWire.JSON.writeValueAsString(name)
                + ",\"redirect_uris\":["
                + HttpWire.JSON.writeValueAsString(redirect)
                + "],\"token_endpoint_auth_method\":\"none\","
                + "\"grant_types\":[\"authorization_code\",\"refresh_token\"]}",
            "Content-Type",
            "application/json");
    assertThat(page.status()).as(page.body()).isEqualTo(201);
    return page.json().get("client_id").stringValue();
  }

  /** The query of an authorization request. */
  String authorizeQuery(String clientId, String redirect, Pkce pkce, String state, String scope) {
    return form(
        "response_type",
        "code",
        "client_id",
        clientId,
        "redirect_uri",
        redirect,
        "code_challenge",
        pkce == null ? null : pkce.challenge(),
        "code_challenge_method",
        pkce == null ? null : "S256",
        "state",
        state,
        "scope",
        scope,
        "resource",
        server.uri.toString());
  }

  /** The consent page's hidden fields and form, checked. */
  record Consent(Page page, String request, String csrf) {}

  private static final Pattern HIDDEN =
      Pattern.compile("<input type=\"hidden\" name=\"([a-z]+)\" value=\"([^\"]*)\">");

  static Map<String, String> hidden(String html) {
    Map<String, String> fields = new LinkedHashMap<>();
    Matcher m = HIDDEN.matcher(html);
    while (m.find()) {
      fields.put(m.group(1), m.group(2).replace("&amp;", "&"));
    }
    return fields;
  }

  Consent consent(String cookie, String query) throws Exception {
    Page page = get("/authorize?" + query, cookie);
    assertThat(page.status()).as(page.body()).isEqualTo(200);
    assertThat(page.body()).contains("name=\"approve\"");
    assertThat(page.body().split("<form", -1)).hasSize(2);
    Map<String, String> fields = hidden(page.body());
    return new Consent(page, fields.get("request"), fields.get("csrf"));
  }

  /** The owner approves (with notes:propose ticked or not): the redirect's query. */
  Map<String, String> approve(String cookie, Consent consent, boolean propose) throws Exception {
    Page page =
        post(
            "/authorize",
            cookie,
            form(
                "csrf",
                consent.csrf(),
                "request",
                consent.request(),
                "propose",
                propose ? "1" : null,
                "approve",
                "1"));
    assertThat(page.status()).as(page.body()).isEqualTo(303);
    return page.location();
  }

  /** The whole flow: register, sign in, consent, token. The token response. */
  JsonNode authorize(String name, String redirect, boolean propose) throws Exception {
    String client = register(name, redirect);
    String cookie = signIn();
    Pkce pkce = Pkce.make();
    Consent consent = consent(cookie, authorizeQuery(client, redirect, pkce, "s1", null));
    Map<String, String> back = approve(cookie, consent, propose);
    assertThat(back).containsEntry("state", "s1").containsEntry("iss", base);
    Page token = exchange(client, redirect, back.get("code"), pkce.verifier());
    assertThat(token.status()).as(token.body()).isEqualTo(200);
    JsonNode json = token.json();
    return HttpWire.JSON
        .createObjectNode()
        .put("client_id", client)
        .put("access_token", json.get("access_token").stringValue())
        .put("refresh_token", json.get("refresh_token").stringValue())
        .put("scope", json.get("scope").stringValue());
  }

  Page exchange(String client, String redirect, String code, String verifier) throws Exception {
    return send(
        "POST",
        "/token",
        form(
            "grant_type",
            "authorization_code",
            "code",
            code,
            "redirect_uri",
            redirect,
            "client_id",
            client,
            "code_verifier",
            verifier,
            "resource",
            server.uri.toString()),
        "Content-Type",
        "application/x-www-form-urlencoded");
  }

  Page refresh(String client, String refreshToken) throws Exception {
    return send(
        "POST",
        "/token",
        form(
            "grant_type",
            "refresh_token",
            "refresh_token",
            refreshToken,
            "client_id",
            client,
            "resource",
            server.uri.toString()),
        "Content-Type",
        "application/x-www-form-urlencoded");
  }

  /** {@code notes-mcp owner ACTION ...} with the server's flags. */
  Launch.Result owner(String... words) throws Exception {
    List<String> command = new ArrayList<>(List.of(WireServer.launcher().toString(), "owner"));
    command.addAll(List.of(words));
    command.addAll(List.of("-root", root.toString(), "-proposals", proposals.toString()));
    return Launch.run(proposals.getParent(), command);
  }

  @Override
  public void close() {
    server.close();
  }
}

package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * A vault served with {@code -auth oauth} and a tokens file's proposing token, for the review page
 * (docs/review-page.md): notes proposed through MCP with the token, the page read and its forms
 * posted as the owner's browser does ({@link OAuthWire}), and what the terminal's {@code review}
 * says of the same folder. Holds the state on disk a hostile request must leave untouched.
 */
final class ReviewWire implements AutoCloseable {
  static final String JOURNAL = "Journal/2026-12-01.md";
  static final String BASE = "# Monday\n- call the printer\n";

  final Path dir;
  final Path root;
  final Path proposals;
  final Path policy;
  final String token;
  final OAuthWire oauth;

  private ReviewWire(Path dir, Path root, String token, Path policy, OAuthWire oauth) {
    this.dir = dir;
    this.root = root;
    this.proposals = oauth.proposals;
    this.policy = policy;
    this.token = token;
    this.oauth = oauth;
  }

  /** The vault in {@code dir}, served; {@code extra} flags and {@code env} go to the server. */
  static ReviewWire start(Path dir, Map<String, String> env, String... extra) throws Exception {
    Path root = Files.createDirectories(dir.resolve("workspace")).toRealPath();
    Files.createDirectories(root.resolve("Journal"));
    Files.createDirectories(root.resolve("Inbox"));
    Files.writeString(root.resolve(JOURNAL), BASE, StandardCharsets.UTF_8);
    Path policy =
        Files.writeString(
            dir.resolve("policy.json"),
            "{\"readable\":[\"**/*.md\",\"*.txt\"],\"proposable\":[\"Inbox/*.md\",\"*.md\"],"
                + "\"editable\":[\"Journal/*.md\"],\"maxNoteBytes\":262144,\"maxPending\":64}");
    Path tokens = HttpWire.tokensFile(dir);
    String token = HttpWire.addToken(tokens, "phone", "propose");
    List<String> flags =
        new ArrayList<>(List.of("-tokens", tokens.toString(), "-policy", policy.toString()));
    flags.addAll(List.of(extra));
    OAuthWire oauth = OAuthWire.start(dir, env, flags.toArray(new String[0]));
    // The change rule waits out a note written within its margin; let the journal settle.
    Thread.sleep(60);
    return new ReviewWire(dir, root, token, policy, oauth);
  }

  static ReviewWire start(Path dir, String... extra) throws Exception {
    return start(dir, Map.of(), extra);
  }

  // ---------------------------------------------------------------------------------------------
  // Proposals through MCP.

  /** A tool call with the proposing token: its result's JSON text, which must be no refusal. */
  JsonNode call(String tool, String arguments) throws Exception {
    return call(token, tool, arguments);
  }

  JsonNode call(String bearer, String tool, String arguments) throws Exception {
    HttpWire.Reply reply = oauth.server.call(bearer, tool, arguments);
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    JsonNode result = reply.json();
    assertThat(WireServer.isError(result)).as(reply.body()).isFalse();
    return HttpWire.JSON.readTree(WireServer.text(result));
  }

  /** {@code propose_note}: the proposal's id. */
  String proposeNote(String path, String content) throws Exception {
    return call(
            "propose_note",
            "{\"path\":"
                + HttpWire.JSON.writeValueAsString(path)
                + ",\"content\":"
                + HttpWire.JSON.writeValueAsString(content)
                + "}")
        .get("proposal_id")
        .stringValue();
  }

  /** {@code propose_edit} of the journal to {@code content}, against what it holds now. */
  String proposeEdit(String content) throws Exception {
    String base = call("read_note", "{\"path\":\"" + JOURNAL + "\"}").get("sha256").stringValue();
    return call(
            "propose_edit",
            "{\"path\":\""
                + JOURNAL
                + "\",\"base_sha256\":\""
                + base
                + "\",\"content\":"
                + HttpWire.JSON.writeValueAsString(content)
                + "}")
        .get("proposal_id")
        .stringValue();
  }

  // ---------------------------------------------------------------------------------------------
  // The page.

  private static final Pattern VIEW =
      Pattern.compile("<pre class=\"view\">(.*?)</pre>", Pattern.DOTALL);
  private static final Pattern SECTION =
      Pattern.compile(
          "<section class=\"proposal\" id=\"p-([0-9a-f-]{36})\">(.*?)</section>", Pattern.DOTALL);
  private static final Pattern HIDDEN =
      Pattern.compile("<input type=\"hidden\" name=\"([a-z0-9]+)\" value=\"([^\"]*)\">");
  private static final Pattern FORM =
      Pattern.compile("<form method=\"post\" action=\"([^\"]+)\">(.*?)</form>", Pattern.DOTALL);

  /** The text of every proposal block on a review page, as a browser shows it: unescaped. */
  static List<String> blocks(String html) {
    List<String> blocks = new ArrayList<>();
    Matcher m = VIEW.matcher(html);
    while (m.find()) {
      blocks.add(unescape(m.group(1)));
    }
    return blocks;
  }

  /** Each proposal's section of a review page, by id. */
  static Map<String, String> sections(String html) {
    Map<String, String> sections = new TreeMap<>();
    Matcher m = SECTION.matcher(html);
    while (m.find()) {
      sections.put(m.group(1), m.group(2));
    }
    return sections;
  }

  /**
   * The hidden fields of the form posting to {@code action} whose {@code id} field is {@code id}.
   */
  static Map<String, String> form(String html, String action, String id) {
    Matcher m = FORM.matcher(html);
    while (m.find()) {
      if (m.group(1).equals(action)) {
        Map<String, String> fields = new TreeMap<>();
        Matcher hidden = HIDDEN.matcher(m.group(2));
        while (hidden.find()) {
          fields.put(hidden.group(1), unescape(hidden.group(2)));
        }
        if (id.equals(fields.get("id"))) {
          return fields;
        }
      }
    }
    throw new AssertionError("no form to " + action + " for " + id + " in:\n" + html);
  }

  static String unescape(String html) {
    return html.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
  }

  /** {@code GET /review} with the owner's cookie: must be the page. */
  String page(String cookie) throws Exception {
    OAuthWire.Page page = oauth.get("/review", cookie);
    assertThat(page.status()).as(page.body()).isEqualTo(200);
    return page.body();
  }

  /**
   * Posts {@code fields} (names and values in turn) to {@code action}, as the owner's page does.
   */
  OAuthWire.Page post(String action, String cookie, String... fields) throws Exception {
    return oauth.post(action, cookie, OAuthWire.form(fields));
  }

  /** Approves {@code id} as shown on the page, with that page's form. */
  OAuthWire.Page approve(String cookie, String id) throws Exception {
    Map<String, String> f = form(page(cookie), "/review/approve", id);
    return post(
        "/review/approve", cookie, "csrf", f.get("csrf"), "id", id, "sha256", f.get("sha256"));
  }

  // ---------------------------------------------------------------------------------------------
  // The terminal's face, and the state on disk.

  /** {@code notes-mcp review -policy P [more]} without a terminal. */
  Launch.Result review(String... more) throws Exception {
    List<String> words = new ArrayList<>(List.of("-policy", policy.toString()));
    words.addAll(List.of(more));
    return Launch.run(
        dir,
        Map.of(),
        "",
        Launch.withoutTerminal(Launch.review(root, proposals, words.toArray(new String[0]))));
  }

  /** Every file of the workspace and the proposals folder (but the audit trail), with its bytes. */
  Map<String, String> state() throws Exception {
    Map<String, String> files = new TreeMap<>();
    for (Path top : List.of(root, proposals)) {
      try (Stream<Path> walk = Files.walk(top)) {
        for (Path file : walk.filter(Files::isRegularFile).toList()) {
          if (!file.getFileName().toString().equals("audit.log")
              && !file.startsWith(proposals.resolve("oauth"))) {
            files.put(
                dir.relativize(file).toString(),
                Files.readString(file, StandardCharsets.ISO_8859_1));
          }
        }
      }
    }
    return files;
  }

  /** The audit trail's decision lines. */
  List<String> decisions() throws Exception {
    Path log = proposals.resolve("audit.log");
    if (!Files.exists(log)) {
      return List.of();
    }
    return Files.readAllLines(log, StandardCharsets.UTF_8).stream()
        .filter(line -> line.contains("\"event\":\"review\""))
        .toList();
  }

  String status(String id) throws Exception {
    return call("proposal_status", "{\"proposal_id\":\"" + id + "\"}").get("status").stringValue();
  }

  @Override
  public void close() {
    oauth.close();
  }
}

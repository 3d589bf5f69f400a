package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The review page under attack (docs/review-page.md, "What holds"), black-box against the real
 * executable: forms without the session's own CSRF token or from another site, an approval bound to
 * another SHA-256, a replayed approval, framing, MCP tokens (a tokens file's and an OAuth access
 * token) at the page, the owner's cookie at {@code /mcp}, a session id fixed before sign-in, and a
 * client asking about another client's proposal. Every case: its status, nothing of a proposal
 * shown where nothing may be, and nothing written to the workspace or the proposals folder (no
 * note, no marker, no decision line).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ReviewPageHostileIT {
  @TempDir Path dir;

  private static final String REDIRECT = "http://127.0.0.1:9/callback";

  @Test
  void formsWithoutTheSessionsOwnTokenOrFromAnotherSiteDecideNothing() throws Exception {
    try (ReviewWire wire = ReviewWire.start(dir)) {
      String note = wire.proposeNote("Inbox/idea.md", "An idea.\n");
      String edit = wire.proposeEdit(ReviewWire.BASE + "- more\n");
      String cookie = wire.oauth.signIn();
      String other = wire.oauth.signIn();
      Map<String, String> mine = ReviewWire.form(wire.page(cookie), "/review/approve", note);
      Map<String, String> theirs = ReviewWire.form(wire.page(other), "/review/approve", note);
      assertThat(theirs.get("csrf")).isNotEqualTo(mine.get("csrf"));
      String sha = mine.get("sha256");
      Map<String, String> before = wire.state();

      List<OAuthWire.Page> refused = new ArrayList<>();
      for (String action : List.of("/review/approve", "/review/reject", "/review/undo")) {
        for (String id : List.of(note, edit)) {
          // No token, a wrong one, another live session's, an empty one, one given twice.
          refused.add(wire.post(action, cookie, "id", id, "sha256", sha));
          refused.add(wire.post(action, cookie, "csrf", "x" + mine.get("csrf"), "id", id));
          refused.add(
              wire.post(action, cookie, "csrf", theirs.get("csrf"), "id", id, "sha256", sha));
          refused.add(wire.post(action, cookie, "csrf", "", "id", id, "sha256", sha));
          refused.add(
              wire.oauth.post(
                  action,
                  cookie,
                  OAuthWire.form("csrf", mine.get("csrf"), "id", id, "sha256", sha)
                      + "&csrf="
                      + mine.get("csrf")));
          String body = OAuthWire.form("csrf", mine.get("csrf"), "id", id, "sha256", sha);
          // The right token, but sent by another site's page, or without the session.
          refused.add(
              wire.oauth.send(
                  "POST",
                  action,
                  body,
                  "Content-Type",
                  "application/x-www-form-urlencoded",
                  "Origin",
                  "https://evil.example",
                  "Cookie",
                  OAuthWire.COOKIE + "=" + cookie));
          refused.add(
              wire.oauth.send(
                  "POST",
                  action,
                  body,
                  "Content-Type",
                  "application/x-www-form-urlencoded",
                  "Sec-Fetch-Site",
                  "cross-site",
                  "Cookie",
                  OAuthWire.COOKIE + "=" + cookie));
          // An opaque origin (a sandboxed frame's) but from another site, or saying nothing more.
          for (String site : new String[] {"cross-site", "same-site", "none", null}) {
            refused.add(
                wire.oauth.send(
                    "POST",
                    action,
                    body,
                    "Content-Type",
                    "application/x-www-form-urlencoded",
                    "Origin",
                    "null",
                    "Sec-Fetch-Site",
                    site,
                    "Cookie",
                    OAuthWire.COOKIE + "=" + cookie));
          }
          refused.add(wire.post(action, null, "csrf", mine.get("csrf"), "id", id, "sha256", sha));
        }
      }
      for (OAuthWire.Page page : refused) {
        assertThat(page.status()).as(page.body()).isEqualTo(403);
        assertThat(page.body()).contains("Nothing was changed.");
        headers(page);
      }
      // A GET does not decide, and the forms take no other method.
      assertThat(wire.oauth.get("/review/approve?id=" + note + "&sha256=" + sha, cookie).status())
          .isEqualTo(405);
      assertThat(wire.state()).isEqualTo(before);
      assertThat(wire.decisions()).isEmpty();
      assertThat(wire.status(note)).isEqualTo("pending_approval");
      assertThat(wire.status(edit)).isEqualTo("pending_approval");
    }
  }

  @Test
  void anApprovalOfOtherBytesIsRefusedAndAReplayedOneCommitsOnce() throws Exception {
    try (ReviewWire wire = ReviewWire.start(dir)) {
      String note = wire.proposeNote("Inbox/idea.md", "An idea.\n");
      String cookie = wire.oauth.signIn();
      Map<String, String> form = ReviewWire.form(wire.page(cookie), "/review/approve", note);
      Map<String, String> before = wire.state();

      // Bound to the SHA-256 shown: any other, however close, or not one at all, is refused.
      String shown = form.get("sha256");
      String flipped = (shown.charAt(0) == '0' ? "1" : "0") + shown.substring(1);
      for (String sha : List.of(flipped, "0".repeat(64), shown.substring(0, 16), "", "zz")) {
        OAuthWire.Page page =
            wire.post(
                "/review/approve", cookie, "csrf", form.get("csrf"), "id", note, "sha256", sha);
        assertThat(page.status()).as(page.body()).isEqualTo(409);
        assertThat(wire.state()).isEqualTo(before);
      }
      assertThat(wire.status(note)).isEqualTo("pending_approval");
      // Another proposal's id with this one's SHA-256: refused too.
      String second = wire.proposeNote("Inbox/second.md", "Second.\n");
      OAuthWire.Page crossed =
          wire.post(
              "/review/approve", cookie, "csrf", form.get("csrf"), "id", second, "sha256", shown);
      assertThat(crossed.status()).isEqualTo(409);
      assertThat(crossed.body()).contains("is not that of proposal " + second);
      assertThat(wire.root.resolve("Inbox/second.md")).doesNotExist();

      // The right form, sent five times: one note, four refusals.
      int done = 0;
      for (int i = 0; i < 5; i++) {
        OAuthWire.Page page =
            wire.post(
                "/review/approve", cookie, "csrf", form.get("csrf"), "id", note, "sha256", shown);
        if (page.status() == 200) {
          done++;
        } else {
          assertThat(page.status()).isEqualTo(409);
          assertThat(page.body()).contains("is already committed; nothing changed");
        }
      }
      assertThat(done).isEqualTo(1);
      assertThat(wire.root.resolve("Inbox/idea.md")).hasContent("An idea.\n");
      assertThat(
              wire.decisions().stream()
                  .filter(l -> l.contains("\"outcome\":\"done: created "))
                  .count())
          .isEqualTo(1);
      // A rejection after the commit is refused; the note stays.
      OAuthWire.Page late =
          wire.post("/review/reject", cookie, "csrf", form.get("csrf"), "id", note);
      assertThat(late.status()).isEqualTo(409);
      assertThat(wire.root.resolve("Inbox/idea.md")).hasContent("An idea.\n");
    }
  }

  @Test
  void noMcpTokenOpensTheReviewPageNoCookieOpensMcpAndNoPageCanBeFramed() throws Exception {
    try (ReviewWire wire = ReviewWire.start(dir)) {
      String note = wire.proposeNote("Inbox/idea.md", "Secret idea.\n");
      JsonNode granted = wire.oauth.authorize("Client", REDIRECT, true);
      String access = granted.get("access_token").stringValue();
      String cookie = wire.oauth.signIn();
      Map<String, String> form = ReviewWire.form(wire.page(cookie), "/review/approve", note);
      Map<String, String> before = wire.state();

      for (String token : List.of(wire.token, access)) {
        for (String path : List.of("/review", "/review/log")) {
          OAuthWire.Page page =
              wire.oauth.send("GET", path, null, "Authorization", "Bearer " + token);
          assertThat(page.status()).isEqualTo(303);
          assertThat(page.header("Location"))
              .isEqualTo(wire.oauth.base + "/owner/signin?next=" + path);
          assertThat(page.body()).doesNotContain(note).doesNotContain("Secret");
        }
        for (String action : List.of("/review/approve", "/review/reject")) {
          OAuthWire.Page page =
              wire.oauth.send(
                  "POST",
                  action,
                  OAuthWire.form(
                      "csrf", form.get("csrf"), "id", note, "sha256", form.get("sha256")),
                  "Content-Type",
                  "application/x-www-form-urlencoded",
                  "Origin",
                  wire.oauth.base,
                  "Authorization",
                  "Bearer " + token);
          assertThat(page.status()).isEqualTo(403);
        }
      }
      // The owner's cookie is no MCP credential.
      HttpWire.Reply withCookie =
          wire.oauth.server.post(
              "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{"
                  + HttpWire.META
                  + ",\"name\":\"propose_note\",\"arguments\":{\"path\":\"Inbox/x.md\","
                  + "\"content\":\"x\"}}}",
              "Content-Type",
              "application/json",
              "Accept",
              "application/json, text/event-stream",
              "MCP-Protocol-Version",
              HttpWire.MODERN,
              "Mcp-Method",
              "tools/call",
              "Mcp-Name",
              "propose_note",
              "Cookie",
              OAuthWire.COOKIE + "=" + cookie);
      assertThat(withCookie.status()).isEqualTo(401);

      // Framing, caching and referrers, on every page of it and every answer to a form.
      headers(wire.oauth.get("/review", cookie));
      headers(wire.oauth.get("/review/log", cookie));
      headers(wire.oauth.get("/review", null));
      headers(wire.post("/review/reject", cookie, "csrf", "wrong", "id", note));
      assertThat(wire.state()).isEqualTo(before);
      assertThat(wire.decisions()).isEmpty();
      assertThat(wire.status(note)).isEqualTo("pending_approval");
      assertThat(wire.oauth.server.violations()).isEmpty();
    }
  }

  @Test
  void aSessionIdFixedBeforeSignInOpensNothing() throws Exception {
    try (ReviewWire wire = ReviewWire.start(dir)) {
      String note = wire.proposeNote("Inbox/idea.md", "An idea.\n");
      String fixed = "attacker-chosen-session-id";
      assertThat(wire.oauth.get("/review", fixed).status()).isEqualTo(303);
      String cookie = wire.oauth.signIn(wire.oauth.link(), fixed);
      assertThat(cookie).isNotEqualTo(fixed);
      OAuthWire.Page page = wire.oauth.get("/review", fixed);
      assertThat(page.status()).isEqualTo(303);
      assertThat(page.body()).doesNotContain(note);
      Map<String, String> form = ReviewWire.form(wire.page(cookie), "/review/approve", note);
      OAuthWire.Page post =
          wire.post(
              "/review/approve",
              fixed,
              "csrf",
              form.get("csrf"),
              "id",
              note,
              "sha256",
              form.get("sha256"));
      assertThat(post.status()).isEqualTo(403);
      assertThat(wire.root.resolve("Inbox/idea.md")).doesNotExist();
      assertThat(wire.decisions()).isEmpty();
    }
  }

  /**
   * {@code proposal_status} answers a caller about its own proposals only: another client (an OAuth
   * client, or another token) is told there is no such proposal, exactly as for an id that never
   * existed, before and after the owner decides.
   */
  @Test
  void anotherClientAskingAboutAProposalIsToldThereIsNone() throws Exception {
    try (ReviewWire wire = ReviewWire.start(dir)) {
      String note = wire.proposeNote("Inbox/idea.md", "An idea.\n");
      JsonNode granted = wire.oauth.authorize("Client", REDIRECT, true);
      String access = granted.get("access_token").stringValue();
      String cookie = wire.oauth.signIn();
      for (int round = 0; round < 2; round++) {
        HttpWire.Reply asked =
            wire.oauth.server.call(access, "proposal_status", "{\"proposal_id\":\"" + note + "\"}");
        assertThat(WireServer.isError(asked.json())).isTrue();
        assertThat(WireServer.text(asked.json()))
            .isEqualTo(
                "there is no proposal \""
                    + note
                    + "\" of this server; proposal_id is the id a propose_note or propose_edit"
                    + " result gave");
        if (round == 0) {
          assertThat(wire.approve(cookie, note).status()).isEqualTo(200);
        }
      }
      assertThat(wire.status(note)).isEqualTo("approved");
    }
  }

  private static void headers(OAuthWire.Page page) {
    assertThat(page.header("Content-Security-Policy"))
        .isEqualTo(
            "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; base-uri 'none';"
                + " frame-ancestors 'none'");
    assertThat(page.header("X-Frame-Options")).isEqualTo("DENY");
    assertThat(page.header("Cache-Control")).isEqualTo("no-store");
    assertThat(page.header("Referrer-Policy")).isEqualTo("no-referrer");
    assertThat(page.body()).doesNotContain("<script");
  }
}

package notesmcp.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;
import notesmcp.policy.proposals.AuditLog;
import notesmcp.policy.proposals.Proposal;
import notesmcp.policy.proposals.ProposalDirectory;
import notesmcp.policy.proposals.Recorded;
import notesmcp.policy.proposals.Recorded.Valid;
import notesmcp.policy.review.Approvals;
import notesmcp.policy.review.ProposalView;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.vault.Workspace;
import notesmcp.text.TerminalText;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The review page (docs/review-page.md): the second face of {@code notes-mcp review}, for the
 * signed-in owner only, on a phone as well as a desktop. The only class of this module that reaches
 * the review package (BordersTest): it holds the same {@link Approvals} the terminal's review
 * makes, over the server's own workspace, proposals folder and policy, so every rule is that one
 * implementation's: exactly once, never overwrite, an edit only over the text it was made against,
 * the proposals folder's lock between this page, the server's proposals and any terminal review.
 *
 * <ul>
 *   <li>{@code GET /review}: first what an interrupted commit left is completed ({@link
 *       Approvals#recover}, as every terminal review does first); then each pending proposal in
 *       exactly the text the terminal shows ({@link ProposalView}), HTML-escaped in a {@code
 *       <pre>}, with an approve form bound to the proposal's id and the SHA-256 shown, and a reject
 *       form; then the approved edits that can be undone.
 *   <li>{@code POST /review/approve} ({@code id}, {@code sha256}), {@code /review/reject}, {@code
 *       /review/undo} ({@code id}): only from the owner's own page ({@link OwnerSessions#form}: the
 *       session, its CSRF token, no sign of another site); each decision goes to the audit trail
 *       with {@code "via":"page"}, the session's label and the peer.
 *   <li>{@code GET /review/log}: the audit trail as {@code review --log} reads it, the chain's
 *       state first, the last {@value #LOG_LINES} lines.
 * </ul>
 *
 * Nothing here reads {@code Authorization}: no MCP token, bearer or OAuth, opens a page of it; a
 * request without the owner's session is sent to the sign-in page (GET) or refused 403 (POST), and
 * is shown nothing of a proposal. Every page has the owner's pages' headers ({@link Html#send}).
 */
final class ReviewPage {
  static final String PATH = "/review";
  static final String LOG = "/review/log";
  static final String APPROVE = "/review/approve";
  static final String REJECT = "/review/reject";
  static final String UNDO = "/review/undo";

  /** Approved edits offered for undo, newest first, at most this many. */
  static final int UNDOABLE = 20;

  /** The audit trail's last lines shown, at most this many (the chain is checked whole). */
  static final int LOG_LINES = 200;

  private static final Consumer<String> NO_CHECKPOINTS =
      new Consumer<String>() {
        @Override
        public void accept(String point) {}
      };

  private final Approvals approvals;
  private final PrintStream log;
  private volatile Issuer issuer;
  private volatile OwnerSessions sessions;

  ReviewPage(Workspace workspace, ProposalDirectory proposals, Policy policy, PrintStream log) {
    this.approvals =
        new Approvals(workspace, proposals, Clock.systemUTC(), log, NO_CHECKPOINTS, policy);
    this.log = log;
  }

  /** Once the door listens: the issuer (for addresses) and the owner's sessions. */
  void ready(Issuer issuer, OwnerSessions sessions) {
    this.sessions = sessions;
    this.issuer = issuer;
  }

  /** Serves {@code path} if it is one of this page's; false otherwise. */
  boolean handle(String path, Request request, Response response, Callback callback) {
    String method = request.getMethod();
    switch (path) {
      case PATH:
      case LOG:
        if (!method.equals("GET") && !method.equals("HEAD")) {
          Html.notAllowed(response, callback, "GET");
          return true;
        }
        OwnerSessions.Owner owner = sessions.signedIn(request);
        if (owner == null) {
          Html.seeOther(response, callback, issuer.page("/owner/signin?next=" + path));
        } else if (path.equals(PATH)) {
          list(owner, response, callback);
        } else {
          auditTrail(response, callback);
        }
        return true;
      case APPROVE:
      case REJECT:
      case UNDO:
        if (!method.equals("POST")) {
          Html.notAllowed(response, callback, "POST");
          return true;
        }
        decide(path, request, response, callback);
        return true;
      default:
        return false;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The list.

  private void list(OwnerSessions.Owner owner, Response response, Callback callback) {
    List<String> recovered;
    List<Recorded> pending;
    List<Proposal> undoable;
    try {
      recovered = approvals.recover();
      pending = approvals.pending();
      undoable = approvals.undoable(UNDOABLE);
    } catch (IOException e) {
      failed(response, callback, e);
      return;
    }
    StringBuilder body = new StringBuilder(4096);
    body.append("<p class=\"nav\"><a href=\"")
        .append(LOG)
        .append("\">Audit trail</a> · <a href=\"/owner\">Owner</a></p>");
    for (String line : recovered) {
      body.append("<p class=\"warn\">").append(visible(line)).append("</p>");
      log.println("notes-mcp: " + TerminalText.visibleLine(line));
    }
    body.append("<p>")
        .append(
            pending.isEmpty()
                ? "No pending proposals."
                : pending.size()
                    + (pending.size() == 1 ? " pending proposal." : " pending proposals."))
        .append(
            " Each is shown exactly as <code>notes-mcp review</code> shows it, every control or"
                + " invisible character as an escape.</p>");
    for (Recorded entry : pending) {
      proposal(body, entry, owner);
    }
    if (!undoable.isEmpty()) {
      body.append(
              "<h2>Approved edits</h2><p>Undo restores the text an edit replaced, only while the")
          .append(" note still holds exactly the edit's text.</p>");
      for (Proposal proposal : undoable) {
        body.append("<div class=\"undo\"><p>")
            .append(Html.inert(proposal.path().value(), 200))
            .append(" · proposal <code>")
            .append(proposal.id())
            .append("</code> · made ")
            .append(Html.escape(proposal.createdAt().toString()))
            .append("</p><form method=\"post\" action=\"")
            .append(UNDO)
            .append("\">")
            .append(owner.csrfField())
            .append(hidden("id", proposal.id()))
            .append("<button type=\"submit\" name=\"undo\">Undo</button></form></div>");
      }
    }
    Html.send(response, callback, 200, Html.page("Review", body.toString()));
  }

  /** One pending proposal: the terminal's block, and its forms. */
  private void proposal(StringBuilder body, Recorded entry, OwnerSessions.Owner owner) {
    Proposal proposal = entry instanceof Valid ? ((Valid) entry).proposal() : null;
    String disallowed = proposal == null ? null : approvals.disallowed(proposal);
    Path destination = proposal == null ? null : approvals.fileOf(proposal);
    String block =
        disallowed == null
            ? ProposalView.render(entry, destination)
            : ProposalView.render(entry, destination, disallowed);
    body.append("<section class=\"proposal\" id=\"p-").append(entry.id()).append("\"><h2>");
    if (proposal == null) {
      body.append("Damaged record");
    } else {
      body.append(proposal.isEdit() ? "Edit of " : "New note ")
          .append(Html.inert(proposal.path().value(), 200));
    }
    body.append("</h2><pre class=\"view\">").append(Html.escape(block)).append("</pre>");
    body.append("<div class=\"actions\">");
    if (proposal != null && disallowed == null) {
      body.append("<form method=\"post\" action=\"")
          .append(APPROVE)
          .append("\">")
          .append(owner.csrfField())
          .append(hidden("id", proposal.id()))
          .append(hidden("sha256", proposal.sha256()))
          .append("<button type=\"submit\" name=\"approve\">")
          .append(
              proposal.isEdit()
                  ? "Approve: change the note to exactly the new text shown"
                  : "Approve: create the note with exactly these "
                      + proposal.bytes().length
                      + " bytes")
          .append("</button></form>");
    }
    body.append("<form method=\"post\" action=\"")
        .append(REJECT)
        .append("\">")
        .append(owner.csrfField())
        .append(hidden("id", entry.id()))
        .append("<button type=\"submit\" name=\"reject\">Reject</button></form></div></section>");
  }

  // ---------------------------------------------------------------------------------------------
  // Decisions.

  private void decide(String path, Request request, Response response, Callback callback) {
    Form form;
    try {
      form = Form.read(request);
    } catch (Form.Unreadable e) {
      result(response, callback, e.status, "Refused", e.getMessage() + "; nothing changed.");
      return;
    }
    OwnerSessions.Owner owner = sessions.form(request, form);
    if (owner == null) {
      result(
          response,
          callback,
          403,
          "Refused",
          "This did not come from your signed-in session's own page. Nothing was changed.");
      return;
    }
    String id = form.get("id");
    String sha256 = form.get("sha256");
    if (id == null || (path.equals(APPROVE) && sha256 == null)) {
      result(response, callback, 400, "Refused", "The form is incomplete; nothing changed.");
      return;
    }
    String peer = Request.getRemoteAddr(request);
    Approvals asOwner =
        approvals.from(List.of("via", "page", "session", owner.label(), "peer", peer));
    Approvals.Decision decision;
    try {
      switch (path) {
        case APPROVE:
          decision = asOwner.approve(id, sha256);
          break;
        case REJECT:
          decision = asOwner.reject(id);
          break;
        default:
          decision = asOwner.undo(id);
          break;
      }
    } catch (IOException e) {
      failed(response, callback, e);
      return;
    }
    String action = path.substring(PATH.length() + 1);
    boolean done = decision instanceof Approvals.Done;
    log.println(
        "notes-mcp: the owner's "
            + action
            + " on the review page (session "
            + owner.label()
            + ", from "
            + peer
            + "): "
            + (done ? "" : "refused: ")
            + TerminalText.visibleLine(decision.message()));
    result(response, callback, done ? 200 : 409, done ? "Done" : "Refused", decision.message());
  }

  private void result(Response response, Callback callback, int status, String title, String text) {
    Html.send(
        response,
        callback,
        status,
        Html.page(
            title,
            "<p class=\"message\">"
                + visible(text)
                + "</p><p><a href=\""
                + PATH
                + "\">Back to the proposals</a></p>"));
  }

  /** A file operation failed: 500, said here and on stderr; review again completes or clears it. */
  private void failed(Response response, Callback callback, IOException e) {
    String problem = e.getMessage() == null ? e.toString() : e.getMessage();
    log.println("notes-mcp: the review page failed (" + TerminalText.visibleLine(problem) + ")");
    Html.send(
        response,
        callback,
        500,
        Html.page(
            "Review failed",
            "<p>"
                + visible(problem)
                + "</p><p>A crash-safe step may be half done: <a href=\""
                + PATH
                + "\">open the review again</a> (or run <code>notes-mcp review</code>) to complete"
                + " or clear it.</p>"));
  }

  // ---------------------------------------------------------------------------------------------
  // The audit trail.

  private void auditTrail(Response response, Callback callback) {
    LastLines lines = new LastLines(LOG_LINES);
    AuditLog.Check check;
    try (PrintStream out = new PrintStream(lines, false, StandardCharsets.UTF_8)) {
      check = approvals.printLog(out);
      out.flush();
    } catch (IOException e) {
      failed(response, callback, e);
      return;
    }
    StringBuilder body = new StringBuilder(8192);
    body.append("<p class=\"nav\"><a href=\"")
        .append(PATH)
        .append("\">Proposals</a> · <a href=\"/owner\">Owner</a></p>");
    body.append("<p class=\"")
        .append(check.intact() ? "ok" : "warn")
        .append("\" id=\"chain\">")
        .append(Html.escape(sentence(check.verdict())))
        .append("</p>");
    if (check.tornLines() != null) {
      body.append("<p class=\"warn\" id=\"torn\">")
          .append(Html.escape(sentence(check.tornLines())))
          .append("</p>");
    }
    body.append("<p>")
        .append(
            lines.total() > lines.kept().size()
                ? "The last " + lines.kept().size() + " of " + lines.total() + " lines"
                : "Every line")
        .append(", as <code>notes-mcp review --log</code> shows them (the whole chain is checked).")
        .append("</p><pre class=\"log\">");
    for (String line : lines.kept()) {
      body.append(Html.escape(line)).append('\n');
    }
    body.append("</pre>");
    Html.send(response, callback, 200, Html.page("Audit trail", body.toString()));
  }

  private static String sentence(String words) {
    return Character.toUpperCase(words.charAt(0)) + words.substring(1) + ".";
  }

  /** The last lines written to it, at most a number of them, and how many there were. */
  private static final class LastLines extends OutputStream {
    private final int max;
    private final Deque<String> kept = new ArrayDeque<>();
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(512);
    private long total;

    LastLines(int max) {
      this.max = max;
    }

    @Override
    public void write(int b) {
      if (b == '\n') {
        kept.addLast(line.toString(StandardCharsets.UTF_8));
        line.reset();
        total++;
        if (kept.size() > max) {
          kept.removeFirst();
        }
      } else {
        line.write(b);
      }
    }

    Deque<String> kept() {
      return kept;
    }

    long total() {
      return total;
    }
  }

  // ---------------------------------------------------------------------------------------------

  private static String visible(String text) {
    return Html.escape(TerminalText.visible(text));
  }

  private static String hidden(String name, String value) {
    return "<input type=\"hidden\" name=\"" + name + "\" value=\"" + Html.escape(value) + "\">";
  }
}

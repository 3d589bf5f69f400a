package notesmcp.policy.review;

import java.nio.file.Path;
import notesmcp.policy.proposals.Proposal;
import notesmcp.policy.proposals.Recorded;
import notesmcp.policy.proposals.Recorded.Damaged;
import notesmcp.policy.proposals.Recorded.Valid;
import notesmcp.policy.proposals.Requester;
import notesmcp.text.LineDiff;
import notesmcp.text.TerminalText;

/**
 * How a pending proposal is shown to a person (docs/approvals.md), by both faces of the review:
 * {@code notes-mcp review} in a terminal and the review page of the HTTP server, which shows this
 * very text, HTML-escaped (docs/review-page.md). The destination path, the byte length, the
 * SHA-256, the exact content with every control character, escape sequence and invisible character
 * made visible, the client that asked, labelled unverified, and the credential the server checked
 * when the proposal came over HTTP. Everything that came from a record is shown in {@link
 * TerminalText}'s visible form; the chat's confirmation shows a proposal's content the same way
 * ({@link TerminalText#gutter}).
 */
public final class ProposalView {
  private ProposalView() {}

  /** The block for one entry, ending with a newline. */
  public static String render(Recorded entry, Path destination) {
    if (entry instanceof Damaged) {
      Damaged damaged = (Damaged) entry;
      return "Damaged proposal "
          + damaged.id()
          + "\n  problem      "
          + TerminalText.visible(damaged.problem())
          + "\n  It cannot be approved; it can be rejected.\n";
    }
    Proposal proposal = ((Valid) entry).proposal();
    if (proposal.isEdit()) {
      return renderEdit(proposal, destination, null);
    }
    StringBuilder out = new StringBuilder(256 + proposal.content().length());
    out.append("Proposal ").append(proposal.id()).append('\n');
    field(out, "destination", TerminalText.visible(destination.toString()));
    field(out, "bytes", Integer.toString(proposal.bytes().length));
    field(out, "sha256", proposal.sha256());
    field(out, "created", proposal.createdAt().toString());
    field(out, "requested by", requester(proposal.requester()));
    credential(out, proposal.authenticated());
    field(out, "content", TerminalText.KEY);
    out.append(TerminalText.gutter(proposal.content()));
    return out.toString();
  }

  /**
   * The block for a proposal the policy given to review does not allow (or an edit shown without
   * one): shown so the person can reject it, never offered for approval.
   */
  public static String render(Recorded entry, Path destination, String disallowed) {
    Proposal proposal = ((Valid) entry).proposal();
    if (proposal.isEdit()) {
      return renderEdit(proposal, destination, disallowed);
    }
    return render(entry, destination)
        + "  not allowed  "
        + TerminalText.visible(disallowed)
        + "\n  It cannot be approved; it can be rejected.\n";
  }

  /**
   * An edit: the note it changes, the SHA-256 of the text it replaces and of the new text, and the
   * line diff between them ({@link LineDiff}), both sides in the visible form.
   */
  private static String renderEdit(Proposal proposal, Path destination, String disallowed) {
    StringBuilder out = new StringBuilder(1024);
    out.append("Edit proposal ").append(proposal.id()).append('\n');
    field(out, "destination", TerminalText.visible(destination.toString()) + " (an existing note)");
    field(
        out,
        "base sha256",
        proposal.baseSha256()
            + " (the text it replaces, "
            + proposal.baseBytes().length
            + " bytes)");
    field(
        out,
        "new sha256",
        proposal.sha256() + " (the new text, " + proposal.bytes().length + " bytes)");
    field(out, "created", proposal.createdAt().toString());
    field(out, "requested by", requester(proposal.requester()));
    credential(out, proposal.authenticated());
    field(out, "diff", "- removed, + added; " + TerminalText.KEY);
    out.append(LineDiff.render(proposal.base(), proposal.content()));
    if (disallowed != null) {
      field(out, "not allowed", TerminalText.visible(disallowed));
      out.append("  It cannot be approved; it can be rejected.\n");
    }
    return out.toString();
  }

  private static void field(StringBuilder out, String name, String value) {
    out.append("  ").append(String.format("%-13s", name)).append(value).append('\n');
  }

  /** The prefix of an OAuth caller's name ({@code oauth:CLIENT_ID}; docs/oauth.md). */
  private static final String OAUTH = "oauth:";

  /**
   * The credential the HTTP server checked when the proposal was made (the record's {@code
   * authenticatedRequester}): a tokens file's token by its name, or an OAuth client the owner
   * allowed, by its client id. No line for a proposal made over stdio (or over HTTP with {@code
   * -auth none}): nothing was checked then.
   */
  private static void credential(StringBuilder out, String authenticated) {
    if (authenticated == null) {
      return;
    }
    field(
        out,
        "credential",
        authenticated.startsWith(OAUTH)
            ? "OAuth client \""
                + quoted(authenticated.substring(OAUTH.length()))
                + "\", allowed by the owner (checked by the server, not the client's claim)"
            : "token \""
                + quoted(authenticated)
                + "\" (checked by the server, not the client's claim)");
  }

  private static String requester(Requester requester) {
    if (requester == null) {
      return "(the client gave no name)";
    }
    return "\""
        + quoted(requester.name())
        + "\" version \""
        + quoted(requester.version())
        + "\" (self-reported by the MCP client, unverified)";
  }

  /**
   * Text shown between quotes: a quote inside is written {@code \\x22} (a documented escape), or
   * the name {@code a" version "b} with version {@code c} would read as the name {@code a} with
   * version {@code b" version "c}. The rendering holds no quote of its own to confuse with it.
   */
  private static String quoted(String text) {
    return TerminalText.visible(text).replace("\"", "\\x22");
  }
}

package notesmcp.app;

import java.nio.file.Path;
import notesmcp.policy.Notes.Requester;
import notesmcp.policy.Proposal;
import notesmcp.policy.Recorded;
import notesmcp.policy.Recorded.Damaged;
import notesmcp.policy.Recorded.Valid;

/**
 * How {@code review} shows a pending proposal to a person: "the destination path, the exact content
 * with control characters and terminal escape sequences made visible ..., the byte length and the
 * SHA-256" (approvals issue), and the client that asked, labelled unverified. Everything that came
 * from a record goes through {@link VisibleText}. {@link #content} and {@link #CONTENT_KEY} are
 * public for the chat mode (module notes-chat), whose confirmation shows a proposal as review will.
 */
public final class ProposalView {
  public static final String CONTENT_KEY =
      "(escaped: \\\\ is one backslash; \\n \\r \\t \\xNN \\uNNNN \\UNNNNNNNN stand for one"
          + " character)";

  private ProposalView() {}

  /** The block for one entry, ending with a newline. */
  static String render(Recorded entry, Path destination) {
    if (entry instanceof Damaged) {
      Damaged damaged = (Damaged) entry;
      return "Damaged proposal "
          + damaged.id()
          + "\n  problem      "
          + VisibleText.render(damaged.problem())
          + "\n  It cannot be approved; it can be rejected.\n";
    }
    Proposal proposal = ((Valid) entry).proposal();
    StringBuilder out = new StringBuilder(256 + proposal.content().length());
    out.append("Proposal ").append(proposal.id()).append('\n');
    field(out, "destination", VisibleText.render(destination.toString()));
    field(out, "bytes", Integer.toString(proposal.bytes().length));
    field(out, "sha256", proposal.sha256());
    field(out, "created", proposal.createdAt().toString());
    field(out, "requested by", requester(proposal.requester()));
    field(out, "content", CONTENT_KEY);
    out.append(content(proposal.content()));
    return out.toString();
  }

  private static void field(StringBuilder out, String name, String value) {
    out.append("  ").append(String.format("%-13s", name)).append(value).append('\n');
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
    return VisibleText.render(text).replace("\"", "\\x22");
  }

  /** The content, each line behind a gutter, so no line of it can pass for review output. */
  public static String content(String content) {
    if (content.isEmpty()) {
      return "    (empty)\n";
    }
    String rendered = VisibleText.render(content);
    if (rendered.endsWith("\n")) {
      rendered = rendered.substring(0, rendered.length() - 1);
    }
    StringBuilder out = new StringBuilder(rendered.length() + 64);
    for (String line : rendered.split("\n", -1)) {
      out.append("    | ").append(line).append('\n');
    }
    return out.toString();
  }
}

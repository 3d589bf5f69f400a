package notesmcp.chat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import notesmcp.cli.ControllingTerminal;
import notesmcp.text.LineDiff;
import notesmcp.text.TerminalText;
import tools.jackson.databind.JsonNode;

/**
 * A person's yes before a call that is not read-only is sent (docs/chat.md): asked on the
 * controlling terminal ({@code /dev/tty}, never stdin, which carries the conversation), showing the
 * exact tool and arguments (for {@code propose_note}: the destination and the content) rendered
 * inertly as {@code notes-mcp review} renders a proposal. "Only {@code yes} confirms." "With no
 * terminal, nothing needing confirmation is ever sent." And it says what a yes does: it sends a
 * proposal, and approves nothing.
 */
final class Confirmation {
  static final String PROMPT = "Type yes to send this call, anything else to decline: ";

  /** A note name as the policy allows it: one plain file name directly in the workspace. */
  private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]*");

  /** The longest string argument shown on the line of its name; longer ones get a block. */
  private static final int INLINE = 120;

  /** How the person answered. */
  enum Answer {
    YES,
    DECLINED,
    NO_TERMINAL
  }

  private final Supplier<Optional<ControllingTerminal>> terminal;
  private final Path root;
  private final Path proposals;

  /**
   * @param root the workspace of this program's own server, or null for a {@code -server-command}
   * @param proposals where that server keeps proposals, or null when it keeps them in memory
   */
  Confirmation(Supplier<Optional<ControllingTerminal>> terminal, Path root, Path proposals) {
    this.terminal = terminal;
    this.root = root;
    this.proposals = proposals;
  }

  Answer ask(String tool, ToolArguments arguments) throws IOException {
    return ask(tool, arguments, null);
  }

  /**
   * @param base for {@code propose_edit}, the note's text as the server reads it now, or null
   */
  Answer ask(String tool, ToolArguments arguments, String base) throws IOException {
    Optional<ControllingTerminal> opened = terminal.get();
    if (opened.isEmpty()) {
      return Answer.NO_TERMINAL;
    }
    try (ControllingTerminal tty = opened.get()) {
      tty.out().print(render(tool, arguments, base));
      String answer = tty.ask(PROMPT);
      return "yes".equals(answer) ? Answer.YES : Answer.DECLINED;
    }
  }

  /** What the person sees before answering. */
  String render(String tool, ToolArguments arguments) {
    return render(tool, arguments, null);
  }

  /** As above; for {@code propose_edit} with the note's current text, the diff it asks for. */
  String render(String tool, ToolArguments arguments, String base) {
    if (Chat.PROPOSE_EDIT.equals(tool)) {
      return renderEdit(arguments, base);
    }
    StringBuilder out = new StringBuilder(512);
    out.append(
        "\nnotes-mcp chat: the model asks to send a call the server does not mark read-only.\n");
    field(out, "tool", TerminalText.visible(tool));
    for (Map.Entry<String, JsonNode> argument : arguments.object().properties()) {
      if (Chat.PROPOSE_NOTE.equals(tool)
          && argument.getKey().equals("content")
          && argument.getValue().isString()) {
        content(out, argument.getValue().asString());
      } else {
        argument(out, argument.getKey(), argument.getValue());
      }
    }
    if (arguments.object().isEmpty()) {
      field(out, "arguments", "(none)");
    }
    destination(out, tool, arguments.object().get("path"));
    out.append(footer(tool));
    return out.toString();
  }

  /**
   * A {@code propose_edit}: its arguments, then the line diff from the note's text now to the text
   * the edit asks for, as {@code notes-mcp review} will show it ({@link LineDiff}).
   */
  private String renderEdit(ToolArguments arguments, String base) {
    StringBuilder out = new StringBuilder(1024);
    out.append(
        "\nnotes-mcp chat: the model asks to send a call the server does not mark read-only.\n");
    field(out, "tool", Chat.PROPOSE_EDIT);
    JsonNode content = arguments.object().get("content");
    JsonNode append = arguments.object().get("append");
    for (Map.Entry<String, JsonNode> argument : arguments.object().properties()) {
      String key = argument.getKey();
      if (!key.equals("content") && !key.equals("append")) {
        argument(out, key, argument.getValue());
      }
    }
    JsonNode baseSha256 = arguments.object().get("base_sha256");
    String after = null;
    if (base != null && content != null && content.isString()) {
      after = content.asString();
    } else if (base != null && append != null && append.isString()) {
      after = base + append.asString();
    }
    if (after == null
        || baseSha256 == null
        || !baseSha256.isString()
        || !sha256(base.getBytes(StandardCharsets.UTF_8)).equals(baseSha256.asString())) {
      field(
          out,
          "diff",
          "(not shown: the note's text now could not be read, or it is not the base_sha256"
              + " named, so the server will refuse this edit)");
      if (content != null) {
        argument(out, "content", content);
      }
      if (append != null) {
        argument(out, "append", append);
      }
    } else {
      field(out, "new sha256", sha256(after.getBytes(StandardCharsets.UTF_8)));
      field(out, "diff", "- removed, + added; " + TerminalText.KEY);
      out.append(LineDiff.render(base, after));
    }
    out.append(footer(Chat.PROPOSE_NOTE));
    return out.toString();
  }

  private static void argument(StringBuilder out, String name, JsonNode value) {
    String label = TerminalText.visibleLine(name);
    if (value.isString()) {
      String text = value.asString();
      if (text.length() <= INLINE && text.indexOf('\n') < 0 && !text.isEmpty()) {
        field(out, label, TerminalText.visible(text));
      } else {
        field(
            out,
            label,
            text.getBytes(StandardCharsets.UTF_8).length + " bytes " + TerminalText.KEY);
        out.append(TerminalText.gutter(text));
      }
    } else {
      field(out, label, "(JSON) " + TerminalText.KEY);
      out.append(TerminalText.gutter(value.toString()));
    }
  }

  /** A proposal's content as {@code review} will show it: bytes, SHA-256, the text made inert. */
  private static void content(StringBuilder out, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    field(out, "bytes", Integer.toString(bytes.length));
    field(out, "sha256", sha256(bytes));
    field(out, "content", TerminalText.KEY);
    out.append(TerminalText.gutter(text));
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every JDK has SHA-256", e);
    }
  }

  /** Where a proposal would go, when this is our own server and the path is a plain name. */
  private void destination(StringBuilder out, String tool, JsonNode path) {
    if (root != null
        && Chat.PROPOSE_NOTE.equals(tool)
        && path != null
        && path.isString()
        && PLAIN_NAME.matcher(path.asString()).matches()) {
      field(
          out,
          "destination",
          TerminalText.visible(root.resolve(path.asString()).toString())
              + " (once approved, if the server's policy allows the name)");
    }
  }

  private String footer(String tool) {
    if (root == null || !Chat.PROPOSE_NOTE.equals(tool)) {
      return "Sending it lets the server act on it. This host approves nothing.\n";
    }
    if (proposals == null) {
      return "Sending it records a proposal; it approves nothing and writes no note. This chat's"
          + " server keeps proposals in memory only, so it is discarded when the chat ends:"
          + " start the chat with -proposals DIR to review it with 'notes-mcp review'.\n";
    }
    return "Sending it records a proposal; it approves nothing and writes no note. Approving stays"
        + " with you, in your terminal:\n  notes-mcp review -root "
        + Shell.word(root.toString())
        + " -proposals "
        + Shell.word(proposals.toString())
        + "\n";
  }

  private static void field(StringBuilder out, String name, String value) {
    out.append("  ").append(String.format("%-13s", name)).append(value).append('\n');
  }
}

package notesmcp.app;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import notesmcp.cli.ControllingTerminal;
import notesmcp.cli.ExitCode;
import notesmcp.files.ChangeRule;
import notesmcp.policy.proposals.AuditLog;
import notesmcp.policy.proposals.ProposalDirectory;
import notesmcp.policy.proposals.Recorded;
import notesmcp.policy.proposals.Recorded.Valid;
import notesmcp.policy.review.Approvals;
import notesmcp.policy.review.Approvals.Decision;
import notesmcp.policy.review.ProposalView;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.vault.Workspace;
import notesmcp.text.TerminalText;

/**
 * {@code notes-mcp review -root W -proposals DIR [-policy FILE] [--approve ID --sha256 HEX |
 * --reject ID | --undo ID]}: the trusted approval path, run by a person in their own terminal,
 * outside MCP (docs/approvals.md, "Review, outside MCP"). It first completes any interrupted
 * commit, then:
 *
 * <ul>
 *   <li>with {@code --approve ID --sha256 HEX}: approves that proposal, bound to those bytes;
 *   <li>with {@code --reject ID}: rejects it;
 *   <li>with a controlling terminal: shows each pending proposal there and asks; "only the word
 *       {@code yes} approves; {@code reject} rejects; anything else ... skips";
 *   <li>without one: lists the pending proposals on stdout and approves nothing.
 * </ul>
 *
 * It is the terminal's face of {@link Approvals}; the other is the review page of the HTTP server
 * (module notes-web, docs/review-page.md). The server's MCP side never builds one.
 */
final class ReviewCommand {
  private ReviewCommand() {}

  static ExitCode run(
      Options options,
      PrintStream out,
      PrintStream err,
      Supplier<Optional<ControllingTerminal>> terminal,
      Seams seams) {
    Approvals approvals;
    try {
      approvals = open(options, err, seams);
    } catch (StartUp.Failed failed) {
      return failed.code();
    }
    try {
      for (String line : approvals.recover()) {
        err.println("notes-mcp: " + line);
      }
      return review(approvals, options, out, err, terminal);
    } catch (IOException e) {
      err.println(
          "notes-mcp: review failed ("
              + describe(e)
              + "); a crash-safe step may be half done: run review again to complete it");
      return ExitCode.IO_FAILURE;
    }
  }

  /**
   * The approval path over the folders the options name, after saying why not if it cannot be had.
   * Nothing is created before both folders are checked (docs/behaviour.md, "Limits").
   */
  private static Approvals open(Options options, PrintStream err, Seams seams)
      throws StartUp.Failed {
    StartUp start = StartUp.forReview(err);
    start.library();
    Policy policy = options.policyFile() == null ? null : start.policy(options.policyFile());
    Workspace workspace = start.workspace(options.root(), seams.readRule(ChangeRule.ofSystem()));
    ProposalDirectory directory = start.proposals(options.proposals(), workspace);
    return new Approvals(
        workspace, directory, Clock.systemUTC(), err, seams.checkpoints(err), policy);
  }

  private static ExitCode review(
      Approvals approvals,
      Options options,
      PrintStream out,
      PrintStream err,
      Supplier<Optional<ControllingTerminal>> terminal)
      throws IOException {
    if (options.approve() != null) {
      return report(approvals.approve(options.approve(), options.sha256()), out, err);
    }
    if (options.reject() != null) {
      return report(approvals.reject(options.reject()), out, err);
    }
    if (options.undo() != null) {
      return report(approvals.undo(options.undo()), out, err);
    }
    if (options.log()) {
      return printLog(approvals, options, out, err);
    }
    List<Recorded> pending = approvals.pending();
    Optional<ControllingTerminal> tty = terminal.get();
    if (tty.isEmpty()) {
      return list(pending, approvals, options, out, err);
    }
    try (ControllingTerminal person = tty.get()) {
      return ask(pending, approvals, person);
    }
  }

  private static ExitCode report(Decision decision, PrintStream out, PrintStream err) {
    if (decision instanceof Approvals.Done) {
      out.println(decision.message());
      return ExitCode.OK;
    }
    err.println("notes-mcp: refused: " + decision.message());
    return ExitCode.REFUSED;
  }

  /**
   * "Without a terminal, review lists each pending proposal (id, destination, byte length, SHA-256)
   * and approves nothing" (docs/approvals.md).
   */
  private static ExitCode list(
      List<Recorded> pending,
      Approvals approvals,
      Options options,
      PrintStream out,
      PrintStream err) {
    for (Recorded entry : pending) {
      String disallowed = disallowed(entry, approvals);
      out.print(view(entry, approvals, disallowed));
      out.println(
          "  "
              + String.format(
                  "%-13s",
                  entry instanceof Valid && disallowed == null ? "approve with" : "reject with")
              + command(entry, options, disallowed));
      out.println();
    }
    out.flush();
    if (pending.isEmpty()) {
      err.println("notes-mcp: no pending proposals in " + options.proposals());
    } else {
      err.println(
          "notes-mcp: "
              + pending.size()
              + " pending; no terminal, so nothing was approved. Run review in a terminal, or"
              + " approve one with --approve ID --sha256 HEX.");
    }
    return ExitCode.OK;
  }

  /** Why the policy review was given does not allow a valid entry now, or null. */
  private static String disallowed(Recorded entry, Approvals approvals) {
    return entry instanceof Valid ? approvals.disallowed(((Valid) entry).proposal()) : null;
  }

  private static String view(Recorded entry, Approvals approvals, String disallowed) {
    return disallowed == null
        ? ProposalView.render(entry, destination(entry, approvals))
        : ProposalView.render(entry, destination(entry, approvals), disallowed);
  }

  private static String command(Recorded entry, Options options, String disallowed) {
    String base =
        "notes-mcp review -root "
            + TerminalText.visible(options.root().toString())
            + " -proposals "
            + TerminalText.visible(options.proposals().toString())
            + (options.policyFile() == null
                ? ""
                : " -policy " + TerminalText.visible(options.policyFile().toString()));
    if (entry instanceof Valid && disallowed == null) {
      return base + " --approve " + entry.id() + " --sha256 " + ((Valid) entry).proposal().sha256();
    }
    return base + " --reject " + entry.id();
  }

  /** Asks about each proposal on the terminal; stops early if the terminal ends (Ctrl-D). */
  private static ExitCode ask(
      List<Recorded> pending, Approvals approvals, ControllingTerminal person) throws IOException {
    PrintStream screen = person.out();
    if (pending.isEmpty()) {
      screen.println("No pending proposals.");
      return ExitCode.OK;
    }
    ExitCode result = ExitCode.OK;
    for (Recorded entry : pending) {
      screen.println();
      String disallowed = disallowed(entry, approvals);
      screen.print(view(entry, approvals, disallowed));
      String answer = person.ask(prompt(entry, approvals, disallowed));
      if (answer == null) {
        screen.println();
        break;
      }
      Decision decision = decide(answer.strip(), entry, approvals, disallowed);
      if (decision == null) {
        screen.println("Skipped; " + entry.id() + " is still pending.");
      } else {
        screen.println(
            (decision instanceof Approvals.Done ? "" : "Refused: ") + decision.message());
        if (decision instanceof Approvals.Refused) {
          result = ExitCode.REFUSED;
        }
      }
    }
    return result;
  }

  private static String prompt(Recorded entry, Approvals approvals, String disallowed) {
    if (entry instanceof Valid && disallowed != null) {
      return "Type reject to reject this proposal, anything else to skip: ";
    }
    if (entry instanceof Valid && ((Valid) entry).proposal().isEdit()) {
      return "Type yes to change "
          + TerminalText.visible(destination(entry, approvals).toString())
          + " to exactly the new text shown, reject to reject it, anything else to skip: ";
    }
    if (entry instanceof Valid) {
      return "Type yes to create "
          + TerminalText.visible(destination(entry, approvals).toString())
          + " with exactly these bytes, reject to reject it, anything else to skip: ";
    }
    return "Type reject to reject this damaged proposal, anything else to skip: ";
  }

  /**
   * The decision an answer asks for, or null to skip. The approval carries the SHA-256 of the bytes
   * just shown, so it is bound to them: if the record changed since, it is refused.
   */
  private static Decision decide(
      String answer, Recorded entry, Approvals approvals, String disallowed) throws IOException {
    if (answer.equals("yes") && entry instanceof Valid && disallowed == null) {
      return approvals.approve(entry.id(), ((Valid) entry).proposal().sha256());
    }
    if (answer.equals("reject")) {
      return approvals.reject(entry.id());
    }
    return null;
  }

  /**
   * {@code --log}: every line of the audit trail in the visible form, then whether its chain is
   * intact (exit 0) or where it breaks (exit 1); torn lines are named and are no break. A log that
   * is not a regular file of this user's is refused, unread (exit 1).
   */
  private static ExitCode printLog(
      Approvals approvals, Options options, PrintStream out, PrintStream err) {
    AuditLog.Check check;
    try {
      check = approvals.printLog(out);
    } catch (IOException e) {
      out.flush();
      err.println(
          "notes-mcp: the audit log in "
              + options.proposals()
              + " cannot be read ("
              + describe(e)
              + "); it was not checked");
      return ExitCode.REFUSED;
    }
    out.flush();
    if (check.tornLines() != null) {
      err.println("notes-mcp: " + check.tornLines());
    }
    err.println("notes-mcp: " + check.verdict());
    return check.intact() ? ExitCode.OK : ExitCode.REFUSED;
  }

  private static Path destination(Recorded entry, Approvals approvals) {
    return entry instanceof Valid ? approvals.fileOf(((Valid) entry).proposal()) : null;
  }

  /** A failed file operation in words, naming the file when there is one; no class names. */
  private static String describe(IOException e) {
    return StartUp.problemWithFile(e);
  }
}

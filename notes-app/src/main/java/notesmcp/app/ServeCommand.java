package notesmcp.app;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import notesmcp.cli.ExitCode;
import notesmcp.cli.Version;
import notesmcp.files.ChangeRule;
import notesmcp.mcp.Protocol;
import notesmcp.mcp.Protocol.Implementation;
import notesmcp.mcp.server.Core;
import notesmcp.mcp.server.Server;
import notesmcp.policy.proposals.ProposalDirectory;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.tools.NoteAccess;
import notesmcp.policy.vault.Workspace;
import notesmcp.text.JsonInput;
import notesmcp.text.TerminalText;

/**
 * {@code notes-mcp -serve}: the notes policy as an MCP server on stdin and stdout, until stdin
 * closes (exit 0) or SIGTERM (the JVM's 143); with {@code -http}, the same server core over
 * Streamable HTTP until SIGTERM or SIGINT (exit 0; {@link HttpServe}). See {@code
 * mcp-stdio/CONCURRENCY.md} for the threads and the shutdown paths.
 */
final class ServeCommand {
  /**
   * How long the SIGTERM hook waits for replies already made to be written: a stdout nobody reads
   * must not keep the process past its second ({@code docs/behaviour.md}, "Limits").
   */
  private static final Duration FLUSH_ON_SIGTERM = Duration.ofMillis(250);

  private ServeCommand() {}

  /**
   * What a server under a policy file does in the background as it starts, after the catalog's
   * first enumeration; never under the default policy, whose notes are at most 2 KiB and which
   * offers no search. First it links the word view of the byte loops ({@code
   * JsonInput.ByteRuns.link}): some milliseconds, once per process, that the first answer of 4 KiB
   * or more (a long note's page, a listing page) would otherwise wait for. Then, when the policy
   * offers search, it makes the search engine ready ahead of the first search ({@link
   * NoteAccess#prepareSearch}): a kept index opened, searched once and looked over for what changed
   * since, or, when none is kept, its build started in a child process (docs/behaviour.md,
   * "search_notes").
   */
  private static final class InBackground implements Runnable {
    private final NoteAccess notes;

    InBackground(NoteAccess notes) {
      this.notes = notes;
    }

    @Override
    public void run() {
      JsonInput.ByteRuns.link();
      notes.prepareSearch();
    }
  }

  static ExitCode run(
      Options options, InputStream in, OutputStream out, PrintStream err, Seams seams) {
    StartUp start = StartUp.of(err);
    Policy policy;
    Workspace workspace;
    ProposalDirectory proposals;
    HttpServe http = null;
    ProposalNotices notices;
    int maxCalls;
    try {
      start.library();
      policy =
          options.policyFile() == null ? Policy.defaults() : start.policy(options.policyFile());
      if (options.maxCalls() != null) {
        policy = policy.withMaxCalls(options.maxCalls());
      }
      maxCalls = policy.maxCalls();
      if (options.http() != null) {
        // Checked before anything is made on disk, as every option is.
        http = HttpServe.prepare(options.http(), options.proposals(), err);
        // Over HTTP the budget is per caller and rolling hour, kept by the transport.
        policy = policy.withMaxCalls(Integer.MAX_VALUE);
      }
      notices =
          ProposalNotices.prepare(
              options.notifyCommand(), reviewCommand(options), System.getenv(), err);
      workspace = start.workspace(options.root(), seams.readRule(ChangeRule.ofSystem()));
      if (policy.search()) {
        start.searchCacheOutside(workspace, System.getenv());
      }
      proposals =
          options.proposals() == null ? null : start.proposals(options.proposals(), workspace);
    } catch (StartUp.Failed failed) {
      return failed.code();
    } catch (HttpServe.Unusable e) {
      err.println("notes-mcp: " + e.getMessage());
      return ExitCode.USAGE;
    } catch (ProposalNotices.Unusable e) {
      err.println("notes-mcp: " + e.getMessage());
      return ExitCode.USAGE;
    }
    NoteAccess notes = new NoteAccess(policy, workspace, Clock.systemUTC(), proposals, err, true);
    if (options.policyFile() != null && !policy.namesNotes()) {
      // The tools that know the notes' structure (docs/knowledge.md): with a policy file of
      // patterns only, so the default's three notes and a first-format file's flat names (which
      // have no structure to offer) keep their tools and answers as they were.
      notes = notes.withStructure();
    }
    if (policy.search()) {
      // The engine's module is loaded in the background once the catalog is enumerated
      // (InBackground; SearchModule); a first-ever index is built by this program's index mode in
      // a child JVM.
      notes = notes.withSearch(seams.search(new SearchModule(err, options)));
    }
    notes.tell(notices);
    // While the rest starts and the client says hello, not on its first call.
    notes
        .catalog()
        .enumerateInBackground(options.policyFile() == null ? null : new InBackground(notes));
    notes.readStructureInBackground();
    Server.Options serverOptions =
        Server.Options.defaults(
            new Implementation("notes-mcp", Version.VALUE), notes.instructions());
    Core core =
        new Core(
            seams.tools(new NoteTools(notes)),
            new NoteResources(notes),
            serverOptions.info(),
            serverOptions.instructions(),
            err);
    // A read that waits out a note's change margin lets the requests behind it be read meanwhile.
    Workspace.beforeEachWait(
        new Runnable() {
          @Override
          public void run() {
            Server.aboutToWait();
          }
        });
    err.println(
        "notes-mcp "
            + Version.VALUE
            + ": serving "
            + workspace.root()
            + (http == null ? " on stdio" : " over HTTP")
            + " (MCP "
            + Protocol.MODERN
            + "; "
            + String.join(", ", Protocol.LEGACY)
            + " after initialize);"
            + " readable "
            + policy.readable()
            + (policy.exclude().isEmpty() ? "" : ", exclude " + policy.exclude())
            + ", proposable "
            + policy.proposable()
            + ", "
            + (http == null
                ? policy.maxCalls() + " tool calls"
                : maxCalls + " calls a caller an hour")
            + "; proposals "
            + (proposals == null
                ? "in memory (discarded on exit)"
                : "kept in " + proposals.path() + " for 'notes-mcp review'"));
    String limitation = workspace.mountLimitation();
    if (limitation != null) {
      err.println("notes-mcp: " + limitation);
    }
    if (http != null) {
      NoteAccess serving = notes;
      return http.serve(
          core,
          maxCalls,
          new HttpServe.Owner(workspace, proposals, policy, notices),
          new Runnable() {
            @Override
            public void run() {
              serving.finishAuditLog();
            }
          },
          err);
    }
    Server server = new Server(core, serverOptions, err);
    // SIGTERM: replies already made get a bounded moment to leave; the hook never writes itself,
    // so a stdout nobody reads cannot hold the exit.
    Thread flushOnSignal =
        new Thread("notes-mcp shutdown") {
          @Override
          public void run() {
            if (!server.awaitRepliesWritten(FLUSH_ON_SIGTERM)) {
              err.println("notes-mcp: terminated with replies not written (stdout is not read)");
            }
          }
        };
    Runtime.getRuntime().addShutdownHook(flushOnSignal);
    try {
      server.serve(in, out);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(flushOnSignal);
      } catch (IllegalStateException e) {
        // the JVM is already shutting down (SIGTERM came as stdin closed): the hook runs anyway
      }
    }
    notes.finishAuditLog();
    if (notes.pending() != null) {
      err.println(
          "notes-mcp: discarding pending proposal "
              + notes.pending().id()
              + " (nothing was written; use -proposals DIR to keep proposals for review)");
    }
    return ExitCode.OK;
  }

  /** What a person runs to review this server's proposals in a terminal, for its stderr. */
  private static String reviewCommand(Options options) {
    return "notes-mcp review -root "
        + TerminalText.visibleLine(options.root().toString())
        + " -proposals "
        + (options.proposals() == null
            ? "DIR"
            : TerminalText.visibleLine(options.proposals().toString()))
        + (options.policyFile() == null
            ? ""
            : " -policy " + TerminalText.visibleLine(options.policyFile().toString()));
  }
}

package notesmcp.app;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.Map;
import notesmcp.cli.ExitCode;
import notesmcp.files.ChangeRule;
import notesmcp.files.FileProblem;
import notesmcp.files.PlannedFolder;
import notesmcp.files.Posix;
import notesmcp.policy.proposals.ProposalDirectory;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.rules.PolicyFile;
import notesmcp.policy.tools.NoteSearch;
import notesmcp.policy.vault.Workspace;

/**
 * What the commands that open the notes ({@code -serve}, {@code review}, {@code index}, {@code
 * config}) open first, and the one way each failure to start is said on stderr (docs/behaviour.md,
 * "Command line"): the native library missing or damaged, exit 4 ("cannot start": the program's
 * fault, never the folder's); the policy file or the proposals folder refused, exit 2, with their
 * own message; the root not a usable folder, exit 2. Nothing is created before what comes before it
 * is checked: a command asks in the order it needs. Not thread-safe: one command's thread.
 */
final class StartUp {
  private final PrintStream err;
  private final boolean namesTheFile;

  private StartUp(PrintStream err, boolean namesTheFile) {
    this.err = err;
    this.namesTheFile = namesTheFile;
  }

  /** The start-up of a server, the index and config: a root's problem in words alone. */
  static StartUp of(PrintStream err) {
    return new StartUp(err, false);
  }

  /**
   * The start-up of review, for a person at a terminal: a root's problem names the file the system
   * refused as well ("no such file or folder: /home/me/notes").
   */
  static StartUp forReview(PrintStream err) {
    return new StartUp(err, true);
  }

  /** Starting failed; what was wrong is said already. */
  static final class Failed extends Exception {
    private static final long serialVersionUID = 1L;
    private final ExitCode code;

    private Failed(ExitCode code) {
      super(null, null, false, false);
      this.code = code;
    }

    /** The exit code the command ends with. */
    ExitCode code() {
      return code;
    }
  }

  /** Starting failed for a reason the caller has said itself. */
  static Failed failed(ExitCode code) {
    return new Failed(code);
  }

  /** Returns normally when the native library is loaded; else says why (exit 4). */
  void library() throws Failed {
    try {
      Posix.require();
    } catch (Posix.Unavailable e) {
      throw cannotStart(e);
    }
  }

  /** The policy file at {@code file}, loaded as a trusted file. */
  Policy policy(Path file) throws Failed {
    try {
      return PolicyFile.load(file);
    } catch (PolicyFile.Invalid e) {
      err.println("notes-mcp: " + e.getMessage());
      throw new Failed(ExitCode.USAGE);
    }
  }

  /** The workspace at {@code root}, opened under {@code rule}. */
  Workspace workspace(Path root, ChangeRule rule) throws Failed {
    try {
      return Workspace.at(root, rule);
    } catch (Posix.Unavailable e) {
      throw cannotStart(e);
    } catch (IOException e) {
      throw notUsable(root, e);
    }
  }

  /** Says that {@code root} is not a usable folder, and why (exit 2). */
  Failed notUsable(Path root, IOException e) {
    err.println(
        "notes-mcp: -root "
            + root
            + ": not a usable folder ("
            + (namesTheFile ? problemWithFile(e) : problem(e))
            + ")");
    return new Failed(ExitCode.USAGE);
  }

  /**
   * Refuses (exit 2) a cache folder for {@code search_notes}' kept index ({@link
   * NoteSearch#cacheFolder}) that is, or would be once made, inside {@code workspace}: the index
   * written there would be written into the notes. Decided on its real path, as the proposals
   * folder's is, before anything is made; a cache folder that cannot be resolved is left to the
   * engine, which then keeps the index in memory and says why.
   */
  void searchCacheOutside(Workspace workspace, Map<String, String> environment) throws Failed {
    Path cache = NoteSearch.cacheFolder(environment);
    if (cache == null) {
      return;
    }
    Path real;
    try {
      real = PlannedFolder.realPathOf(cache);
    } catch (IOException e) {
      return;
    }
    if (real.startsWith(workspace.root())) {
      err.println(
          "notes-mcp: the search index's cache folder "
              + cache
              + " is inside the workspace "
              + workspace.root()
              + (real.equals(cache) ? "" : " (as " + real + ")")
              + ": search_notes would write its index into the notes; set XDG_CACHE_HOME to a"
              + " folder outside it");
      throw new Failed(ExitCode.USAGE);
    }
  }

  /** The proposals folder at {@code dir}, made if missing, outside {@code workspace}. */
  ProposalDirectory proposals(Path dir, Workspace workspace) throws Failed {
    try {
      return ProposalDirectory.open(dir, workspace);
    } catch (ProposalDirectory.Unusable e) {
      err.println("notes-mcp: " + e.getMessage());
      throw new Failed(ExitCode.USAGE);
    } catch (Posix.Unavailable e) {
      throw cannotStart(e);
    }
  }

  /**
   * "An executable that cannot start fails loudly" (docs/behaviour.md, "Command line"); never a
   * fallback.
   */
  private Failed cannotStart(Posix.Unavailable e) {
    err.println("notes-mcp: cannot start: " + e.getMessage());
    return new Failed(ExitCode.CANNOT_START);
  }

  /**
   * A file's problem in words ("no such file or folder"), without Java's class names; a problem the
   * program words itself (a refused root) as it is.
   */
  static String problem(IOException e) {
    return e instanceof FileSystemException || e.getMessage() == null
        ? FileProblem.describe(e)
        : e.getMessage();
  }

  /** As {@link #problem}, naming the file the system refused when it names one. */
  static String problemWithFile(IOException e) {
    if (e instanceof FileSystemException && ((FileSystemException) e).getFile() != null) {
      return FileProblem.describe(e) + ": " + ((FileSystemException) e).getFile();
    }
    return e.getMessage() == null ? FileProblem.describe(e) : e.getMessage();
  }
}

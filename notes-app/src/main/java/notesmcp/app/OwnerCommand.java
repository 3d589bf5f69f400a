package notesmcp.app;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import notesmcp.cli.ExitCode;
import notesmcp.cli.Flag;
import notesmcp.cli.UsageException;
import notesmcp.files.ChangeRule;

/**
 * {@code notes-mcp owner passphrase|link|grants|revoke CLIENT} with the server's own flags ({@code
 * -root W -policy P -proposals D -issuer URL}; docs/oauth.md, "The owner's commands"): the OAuth
 * state lives in {@code D/oauth/}, so {@code -proposals} finds it; {@code -root}, when given, is
 * checked as the server checks it (the proposals folder must be outside the workspace); {@code
 * -policy} is taken so that a server's command line can be pasted, and not read. The work itself is
 * module notes-web's, loaded from the HTTP folder ({@link HttpModule#owner}).
 */
final class OwnerCommand {
  static final String WORD = "owner";

  private static final Set<String> ACTIONS = Set.of("passphrase", "link", "grants", "revoke");
  private static final Set<String> VALUED =
      Set.of("root", "policy", "proposals", "issuer", "resource");

  private OwnerCommand() {}

  static int run(String[] args, PrintStream out, PrintStream err) {
    try {
      return command(args, out, err).code;
    } catch (UsageException e) {
      err.println("notes-mcp: " + e.getMessage());
      err.println(
          "Usage: notes-mcp owner passphrase|link|grants|revoke CLIENT -proposals DIR"
              + " [-root W] [-policy P] [-issuer URL] (the server's own flags)");
      return ExitCode.USAGE.code;
    }
  }

  private static ExitCode command(String[] args, PrintStream out, PrintStream err)
      throws UsageException {
    List<String> words = List.of(args);
    if (words.isEmpty() || !ACTIONS.contains(words.get(0))) {
      throw new UsageException("owner needs passphrase, link, grants or revoke");
    }
    String action = words.get(0);
    Map<String, String> settings = new HashMap<>();
    Path root = null;
    Path proposals = null;
    String client = null;
    for (int i = 1; i < words.size(); i++) {
      String word = words.get(i);
      if (!word.startsWith("-") && client == null && action.equals("revoke")) {
        client = word;
        continue;
      }
      Flag flag = Flag.read(words, i, Set.of(), VALUED, " for owner");
      i += flag.words - 1;
      switch (flag.name) {
        case "root" -> root = flag.path();
        case "proposals" -> proposals = flag.path();
        case "policy" -> {
          // taken so that the server's flags can be pasted; the policy says nothing of owners
        }
        default -> settings.put(flag.name, flag.value);
      }
    }
    if (proposals == null) {
      throw new UsageException(
          "owner " + action + " needs -proposals DIR, the server's (its OAuth state is in oauth/)");
    }
    if (action.equals("revoke") && client == null) {
      throw new UsageException("owner revoke needs CLIENT: a client id or a grant id");
    }
    if (client != null) {
      settings.put("client", client);
    }
    StartUp start = StartUp.of(err);
    try {
      start.library();
      if (root != null) {
        start.proposals(proposals, start.workspace(root, ChangeRule.ofSystem()));
      }
    } catch (StartUp.Failed failed) {
      return failed.code();
    }
    settings.put("proposals", proposals.toString());
    try {
      int code = HttpModule.owner(action, settings, out, err);
      for (ExitCode known : ExitCode.values()) {
        if (known.code == code) {
          return known;
        }
      }
      return ExitCode.IO_FAILURE;
    } catch (HttpModule.Unavailable e) {
      err.println("notes-mcp: cannot start: " + e.getMessage());
      return ExitCode.CANNOT_START;
    }
  }
}

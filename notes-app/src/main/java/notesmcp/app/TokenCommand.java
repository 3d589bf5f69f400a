package notesmcp.app;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import notesmcp.cli.ExitCode;
import notesmcp.cli.Flag;
import notesmcp.cli.UsageException;
import notesmcp.files.OwnFile;
import notesmcp.files.Posix;

/**
 * {@code notes-mcp token add NAME -tokens FILE [-scope read|propose]}, {@code token list -tokens
 * FILE}, {@code token revoke NAME -tokens FILE}: the HTTP server's tokens (docs/http.md, "Tokens").
 * {@code add} prints the new token once, alone on stdout (its last line), and keeps only its hash;
 * {@code list} prints names, scopes and when each was made, never a hash; {@code revoke} removes
 * one, and a server using the file refuses it from its next request on. Every change takes {@code
 * FILE.lock} (owner-only) while it reads, changes and replaces the file, so two changes at once do
 * not lose one another.
 */
final class TokenCommand {
  static final String WORD = "token";

  private static final Set<String> VALUED = Set.of("tokens", "scope");

  private TokenCommand() {}

  static int run(String[] args, PrintStream out, PrintStream err) {
    try {
      return command(args, out, err).code;
    } catch (UsageException e) {
      err.println("notes-mcp: " + e.getMessage());
      err.println(
          "Usage: notes-mcp token add NAME -tokens FILE [-scope read|propose]"
              + " | token list -tokens FILE | token revoke NAME -tokens FILE");
      return ExitCode.USAGE.code;
    }
  }

  private static ExitCode command(String[] args, PrintStream out, PrintStream err)
      throws UsageException {
    List<String> words = List.of(args);
    if (words.isEmpty()) {
      throw new UsageException("token needs add, list or revoke");
    }
    String action = words.get(0);
    String name = null;
    Path file = null;
    String scope = null;
    for (int i = 1; i < words.size(); i++) {
      String word = words.get(i);
      if (!word.startsWith("-") && name == null) {
        name = word;
        continue;
      }
      Flag flag = Flag.read(words, i, Set.of(), VALUED, " for token");
      i += flag.words - 1;
      if (flag.name.equals("tokens")) {
        file = flag.path();
      } else {
        scope = flag.value;
      }
    }
    if (file == null) {
      throw new UsageException("token " + action + " needs -tokens FILE");
    }
    switch (action) {
      case "add":
        if (name == null || !name.matches(TokenFile.NAME_RULE)) {
          throw new UsageException(
              "token add needs a NAME of 1 to 64 letters, digits, '.', '-' or '_'");
        }
        if (scope == null) {
          scope = "read";
        }
        if (!scope.equals("read") && !scope.equals("propose")) {
          throw new UsageException("-scope takes read or propose, not \"" + scope + "\"");
        }
        return add(file, name, scope, out, err);
      case "list":
        if (name != null || scope != null) {
          throw new UsageException("token list takes -tokens FILE only");
        }
        return list(file, out, err);
      case "revoke":
        if (name == null || scope != null) {
          throw new UsageException("token revoke needs NAME and -tokens FILE");
        }
        return revoke(file, name, err);
      default:
        throw new UsageException("token takes add, list or revoke, not \"" + action + "\"");
    }
  }

  /** What a change does to the entries: null when it made the change, else why not. */
  private interface Change {
    String apply(List<TokenFile.Entry> entries);
  }

  private static ExitCode add(
      Path file, String name, String scope, PrintStream out, PrintStream err) {
    String token = TokenFile.newToken();
    String sha256 = TokenFile.hex(TokenFile.digest(token));
    ExitCode code =
        change(
            file,
            true,
            entries -> {
              for (TokenFile.Entry entry : entries) {
                if (entry.name().equals(name)) {
                  return "there is a token named \"" + name + "\" already; revoke it first";
                }
              }
              entries.add(
                  new TokenFile.Entry(
                      name,
                      scope,
                      Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
                      sha256));
              return null;
            },
            err);
    if (code != ExitCode.OK) {
      return code;
    }
    err.println(
        "notes-mcp: token \""
            + name
            + "\" ("
            + scope
            + ") added to "
            + file
            + "; only its hash is kept, so copy it now: it is shown this once, on stdout");
    out.println(token);
    return ExitCode.OK;
  }

  private static ExitCode revoke(Path file, String name, PrintStream err) {
    ExitCode code =
        change(
            file,
            false,
            entries -> {
              boolean removed = entries.removeIf(entry -> entry.name().equals(name));
              return removed ? null : "there is no token named \"" + name + "\"";
            },
            err);
    if (code == ExitCode.OK) {
      err.println(
          "notes-mcp: token \""
              + name
              + "\" revoked; a server using "
              + file
              + " refuses it from its next request on");
    }
    return code;
  }

  private static ExitCode list(Path file, PrintStream out, PrintStream err) {
    List<TokenFile.Entry> entries;
    try {
      Posix.require();
      entries = TokenFile.read(file, false);
    } catch (IOException | TokenFile.Invalid e) {
      return unusable(file, e, err);
    }
    for (TokenFile.Entry entry : entries) {
      out.println(entry.name() + "\t" + entry.scope() + "\t" + entry.created());
    }
    return ExitCode.OK;
  }

  /** Reads, changes and replaces the file under its lock. */
  private static ExitCode change(Path file, boolean mayBeMissing, Change change, PrintStream err) {
    try {
      StartUp.of(err).library();
    } catch (StartUp.Failed failed) {
      return failed.code();
    }
    // The lock file beside it, opened as the program opens a file of its own: never through a
    // link, never waiting on a FIFO, a regular file of this user's (OwnFile); then locked through
    // a channel onto that very file.
    Path folder = file.toAbsolutePath().getParent();
    String lockName = file.getFileName() + ".lock";
    try (OwnFile lock = OwnFile.openToWrite(folder, lockName);
        FileChannel channel = FileChannel.open(lock.path(), StandardOpenOption.WRITE);
        FileLock held = channel.lock()) {
      assert held.isValid();
      List<TokenFile.Entry> entries = new ArrayList<>(TokenFile.read(file, mayBeMissing));
      String refused = change.apply(entries);
      if (refused != null) {
        err.println("notes-mcp: " + file + ": " + refused);
        return ExitCode.USAGE;
      }
      TokenFile.write(file, entries);
      // Read back as a server will: a file it would refuse is said now, before any token is shown.
      TokenFile.read(file, false);
      return ExitCode.OK;
    } catch (IOException | TokenFile.Invalid e) {
      return unusable(file, e, err);
    }
  }

  private static ExitCode unusable(Path file, Exception e, PrintStream err) {
    err.println(
        "notes-mcp: -tokens "
            + file
            + ": "
            + (e instanceof IOException ? StartUp.problem((IOException) e) : e.getMessage()));
    return ExitCode.USAGE;
  }
}

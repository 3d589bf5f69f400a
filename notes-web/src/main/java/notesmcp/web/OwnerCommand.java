package notesmcp.web;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import notesmcp.cli.ControllingTerminal;
import notesmcp.text.TerminalText;

/**
 * {@code notes-mcp owner passphrase|link|grants|revoke CLIENT} (docs/oauth.md, "The owner's
 * commands"): what the owner does on the server's machine. The program parses and checks the flags
 * (the server's own: {@code -root}, {@code -policy}, {@code -proposals}, {@code -issuer}) and calls
 * {@link #run} by reflection, from the plug-in's class loader.
 *
 * <ul>
 *   <li>{@code passphrase}: asks for a new passphrase twice on the controlling terminal, never
 *       echoed (never stdin, never an argument), and keeps only its slow hash;
 *   <li>{@code link}: prints a single-use sign-in URL, valid for 10 minutes, as its last stdout
 *       line; a running server takes it;
 *   <li>{@code grants}: lists the grants, one a line: grant id, client id, scopes, last used, name;
 *   <li>{@code revoke CLIENT}: revokes every grant of client id CLIENT, or the grant of that id; a
 *       running server refuses their access tokens from its next request on.
 * </ul>
 */
public final class OwnerCommand {
  private static final int OK = 0;
  private static final int REFUSED = 1;
  private static final int USAGE = 2;
  private static final int IO_FAILURE = 5;

  private OwnerCommand() {}

  /**
   * Runs one action. {@code settings}: {@code proposals} (required), {@code issuer} or {@code
   * resource} (the server's public address, for {@code link}: the built-in server's issuer, or,
   * with an external one, this server's URL ending {@code /mcp}), {@code client} (for {@code
   * revoke}).
   *
   * @return the exit code
   */
  public static int run(
      String action, Map<String, String> settings, PrintStream out, PrintStream err) {
    Store store;
    try {
      store = Store.in(Path.of(settings.get("proposals")));
    } catch (Store.Unusable e) {
      err.println("notes-mcp: -proposals " + settings.get("proposals") + ": " + e.getMessage());
      return USAGE;
    }
    try {
      switch (action) {
        case "passphrase":
          return passphrase(store, err);
        case "link":
          String base;
          try {
            base = base(settings.get("issuer"), settings.get("resource"));
          } catch (IllegalArgumentException e) {
            err.println("notes-mcp: " + e.getMessage());
            return USAGE;
          }
          String url = SignInLinks.create(store, base, Instant.now());
          err.println(
              "notes-mcp: a sign-in link for the owner: open it in your browser (this device or"
                  + " your phone) within "
                  + SignInLinks.LIFETIME.toMinutes()
                  + " minutes; it works once. Anyone who has it can sign in as you until then.");
          out.println(url);
          return OK;
        case "grants":
          List<Grants.Grant> grants = Grants.read(store);
          for (Grants.Grant grant : grants) {
            out.println(
                grant.id()
                    + "\t"
                    + TerminalText.escaped(grant.clientId(), 200, false)
                    + "\t"
                    + grant.scope().replace(' ', ',')
                    + "\t"
                    + grant.lastUsed()
                    + "\t"
                    + TerminalText.escaped(grant.clientName(), 120, false));
          }
          if (grants.isEmpty()) {
            err.println("notes-mcp: no grants");
          }
          return OK;
        case "revoke":
          int revoked = new Grants(store, err).revokeClient(settings.get("client"));
          if (revoked == 0) {
            err.println(
                "notes-mcp: no grant of client or id "
                    + TerminalText.quoted(settings.get("client"), 200)
                    + " (see 'notes-mcp owner grants')");
            return REFUSED;
          }
          err.println(
              "notes-mcp: revoked "
                  + revoked
                  + (revoked == 1 ? " grant" : " grants")
                  + "; a running server refuses their tokens from its next request on");
          return OK;
        default:
          throw new IllegalArgumentException(action);
      }
    } catch (IOException e) {
      err.println("notes-mcp: " + e.getMessage());
      return IO_FAILURE;
    }
  }

  /** The server's public address, where its owner's pages are. */
  private static String base(String issuer, String resource) {
    if (resource != null) {
      if (!resource.endsWith("/mcp")) {
        throw new IllegalArgumentException(
            "-resource " + resource + ": this server's URL, ending in /mcp");
      }
      return Issuer.builtIn(resource.substring(0, resource.length() - 4), true).base();
    }
    if (issuer == null) {
      throw new IllegalArgumentException(
          "owner link needs -issuer URL, the server's public address (as the server was given"
              + " it, or http://127.0.0.1:PORT for a server on this machine)");
    }
    return Issuer.builtIn(issuer, true).base();
  }

  private static int passphrase(Store store, PrintStream err) throws IOException {
    Optional<ControllingTerminal> opened = ControllingTerminal.open();
    if (opened.isEmpty()) {
      err.println(
          "notes-mcp: owner passphrase asks on the terminal (/dev/tty), and this process has"
              + " none; run it in a terminal");
      return USAGE;
    }
    try (ControllingTerminal terminal = opened.get()) {
      String first;
      String second;
      if (!echo(false)) {
        err.println(
            "notes-mcp: cannot turn the terminal's echo off (stty); nothing asked, nothing changed");
        return USAGE;
      }
      try {
        first = terminal.ask("New passphrase for this server's owner (not shown): ");
        terminal.out().println();
        second = first == null ? null : terminal.ask("The same again: ");
        terminal.out().println();
      } finally {
        echo(true);
      }
      if (first == null || second == null) {
        err.println("notes-mcp: no passphrase typed; nothing changed");
        return USAGE;
      }
      char[] typed = first.toCharArray();
      try {
        if (!first.equals(second)) {
          err.println("notes-mcp: the two passphrases differ; nothing changed");
          return USAGE;
        }
        String problem = Passphrase.problem(typed);
        if (problem != null) {
          err.println("notes-mcp: " + problem + "; nothing changed");
          return USAGE;
        }
        Passphrase.write(store, Passphrase.hash(typed));
      } finally {
        Passphrase.clear(typed);
      }
    }
    err.println(
        "notes-mcp: the owner's passphrase is set (only a slow hash of it is kept, in "
            + store.dir().resolve(Passphrase.FILE)
            + "); sign in at the server's /owner page");
    return OK;
  }

  /** Turns the terminal's echo off or on ({@code stty}, on /dev/tty); whether it did. */
  private static boolean echo(boolean on) {
    try {
      Process stty =
          new ProcessBuilder("stty", on ? "echo" : "-echo")
              .redirectInput(new File("/dev/tty"))
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      return stty.waitFor(5, TimeUnit.SECONDS) && stty.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}

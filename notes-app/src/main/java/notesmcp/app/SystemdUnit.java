package notesmcp.app;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import notesmcp.cli.ExitCode;

/**
 * {@code notes-mcp config -host systemd -root W [-policy FILE] [-proposals DIR] -http HOST:PORT
 * -tokens FILE ...}: the systemd user unit that keeps {@code notes-mcp -serve -http} running
 * (docs/hosts.md, "Over HTTP"). Printed on stdout, or with {@code --install} written as a file of
 * its own, {@code notes-mcp.service} ({@code notes-mcp-NAME.service} with {@code --name}), into
 * {@code $XDG_CONFIG_HOME/systemd/user/}, with every promise of a host's entry ({@link
 * ConfigCommand#install}). Every flag is checked as {@code -serve -http} checks it, its files read
 * as the server reads them, and named by their real paths.
 *
 * <p>The unit holds no token: the server reads only the hashes in its {@code -tokens} file. Its
 * command line is written in systemd's own quoting ({@link #word}), and it names the Java runtime
 * config ran on ({@code JAVA_HOME}, which a checkout's launcher uses and an installed one, with its
 * own runtime, ignores), since a user manager's {@code PATH} is not the login shell's.
 */
final class SystemdUnit {
  /** The unit's name without {@code --name}. */
  static final String UNIT = "notes-mcp";

  private SystemdUnit() {}

  /**
   * Prints or installs the unit for {@code command} (the executable, {@code -serve -root W} and the
   * policy and proposals flags, as a host's entry has them), the HTTP flags added.
   */
  static ExitCode run(
      Options options,
      List<String> command,
      Map<String, String> env,
      PrintStream out,
      PrintStream err)
      throws StartUp.Failed {
    Options.Http http = options.http();
    List<String> words = new ArrayList<>(command);
    try {
      HttpServe.prepare(http, err);
      words.addAll(flags(options));
    } catch (HttpServe.Unusable e) {
      err.println("notes-mcp: " + e.getMessage());
      throw StartUp.failed(ExitCode.USAGE);
    } catch (IOException e) {
      err.println("notes-mcp: " + StartUp.problem(e));
      throw StartUp.failed(ExitCode.USAGE);
    }
    String text;
    try {
      text = text(words, Path.of(System.getProperty("java.home")), address(http));
    } catch (IllegalArgumentException e) {
      err.println("notes-mcp: " + e.getMessage());
      throw StartUp.failed(ExitCode.USAGE);
    }
    String unit = (options.name() == null ? UNIT : UNIT + "-" + options.name()) + ".service";
    if (!options.install()) {
      out.print(text);
      return ExitCode.OK;
    }
    Path home = Path.of(env.getOrDefault("HOME", System.getProperty("user.home")));
    String xdg = env.get("XDG_CONFIG_HOME");
    Path config =
        xdg == null || xdg.isEmpty() || !Path.of(xdg).isAbsolute()
            ? home.resolve(".config")
            : Path.of(xdg);
    Hosts.Edit edit =
        new Hosts.Edit(
            config.resolve("systemd/user").resolve(unit),
            Hosts.Kind.OWN,
            null,
            List.of(),
            unit,
            text,
            "the systemd user unit " + unit);
    return ConfigCommand.install(ConfigCommand.SYSTEMD, List.of(edit), options.replace(), err);
  }

  /** What to run once the unit is written, on stderr. */
  static void sayWhatNext(Path file, PrintStream err) {
    String unit = file.getFileName().toString();
    err.println(
        "notes-mcp: start it now and at every log-in with: systemctl --user daemon-reload &&"
            + " systemctl --user enable --now "
            + unit);
    err.println(
        "notes-mcp: to keep it running while you are logged out: loginctl enable-linger; its log:"
            + " journalctl --user -u "
            + unit);
  }

  /** {@code -http} and the flags that go with it, as {@code -serve} takes them, paths made real. */
  private static List<String> flags(Options options) throws IOException {
    Options.Http http = options.http();
    List<String> flags = new ArrayList<>(List.of("-http", address(http)));
    if (http.oauth()) {
      flags.addAll(List.of("-auth", "oauth"));
    } else if (!http.tokenAuth()) {
      flags.addAll(List.of("-auth", "none"));
    }
    if (http.tokens() != null) {
      flags.addAll(List.of("-tokens", http.tokens().toRealPath().toString()));
    }
    if (http.tlsCert() != null) {
      flags.addAll(List.of("-tls-cert", http.tlsCert().toRealPath().toString()));
      flags.addAll(List.of("-tls-key", http.tlsKey().toRealPath().toString()));
    }
    for (String allowed : http.allowedHosts()) {
      flags.addAll(List.of("-allowed-host", allowed));
    }
    if (http.maxProposals() != Options.Http.DEFAULT_MAX_PROPOSALS) {
      flags.addAll(List.of("-max-proposals", Integer.toString(http.maxProposals())));
    }
    if (options.maxCalls() != null) {
      flags.addAll(List.of("-max-calls", Integer.toString(options.maxCalls())));
    }
    if (http.issuer() != null) {
      flags.addAll(List.of("-issuer", http.issuer()));
    }
    if (http.jwks() != null) {
      flags.addAll(List.of("-jwks", http.jwks(), "-resource", http.resource()));
    }
    return flags;
  }

  /** {@code HOST:PORT}, an IPv6 address in brackets. */
  private static String address(Options.Http http) {
    String host = http.host().contains(":") ? "[" + http.host() + "]" : http.host();
    return host + ":" + http.port();
  }

  /**
   * The unit's text.
   *
   * @throws IllegalArgumentException when a word holds a character a unit file cannot carry
   */
  static String text(List<String> command, Path javaHome, String address) {
    StringBuilder exec = new StringBuilder();
    for (String word : command) {
      exec.append(exec.length() == 0 ? "" : " ").append(word(word, true));
    }
    return "# Written by 'notes-mcp config -host systemd'. It holds no token: the server checks each\n"
        + "# request against the hashes in its -tokens file.\n"
        + "[Unit]\n"
        + "Description=notes-mcp: MCP over HTTP on "
        + specifiers(visible(address))
        + "\n"
        + "After=network.target\n"
        + "\n"
        + "[Service]\n"
        + "Type=exec\n"
        + "ExecStart="
        + exec
        + "\n"
        + "Environment="
        + word("JAVA_HOME=" + javaHome, false)
        + "\n"
        + "# A usage error (a flag, a file, an address in use) is not mended by starting again.\n"
        + "Restart=on-failure\n"
        + "RestartSec=5\n"
        + "RestartPreventExitStatus=2\n"
        + "# SIGTERM stops it gracefully (open streams get their closing result) with exit 0.\n"
        + "TimeoutStopSec=30\n"
        + "NoNewPrivileges=yes\n"
        + "UMask=0077\n"
        + "\n"
        + "[Install]\n"
        + "WantedBy=default.target\n";
  }

  /**
   * One word as systemd reads it back (systemd.syntax, systemd.service "Command lines"): bare when
   * it holds only characters systemd gives no meaning, else in double quotes with {@code \} and
   * {@code "} escaped; {@code %} doubled everywhere (specifiers), and in a command line {@code $}
   * doubled (variables; {@code Environment=} expands none).
   *
   * @throws IllegalArgumentException for a control character (a unit file is lines)
   */
  static String word(String word, boolean command) {
    visible(word);
    if (!word.isEmpty() && word.matches("[A-Za-z0-9_./:@+,=-]+")) {
      return word;
    }
    String escaped = specifiers(word.replace("\\", "\\\\").replace("\"", "\\\""));
    if (command) {
      escaped = escaped.replace("$", "$$");
    }
    return "\"" + escaped + "\"";
  }

  private static String specifiers(String text) {
    return text.replace("%", "%%");
  }

  private static String visible(String word) {
    for (int i = 0; i < word.length(); i++) {
      char c = word.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        throw new IllegalArgumentException(
            "\""
                + word.replaceAll("\\p{Cntrl}", "?")
                + "\" holds a control character, which a unit file cannot carry");
      }
    }
    return word;
  }
}
